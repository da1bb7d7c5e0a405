// The life of the open note's edits, as one small state machine: the editor tells it what
// happened (the note opened, text typed, a save begun, answered or failed) and does what it
// answers. It owns the two facts every save depends on: whether the fields hold edits the
// server has not taken (`edited`), and the base the next save is sent with — what the text
// being edited started from (the revision, title, body and tags the server last gave), so the
// server merges the edit with whatever changed the note meanwhile (another tab, the command
// line, sync) instead of overwriting it. No page, no network: `node --test` checks it alone.

/** The base a note gives: what its text is edited from. */
export const baseOf = (note) => ({ revision: note.revision, title: note.title, body: note.body, tags: note.tags });

export class SaveCycle {
  constructor() {
    /** The base the next save is sent with. */
    this.base = null;
    /** Whether the fields hold edits not yet on their way to the server. */
    this.edited = false;
    /** The save on its way (`{ title, body, base }`), or null. */
    this.sending = null;
  }

  /** A note is shown as the server gave it: nothing is edited. */
  open(note) {
    this.base = baseOf(note);
    this.edited = false;
    this.sending = null;
  }

  /** Whether the fields may be replaced by the note read again: nothing typed, nothing on its way. */
  get settled() {
    return !this.edited && !this.sending;
  }

  /** The note was read again: it becomes the base when settled; returns whether it did. */
  reread(note) {
    if (!this.settled) return false;
    this.base = baseOf(note);
    return true;
  }

  /** Text was typed (or a draft put in the fields, whose edits started from `base`). */
  type(base = this.base) {
    this.base = base;
    this.edited = true;
  }

  /** The texts to send now, with their base, or null: nothing edited, or a save already on its way. */
  begin(texts) {
    if (!this.edited || this.sending) return null;
    this.edited = false;
    this.sending = { title: texts.title, body: texts.body, base: this.base };
    return this.sending;
  }

  /**
   * The server took the save on its way and answered `note`. What the page shows:
   * `conflict` (texts that could not merge: the conflict view), `merged` (the note as the
   * server made it, which may hold a change from elsewhere) or `typedOn` (edited meanwhile:
   * the fields stay, and the next save goes from what was sent).
   */
  saved(note) {
    const sent = this.sending;
    this.sending = null;
    if (this.edited) {
      this.base = { ...baseOf(note), title: sent.title, body: sent.body };
      return 'typedOn';
    }
    this.base = baseOf(note);
    return note.sync.status === 'conflict' ? 'conflict' : 'merged';
  }

  /** The save on its way failed: its edits are edits again, to be sent again. */
  failed() {
    this.sending = null;
    this.edited = true;
  }

  /** A change besides the text (pin, folder, tags) answered `note`: its base, unless typed on. */
  changedBesides(note) {
    if (!this.edited) this.base = baseOf(note);
  }

  /** The edits are given up (an empty new note discarded). */
  discard() {
    this.edited = false;
  }

  /** What to keep or send of `texts` if the page goes now: with their base, or null when nothing is edited. */
  unsaved(texts) {
    return this.edited ? { title: texts.title, body: texts.body, base: this.base } : null;
  }
}
