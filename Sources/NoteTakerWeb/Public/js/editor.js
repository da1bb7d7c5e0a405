// The editor: title and Markdown body, the formatting toolbar, a preview, autosave (with a
// copy on this device until the server has it, so a reload or a closed tab loses nothing),
// pin, move, tags with suggestions, attachments, sync state and the conflict view.
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { debounce, h, replaceChildren, toast } from './dom.js';
import { continueList, indentListItems } from './list-editing.js';
import { taskBoxAt, toggleTaskBox } from './live-markdown.js';
import { changedRange } from './note-text.js';
import { SaveCycle, baseOf } from './save-cycle.js';
import { LinkCompletion, followNoteLink, linkTo, renderBacklinks } from './note-links.js';
import { shortcutText, toolForEvent, tools } from './markdown-tools.js';
import { shareName, shareOrigin } from './share-dialog.js';
import { currentShare, flatFolders, sidebarData, viewOnly } from './sidebar.js';
import { currentRoute, navigate } from './state.js';
import { fileSize, keyNames, longDate, t } from './strings.js';
import { syncConfigured, syncView } from './syncstatus.js';
import { renderConflict } from './conflict.js';
import { refreshHistory, showHistory } from './history.js';
import { noteMenu } from './note-menu.js';
import { moveNoteTo, placeOf, placeOptions } from './note-place.js';
import { clearMatchHighlight, highlightMatches, markMatches, searchTerms } from './highlight.js';

const draftKey = (id) => `notetaker.draft.${id}`;
// `cycle` owns whether the text is edited and the base every save is sent with (see
// save-cycle.js); `saving` is the save request on its way, awaited before the next.
// At phone width the note's actions fold into its menu, beside Back to the list.
const phoneWidth = window.matchMedia('(max-width: 47.5em)'); // as app.css's phone layout
phoneWidth.addEventListener('change', () => { if (editor.note && editor.elements) renderActions(editor.note); });

const editor = { note: null, cycle: new SaveCycle(), saving: null, previewOn: false, focusTitle: false, elements: null, fresh: null, highlight: null };

/** Puts `text` in a field, keeping the caret and selection on the same characters. */
function replaceText(field, text) {
  const old = field.value;
  if (old === text) return;
  const { prefix, suffix } = changedRange(old, text);
  const moved = (offset) => (offset <= prefix ? offset
    : offset >= old.length - suffix ? offset + text.length - old.length : prefix + (text.length - prefix - suffix));
  const { selectionStart, selectionEnd } = field;
  if (document.activeElement === field && field.edit) {
    // Only what differs is replaced, as an edit: the undo history survives a merge.
    field.dataset.merging = 'true';
    field.edit(prefix, old.length - suffix, text.slice(prefix, text.length - suffix));
    delete field.dataset.merging;
  } else {
    field.value = text;
  }
  field.setSelectionRange(moved(selectionStart), moved(selectionEnd));
}

// The note the last `openNote` was asked for, and that call's number: an opening overtaken by
// a later one (another note clicked while the first was still coming) stops at its next step,
// so the later one's note is what shows.
const opening = { id: null, call: 0 };

/** The note open, or being opened. */
export function currentNoteId() {
  return opening.call ? opening.id : (editor.note?.id ?? null);
}

/** Shows a note (or the empty state) in the main area. */
export async function openNote(id) {
  const call = ++opening.call;
  opening.id = id ?? null;
  const overtaken = () => call !== opening.call;
  const main = document.getElementById('editor-region');
  if (editor.note && editor.note.id !== id) await discardIfLeftEmpty();
  if (overtaken()) return;
  if (!id) {
    editor.note = null;
    editor.elements = null;
    replaceChildren(main, h('div', { className: 'empty-editor' }, h('p', {}, t('noNoteSelected')),
      h('p', { className: 'hint' }, t('newNoteHint'))));
    return;
  }
  if (editor.note?.id !== id) await flush();
  if (overtaken()) return;
  let note;
  try {
    note = await api.note(id);
  } catch (error) {
    if (overtaken()) return;
    opening.id = null;
    editor.note = null;
    editor.elements = null;
    replaceChildren(main, h('div', { className: 'empty-editor' }, h('p', { role: 'alert' }, errorText(error))));
    return;
  }
  if (overtaken()) return;
  editor.note = note;
  editor.cycle.open(note);
  render(note);
  restoreDraft(note);
  // Opened from search results: the text and the preview show what was searched marked, the
  // text's first match in view (marked without changing the text; the first edit unmarks it).
  const route = currentRoute();
  editor.highlight = route.view === 'search' && route.q
    ? (route.contains ? { terms: [route.q], anywhere: true } : { terms: searchTerms(route.q), anywhere: false }) : null;
  clearMatchHighlight();
  if (editor.highlight?.terms.length) {
    setPreview(true);
    highlightMatches(editor.elements.body, editor.highlight.terms, editor.highlight)?.startContainer.parentElement?.scrollIntoView({ block: 'center' });
  }
}

/** Re-reads the open note after a change elsewhere, unless it has edits of its own. */
export async function refreshOpenNote() {
  if (!editor.note || !editor.cycle.settled) return;
  let note;
  try {
    note = await api.note(editor.note.id);
  } catch (error) {
    if (error.status === 404) navigate({ note: null });
    return;
  }
  if (!editor.cycle.reread(note)) return;
  const previous = editor.note;
  editor.note = note;
  if (note.modifiedAt === previous.modifiedAt && note.sync.status === previous.sync.status
      && JSON.stringify(note.attachments) === JSON.stringify(previous.attachments)) return;
  const { title, body } = editor.elements;
  if (note.trashedAt !== previous.trashedAt || note.sync.status === 'conflict' || previous.sync.status === 'conflict') return render(note);
  replaceText(title, note.title);
  replaceText(body, note.body);
  renderMeta(note);
  renderAttachments(note);
  if (editor.previewOn) showHTML(note.html);
  refreshHistory(editor.elements.history, note.id, restoreVersion);
}

/** Redraws the note's dates and sync state (the sync state arrived or changed). */
export function refreshEditorMeta() {
  if (editor.note && editor.elements) renderMeta(editor.note);
}

/** Redraws the folder menu and tag suggestions after the sidebar's folders and tags changed. */
export function refreshEditorMenus() {
  if (!editor.note || !editor.elements) return;
  const focused = document.activeElement?.id;
  renderActions(editor.note);
  renderTags(editor.note);
  if (focused) document.getElementById(focused)?.focus();
}

function render(note) {
  const main = document.getElementById('editor-region');
  // A note in the trash, or in a share this account may only view, is read, not changed.
  const trashed = Boolean(note.trashedAt) || viewOnly();
  const title = h('input', {
    id: 'note-title', className: 'note-title-input', value: note.title, maxlength: '1000', autocomplete: 'off',
    'aria-label': t('titleLabel'), placeholder: t('titlePlaceholder'), readonly: trashed,
  });
  const body = h('note-text', {
    id: 'note-body', className: 'note-body', 'aria-label': t('bodyLabel'), 'aria-placeholder': t('bodyPlaceholder'),
    spellcheck: 'true', readonly: trashed,
    dataset: { placeholderBold: t('placeholderBold'), placeholderItalic: t('placeholderItalic'), placeholderLink: t('placeholderLink'), placeholderCode: t('placeholderCode') },
  });
  body.value = note.body;
  const preview = h('div', {
    id: 'note-preview', className: 'preview markdown', 'aria-label': t('previewLabel'), role: 'region', hidden: true, onchange: tickTask,
    onclick: (event) => followNoteLink(event, { note: editor.note, replaceInText: linkCreatedNote }),
  });
  const linkChoices = h('ul', { id: 'link-suggestions', className: 'link-suggestions', role: 'listbox', 'aria-label': t('linkSuggestions'), hidden: true });
  const saveState = h('span', { id: 'save-state', className: 'save-state', role: 'status', 'aria-live': 'polite' }, t('saved'));
  const toolbar = trashed ? null : renderToolbar(body);
  const previewToggle = h('button', {
    type: 'button', id: 'preview-toggle', className: 'quiet', 'aria-pressed': 'false', title: `${keyNames().ctrl}+${keyNames().shift}+P`,
    onclick: () => togglePreview(),
  }, t('preview'));
  const fileInput = h('input', { type: 'file', id: 'file-input', multiple: true, hidden: true, onchange: (event) => upload([...event.target.files]) });
  editor.elements = { title, body, preview, saveState, previewToggle, meta: h('div', { className: 'note-meta-line' }), attachments: h('section', { className: 'attachments', 'aria-labelledby': 'attachments-heading' }),
    backlinks: h('section', { className: 'backlinks', 'aria-labelledby': 'backlinks-heading' }), tags: h('div', { className: 'tag-editor' }), actions: h('div', { className: 'note-actions' }),
    history: h('section', { id: 'history-panel', className: 'history-panel', hidden: true, 'aria-labelledby': 'history-heading' }) };
  const conflictPanel = note.sync.status === 'conflict' ? renderConflict(note) : null;
  replaceChildren(main,
    h('article', { className: 'editor', 'aria-labelledby': 'note-title-heading' },
      h('h2', { id: 'note-title-heading', className: 'visually-hidden' }, t('editorHeading')),
      note.trashedAt ? h('p', { className: 'notice' }, t('noteInTrash')) : null,
      !note.trashedAt && viewOnly() ? h('p', { className: 'notice', id: 'view-only-notice' }, t('viewOnlyNotice', { user: currentShare().owner })) : null,
      conflictPanel,
      editor.elements.actions,
      title,
      h('div', { className: 'editor-bar' }, toolbar, h('span', { className: 'spacer' }), saveState, previewToggle),
      linkChoices,
      h('div', { className: 'editor-panes' }, body, preview),
      editor.elements.history,
      editor.elements.tags,
      editor.elements.attachments,
      editor.elements.backlinks,
      editor.elements.meta,
      fileInput));
  title.addEventListener('input', changed);
  // Before the editor's own keys: while titles are offered, Enter, Tab and the arrows choose.
  if (!trashed) new LinkCompletion(body, linkChoices);
  body.addEventListener('input', changed);
  body.addEventListener('click', (event) => {
    // A click on a task's box ticks it, as in the preview.
    if (trashed || event.shiftKey || event.ctrlKey || event.metaKey || body.selectionStart !== body.selectionEnd) return;
    const box = taskBoxAt(body.value, body.selectionStart);
    if (box) toggleTaskBox(body, box);
  });
  body.addEventListener('paste', (event) => {
    // A pasted picture (a screenshot, an image copied from a page) is attached where the caret is.
    const files = [...(event.clipboardData?.files ?? [])].filter((file) => file.type.startsWith('image/'));
    if (!files.length || trashed) return;
    event.preventDefault();
    upload(files.map((file) => (file.name && file.name !== 'image.png' ? file
      : new File([file], `${t('pastedImage')} ${new Date().toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '.')}.${file.type.split('/')[1] || 'png'}`, { type: file.type }))));
  });
  title.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      body.focus();
    } else if (event.key === 'Escape') {
      leaveEditor();
    }
  });
  body.addEventListener('keydown', (event) => {
    const tool = toolForEvent(event);
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey && !event.isComposing;
    if (tool && !trashed) {
      event.preventDefault();
      tool.apply(body);
    } else if (plain && !trashed && event.key === 'Enter' && !event.shiftKey && continueList(body)) {
      event.preventDefault();
    } else if ((event.ctrlKey || event.metaKey) && event.key === 'Enter' && !trashed) {
      // Ctrl+Enter ticks or unticks the task on the caret's line.
      const box = taskBoxAt(body.value, body.selectionStart, true);
      if (box) {
        event.preventDefault();
        toggleTaskBox(body, box);
      }
    } else if (plain && !trashed && event.key === 'Tab' && indentListItems(body, event.shiftKey)) {
      // Tab indents list items; elsewhere (or after Escape) it moves on, as keyboard users expect.
      event.preventDefault();
    } else if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.code === 'KeyP') {
      event.preventDefault();
      togglePreview();
    } else if (event.key === 'Escape') {
      leaveEditor();
    }
  });
  renderActions(note);
  renderTags(note);
  renderAttachments(note);
  renderBacklinks(editor.elements.backlinks, note);
  renderMeta(note);
  if (editor.previewOn) setPreview(true);
  if (editor.focusTitle) {
    editor.focusTitle = false;
    title.focus();
  }
}

function renderToolbar(body) {
  const buttons = tools.map((tool, index) => h('button', {
    type: 'button', className: 'tool', tabindex: index === 0 ? '0' : '-1', dataset: { tool: tool.id },
    'aria-label': `${t(`tool_${tool.id}`)} (${shortcutText(tool, keyNames())})`, title: `${t(`tool_${tool.id}`)} (${shortcutText(tool, keyNames())})`,
    onclick: () => tool.apply(body),
  }, t(`toolShort_${tool.id}`)));
  const toolbar = h('div', { role: 'toolbar', className: 'toolbar', 'aria-label': t('toolbarLabel'), 'aria-controls': 'note-body' }, buttons);
  toolbar.addEventListener('keydown', (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const index = buttons.indexOf(document.activeElement);
    let next = event.key === 'Home' ? 0 : event.key === 'End' ? buttons.length - 1 : (index + step + buttons.length) % buttons.length;
    buttons.forEach((button, position) => button.setAttribute('tabindex', position === next ? '0' : '-1'));
    buttons[next].focus();
  });
  return toolbar;
}

function renderActions(note) {
  const trashed = Boolean(note.trashedAt);
  const folderSelect = h('select', { id: 'note-folder', 'aria-label': t('moveToFolder'), disabled: trashed, onchange: (event) => changeFolder(event.target.value) },
    h('option', { value: '' }, t('noFolder')),
    flatFolders().map(({ folder, depth }) => h('option', { value: folder.id, selected: folder.id === note.folderId }, `${'\u2003'.repeat(depth)}${folder.name}`)),
    placeOptions());
  const back = h('button', { type: 'button', className: 'quiet back-button', onclick: () => navigate({ note: null }) }, t('backToList'));
  const historyToggle = h('button', { type: 'button', id: 'history-toggle', className: 'quiet', 'aria-pressed': String(!editor.elements.history.hidden), 'aria-controls': 'history-panel', onclick: toggleHistory }, t('history'));
  if (viewOnly()) {
    replaceChildren(editor.elements.actions, [back, historyToggle, trashed ? null : noteMenu(note, flush)]);
    return;
  }
  if (trashed) {
    replaceChildren(editor.elements.actions, [back, h('button', { type: 'button', onclick: restore }, t('restore')),
      h('button', { type: 'button', className: 'quiet danger', onclick: purge }, t('deleteForever'))]);
    return;
  }
  const own = [h('button', { type: 'button', id: 'pin-toggle', className: 'quiet', 'aria-pressed': String(note.isPinned), onclick: () => saveMeta({ isPinned: !editor.note.isPinned }) }, note.isPinned ? t('unpin') : t('pin')),
    h('label', { className: 'inline-label' }, h('span', {}, t('folder')), folderSelect),
    historyToggle,
    h('button', { type: 'button', className: 'quiet', onclick: () => document.getElementById('file-input').click() }, t('attachFile'))];
  const trashButton = h('button', { type: 'button', id: 'trash-note', className: 'quiet danger', onclick: trash }, t('moveToTrash'));
  replaceChildren(editor.elements.actions, phoneWidth.matches
    ? [back, noteMenu(note, flush, [...own, trashButton])]
    : [back, ...own, noteMenu(note, flush), trashButton]);
}


function toggleHistory() {
  const panel = editor.elements.history;
  panel.hidden = !panel.hidden;
  document.getElementById('history-toggle')?.setAttribute('aria-pressed', String(!panel.hidden));
  if (!panel.hidden) showHistory(panel, editor.note.id, restoreVersion);
}

/** Restores a version: an ordinary edit, shown in place; the history then lists what it replaced. */
async function restoreVersion(version) {
  try {
    await flush();
    const note = await api.restoreVersion(editor.note.id, version);
    editor.note = note;
    editor.cycle.open(note);
    replaceText(editor.elements.title, note.title);
    replaceText(editor.elements.body, note.body);
    renderMeta(note);
    if (editor.previewOn) showHTML(note.html);
    toast(t('historyRestored'));
    showHistory(editor.elements.history, note.id, restoreVersion);
  } catch (error) {
    toast(errorText(error));
  }
}

function renderTags(note) {
  const trashed = Boolean(note.trashedAt);
  const input = h('input', { id: 'tag-input', list: 'tag-suggestions', autocomplete: 'off', placeholder: t('addTagPlaceholder'), 'aria-label': t('addTag'), readonly: trashed });
  input.addEventListener('keydown', (event) => {
    if ((event.key === 'Enter' || event.key === ',') && input.value.trim()) {
      event.preventDefault();
      const name = input.value.trim().replace(/^#/, '');
      input.value = '';
      saveMeta({ tags: [...editor.note.tags, name] }).then(() => document.getElementById('tag-input')?.focus());
    }
  });
  const chips = note.tags.map((tag) => h('li', { className: 'chip' }, `#${tag}`, trashed ? null : h('button', {
    type: 'button', className: 'chip-remove', 'aria-label': t('removeTag', { name: tag }), title: t('removeTag', { name: tag }),
    onclick: () => saveMeta({ tags: editor.note.tags.filter((other) => other !== tag) }),
  }, t('removeMark'))));
  replaceChildren(editor.elements.tags,
    h('ul', { className: 'chips', 'aria-label': t('tags') }, chips),
    input,
    h('datalist', { id: 'tag-suggestions' }, sidebarData.tags.filter((tag) => !note.tags.includes(tag.name)).map((tag) => h('option', { value: tag.name }))));
}

function renderAttachments(note) {
  const items = note.attachments.map((attachment) => h('li', { className: 'attachment' },
    attachment.kind === 'image'
      ? h('a', { href: attachment.url, target: '_blank', rel: 'noopener', className: 'attachment-picture' },
        h('img', { src: attachment.thumbnailUrl ?? attachment.url, alt: attachment.fileName, loading: 'lazy' }))
      : null,
    h('a', { href: `${attachment.url}?download=true`, download: attachment.fileName }, attachment.fileName),
    h('span', { className: 'hint' }, fileSize(attachment.fileSize)),
    note.trashedAt ? null : h('button', { type: 'button', className: 'quiet small', 'aria-label': t('removeAttachment', { name: attachment.fileName }), onclick: () => detach(attachment) }, t('remove'))));
  replaceChildren(editor.elements.attachments,
    h('h3', { id: 'attachments-heading' }, t('attachments')),
    items.length ? h('ul', { className: 'attachment-list' }, items) : h('p', { className: 'hint' }, t('noAttachments')));
}

function renderMeta(note) {
  const status = syncView(note.sync);
  replaceChildren(editor.elements.meta,
    h('span', {}, t('created', { date: longDate(note.createdAt) })),
    h('span', { id: 'note-modified' }, note.editedBy ? t('modifiedBy', { date: longDate(note.modifiedAt), author: note.editedBy }) : t('modified', { date: longDate(note.modifiedAt) })),
    currentShare() ? h('span', { id: 'note-share' }, '⇄ ', t('inShare', { name: shareName(currentShare()), origin: shareOrigin(currentShare()) })) : null,
    syncConfigured() ? h('span', { id: 'note-sync-status', className: `status status-${note.sync.status}` },
      status ?? t('syncSynced'), note.sync.errorMessage ? `: ${note.sync.errorMessage}` : '') : null);
  if (editor.elements.actions.querySelector('#pin-toggle')) {
    const pin = editor.elements.actions.querySelector('#pin-toggle');
    pin.setAttribute('aria-pressed', String(note.isPinned));
    pin.textContent = note.isPinned ? t('unpin') : t('pin');
  }
}

/** Esc in the title or the text: back to the note in the list (the next key goes there). */
function leaveEditor() {
  const target = document.querySelector('#note-list [aria-current="true"]') ?? document.querySelector('#note-list .note-link');
  if (target) target.focus(); else document.activeElement?.blur();
}

// Autosave: a copy on this device at every keystroke, the server a moment later.
const saveSoon = debounce(() => save(), 600);
const previewSoon = debounce(() => renderPreview(), 250);

function changed(event) {
  // A merge from elsewhere put in the text is not a change of this page's.
  if (!editor.note || event?.target?.dataset?.merging) return;
  editor.highlight = null;
  clearMatchHighlight();
  editor.cycle.type();
  editor.elements.saveState.textContent = t('unsaved');
  keepDraftSoon();
  saveSoon();
  if (editor.previewOn) previewSoon();
}

// The draft kept in this browser until the server has the text: written when the page is
// next idle (within 200 ms), so a keystroke is painted without waiting for it, and at once
// before leaving the note or the page.
const whenIdle = window.requestIdleCallback ?? ((work) => setTimeout(work, 50));
const cancelIdle = window.cancelIdleCallback ?? clearTimeout;
let draftPending = null;

function keepDraftSoon() {
  draftPending ??= whenIdle(keepDraft, { timeout: 200 });
}

function keepDraft() {
  if (draftPending !== null) cancelIdle(draftPending);
  draftPending = null;
  if (!editor.note || !editor.elements) return;
  const { title, body } = editor.elements;
  const draft = editor.cycle.unsaved({ title: title.value, body: body.value });
  if (draft) localStorage.setItem(draftKey(editor.note.id), JSON.stringify(draft));
}

async function save() {
  if (!editor.note) return;
  if (editor.saving) {
    await editor.saving.catch(() => {}); // its failure is shown by the save that sent it
    return save();
  }
  const id = editor.note.id;
  const { title, body, saveState } = editor.elements;
  const sent = editor.cycle.begin({ title: title.value, body: body.value });
  if (!sent) return;
  saveState.textContent = t('saving');
  editor.saving = api.updateNote(id, sent);
  try {
    const note = await editor.saving;
    if (editor.note?.id !== id) return;
    editor.note = note;
    const draft = JSON.parse(localStorage.getItem(draftKey(id)) ?? 'null');
    if (draft && draft.title === sent.title && draft.body === sent.body) localStorage.removeItem(draftKey(id));
    switch (editor.cycle.saved(note)) {
      case 'conflict': // Texts that could not merge: the conflict view shows both.
        render(note);
        break;
      case 'merged': // The server may have merged in a change made elsewhere while this one was typed.
        replaceText(title, note.title);
        replaceText(body, note.body);
        break;
      default: // Typed on while saving: the next save starts from what was sent, and merges again.
    }
    saveState.textContent = editor.cycle.edited ? t('unsaved') : t('saved');
    renderMeta(note);
  } catch (error) {
    editor.cycle.failed();
    saveState.textContent = t('notSaved', { reason: errorText(error) });
    saveSoon();
  } finally {
    editor.saving = null;
  }
}

/** Saves now (before leaving a note or the page). */
export async function flush() {
  keepDraft();
  saveSoon.cancel();
  await save();
}

/** On a closed tab or reload: send what is unsaved with a request that outlives the page. */
function saveOnExit() {
  keepDraft();
  if (editor.note && editor.fresh === editor.note.id) discardIfLeftEmpty({ keepalive: true });
  if (!editor.note || !editor.elements) return;
  const { title, body } = editor.elements;
  const unsaved = editor.cycle.unsaved({ title: title.value, body: body.value });
  if (unsaved) api.updateNote(editor.note.id, unsaved, { keepalive: true }).catch(() => {});
}

function restoreDraft(note) {
  const draft = JSON.parse(localStorage.getItem(draftKey(note.id)) ?? 'null');
  if (!draft) return;
  if (draft.title === note.title && draft.body === note.body) {
    localStorage.removeItem(draftKey(note.id));
    return;
  }
  if (note.trashedAt) return;
  editor.elements.title.value = draft.title;
  editor.elements.body.value = draft.body;
  // Merged with what changed since the draft was typed (a draft without its base, from an
  // older version of the app, is merged as if made from the note as it is now).
  editor.cycle.type(draft.base ?? baseOf(note));
  changed();
  toast(t('draftRestored'));
}

/** The folder menu's choice: a folder where the note is, or a place elsewhere (``placeOf``). */
async function changeFolder(value) {
  const place = placeOf(value);
  if (!place) return saveMeta({ folderId: value || null }, t('noteMoved'));
  try {
    await flush();
    await moveNoteTo(editor.note.id, place);
  } catch (error) {
    toast(errorText(error));
    renderActions(editor.note);
  }
}

async function saveMeta(changes, message) {
  if (!editor.note) return;
  try {
    await flush();
    editor.note = await api.updateNote(editor.note.id, { ...changes, base: editor.cycle.base });
    editor.cycle.changedBesides(editor.note);
    renderActions(editor.note);
    renderTags(editor.note);
    renderMeta(editor.note);
    if (message) toast(message);
  } catch (error) {
    toast(errorText(error));
  }
}

function togglePreview() {
  setPreview(!editor.previewOn);
}

/** Shows or hides the preview beside the text (it stays as chosen from note to note). */
function setPreview(on) {
  editor.previewOn = on;
  const { preview, previewToggle, body } = editor.elements;
  preview.hidden = !on;
  previewToggle.setAttribute('aria-pressed', String(on));
  document.querySelector('.editor-panes')?.classList.toggle('split', on);
  if (!on) return;
  if (!editor.cycle.edited && body.value === editor.note.body) showHTML(editor.note.html); else renderPreview();
}

async function renderPreview() {
  try {
    const { html } = await api.render(editor.elements.body.value);
    showHTML(html);
  } catch (error) {
    toast(errorText(error));
  }
}

function showHTML(html) {
  const { preview } = editor.elements;
  preview.innerHTML = html; // sanitized by the server; the page's policy runs no inline script
  for (const box of preview.querySelectorAll('li.task > input[type="checkbox"]')) {
    const task = box.parentElement.textContent.trim();
    box.setAttribute('aria-label', t(box.checked ? 'taskDone' : 'taskOpen', { task }));
    if (editor.note?.trashedAt) box.disabled = true;
  }
  if (editor.highlight?.terms.length) markMatches(preview, editor.highlight.terms, editor.highlight)?.scrollIntoView({ block: 'center' });
}

/** A note made from a `[[Title]]` link: the link in the text becomes a link to it by id. */
function linkCreatedNote(title, created) {
  const { body } = editor.elements;
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`\\[\\[\\s*${escaped}\\s*(?:[#|][^\\]\\n]*)?\\]\\]`, 'i');
  const found = pattern.exec(body.value);
  if (!found) return;
  replaceText(body, body.value.slice(0, found.index) + linkTo(created) + body.value.slice(found.index + found[0].length));
  changed();
}

/** A box ticked in the preview: the task's line of the text changes, and saves as any edit. */
function tickTask(event) {
  const box = event.target;
  if (!box.matches('input[data-task]') || !editor.note) return;
  const { body } = editor.elements;
  const value = body.value;
  const lines = value.split('\n');
  const index = Number(box.dataset.task) - 1;
  const lineStart = lines.slice(0, Math.max(index, 0)).reduce((sum, line) => sum + line.length + 1, 0);
  const found = index >= 0 && index < lines.length ? taskBoxAt(value, lineStart, true) : null;
  if (!found) {
    // The text moved on since the preview was drawn: draw it again instead.
    renderPreview();
    return;
  }
  replaceText(body, value.slice(0, found.start) + (box.checked ? 'x' : ' ') + value.slice(found.start + 1));
  box.closest('li')?.classList.toggle('done', box.checked);
  changed();
}

async function upload(files) {
  if (!editor.note || editor.note.trashedAt) return;
  await flush();
  for (const file of files) {
    try {
      const attachment = await api.attach(editor.note.id, file);
      if (attachment.kind === 'image') {
        const { body } = editor.elements;
        body.edit(body.selectionStart, body.selectionEnd, `\n![${attachment.fileName.replace(/[[\]]/g, '')}](attachment:${attachment.id})\n`);
      }
      toast(t('attached', { name: attachment.fileName }));
    } catch (error) {
      toast(errorText(error));
    }
  }
  await flush();
  editor.note = await api.note(editor.note.id);
  renderAttachments(editor.note);
  if (editor.previewOn) renderPreview();
}

/** Files dropped anywhere on the open note are attached to it (elsewhere they are imported). */
export function setUpEditor() {
  const main = document.getElementById('editor-region');
  const noteShown = () => editor.note && document.body.dataset.view !== 'settings';
  main.addEventListener('dragover', (event) => {
    if (noteShown() && event.dataTransfer.types.includes('Files')) event.preventDefault();
  });
  main.addEventListener('drop', (event) => {
    if (!noteShown() || !event.dataTransfer.files.length) return;
    event.preventDefault();
    upload([...event.dataTransfer.files]);
  });
  window.addEventListener('pagehide', saveOnExit);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveOnExit();
  });
}

async function detach(attachment) {
  try {
    await api.detach(attachment.id);
    editor.note = await api.note(editor.note.id);
    renderAttachments(editor.note);
  } catch (error) {
    toast(errorText(error));
  }
}

async function trash() {
  const id = editor.note.id;
  await flush();
  try {
    await api.trashNote(id);
    navigate({ note: null });
    toast(t('movedToTrash'), {
      label: t('undo'),
      run: async () => {
        try {
          await api.restoreNote(id);
          navigate({ note: id });
        } catch (error) {
          toast(errorText(error));
        }
      },
    });
  } catch (error) {
    toast(errorText(error));
  }
}

async function restore() {
  try {
    await api.restoreNote(editor.note.id);
    toast(t('restored'));
    await openNote(editor.note.id);
  } catch (error) {
    toast(errorText(error));
  }
}

async function purge() {
  if (!(await ask(t('confirmDeleteForever'), t('deleteForever'), { danger: true }))) return;
  try {
    await api.purgeNote(editor.note.id);
    navigate({ note: null });
  } catch (error) {
    toast(errorText(error));
  }
}

/** Creates a note in the folder, tag or smart list being shown, and opens it. */
/** A new note left without a word is not kept (the server checks it holds nothing). */
async function discardIfLeftEmpty({ keepalive = false } = {}) {
  const { note, elements } = editor;
  if (!note || editor.fresh !== note.id || !elements) return;
  if (elements.title.value.trim() || elements.body.value.trim() || note.tags.length || note.attachments.length) return;
  editor.fresh = null;
  saveSoon.cancel();
  editor.cycle.discard();
  localStorage.removeItem(draftKey(note.id));
  try {
    await api.discardIfEmpty(note.id, { keepalive });
  } catch {
    // Not empty after all (written elsewhere meanwhile), or offline: the note stays.
  }
}

export async function newNote() {
  const route = currentRoute();
  // In a shared folder's own list, a new note goes into the shared folder.
  const share = currentShare();
  const draft = {
    folderId: route.view === 'folder' ? route.id : (share?.kind === 'folder' && share.root ? share.root : undefined),
    tags: route.view === 'tag' ? [route.id] : undefined,
    isPinned: route.view === 'pinned' || undefined,
  };
  try {
    const note = await api.createNote(draft);
    await discardIfLeftEmpty();
    editor.fresh = note.id;
    const view = ['trash', 'search', 'settings'].includes(route.view) ? 'all' : route.view;
    editor.focusTitle = true;
    navigate({ view, id: view === 'all' ? null : route.id, note: note.id, q: '' });
  } catch (error) {
    toast(errorText(error));
  }
}
