// Links between notes: `[Title](note:ID)` in the text. Typing `[[` offers the titles that
// match (Enter or a click makes the link; `]]` closes it); a `[[Title]]` left as written opens
// that note, or offers to make it; the notes that link here are listed under the note.
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { h, replaceChildren, toast } from './dom.js';
import { navigate } from './state.js';
import { t } from './strings.js';

/** The Markdown of a link to a note. */
export function linkTo(note) {
  return `[${(note.title || t('untitled')).replace(/[[\]]/g, (c) => `\\${c}`)}](note:${note.id})`;
}

/** `[[partial` just before the caret, if the caret is in an unfinished `[[` link. */
function openLink(area) {
  const before = area.value.slice(0, area.selectionStart);
  const start = before.lastIndexOf('[[');
  if (start === -1 || area.selectionStart !== area.selectionEnd) return null;
  const typed = before.slice(start + 2);
  if (/[\]\n[]/.test(typed) || typed.length > 100) return null;
  return { start, typed };
}

/** Completion of `[[` links in `area`, shown in `list` (a listbox under the editor's bar). */
export class LinkCompletion {
  constructor(area, list) {
    this.area = area;
    this.list = list;
    this.choices = [];
    this.selected = 0;
    this.asked = 0;
    area.addEventListener('input', () => this.update());
    area.addEventListener('keydown', (event) => this.key(event));
    area.addEventListener('blur', () => setTimeout(() => this.close(), 150));
  }

  async update() {
    const open = openLink(this.area);
    if (!open) {
      await this.closeTypedLink();
      return this.close();
    }
    const asked = ++this.asked;
    const titles = await api.titles(open.typed).catch(() => []);
    if (asked !== this.asked) return;
    this.choices = titles;
    this.selected = 0;
    this.draw();
  }

  /** `]]` just typed after a title: the link becomes one by id when that note exists. */
  async closeTypedLink() {
    const before = this.area.value.slice(0, this.area.selectionStart);
    const found = /\[\[([^[\]\n|#]+)\]\]$/.exec(before);
    if (!found) return;
    const start = before.length - found[0].length;
    const matches = await api.titles(found[1]).catch(() => []);
    const note = matches.find((candidate) => candidate.title.toLowerCase() === found[1].trim().toLowerCase());
    // Typing may have gone on meanwhile: the link is replaced where it is, the caret kept after it.
    if (!note || this.area.value.slice(start, before.length) !== found[0]) return;
    const { selectionStart, selectionEnd } = this.area;
    const link = linkTo(note);
    const shift = (offset) => (offset >= before.length ? offset + link.length - found[0].length : offset);
    this.area.edit(start, before.length, link);
    this.area.setSelectionRange(shift(selectionStart), shift(selectionEnd));
  }

  draw() {
    this.list.hidden = this.choices.length === 0;
    replaceChildren(this.list, this.choices.map((note, index) => h('li', {
      role: 'option', id: `link-choice-${index}`, 'aria-selected': String(index === this.selected),
      onmousedown: (event) => {
        event.preventDefault();
        this.choose(note);
      },
    }, note.title || t('untitled'))));
    this.area.setAttribute('aria-activedescendant', this.choices.length ? `link-choice-${this.selected}` : '');
  }

  key(event) {
    if (this.list.hidden || !this.choices.length) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      event.stopImmediatePropagation();
      this.selected = (this.selected + (event.key === 'ArrowDown' ? 1 : -1) + this.choices.length) % this.choices.length;
      this.draw();
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      event.stopImmediatePropagation();
      this.choose(this.choices[this.selected]);
    } else if (event.key === 'Escape') {
      event.stopImmediatePropagation();
      this.close();
    }
  }

  choose(note) {
    const open = openLink(this.area);
    this.close();
    if (!open) return;
    this.area.edit(open.start, this.area.selectionStart, linkTo(note));
  }

  close() {
    this.choices = [];
    this.list.hidden = true;
    this.area.removeAttribute('aria-activedescendant');
  }
}

/** A click on a link to a note in the preview opens it; `[[Title]]` finds it or offers to make it. */
export async function followNoteLink(event, { note, replaceInText }) {
  const anchor = event.target.closest('a[href^="#note="], a[href^="#wiki="]');
  if (!anchor) return;
  event.preventDefault();
  const href = anchor.getAttribute('href');
  if (href.startsWith('#note=')) {
    navigate({ note: href.slice('#note='.length) });
    return;
  }
  const title = decodeURIComponent(href.slice('#wiki='.length)).split('#')[0].trim();
  try {
    const found = (await api.titles(title)).find((candidate) => candidate.title.toLowerCase() === title.toLowerCase());
    if (found) {
      navigate({ note: found.id });
    } else if (note && !note.trashedAt && await ask(t('createLinkedNote', { title }), t('makeNote'))) {
      const created = await api.createNote({ title });
      replaceInText(title, created);
      navigate({ note: created.id });
    }
  } catch (error) {
    toast(errorText(error));
  }
}

/** The notes that link to `note`, each with the line around its link. */
export async function renderBacklinks(section, note) {
  let backlinks = [];
  try {
    backlinks = await api.backlinks(note.id);
  } catch {
    backlinks = null;
  }
  replaceChildren(section, h('h3', { id: 'backlinks-heading' }, t('backlinks')),
    backlinks === null ? h('p', { className: 'hint' }, t('offline'))
      : backlinks.length === 0 ? h('p', { className: 'hint' }, t('noBacklinks'))
        : h('ul', { className: 'backlink-list' }, backlinks.map((link) => h('li', {},
          h('a', { href: `#note=${link.id}`, onclick: (event) => { event.preventDefault(); navigate({ note: link.id }); } }, link.title || t('untitled')),
          link.context ? h('span', { className: 'hint' }, ` — ${link.context}`) : null))));
}
