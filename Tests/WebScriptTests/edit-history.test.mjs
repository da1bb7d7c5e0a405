import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EditHistory } from '../../Sources/NoteTakerWeb/Public/js/edit-history.js';

const caret = (at) => ({ start: at, end: at });
const typed = (from, text, time) => ({ from, removed: '', inserted: text, before: caret(from), after: caret(from + text.length), kind: 'insertText', time });
const erased = (from, removed, time) => ({ from, removed, inserted: '', before: caret(from + removed.length), after: caret(from), kind: 'deleteContentBackward', time });

test('typing gathers into one step per word; a pause or another kind of edit starts a new one', () => {
  const history = new EditHistory();
  'hello'.split('').forEach((letter, index) => history.record(typed(index, letter, index * 100)));
  history.record(typed(5, ' ', 600));
  history.record(typed(6, 'w', 700));
  history.record(typed(7, 'o', 2000));
  assert.deepEqual(history.done.map((step) => step.inserted), ['hello ', 'w', 'o']);
  history.record({ ...typed(0, '## ', 2100), kind: 'insertFromToolbar' });
  history.record({ ...typed(3, 'x', 2150), kind: 'insertFromToolbar' });
  assert.equal(history.done.length, 5, 'toolbar edits are steps of their own');
});

test('deleting backwards gathers into one step per run', () => {
  const history = new EditHistory();
  history.record(erased(4, 'e', 0));
  history.record(erased(3, 'm', 100));
  history.record(erased(2, 'o', 200));
  assert.deepEqual(history.done.map(({ from, removed }) => ({ from, removed })), [{ from: 2, removed: 'ome' }]);
});

test('undo and redo move steps between the lists; a redone step gathers nothing; a new edit clears redo', () => {
  const history = new EditHistory();
  history.record(typed(0, 'a', 0));
  history.record(typed(1, 'b', 100));
  const step = history.undo();
  assert.equal(step.inserted, 'ab');
  assert.equal(history.undo(), null);
  assert.equal(history.redo().inserted, 'ab');
  history.record(typed(2, 'c', 150));
  assert.deepEqual(history.done.map((entry) => entry.inserted), ['ab', 'c']);
  history.undo();
  history.record(typed(2, 'd', 200));
  assert.equal(history.redo(), null, 'an edit after undo forgets what was undone');
});

test('the history keeps the last 1,000 steps', () => {
  const history = new EditHistory();
  for (let index = 0; index < 1005; index += 1) history.record({ ...typed(index, 'x', index * 2000), kind: 'insertFromPaste' });
  assert.equal(history.done.length, 1000);
  assert.equal(history.done[0].from, 5);
});
