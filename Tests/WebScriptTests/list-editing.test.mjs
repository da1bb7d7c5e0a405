import assert from 'node:assert/strict';
import { test } from 'node:test';
import { continueList, indentListItems } from '../../Sources/NoteTakerWeb/Public/js/list-editing.js';
import { TextArea } from './text-area.mjs';

test('Enter continues lists, checklists and quotes, numbered on and unticked, in one edit', () => {
  const cases = [
    ['- milk|', '- milk\n- |'],
    ['* eggs|', '* eggs\n* |'],
    ['9. nine|', '9. nine\n10. |'],
    ['3) third|', '3) third\n4) |'],
    ['- [x] done|', '- [x] done\n- [ ] |'],
    ['  - nested|', '  - nested\n  - |'],
    ['> said|', '> said\n> |'],
    ['> > deeper|', '> > deeper\n> > |'],
    ['- split| here', '- split\n- | here'],
  ];
  for (const [before, after] of cases) {
    const area = new TextArea(before);
    assert.equal(continueList(area), true, before);
    assert.equal(area.marked, after, before);
    assert.equal(area.edits, 1, before);
  }
});

test('Enter on an empty item ends the list, leaving a blank line', () => {
  for (const [before, after] of [['- one\n- |', '- one\n\n|'], ['1. one\n2. |', '1. one\n\n|'], ['> |', '\n|']]) {
    const area = new TextArea(before);
    assert.equal(continueList(area), true);
    assert.equal(area.marked, after);
  }
});

test('Enter outside a list, inside its marker, or over a selection is left to the browser', () => {
  for (const marked of ['plain text|', '-|', '-| item', '1|. one', '[- one]', '# Heading|']) {
    const area = new TextArea(marked);
    assert.equal(continueList(area), false, marked);
    assert.equal(area.marked, marked, marked);
    assert.equal(area.edits, 0, marked);
  }
});

test('Tab indents list items by the width of the marker above; Shift+Tab outdents', () => {
  const cases = [
    ['- a\n- b|', false, '- a\n  - b|'],
    ['1. a\n2. b|', false, '1. a\n   2. b|'],
    ['- a\n  - b|', true, '- a\n- b|'],
    ['- a\n\t- b|', true, '- a\n- b|'],
    ['- a\n[- b\n- c]', false, '- a\n[  - b\n  - c]'],
  ];
  for (const [before, outdent, after] of cases) {
    const area = new TextArea(before);
    assert.equal(indentListItems(area, outdent), true, before);
    assert.equal(area.marked, after, before);
  }
});

test('Tab outside a list is left to the browser; Shift+Tab at the margin changes nothing', () => {
  const plain = new TextArea('some text|');
  assert.equal(indentListItems(plain, false), false);
  const margin = new TextArea('- a|');
  assert.equal(indentListItems(margin, true), true, 'taken, so focus does not leave the text');
  assert.equal(margin.marked, '- a|');
  assert.equal(margin.edits, 0);
});
