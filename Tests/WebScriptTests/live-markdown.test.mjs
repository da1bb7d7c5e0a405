import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drawLine, taskBoxAt, toggleTaskBox } from '../../Sources/NoteTakerWeb/Public/js/live-markdown.js';
import { TextArea } from './text-area.mjs';

test('each line keeps every character, its Markdown styled, escaped for the page', () => {
  const text = (html) => html.replace(/<[^>]+>/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  for (const line of ['## A **bold** <b>claim</b>', '- [x] done & dusted', '> quoted `code`', '1. [a link](https://example.com)', '---', 'plain "text"']) {
    assert.equal(text(drawLine(line, null).html), line, line);
  }
  assert.equal(drawLine('## Title', null).className, 'md-h2');
  assert.match(drawLine('## Title', null).html, /^<span class="md-mark">## <\/span><span class="md-heading">Title<\/span>$/, 'the space after the marks goes with them');
  assert.match(drawLine('- [x] done', null).html, /md-box-done/);
  assert.doesNotMatch(drawLine('<script>alert(1)</script>', null).html, /<script>/);
});

test('a fence opens a code block that lasts until its closing fence', () => {
  const opened = drawLine('```swift', null);
  assert.equal(opened.fence, '```');
  const inside = drawLine('## not a heading', opened.fence);
  assert.equal(inside.className, 'md-codeblock');
  assert.equal(inside.fence, '```');
  assert.equal(drawLine('~~~', opened.fence).fence, '```', 'a fence of another kind does not close it');
  assert.equal(drawLine('````', opened.fence).fence, null);
});

test('a task box is found where it is clicked (or anywhere on its line) and ticked in one edit', () => {
  const value = 'intro\n- [ ] buy milk\n> 2. [X] quoted';
  assert.deepEqual(taskBoxAt(value, 8), { start: 9, done: false });
  assert.equal(taskBoxAt(value, 15), null, 'the text beside the box is not the box');
  assert.deepEqual(taskBoxAt(value, 15, true), { start: 9, done: false });
  assert.deepEqual(taskBoxAt(value, value.indexOf('[X]') + 1), { start: value.indexOf('[X]') + 1, done: true });
  assert.equal(taskBoxAt(value, 2, true), null);

  const area = new TextArea('- [ ] buy |milk');
  toggleTaskBox(area, taskBoxAt(area.value, 0, true));
  assert.equal(area.marked, '- [x] buy |milk', 'the caret stays where it was');
  toggleTaskBox(area, taskBoxAt(area.value, 0, true));
  assert.equal(area.marked, '- [ ] buy |milk');
});

test('markers that start a line always show; a link to a note is one unit that reads by title', () => {
  const list = drawLine('- [ ] call **Ada**', null).html;
  assert.match(list, /<span class="md-mark md-lead">- <\/span>/, 'a list marker shows on every line');
  assert.match(list, /<span class="md-mark">\*\*<\/span>/, 'emphasis markers show only where edited');
  assert.match(drawLine('> quoted', null).html, /md-lead/);
  assert.match(drawLine('```js', null).html, /md-lead/);
  const id = '4ddf0a1b-0000-4000-8000-000000000001';
  const linked = drawLine(`See [\\[Draft\\] plan](note:${id}) and [web](https://example.com)`, null).html;
  assert.equal((linked.match(/md-notelink/g) ?? []).length, 1, 'only the link to a note reads as [[Title]]');
  assert.match(linked, new RegExp(`<span class="md-notelink"><span class="md-mark">\\[</span><span class="md-link">.*\\[Draft.*\\] plan</span><span class="md-mark">\\]\\(</span><span class="md-url">note:${id}</span>`));
  assert.doesNotMatch(drawLine(`![picture](note:${id})`, null).html, /md-notelink/, 'an image is not a link to a note');
});

test('a table’s lines are drawn as rows of cells, every character kept', () => {
  const text = (html) => html.replace(/<[^>]+>/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  for (const line of ['| Item | Price |', '  | a \\| b | `c|d` | **e** |', '|---|:--:|']) {
    assert.equal(text(drawLine(line, null).html), line, line);
  }
  const row = drawLine('| Tea \\| milk | `a|b` |', null);
  assert.equal(row.className, 'md-table-row');
  assert.equal((row.html.match(/class="md-cell"/g) ?? []).length, 2, 'an escaped pipe and one in code are the cells’ text');
  assert.equal(drawLine('| --- | ---: |', null).className, 'md-table-row md-table-rule');
  assert.equal(drawLine('a | b', null).className, '', 'a line with pipes but no leading one is text');
  // Openers that never close cost one pass: a long row of pipes and backticks draws at once.
  assert.equal(text(drawLine(`|${'`|'.repeat(20000)}`, null).html), `|${'`|'.repeat(20000)}`);
});

test('a picture attached to the note is drawn in place; others are not fetched', () => {
  const id = '3F2A1B4C-0000-4000-8000-000000000001';
  const drawn = drawLine(`![chart "<b>"](attachment:${id})`, null).html;
  assert.match(drawn, /<img class="md-inline-image" src="\/api\/v1\/attachments\/3f2a1b4c-0000-4000-8000-000000000001\/content" alt="chart &quot;&lt;b&gt;&quot;"/);
  assert.match(drawn, /^<span class="md-imagelink">/);
  assert.equal(drawn.replace(/<img[^>]*>/, '').replace(/<[^>]+>/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"'),
    `![chart "<b>"](attachment:${id})`, 'every character kept, the picture adds none');
  assert.doesNotMatch(drawLine('![remote](https://example.com/a.png)', null).html, /<img/, 'a picture from elsewhere is not fetched');
  assert.doesNotMatch(drawLine('![x](attachment:not-an-id)', null).html, /<img/);
  assert.doesNotMatch(drawLine(`[file](attachment:${id})`, null).html, /<img/, 'a link to a file is not a picture');
});
