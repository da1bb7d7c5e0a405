// The note list: pinned first, then newest, a page at a time (more load as you scroll),
// or search results with highlighted snippets. Arrow keys move between notes.
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { h, replaceChildren, toast } from './dom.js';
import { currentShare, flatFolders, sidebarData } from './sidebar.js';
import { shareName, shareOrigin } from './share-dialog.js';
import { currentRoute, navigate, routeHash } from './state.js';
import { shortDate, t } from './strings.js';
import { syncView } from './syncstatus.js';

const pageSize = 50;
const searchMaximum = 500;
let loaded = [];
let nextOffset = null;
let generation = 0;
let searchLimit = pageSize;
let searchHasMore = false;

/** The list's sort and density, kept in this browser. */
const listPreferences = {
  get sort() { return localStorage.getItem('notetaker.sort') ?? 'modified'; },
  set sort(value) { localStorage.setItem('notetaker.sort', value); },
  get compact() { return localStorage.getItem('notetaker.compact') === 'true'; },
  set compact(value) { localStorage.setItem('notetaker.compact', String(value)); },
};

function filtersFor(route) {
  switch (route.view) {
    case 'pinned': return { pinned: true, sort: listPreferences.sort };
    case 'recent': return { recent: true, sort: listPreferences.sort };
    case 'trash': return { trash: true };
    case 'folder': return { folder: route.id, subfolders: true, sort: listPreferences.sort };
    case 'tag': return { tag: route.id, sort: listPreferences.sort };
    default: return { sort: listPreferences.sort };
  }
}

function titleFor(route) {
  switch (route.view) {
    case 'pinned': return t('pinned');
    case 'recent': return t('recent');
    case 'trash': return t('trash');
    case 'folder': return flatFolders().find(({ folder }) => folder.id === route.id)?.folder.name ?? t('folder');
    case 'tag': return `#${route.id}`;
    case 'search': return route.q ? t('resultsFor', { query: route.q }) : t('search');
    default: return currentShare() ? shareName(currentShare()) : t('allNotes');
  }
}

/** Sets the list's heading (a folder's name is known once the sidebar has loaded). */
export function renderListTitle() {
  const route = currentRoute();
  document.getElementById('list-title').textContent = titleFor(route);
  const share = currentShare();
  const origin = document.getElementById('list-share');
  origin.hidden = !share;
  origin.textContent = share ? `⇄ ${shareOrigin(share)} · ${t(share.role === 'viewer' ? 'youMayView' : 'youMayEdit')}` : '';
  document.getElementById('tag-actions').hidden = route.view !== 'tag';
}

/** Loads the list for the current route from the start; `keep` reloads as many notes as are shown (live updates). */
export async function refreshList({ keep = false } = {}) {
  const route = currentRoute();
  const mine = ++generation;
  renderListTitle();
  document.getElementById('search-filters').hidden = route.view !== 'search';
  document.getElementById('list-options').hidden = route.view === 'search' || route.view === 'trash';
  document.getElementById('list-count').textContent = '';
  if (route.view === 'search') {
    if (!keep) searchLimit = pageSize;
    return refreshSearch(route, mine);
  }
  const limit = keep ? Math.min(Math.max(loaded.length, pageSize), 500) : pageSize;
  const page = await api.notes({ ...filtersFor(route), limit });
  if (mine !== generation) return;
  loaded = page.notes;
  nextOffset = page.nextOffset;
  renderList(route);
}

export async function loadMore() {
  const route = currentRoute();
  if (route.view === 'search') {
    if (!searchHasMore) return;
    searchLimit = Math.min(searchLimit + pageSize, searchMaximum);
    return refreshSearch(route, generation);
  }
  if (nextOffset === null) return;
  const mine = generation;
  const page = await api.notes({ ...filtersFor(route), limit: pageSize, offset: nextOffset });
  if (mine !== generation) return;
  loaded = loaded.concat(page.notes);
  nextOffset = page.nextOffset;
  renderList(route);
}

async function refreshSearch(route, mine) {
  if (!route.q.trim()) {
    loaded = [];
    nextOffset = null;
    return renderList(route, [], t('searchHint'));
  }
  // One more than is shown says whether there are more.
  const found = await api.search({ q: route.q, tag: route.tag, folder: route.folder, pinned: route.pinned, contains: route.contains, limit: searchLimit + 1 });
  if (mine !== generation) return;
  searchHasMore = found.length > searchLimit;
  const hits = found.slice(0, searchLimit);
  loaded = hits.map((hit) => hit.note);
  nextOffset = null;
  renderList(route, hits);
  const count = document.getElementById('list-count');
  count.textContent = searchHasMore ? t('resultCountMore', { count: hits.length })
    : t('resultCount', { count: hits.length });
  document.getElementById('load-more').hidden = !searchHasMore || searchLimit >= searchMaximum;
}

let shown = { hits: null, hint: null };

/** Draws the list again as it is (the sidebar's folder names arrived or changed). */
export function redrawList() {
  if (loaded.some((note) => note.folderId)) renderList(currentRoute(), shown.hits, shown.hint);
}

function renderList(route, hits = null, hint = null) {
  shown = { hits, hint };
  const list = document.getElementById('note-list');
  // A redraw keeps the keyboard where it was.
  const focused = document.activeElement?.closest?.('#note-list .note-link')?.dataset.noteId;
  list.classList.toggle('compact', listPreferences.compact);
  const items = (hits ?? loaded).map((entry) => noteItem(hits ? entry.note : entry, route, hits ? entry.snippetHTML : null));
  replaceChildren(list, items);
  if (focused) list.querySelector(`.note-link[data-note-id="${focused}"]`)?.focus();
  const empty = document.getElementById('list-empty');
  empty.hidden = items.length > 0;
  empty.textContent = hint ?? (route.view === 'search' ? t('noResults') : route.view === 'trash' ? t('trashEmpty') : t('noNotes'));
  document.getElementById('load-more').hidden = nextOffset === null;
  if (route.view === 'trash' && items.length > 0) {
    list.append(h('li', { className: 'list-action' }, h('button', { type: 'button', className: 'quiet', onclick: emptyTrash }, t('emptyTrash'))));
  }
}

function noteItem(note, route, snippetHTML) {
  const preview = h('span', { className: snippetHTML === null ? 'note-preview' : 'note-preview snippet' });
  if (snippetHTML !== null) preview.innerHTML = snippetHTML; // escaped by the server, matches in <mark>
  else preview.textContent = note.firstLine;
  const status = syncView(note.sync);
  const link = h('a', {
    href: routeHash({ ...route, note: note.id }), className: 'note-link', draggable: 'true',
    'aria-current': route.note === note.id ? 'true' : null, dataset: { noteId: note.id },
    ondragstart: (event) => {
      event.dataTransfer.setData('application/x-notetaker-note', note.id);
      event.dataTransfer.effectAllowed = 'move';
    },
    onkeydown: moveFocus,
  },
  note.thumbnailUrl ? h('img', { className: 'note-thumb', src: note.thumbnailUrl, alt: '', loading: 'lazy', width: 48, height: 48 }) : null,
  h('span', { className: 'note-title' }, note.isPinned ? h('span', { className: 'pin-mark' }, t('pinnedMark')) : null,
    route.share ? h('span', { className: 'shared-mark', title: t('sharedMark') }, '⇄ ') : null, note.title || t('untitled')),
  preview,
  h('span', { className: 'note-meta' }, h('time', { datetime: note.modifiedAt }, shortDate(note.modifiedAt)),
    folderName(note, route) ? h('span', { className: 'note-folder' }, t('inFolder', { folder: folderName(note, route) })) : null,
    status ? h('span', { className: `status status-${note.sync.status}` }, status) : null,
    note.tags.length ? h('span', { className: 'note-tags' }, note.tags.map((tag) => `#${tag}`).join(' ')) : null));
  return h('li', {}, link);
}

/** The note's folder, unless the list is that folder's. */
function folderName(note, route) {
  if (!note.folderId || (route.view === 'folder' && route.id === note.folderId)) return null;
  return flatFolders().find(({ folder }) => folder.id === note.folderId)?.folder.name ?? null;
}

/** Up and down arrows (and j / k) move between notes in the list. */
function moveFocus(event) {
  const step = { ArrowDown: 1, ArrowUp: -1, j: 1, k: -1 }[event.key];
  if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
  const links = [...document.querySelectorAll('#note-list .note-link')];
  const index = links.indexOf(event.currentTarget);
  const next = links[index + step];
  if (next) {
    event.preventDefault();
    next.focus();
    next.click();
  }
}

async function emptyTrash() {
  if (!(await ask(t('confirmEmptyTrash'), t('emptyTrash'), { danger: true }))) return;
  try {
    await api.emptyTrash();
    navigate({ note: null });
  } catch (error) {
    toast(errorText(error));
  }
}

/** Fills the search filters' menus from the sidebar's tags and folders. */
export function renderSearchFilters() {
  const route = currentRoute();
  replaceChildren(document.getElementById('filter-tag'), h('option', { value: '' }, t('anyTag')),
    sidebarData.tags.map((tag) => h('option', { value: tag.name, selected: tag.name === route.tag }, `#${tag.name}`)));
  replaceChildren(document.getElementById('filter-folder'), h('option', { value: '' }, t('anyFolder')),
    flatFolders().map(({ folder, depth }) => h('option', { value: folder.id, selected: folder.id === route.folder }, `${'\u2003'.repeat(depth)}${folder.name}`)));
  document.getElementById('filter-pinned').checked = route.pinned;
  document.getElementById('filter-contains').checked = route.contains;
}

export function setUpList() {
  document.getElementById('load-more').addEventListener('click', () => loadMore().catch((error) => toast(errorText(error))));
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore().catch(() => {});
  }, { rootMargin: '400px' });
  observer.observe(document.getElementById('load-more'));
  document.getElementById('filter-tag').addEventListener('change', (event) => navigate({ tag: event.target.value }, { replace: true }));
  document.getElementById('filter-folder').addEventListener('change', (event) => navigate({ folder: event.target.value }, { replace: true }));
  document.getElementById('filter-pinned').addEventListener('change', (event) => navigate({ pinned: event.target.checked }, { replace: true }));
  document.getElementById('filter-contains').addEventListener('change', (event) => navigate({ contains: event.target.checked }, { replace: true }));
  const sort = document.getElementById('list-sort');
  sort.value = listPreferences.sort;
  sort.addEventListener('change', () => {
    listPreferences.sort = sort.value;
    refreshList().catch((error) => toast(errorText(error)));
  });
  const compact = document.getElementById('list-compact');
  compact.checked = listPreferences.compact;
  compact.addEventListener('change', () => {
    listPreferences.compact = compact.checked;
    document.getElementById('note-list').classList.toggle('compact', compact.checked);
  });
}
