import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shortcutText, toolForEvent, tools } from '../../Sources/NoteTakerWeb/Public/js/markdown-tools.js';
import { TextArea } from './text-area.mjs';

const tool = (id) => tools.find((candidate) => candidate.id === id);

test('each tool edits the selection (or the caret\'s line) in one step, leaving what to type next selected', () => {
  const cases = [
    ['bold', 'a [word] here', 'a **[word]** here'],
    ['bold', 'a | here', 'a **[bold text]** here'],
    ['italic', '[word]', '_[word]_'],
    ['heading', 'Title|', '## Title|'],
    ['heading', '## Title|', 'Title|'],
    ['bulletList', '[one\ntwo]', '[- one\n- two]'],
    ['numberedList', '[one\ntwo\nthree]', '[1. one\n2. two\n3. three]'],
    ['checklist', 'buy milk|', '- [ ] buy milk|'],
    ['quote', '[> one\n> two]', '[one\ntwo]'],
    ['link', 'see [the docs]', 'see [the docs]([https://])'],
    ['code', 'run [make]', 'run `[make]`'],
    ['code', '[a\nb]', '\n```\na\nb\n```\n|'],
  ];
  for (const [id, before, after] of cases) {
    const area = new TextArea(before);
    tool(id).apply(area);
    assert.equal(area.marked, after, `${id} on ${JSON.stringify(before)}`);
    assert.equal(area.edits, 1, id);
  }
});

test('shortcuts match Ctrl or Cmd with Shift exactly as given, never with Alt', () => {
  const key = (overrides) => ({ ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, key: '', code: '', ...overrides });
  assert.equal(toolForEvent(key({ ctrlKey: true, key: 'b' }))?.id, 'bold');
  assert.equal(toolForEvent(key({ metaKey: true, key: 'B' }))?.id, 'bold');
  assert.equal(toolForEvent(key({ ctrlKey: true, shiftKey: true, key: '*', code: 'Digit8' }))?.id, 'bulletList');
  assert.equal(toolForEvent(key({ ctrlKey: true, shiftKey: true, key: 'H' }))?.id, 'heading');
  assert.equal(toolForEvent(key({ ctrlKey: true, key: 'h' })), null, 'Ctrl+H without Shift is not the heading');
  assert.equal(toolForEvent(key({ ctrlKey: true, altKey: true, key: 'b' })), null);
  assert.equal(toolForEvent(key({ key: 'b' })), null);
  assert.deepEqual(tools.map((tool) => shortcutText(tool)), [
    'Ctrl+B', 'Ctrl+I', 'Ctrl+Shift+H', 'Ctrl+Shift+8', 'Ctrl+Shift+7', 'Ctrl+Shift+9', 'Ctrl+K', 'Ctrl+E', 'Ctrl+Shift+.',
  ]);
});

test('a shortcut names its keys as the language’s keyboards do', () => {
  const bold = tools.find((tool) => tool.id === 'bold');
  const heading = tools.find((tool) => tool.id === 'heading');
  assert.equal(shortcutText(heading, { ctrl: 'Strg', shift: 'Umschalt' }), 'Strg+Umschalt+H');
  assert.equal(shortcutText(bold, { ctrl: 'Strg', shift: 'Umschalt' }), 'Strg+B');
});
