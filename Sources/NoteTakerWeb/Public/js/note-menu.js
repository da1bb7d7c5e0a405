// A note's other actions, behind one "More…" button: duplicate it, share it, publish it to the web,
// download it as Markdown or PDF (the export of that one note), print it as its preview shows it. At phone width the
// note's own actions (pin, folder, history, attach, trash) come first in it.
import { api, errorText } from './api.js';
import { h, replaceChildren, toast } from './dom.js';
import { showPublishDialog } from './publish-note.js';
import { openShareDialog } from './share-dialog.js';
import { sidebarData, viewOnly } from './sidebar.js';
import { currentRoute, navigate } from './state.js';
import { t } from './strings.js';

/** The address that downloads one note in `format` (`markdown`, `pdf`). */
export function noteDownload(noteId, format) {
  const share = currentRoute().share;
  return `/api/v1/export?format=${format}&note=${encodeURIComponent(noteId)}${share ? `&share=${share}` : ''}`;
}

/**
 * The menu for `note`; `flush()` saves what is typed before an action reads the note. `first`:
 * controls put before its own items (the note's actions, at phone width), the menu closing
 * once one is used.
 */
export function noteMenu(note, flush, first = []) {
  // A note of a share is shared already, and is published only from the account's own notes.
  const own = !currentRoute().share;
  // Drawn again when folders or tags change: an open menu stays open.
  const menu = h('details', { className: 'note-menu', id: 'note-menu', open: document.getElementById('note-menu')?.open ?? false },
    h('summary', {}, first.length ? t('noteActions') : t('noteMore')),
    h('div', { className: 'note-menu-items' }, ...first,
      viewOnly() ? null : h('button', { type: 'button', className: 'quiet', id: 'duplicate-note', onclick: () => act(duplicate) }, t('duplicateNote')),
      own && sidebarData.canShare ? h('button', {
        type: 'button', className: 'quiet', id: 'share-note',
        onclick: () => act((id) => openShareDialog({ item: { noteId: id }, name: note.title || t('untitled') })),
      }, t('shareAction')) : null,
      own ? h('button', { type: 'button', className: 'quiet', id: 'publish-note', onclick: () => act((id) => showPublishDialog(id, flush)) }, t('publishNote')) : null,
      h('a', { href: noteDownload(note.id, 'markdown'), download: '', id: 'export-note-markdown', className: 'quiet-button' }, t('exportNoteMarkdown')),
      h('a', { href: noteDownload(note.id, 'pdf'), download: '', id: 'export-note-pdf', className: 'quiet-button' }, t('exportNotePDF')),
      h('button', { type: 'button', className: 'quiet', id: 'print-note', onclick: () => act(print) }, t('printNote'))));
  const act = async (action) => {
    menu.open = false;
    try {
      await flush();
      await action(note.id);
    } catch (error) {
      toast(errorText(error));
    }
  };
  for (const control of first) {
    control.addEventListener(control.tagName === 'BUTTON' ? 'click' : 'change', () => { menu.open = false; });
  }
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && menu.open) {
      event.stopPropagation();
      menu.open = false;
      menu.querySelector('summary').focus();
    }
  });
  return menu;
}

/** Makes a copy of the note and opens it. */
async function duplicate(noteId) {
  const copy = await api.duplicateNote(noteId);
  toast(t('noteDuplicated'));
  navigate({ note: copy.id });
}

/** Prints the note as its preview shows it, without the app around it. */
async function print(noteId) {
  const note = await api.note(noteId);
  let area = document.getElementById('print-area');
  if (!area) area = document.body.appendChild(h('article', { id: 'print-area', className: 'print-area' }));
  const content = h('div', { className: 'preview' });
  content.innerHTML = note.html; // sanitized by the server, as the preview's is
  replaceChildren(area, h('h1', {}, note.title || t('untitled')), content);
  window.print();
}
