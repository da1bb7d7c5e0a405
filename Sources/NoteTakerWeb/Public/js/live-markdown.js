// Formatting visible while typing: each line of the note's text drawn with its Markdown styled —
// headings larger, strong text bold, emphasis slanted, code shaded, links underlined, done
// tasks struck through, the markers quiet — every character kept, so the drawing is the text
// (`NoteText` edits it in place). Inline markers (`md-mark`) and addresses show only on the
// lines being edited; the markers that start a line (`md-lead`: lists, quotes, fences, rules)
// always. A link to a note reads as `[[Title]]` until the caret is in it (`md-notelink`); a
// table's lines line up as a table; a picture attached to the note shows in place; a task's box
// is drawn as a box, and ticks when clicked (or with Ctrl+Enter on its line).

const escape = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const span = (className, text) => `<span class="${className}">${text}</span>`;
const mark = (text) => span('md-mark', escape(text));
const lead = (text) => span('md-mark md-lead', escape(text));

const fenceOpen = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const heading = /^( {0,3})(#{1,6})([ \t].*|)$/;
const rule = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const quote = /^((?: {0,3}>[ \t]?)+)(.*)$/;
const tableRule = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/;
const tableRow = /^[ \t]*\|.*\|[ \t]*$/;
const listItem = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+)(\[[ xX]\](?=[ \t]|$))?(.*)$/;
// A task's line, in a quote or not: its prefix (quote markers, indentation, the list marker
// and the space after it), then the box.
const taskItem = /^((?:[ \t]*>[ \t]?)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\](?=[ \t]|$)/;

/** An attached picture drawn in the text: not part of it (no characters, not editable). */
function attachedPicture(id, alt) {
  return `<img class="md-inline-image" src="/api/v1/attachments/${id}/content" alt="${escape(alt)}" contenteditable="false" draggable="false">`;
}

/** Inline Markdown as styled HTML (a drawing, not a parse: every character is kept). */
function inline(text) {
  let html = '';
  let rest = text;
  const rules = [
    [/^(`+)([\s\S]*?[^`])\1(?!`)/, (m) => mark(m[1]) + span('md-code', escape(m[2])) + mark(m[1])],
    [/^(!?\[)((?:\\.|[^\]\\\n])*)(\]\()([^)\s]*)((?:\s+"[^"]*")?\))/, (m) => {
      const drawn = mark(m[1]) + span('md-link', inline(m[2])) + mark(m[3]) + span('md-url', escape(m[4])) + mark(m[5]);
      if (m[1] === '[' && /^note:/i.test(m[4])) return span('md-notelink', drawn);
      const picture = m[1] === '![' && /^attachment:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(m[4]);
      // A picture attached to the note shows in place (one from elsewhere is not fetched while typing).
      return picture ? span('md-imagelink', drawn) + attachedPicture(picture[1].toLowerCase(), m[2]) : drawn;
    }],
    [/^<(https?:\/\/[^\s>]+|[^\s@>]+@[^\s>]+)>/, (m) => mark('<') + span('md-link', escape(m[1])) + mark('>')],
    [/^(\*\*|__)(?=\S)([\s\S]*?\S)\1/, (m) => mark(m[1]) + span('md-strong', inline(m[2])) + mark(m[1])],
    [/^(~~)(?=\S)([\s\S]*?\S)~~/, (m) => mark(m[1]) + span('md-strike', inline(m[2])) + mark(m[1])],
    [/^([*_])(?=\S)([\s\S]*?\S)\1(?![*_\w])/, (m) => mark(m[1]) + span('md-em', inline(m[2])) + mark(m[1])],
    [/^\\[!-/:-@[-`{-~]/, (m) => mark(m[0][0]) + escape(m[0].slice(1))],
  ];
  while (rest) {
    let matched = false;
    for (const [pattern, draw] of rules) {
      const found = pattern.exec(rest);
      if (found) {
        html += draw(found);
        rest = rest.slice(found[0].length);
        matched = true;
        break;
      }
    }
    if (!matched) {
      // Plain text up to the next character that may start something.
      const next = rest.slice(1).search(/[`![<*_~\\]/);
      const end = next === -1 ? rest.length : next + 1;
      html += escape(rest.slice(0, end));
      rest = rest.slice(end);
    }
  }
  return html;
}

/** A table row's text split at its pipes, those escaped or inside code left in the cell. One pass. */
function tableCells(line) {
  const cells = [];
  let start = 0;
  let inCode = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (character === '\\') index += 1;
    else if (character === '`') inCode = !inCode;
    else if (character === '|' && !inCode) {
      cells.push(line.slice(start, index));
      start = index + 1;
    }
  }
  cells.push(line.slice(start));
  return cells;
}

/** One line drawn, given whether it starts inside a fenced code block; returns the state after it. */
export function drawLine(line, fence) {
  if (fence) {
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    if (close.test(line)) return { html: lead(line), className: 'md-codeblock', fence: null };
    return { html: escape(line), className: 'md-codeblock', fence };
  }
  let found = fenceOpen.exec(line);
  if (found && !(found[2][0] === '`' && found[3].includes('`'))) {
    return { html: lead(found[1] + found[2]) + span('md-info', escape(found[3])), className: 'md-codeblock', fence: found[2] };
  }
  if ((found = heading.exec(line))) {
    // The space after the marks goes with them, so a heading away from the caret is not indented.
    const space = /^[ \t]*/.exec(found[3])[0];
    return { html: mark(found[1] + found[2] + space) + span('md-heading', inline(found[3].slice(space.length))), className: `md-h${found[2].length}`, fence: null };
  }
  if (rule.test(line)) return { html: lead(line), className: 'md-rule', fence: null };
  if ((found = quote.exec(line))) {
    // What a quote holds reads as it would outside it (a heading, a list, a task).
    const inner = drawLine(found[2], null);
    return { html: lead(found[1]) + span('md-quote', inner.html), className: inner.className, fence: null };
  }
  const isRule = tableRule.test(line);
  if (isRule || tableRow.test(line)) {
    // Each cell holds the pipe before it, so that the row's cells line up as a table's
    // (app.css draws the rows as table rows); a pipe escaped or in code is the cell's text.
    const cells = tableCells(line);
    const last = cells.length - 1;
    const html = escape(cells[0]) + cells.slice(1, last).map((cell) => span('md-cell', lead('|') + (isRule ? lead(cell) : inline(cell)))).join('')
      + span('md-cell md-cell-end', lead('|') + escape(cells[last]));
    // The delimiter row is a row of the table too, so that it stays where the caret can reach it.
    return { html, className: isRule ? 'md-table-row md-table-rule' : 'md-table-row', fence: null };
  }
  if ((found = listItem.exec(line))) {
    const [, indent, marker, space, box, text] = found;
    const done = box && box[1] !== ' ';
    return {
      html: escape(indent) + lead(marker + space) + (box ? span(done ? 'md-box md-box-done' : 'md-box', escape(box)) : '')
        + (done ? span('md-done', inline(text)) : inline(text)),
      className: '', fence: null,
    };
  }
  return { html: inline(line), className: '', fence: null };
}

/**
 * The lines of a text drawn as rows of `container`, kept drawn as the text changes: only the
 * rows of lines that differ from what is drawn are drawn again (and those a fence opened or
 * closed above reaches), so a long note types as fast as a short one.
 */
export class LineDrawing {
  constructor(container) {
    this.container = container;
    this.lines = [];
    this.fences = []; // the fence open at each line's start (null: none)
  }

  /** Draws `text`; answers whether any row changed. */
  update(text) {
    const lines = text.split('\n');
    const old = this.lines;
    let start = 0;
    while (start < old.length && start < lines.length && old[start] === lines[start]) start += 1;
    let oldEnd = old.length;
    let newEnd = lines.length;
    while (oldEnd > start && newEnd > start && old[oldEnd - 1] === lines[newEnd - 1]) {
      oldEnd -= 1;
      newEnd -= 1;
    }
    if (start === oldEnd && start === newEnd && old.length === lines.length) return false;
    const rows = [];
    let fence = start > 0 ? this.fences[start] : null;
    const fences = this.fences.slice(0, start);
    let index = start;
    // The changed lines, then on while a fence opened or closed above changes how lines read.
    for (; index < newEnd || (index < lines.length && fence !== this.fences[index - newEnd + oldEnd]); index += 1) {
      fences.push(fence);
      const drawn = drawLine(lines[index], fence);
      rows.push(drawn);
      fence = drawn.fence;
    }
    const replacedOld = index - newEnd + oldEnd;
    const elements = rows.map(({ html, className }) => {
      const row = document.createElement('div');
      if (className) row.className = className;
      // An empty line still takes a line's height, and a caret.
      row.innerHTML = html || '<br>';
      return row;
    });
    const children = this.container.children;
    for (let drop = start; drop < replacedOld && children[start]; drop += 1) children[start].remove();
    const before = children[start] ?? null;
    for (const element of elements) this.container.insertBefore(element, before);
    this.fences = fences.concat(this.fences.slice(replacedOld));
    this.lines = lines;
    return true;
  }

  /** Forgets what is drawn (the rows were changed by someone else), so the next update draws all. */
  reset() {
    this.container.replaceChildren();
    this.lines = [];
    this.fences = [];
  }
}

/** A click on a task's box in the text ticks or unticks it; so does Ctrl+Enter on its line. */
export function taskBoxAt(value, position, anywhereOnLine = false) {
  const lineStart = value.lastIndexOf('\n', position - 1) + 1;
  const lineEnd = value.indexOf('\n', position) === -1 ? value.length : value.indexOf('\n', position);
  const found = taskItem.exec(value.slice(lineStart, lineEnd));
  if (!found) return null;
  const boxStart = lineStart + found[1].length;
  if (!anywhereOnLine && (position < boxStart || position > boxStart + 3)) return null;
  return { start: boxStart + 1, done: found[2] !== ' ' };
}

/** Ticks or unticks the box found by `taskBoxAt`, as one step of undo. */
export function toggleTaskBox(area, box) {
  const { selectionStart, selectionEnd } = area;
  area.edit(box.start, box.start + 1, box.done ? ' ' : 'x');
  area.setSelectionRange(selectionStart, selectionEnd);
}
