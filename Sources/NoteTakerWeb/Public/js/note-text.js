// The note's text, edited where it is drawn: `<note-text>` is an editable element whose rows are
// the text's lines with their Markdown styled (headings larger, as Obsidian's and Bear's editors
// draw them), while the text itself, a plain string, stays the note. A text area cannot draw one
// line larger than another, so this element applies the edits itself: each arrives as a
// `beforeinput` event (typing, Enter, deleting, pasting, spelling fixes) and replaces a range of
// the string, and only the rows it touches are drawn again. Input methods compose in the page as
// usual and are read back when they end. It answers as a text area does (`value`,
// `selectionStart`, `selectionEnd`, `setSelectionRange`, `select`, `input` events), so the
// toolbar, list editing and link completion work on it alike; `edit` replaces a range as typing
// would, as one step of its own undo history (the browser's cannot follow rows drawn by script).

import { EditHistory } from './edit-history.js';
import { LineDrawing } from './live-markdown.js';

/**
 * Where `text` differs from `old`: the length of their common start (`prefix`) and of their
 * common end after it (`suffix`).
 */
export function changedRange(old, text) {
  let prefix = 0;
  while (prefix < old.length && prefix < text.length && old[prefix] === text[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < old.length - prefix && suffix < text.length - prefix
         && old[old.length - 1 - suffix] === text[text.length - 1 - suffix]) suffix += 1;
  return { prefix, suffix };
}

/** An editable, styled Markdown text that behaves as a text area. */
export class NoteText extends HTMLElement {
  static observedAttributes = ['readonly'];

  #text = '';
  #starts = null; // each line's offset in the text, worked out again after a change
  #selection = { start: 0, end: 0, backward: false };
  #history = new EditHistory();
  #drawing = new LineDrawing(this);
  #pointerFocus = false;
  #dragged = null;
  #marked = []; // the rows and the link marked as being edited (`data-caret`)
  #onSelectionChange = () => this.#markCaret();

  constructor() {
    super();
    this.addEventListener('beforeinput', (event) => this.#beforeInput(event));
    // Only edits the page made itself (an input method's, or one this element does not take).
    this.addEventListener('input', (event) => { if (event.isTrusted && !event.isComposing) this.#readBack(); });
    this.addEventListener('compositionend', () => this.#readBack());
    this.addEventListener('keydown', (event) => this.#key(event));
    this.addEventListener('copy', (event) => this.#copy(event, false));
    this.addEventListener('cut', (event) => this.#copy(event, true));
    this.addEventListener('dragstart', () => { this.#dragged = { ...this.#readSelection() }; });
    this.addEventListener('dragend', () => { this.#dragged = null; });
    this.addEventListener('drop', (event) => this.#drop(event));
    this.addEventListener('pointerdown', () => { this.#pointerFocus = true; });
    // Focus from the keyboard or from script comes back to where the selection was, and shows.
    this.addEventListener('focus', () => {
      if (!this.#pointerFocus) this.#showSelection();
      this.toggleAttribute('data-keyboard-focus', !this.#pointerFocus && this.matches(':focus-visible'));
      this.#pointerFocus = false;
    });
    this.addEventListener('focusout', () => {
      this.#readSelection();
      this.removeAttribute('data-keyboard-focus');
      queueMicrotask(() => this.#markCaret());
    });
  }

  connectedCallback() {
    document.addEventListener('selectionchange', this.#onSelectionChange);
    this.setAttribute('role', 'textbox');
    this.setAttribute('aria-multiline', 'true');
    if (!this.hasAttribute('tabindex')) this.setAttribute('tabindex', '0');
    this.attributeChangedCallback();
    if (!this.children.length) this.#redraw();
  }

  disconnectedCallback() {
    document.removeEventListener('selectionchange', this.#onSelectionChange);
  }

  attributeChangedCallback() {
    // Not `plaintext-only`: Chromium tells the range of an edit (a word deleted, a spelling
    // fixed) only for rich editing. Every edit is taken here, as plain text, all the same.
    this.setAttribute('contenteditable', this.readOnly ? 'false' : 'true');
    this.setAttribute('aria-readonly', String(this.readOnly));
  }

  /** Whether the text may not be changed (a note in the trash). */
  get readOnly() { return this.hasAttribute('readonly'); }
  set readOnly(flag) { this.toggleAttribute('readonly', Boolean(flag)); }

  /** The text. Setting it replaces the whole text and forgets the undo history, as a text area does. */
  get value() { return this.#text; }
  set value(text) {
    this.#text = String(text ?? '').replace(/\r\n?/g, '\n');
    this.#history.clear();
    this.#redraw();
    const end = this.#text.length;
    this.#selection = { start: end, end, backward: false };
    if (this.#focused) this.#showSelection();
  }

  /** Where the selection starts, as an offset in the text. */
  get selectionStart() { return this.#readSelection().start; }

  /** Where the selection ends, as an offset in the text. */
  get selectionEnd() { return this.#readSelection().end; }

  /** Selects `start`..`end` of the text (shown at once when the element has focus). */
  setSelectionRange(start, end = start, direction = 'forward') {
    const clamp = (offset) => Math.max(0, Math.min(Number(offset) || 0, this.#text.length));
    const [from, to] = [clamp(start), clamp(end)];
    this.#selection = { start: Math.min(from, to), end: Math.max(from, to), backward: direction === 'backward' };
    if (this.#focused) this.#showSelection();
  }

  /** Selects the whole text. */
  select() {
    this.setSelectionRange(0, this.#text.length);
  }

  /**
   * Replaces `from`..`to` with `text` as typing would: one step of undo, the caret after it,
   * an `input` event. Focuses the element (an edit from the toolbar goes on in the text).
   */
  edit(from, to, text, kind = 'insertText') {
    if (this.readOnly) return;
    if (!this.#focused) super.focus({ preventScroll: true });
    this.#replace(from, to, text, kind);
  }

  /** Takes back the last step of editing. */
  undo() {
    const step = this.#history.undo();
    if (step) this.#apply(step.from, step.from + step.inserted.length, step.removed, step.before, 'historyUndo');
  }

  /** Does again the last step taken back. */
  redo() {
    const step = this.#history.redo();
    if (step) this.#apply(step.from, step.from + step.removed.length, step.inserted, step.after, 'historyRedo');
  }

  get #focused() { return this.isConnected && document.activeElement === this; }

  #replace(from, to, text, kind) {
    const [start, end] = [Math.max(0, Math.min(from, to)), Math.min(this.#text.length, Math.max(from, to))];
    const removed = this.#text.slice(start, end);
    if (!removed && !text) return;
    const before = { ...this.#readSelection() };
    const caret = start + text.length;
    this.#history.record({ from: start, removed, inserted: text, before, after: { start: caret, end: caret }, kind, time: performance.now() });
    this.#apply(start, end, text, { start: caret, end: caret }, kind);
  }

  #apply(start, end, text, selection, kind) {
    this.#text = this.#text.slice(0, start) + text + this.#text.slice(end);
    this.#redraw();
    this.setSelectionRange(selection.start, selection.end);
    // At once, not at the next selection event: the rows drawn again would show without
    // their markers for a frame.
    this.#markCaret();
    this.#scrollToCaret();
    this.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: kind, data: text || null }));
  }

  #redraw() {
    this.#drawing.update(this.#text);
    this.#starts = null;
    this.toggleAttribute('data-empty', this.#text === '');
  }

  #beforeInput(event) {
    const kind = event.inputType;
    // An input method writes in the page while it composes; its text is read back at the end.
    if (event.isComposing || kind === 'insertCompositionText' || kind === 'deleteCompositionText' || kind === 'insertFromComposition') return;
    event.preventDefault();
    if (kind === 'historyUndo') return this.undo();
    if (kind === 'historyRedo') return this.redo();
    if (this.readOnly || kind.startsWith('format')) return;
    let { start, end } = this.#targetOf(event);
    let text = '';
    if (kind === 'insertParagraph' || kind === 'insertLineBreak') {
      text = '\n';
    } else if (kind.startsWith('insert')) {
      text = (event.data ?? event.dataTransfer?.getData('text/plain') ?? '').replace(/\r\n?/g, '\n');
    } else if (start === end && kind.endsWith('Backward')) {
      start = Math.max(0, start - (/[\udc00-\udfff]/.test(this.#text[start - 1] ?? '') ? 2 : 1));
    } else if (start === end) {
      end = Math.min(this.#text.length, end + (/[\ud800-\udbff]/.test(this.#text[end] ?? '') ? 2 : 1));
    }
    this.#replace(start, end, text, kind);
  }

  /** The range an input event changes: its target range, or (from script) the selection. */
  #targetOf(event) {
    const [range] = event.getTargetRanges?.() ?? [];
    const start = range ? this.#offsetOf(range.startContainer, range.startOffset) : null;
    const end = range ? this.#offsetOf(range.endContainer, range.endOffset) : null;
    if (start === null || end === null) return this.#readSelection();
    return { start: Math.min(start, end), end: Math.max(start, end) };
  }

  #key(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) {
      event.preventDefault();
      this.undo();
    } else if ((key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey)) {
      event.preventDefault();
      this.redo();
    }
  }

  /** Copies the text itself (not the drawing's styles); a cut is one step of undo. */
  #copy(event, cut) {
    const { start, end } = this.#readSelection();
    if (start === end || !event.clipboardData) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', this.#text.slice(start, end));
    if (cut && !this.readOnly) this.#replace(start, end, '', 'deleteByCut');
  }

  /** Text dropped in: put where it fell; dragged from within, moved there as one step. Files are the editor's. */
  #drop(event) {
    const text = event.dataTransfer?.getData('text/plain');
    if (this.readOnly || !text || event.dataTransfer.files.length) return;
    event.preventDefault();
    const at = this.#offsetAtPoint(event.clientX, event.clientY) ?? this.#readSelection().end;
    const dragged = this.#dragged;
    this.#dragged = null;
    if (!dragged || event.dataTransfer.dropEffect === 'copy' || event.ctrlKey) {
      this.edit(at, at, text, 'insertFromDrop');
    } else if (at < dragged.start) {
      this.edit(at, dragged.end, this.#text.slice(dragged.start, dragged.end) + this.#text.slice(at, dragged.start), 'insertFromDrop');
    } else if (at > dragged.end) {
      this.edit(dragged.start, at, this.#text.slice(dragged.end, at) + this.#text.slice(dragged.start, dragged.end), 'insertFromDrop');
    }
  }

  /** What the page changed in the rows by itself, taken into the text as an edit. */
  #readBack() {
    const drawn = [...this.childNodes].map((row) => row.textContent).join('\n');
    const old = this.#text;
    if (drawn === old) return;
    const { prefix, suffix } = changedRange(old, drawn);
    // Rows whose text changed are drawn again by the update; rows added or taken away by the
    // page leave the drawing unknown, so then all are drawn again.
    if (this.childNodes.length !== this.#drawing.lines.length || [...this.childNodes].some((row) => row.nodeName !== 'DIV')) this.#drawing.reset();
    this.#replace(prefix, old.length - suffix, drawn.slice(prefix, drawn.length - suffix), 'insertText');
  }

  /** Each line's offset in the text. */
  #lineStarts() {
    if (!this.#starts) {
      let at = 0;
      this.#starts = this.#drawing.lines.map((line) => {
        const start = at;
        at += line.length + 1;
        return start;
      });
    }
    return this.#starts;
  }

  /** The offset in the text of a point in the rows (a node and an offset in it), or null when outside. */
  #offsetOf(node, offset) {
    const lines = this.#drawing.lines;
    if (node === this) return offset >= lines.length ? this.#text.length : this.#lineStarts()[offset];
    let row = node;
    while (row && row.parentNode !== this) row = row.parentNode;
    if (!row) return null;
    const index = Array.prototype.indexOf.call(this.children, row);
    if (index < 0 || index >= lines.length) return null;
    const range = document.createRange();
    range.setStart(row, 0);
    range.setEnd(node, offset);
    return this.#lineStarts()[index] + Math.min(range.toString().length, lines[index].length);
  }

  /** The offset in the text under a point of the window, or null. */
  #offsetAtPoint(x, y) {
    const caret = document.caretPositionFromPoint?.(x, y);
    if (caret) return this.#offsetOf(caret.offsetNode, caret.offset);
    const range = document.caretRangeFromPoint?.(x, y);
    return range ? this.#offsetOf(range.startContainer, range.startOffset) : null;
  }

  /** The index of the line an offset in the text is on. */
  #lineOf(offset) {
    const starts = this.#lineStarts();
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle; else high = middle - 1;
    }
    return low;
  }

  /** The point in the rows of an offset in the text. */
  #pointOf(offset) {
    const starts = this.#lineStarts();
    const low = this.#lineOf(offset);
    const row = this.children[low];
    let rest = offset - starts[low];
    const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
    let last = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (rest <= node.length) return [node, rest];
      rest -= node.length;
      last = node;
    }
    return last ? [last, last.length] : [row, 0];
  }

  /** The selection in the page, when it is in this element; otherwise the one last known. */
  #readSelection() {
    const selection = document.getSelection();
    if (selection?.rangeCount && this.contains(selection.anchorNode) && this.contains(selection.focusNode)) {
      const anchor = this.#offsetOf(selection.anchorNode, selection.anchorOffset);
      const focus = this.#offsetOf(selection.focusNode, selection.focusOffset);
      if (anchor !== null && focus !== null) {
        this.#selection = { start: Math.min(anchor, focus), end: Math.max(anchor, focus), backward: focus < anchor };
      }
    }
    return this.#selection;
  }

  /**
   * Marks what is being edited (`data-caret`): the rows the selection is on, whose Markdown
   * markers then show, and a link to a note the caret is in, which then shows as written
   * rather than as `[[Title]]`. Nothing is marked while the element does not have focus.
   */
  #markCaret() {
    const marked = [];
    const selection = document.getSelection();
    if (this.#focused && selection?.rangeCount && this.contains(selection.anchorNode)) {
      const { start, end } = this.#readSelection();
      for (let index = this.#lineOf(start), last = this.#lineOf(end); index <= last; index += 1) {
        if (this.children[index]) marked.push(this.children[index]);
      }
      for (const node of [selection.anchorNode, selection.focusNode]) {
        const link = (node?.nodeType === Node.TEXT_NODE ? node.parentElement : node)?.closest?.('.md-notelink');
        if (link && this.contains(link)) marked.push(link);
      }
    }
    // Only what changed: each attribute set or taken away makes the browser style the row again.
    for (const element of this.#marked) if (!marked.includes(element)) element.removeAttribute('data-caret');
    for (const element of marked) if (!element.hasAttribute('data-caret')) element.setAttribute('data-caret', '');
    this.#marked = marked;
  }

  #showSelection() {
    const { start, end, backward } = this.#selection;
    const [anchor, focus] = backward ? [end, start] : [start, end];
    document.getSelection()?.setBaseAndExtent(...this.#pointOf(anchor), ...this.#pointOf(focus));
  }

  /** Scrolls the element so that the caret shows after an edit. */
  #scrollToCaret() {
    if (!this.#focused) return;
    const [node, offset] = this.#pointOf(this.#selection.end);
    const range = document.createRange();
    range.setStart(node, offset);
    let caret = range.getBoundingClientRect();
    if (!caret.height) caret = (node.nodeType === Node.TEXT_NODE ? node.parentElement : node).getBoundingClientRect();
    const box = this.getBoundingClientRect();
    if (caret.bottom > box.bottom) this.scrollTop += caret.bottom - box.bottom + 4;
    else if (caret.top < box.top) this.scrollTop -= box.top - caret.top + 4;
  }
}

customElements.define('note-text', NoteText);
