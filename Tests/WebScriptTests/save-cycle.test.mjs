import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SaveCycle, baseOf } from '../../Sources/NoteTakerWeb/Public/js/save-cycle.js';

const note = (revision, title, body, status = 'synced') => ({ revision, title, body, tags: [], sync: { status } });

test('typing, saving and the answer: the base follows what the server last gave', () => {
  const cycle = new SaveCycle();
  cycle.open(note(1, 'Plans', 'one'));
  assert.equal(cycle.begin({ title: 'Plans', body: 'one' }), null, 'nothing typed, nothing sent');
  cycle.type();
  const sent = cycle.begin({ title: 'Plans', body: 'one two' });
  assert.deepEqual(sent, { title: 'Plans', body: 'one two', base: baseOf(note(1, 'Plans', 'one')) });
  assert.equal(cycle.settled, false, 'a save on its way is not settled');
  assert.equal(cycle.begin({ title: 'Plans', body: 'one two' }), null, 'one save at a time');
  assert.equal(cycle.saved(note(2, 'Plans', 'zero one two')), 'merged', 'the page shows what the server merged');
  assert.deepEqual(cycle.base, baseOf(note(2, 'Plans', 'zero one two')));
  assert.equal(cycle.settled, true);
});

test('typed on while saving: the fields stay, and the next save goes from what was sent', () => {
  const cycle = new SaveCycle();
  cycle.open(note(1, 'T', 'a'));
  cycle.type();
  cycle.begin({ title: 'T', body: 'ab' });
  cycle.type();
  assert.equal(cycle.saved(note(2, 'T', 'x ab')), 'typedOn');
  assert.deepEqual(cycle.base, { revision: 2, title: 'T', body: 'ab', tags: [] });
  assert.equal(cycle.edited, true);
  assert.deepEqual(cycle.begin({ title: 'T', body: 'abc' }).base.body, 'ab');
});

test('a conflict is shown only when nothing was typed since', () => {
  const cycle = new SaveCycle();
  cycle.open(note(1, 'T', 'a'));
  cycle.type();
  cycle.begin({ title: 'T', body: 'b' });
  assert.equal(cycle.saved(note(2, 'T', 'a', 'conflict')), 'conflict');
  cycle.type();
  cycle.begin({ title: 'T', body: 'c' });
  cycle.type();
  assert.equal(cycle.saved(note(3, 'T', 'c', 'conflict')), 'typedOn');
});

test('a failed save is edited again and keeps its base; what is unsaved goes with it', () => {
  const cycle = new SaveCycle();
  cycle.open(note(4, 'T', 'a'));
  cycle.type();
  cycle.begin({ title: 'T', body: 'ab' });
  cycle.failed();
  assert.equal(cycle.edited, true);
  assert.deepEqual(cycle.unsaved({ title: 'T', body: 'ab' }), { title: 'T', body: 'ab', base: baseOf(note(4, 'T', 'a')) });
  assert.equal(cycle.begin({ title: 'T', body: 'ab' }).base.revision, 4);
});

test('a note read again replaces the base only when settled; a change besides the text only when not typed on', () => {
  const cycle = new SaveCycle();
  cycle.open(note(1, 'T', 'a'));
  assert.equal(cycle.reread(note(2, 'T', 'from elsewhere')), true);
  assert.equal(cycle.base.revision, 2);
  cycle.type();
  assert.equal(cycle.reread(note(3, 'T', 'again')), false);
  assert.equal(cycle.base.revision, 2);
  cycle.changedBesides(note(4, 'T', 'again'));
  assert.equal(cycle.base.revision, 2, 'typed text keeps the base it was typed from');
  cycle.discard();
  assert.equal(cycle.unsaved({ title: 'T', body: '' }), null);
  cycle.changedBesides(note(5, 'T', ''));
  assert.equal(cycle.base.revision, 5);
});

test('a draft restored from this browser is an edit from the draft\'s own base', () => {
  const cycle = new SaveCycle();
  cycle.open(note(9, 'T', 'server text'));
  const draftBase = baseOf(note(7, 'T', 'older text'));
  cycle.type(draftBase);
  assert.deepEqual(cycle.begin({ title: 'T', body: 'draft text' }).base, draftBase);
});
