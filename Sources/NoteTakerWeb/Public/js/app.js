// The app: strings, routes, live updates and the keyboard shortcuts that hold it together.
import { errorText } from './api.js';
import { applyTheme } from './appearance.js';
import { debounce, toast } from './dom.js';
import { currentNoteId, newNote, openNote, refreshEditorMenus, refreshEditorMeta, refreshOpenNote, setUpEditor } from './editor.js';
import { redrawList, refreshList, renderListTitle, renderSearchFilters, setUpList } from './notelist.js';
import { importDropped, openSettings, refreshSettingsSync } from './settings.js';
import { closeSidebarOnPhone, openFolderDialog, refreshShares, refreshSidebar, renderSidebar, setUpFolderDialog } from './sidebar.js';
import { currentRoute, navigate, noSearch, onRouteChange } from './state.js';
import { applyStrings, loadStrings, t } from './strings.js';
import { refreshSyncStatus, syncConfigured } from './syncstatus.js';
import { setUpTagActions } from './tags.js';

let shownList = null;
let shownPlace = null;
let shownShare = null;

async function show(route, source = 'history') {
  document.body.dataset.view = route.view;
  // Another view, list or note starts at its top, not where the last one was scrolled to.
  const place = JSON.stringify([route.view, route.id, route.note]);
  if (place !== shownPlace) {
    shownPlace = place;
    window.scrollTo(0, 0);
  }
  document.body.classList.toggle('note-open', Boolean(route.note) || route.view === 'settings');
  renderSidebar();
  // The search field follows the address only when the address changed by itself (back,
  // forward, a link); the app's own navigation never overwrites what is being typed.
  const search = document.getElementById('search-input');
  if (source === 'history') search.value = route.view === 'search' ? route.q : '';
  else if (route.view !== 'search' && document.activeElement !== search) search.value = '';
  renderSearchFilters();
  const listKey = JSON.stringify([route.view, route.id, route.q, route.tag, route.folder, route.pinned, route.contains, route.share]);
  const work = [];
  if (route.share !== shownShare) {
    // Another share (or the account's own notes): its folders, and its changes live.
    shownShare = route.share;
    work.push(refreshSidebar());
    listen();
  }
  if (route.view !== 'settings' && listKey !== shownList) {
    shownList = listKey;
    work.push(refreshList());
  } else if (route.view !== 'settings') {
    for (const link of document.querySelectorAll('#note-list .note-link')) {
      link.setAttribute('aria-current', link.dataset.noteId === route.note ? 'true' : 'false');
    }
  }
  if (route.view === 'settings') {
    shownList = null;
    work.push(openSettings());
  } else if (route.note !== currentNoteId() || !route.note) {
    work.push(openNote(route.note));
  }
  try {
    await Promise.all(work);
  } catch (error) {
    toast(errorText(error));
  }
  document.body.dataset.ready = 'true';
}

const refresh = debounce(async () => {
  try {
    await Promise.all([refreshSidebar(), refreshList({ keep: true }), refreshOpenNote(), refreshSyncStatus()]);
  } catch {
    // The next event or reconnect refreshes again.
  }
}, 100);
const syncChanged = debounce(() => Promise.all([refreshSyncStatus(), refreshShares()]).catch(() => {}), 100);
let events = null;

/**
 * Live updates: the server says something changed; refetch what is on screen. Listens to the
 * account's store, and to the share the page shows (connected again when it shows another).
 */
function listen() {
  if (!document.body.dataset.ready) return;
  events?.close();
  const share = currentRoute().share;
  events = new EventSource(`/api/v1/events${share ? `?share=${encodeURIComponent(share)}` : ''}`);
  events.addEventListener('change', refresh);
  events.addEventListener('sync', syncChanged);
  events.addEventListener('open', () => document.body.dataset.live = 'true');
  events.addEventListener('error', () => document.body.dataset.live = 'false');
}

function isTyping(target) {
  return target.isContentEditable || target.closest('input, textarea, select') !== null;
}

function setUpShortcuts() {
  document.addEventListener('keydown', (event) => {
    if (event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyN') {
      event.preventDefault();
      newNote();
    } else if (event.key === '/' && !isTyping(event.target) && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      document.getElementById('search-input').focus();
    }
  });
}

function setUpSearch() {
  const input = document.getElementById('search-input');
  const search = debounce((text) => {
    if (text.trim()) navigate({ view: 'search', id: null, q: text, note: null }, { replace: currentRoute().view === 'search' });
    else if (currentRoute().view === 'search') navigate({ view: 'all', ...noSearch, note: null });
  }, 150);
  input.addEventListener('input', () => search(input.value));
  document.getElementById('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    search.cancel();
    if (input.value.trim()) navigate({ view: 'search', id: null, q: input.value, note: null });
    document.querySelector('#note-list .note-link')?.focus();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      document.querySelector('#note-list .note-link')?.focus();
    } else if (event.key === 'Escape' && input.value) {
      input.value = '';
      search('');
    }
  });
}

function setUpMenu() {
  const toggle = document.getElementById('menu-toggle');
  toggle.addEventListener('click', () => {
    const open = !document.body.classList.contains('sidebar-open');
    document.body.classList.toggle('sidebar-open', open);
    toggle.setAttribute('aria-expanded', String(open));
    if (open) document.querySelector('#sidebar a')?.focus();
  });
  document.getElementById('sidebar').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      closeSidebarOnPhone();
      toggle.focus();
    }
  });
}

/** Files dropped anywhere but on an open note (which attaches them) are imported. */
function setUpImportDrop() {
  window.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  window.addEventListener('drop', (event) => {
    if (event.defaultPrevented || !event.dataTransfer?.files.length) return;
    event.preventDefault();
    importDropped([...event.dataTransfer.files]);
  });
}

async function start() {
  applyTheme();
  await loadStrings();
  applyStrings();
  document.getElementById('new-note').addEventListener('click', newNote);
  document.querySelector('.skip-link').addEventListener('click', (event) => {
    event.preventDefault();
    (document.getElementById('note-body') ?? document.getElementById('editor-region')).focus();
  });
  document.getElementById('new-folder').addEventListener('click', () => openFolderDialog());
  document.addEventListener('sidebar-changed', () => {
    renderSearchFilters();
    renderListTitle();
    redrawList();
    refreshEditorMenus();
  });
  let listShowsSync = false;
  document.addEventListener('sync-changed', () => {
    refreshSettingsSync();
    refreshEditorMeta();
    if (syncConfigured() !== listShowsSync) {
      listShowsSync = syncConfigured();
      if (currentRoute().view !== 'settings') refreshList({ keep: true }).catch(() => {});
    }
  });
  document.addEventListener('note-reload', () => openNote(currentRoute().note));
  document.addEventListener('shares-changed', () => Promise.all([refreshShares(), refresh()]).catch(() => {}));
  setUpFolderDialog();
  setUpList();
  setUpTagActions();
  setUpEditor();
  setUpImportDrop();
  setUpSearch();
  setUpShortcuts();
  setUpMenu();
  onRouteChange(show);
  // The sidebar, the sync state and the list load side by side; the sidebar redraws when it arrives.
  shownShare = currentRoute().share;
  // A share's note opens knowing this account's role in it (a viewer's is read-only).
  const shares = shownShare ? await refreshShares() : refreshShares();
  await Promise.all([refreshSidebar(), shares, refreshSyncStatus(), show(currentRoute())]);
  performance.mark('notetaker-ready');
  listen();
}

start().catch((error) => toast(error.message ?? String(error)));
