// The undo history of the note's text: each step is one replacement (what was there, what came
// instead, where the selection was before and after). Typing gathers into a step per word and
// deleting into a step per run, as a text area's history does; a toolbar action, a tick, a
// paste or a list's Enter is a step of its own.

const pause = 1000; // ms: typing after a longer pause starts a new step
const limit = 1000; // steps kept

/** Steps to undo and to redo. */
export class EditHistory {
  constructor() {
    this.done = [];
    this.undone = [];
  }

  /** Forgets every step (the text was replaced as a whole). */
  clear() {
    this.done = [];
    this.undone = [];
  }

  /**
   * Records `step` — `{ from, removed, inserted, before, after, kind, time }` with `before` and
   * `after` the selections `{ start, end }` — gathered into the last step when it continues it.
   */
  record(step) {
    this.undone = [];
    const last = this.done.at(-1);
    if (last && step.time - last.time < pause && step.kind === last.kind && continues(last, step)) {
      if (step.kind === 'insertText') {
        last.inserted += step.inserted;
      } else if (step.kind === 'deleteContentBackward') {
        last.from = step.from;
        last.removed = step.removed + last.removed;
      } else {
        last.removed += step.removed;
      }
      last.after = step.after;
      last.time = step.time;
      return;
    }
    this.done.push(step);
    if (this.done.length > limit) this.done.shift();
  }

  /** The step to undo (moved to the redo list), or null. */
  undo() {
    const step = this.done.pop() ?? null;
    if (step) this.undone.push(step);
    return step;
  }

  /** The step to redo (moved back, no longer open to gathering), or null. */
  redo() {
    const step = this.undone.pop() ?? null;
    if (step) this.done.push({ ...step, time: -Infinity });
    return step;
  }
}

/** Whether `step` goes on where `last` stopped: typed on, or deleted on, without a word's end between. */
function continues(last, step) {
  switch (step.kind) {
    case 'insertText':
      return !step.removed && step.from === last.from + last.inserted.length
        && !(/\s$/.test(last.inserted) && /^\S/.test(step.inserted));
    case 'deleteContentBackward':
      return !step.inserted && step.from + step.removed.length === last.from;
    case 'deleteContentForward':
      return !step.inserted && step.from === last.from;
    default:
      return false;
  }
}
