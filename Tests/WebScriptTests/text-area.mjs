// A stand-in for the page's `<note-text>` as the editing modules use it: its text, selection,
// placeholders, and `edit` (a replacement that leaves the caret after what it put in, as
// typing does). Texts are written with the selection marked: `|` for the caret, `[` and `]`
// around a selection.

export class TextArea {
  constructor(marked) {
    const caret = marked.indexOf('|');
    if (caret !== -1) {
      this.value = marked.slice(0, caret) + marked.slice(caret + 1);
      this.selectionStart = this.selectionEnd = caret;
    } else {
      const start = marked.indexOf('[');
      const end = marked.indexOf(']', start) - 1;
      if (start === -1 || end < start) throw new Error(`no selection marked in ${JSON.stringify(marked)}`);
      this.value = marked.slice(0, start) + marked.slice(start + 1, end + 1) + marked.slice(end + 2);
      this.selectionStart = start;
      this.selectionEnd = end;
    }
    this.dataset = { placeholderBold: 'bold text', placeholderItalic: 'italic text', placeholderLink: 'link text', placeholderCode: 'code' };
    this.edits = 0;
  }

  edit(from, to, text) {
    this.value = this.value.slice(0, from) + text + this.value.slice(to);
    this.selectionStart = this.selectionEnd = from + text.length;
    this.edits += 1;
  }

  setSelectionRange(start, end) {
    this.selectionStart = start;
    this.selectionEnd = end;
  }

  /** The text with its selection marked as the constructor reads it. */
  get marked() {
    const { value, selectionStart: start, selectionEnd: end } = this;
    if (start === end) return `${value.slice(0, start)}|${value.slice(start)}`;
    return `${value.slice(0, start)}[${value.slice(start, end)}]${value.slice(end)}`;
  }
}
