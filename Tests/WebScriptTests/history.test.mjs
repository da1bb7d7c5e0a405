import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeWords, deviceWords, titleDiff } from '../../Sources/NoteTakerWeb/Public/js/history.js';

// With no catalog loaded, t() answers the key: the tests read which words were chosen.
test('a version written here says so; one from elsewhere names its device; one that did not say is another device', () => {
  assert.equal(deviceWords({ thisDevice: true, device: 'kitchen-laptop' }), 'historyThisDevice');
  assert.equal(deviceWords({ thisDevice: false, device: 'Phone' }), 'historyOnDevice');
  assert.equal(deviceWords({ thisDevice: false, device: null }), 'historyUnknownDevice');
});

test('in a shared folder, a version another account wrote names the account, and its device when it said', () => {
  assert.equal(deviceWords({ thisDevice: false, device: "bob's laptop", author: 'bob' }), 'historyByAuthorOnDevice');
  assert.equal(deviceWords({ thisDevice: false, device: null, author: 'bob' }), 'historyByAuthor');
  assert.equal(deviceWords({ thisDevice: false, device: 'Phone', author: null }), 'historyOnDevice');
});

test('a version says what the next text changed in lines, or that the text stayed, or nothing when not counted', () => {
  assert.equal(changeWords({ linesAdded: 3, linesRemoved: 1 }), 'historyChangedLines');
  assert.equal(changeWords({ linesAdded: 0, linesRemoved: 0 }), 'historyNoTextChange');
  assert.equal(changeWords({ linesAdded: null, linesRemoved: null }), '');
});

test('the title shows as a change only when it differs from the note now', () => {
  assert.deepEqual(titleDiff({ title: 'Recipe', currentTitle: 'Bread' }),
    [{ kind: 'removed', text: 'Recipe' }, { kind: 'added', text: 'Bread' }]);
  assert.deepEqual(titleDiff({ title: 'Bread', currentTitle: 'Bread' }), []);
  assert.deepEqual(titleDiff({ title: '', currentTitle: 'Bread' }),
    [{ kind: 'removed', text: '' }, { kind: 'added', text: 'Bread' }]);
});
