// Lists as people type them: Enter continues a list, a checklist or a quote (and ends it on an
// empty item); Tab and Shift+Tab indent and outdent list items. Every change is one
// `edit` of the text, so one step of undo.


const listItem = /^([ \t]*)([-*+]|(\d{1,9})([.)]))([ \t]+)(\[[ xX]\][ \t]+)?/;
const quotePrefix = /^(?:[ \t]*>[ \t]?)+/;

function lineBounds(value, start, end = start) {
  const lineStart = value.lastIndexOf('\n', start - 1) + 1;
  const next = value.indexOf('\n', end);
  return { lineStart, lineEnd: next === -1 ? value.length : next };
}

/** Enter in a list item or a quote: the next item, numbered on and unticked; on an empty one, the list ends. */
export function continueList(area) {
  const { selectionStart: start, selectionEnd: end, value } = area;
  if (start !== end) return false;
  const { lineStart, lineEnd } = lineBounds(value, start);
  const line = value.slice(lineStart, lineEnd);
  const item = listItem.exec(line);
  const prefix = item?.[0] ?? quotePrefix.exec(line)?.[0];
  if (!prefix || start - lineStart < prefix.length) return false;
  if (line.slice(prefix.length).trim() === '') {
    // An empty item ends the list: its marker goes, and a blank line keeps what is typed
    // next out of the last item.
    area.edit(lineStart, lineEnd, '\n');
    return true;
  }
  let next = prefix;
  if (item) {
    const marker = item[3] ? `${Number(item[3]) + 1}${item[4]}` : item[2];
    next = `${item[1]}${marker}${item[5]}${item[6] ? '[ ] ' : ''}`;
  }
  area.edit(start, start, `\n${next}`);
  return true;
}

/** Tab (or Shift+Tab) on list items: each item of the selection one level in (or out). */
export function indentListItems(area, outdent) {
  const { selectionStart: start, selectionEnd: end, value } = area;
  const { lineStart, lineEnd } = lineBounds(value, start, end);
  const lines = value.slice(lineStart, lineEnd).split('\n');
  if (!lines.some((line) => listItem.test(line))) return false;
  const previous = listItem.exec(value.slice(lineBounds(value, Math.max(lineStart - 1, 0)).lineStart, Math.max(lineStart - 1, 0)));
  // One level is the width of the marker above (so an item under `1. ` lines up with its text).
  const unit = previous ? ' '.repeat(previous[2].length + previous[5].length) : '  ';
  const changed = lines.map((line) => {
    if (!listItem.test(line)) return line;
    if (!outdent) return unit + line;
    const leading = /^[ \t]*/.exec(line)[0];
    const remove = leading.startsWith('\t') ? 1 : Math.min(leading.length, unit.length);
    return line.slice(remove);
  }).join('\n');
  if (changed === lines.join('\n')) return true;
  area.edit(lineStart, lineEnd, changed);
  if (start === end) {
    const moved = Math.max(lineStart, start + changed.length - (lineEnd - lineStart));
    area.setSelectionRange(moved, moved);
  } else {
    area.setSelectionRange(lineStart, lineStart + changed.length);
  }
  return true;
}
