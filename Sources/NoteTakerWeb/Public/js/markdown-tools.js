// The formatting toolbar's edits on the note's text (a `NoteText`), and their keyboard shortcuts.
// Each is one step of undo.

/** The toolbar: each tool's string key, shortcut (shown and matched) and edit. */
export const tools = [
  { id: 'bold', shortcut: { key: 'b' }, apply: (area) => wrap(area, '**', '**', 'placeholderBold') },
  { id: 'italic', shortcut: { key: 'i' }, apply: (area) => wrap(area, '_', '_', 'placeholderItalic') },
  { id: 'heading', shortcut: { key: 'h', shift: true }, apply: (area) => prefixLines(area, () => '## ') },
  { id: 'bulletList', shortcut: { code: 'Digit8', shift: true }, apply: (area) => prefixLines(area, () => '- ') },
  { id: 'numberedList', shortcut: { code: 'Digit7', shift: true }, apply: (area) => prefixLines(area, (index) => `${index + 1}. `) },
  { id: 'checklist', shortcut: { code: 'Digit9', shift: true }, apply: (area) => prefixLines(area, () => '- [ ] ') },
  { id: 'link', shortcut: { key: 'k' }, apply: (area) => link(area) },
  { id: 'code', shortcut: { key: 'e' }, apply: (area) => code(area) },
  { id: 'quote', shortcut: { code: 'Period', shift: true }, apply: (area) => prefixLines(area, () => '> ') },
];

/** The tool whose shortcut this key event is, if any (Ctrl or Cmd, plus Shift when asked). */
export function toolForEvent(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  return tools.find(({ shortcut }) => Boolean(shortcut.shift) === event.shiftKey
    && (shortcut.code ? event.code === shortcut.code : event.key.toLowerCase() === shortcut.key)) ?? null;
}

/** The shortcut as people read it, for titles: Ctrl+Shift+8 (or with `keys` named as the language names them: Strg+Umschalt+8). */
export function shortcutText({ shortcut }, keys = { ctrl: 'Ctrl', shift: 'Shift' }) {
  const key = shortcut.code ? shortcut.code.replace('Digit', '').replace('Period', '.') : shortcut.key.toUpperCase();
  return `${keys.ctrl}+${shortcut.shift ? `${keys.shift}+` : ''}${key}`;
}

function replaceSelection(area, text, selectFrom, selectTo) {
  const start = area.selectionStart;
  area.edit(start, area.selectionEnd, text);
  if (selectFrom !== undefined) area.setSelectionRange(start + selectFrom, start + selectTo);
}

function wrap(area, before, after, placeholderKey) {
  const selected = area.value.slice(area.selectionStart, area.selectionEnd);
  const inner = selected || area.dataset[placeholderKey] || '';
  replaceSelection(area, `${before}${inner}${after}`, before.length, before.length + inner.length);
}

function link(area) {
  const selected = area.value.slice(area.selectionStart, area.selectionEnd);
  const text = selected || area.dataset.placeholderLink || '';
  const url = 'https://';
  replaceSelection(area, `[${text}](${url})`, text.length + 3, text.length + 3 + url.length);
}

function code(area) {
  const selected = area.value.slice(area.selectionStart, area.selectionEnd);
  if (selected.includes('\n')) {
    replaceSelection(area, `\n\`\`\`\n${selected}\n\`\`\`\n`);
  } else {
    wrap(area, '`', '`', 'placeholderCode');
  }
}

/** Puts a prefix before every line of the selection (or the current line); removes it when all lines have it. */
function prefixLines(area, prefixFor) {
  const value = area.value;
  const lineStart = value.lastIndexOf('\n', area.selectionStart - 1) + 1;
  let lineEnd = value.indexOf('\n', area.selectionEnd);
  if (lineEnd === -1) lineEnd = value.length;
  const lines = value.slice(lineStart, lineEnd).split('\n');
  const prefixes = lines.map((_, index) => prefixFor(index));
  const allHave = lines.every((line, index) => line.startsWith(prefixes[index]));
  const changed = lines.map((line, index) => (allHave ? line.slice(prefixes[index].length) : prefixes[index] + line)).join('\n');
  area.edit(lineStart, lineEnd, changed);
  if (lines.length === 1) {
    area.setSelectionRange(lineStart + changed.length, lineStart + changed.length);
  } else {
    area.setSelectionRange(lineStart, lineStart + changed.length);
  }
}
