// The sidebar: smart lists, the folder tree with counts (create, rename, move by drag or by
// the folder dialog, delete) and the tags with counts.
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { h, replaceChildren, toast } from './dom.js';
import { currentRoute, navigate, noSearch } from './state.js';
import { t } from './strings.js';

export const sidebarData = { folders: [], tags: [], counts: {} };

/** Every folder, depth first, with its depth: for menus. */
export function flatFolders(folders = sidebarData.folders, depth = 0, into = []) {
  for (const folder of folders) {
    into.push({ folder, depth });
    flatFolders(folder.children, depth + 1, into);
  }
  return into;
}

export async function refreshSidebar() {
  const [sidebar, tags] = await Promise.all([api.sidebar(), api.tags()]);
  sidebarData.folders = sidebar.folders;
  sidebarData.tags = tags;
  sidebarData.counts = { all: sidebar.allNotes, pinned: sidebar.pinnedNotes, recent: sidebar.recentNotes, trash: sidebar.trashedNotes };
  renderSidebar();
  document.dispatchEvent(new CustomEvent('sidebar-changed'));
}

function isCurrent(route, view, id = null) {
  return route.view === view && (id === null || route.id === id);
}

function navLink(label, count, route, view, id = null, extra = {}) {
  return h('a', {
    href: '#', 'aria-current': isCurrent(route, view, id) ? 'page' : null,
    onclick: (event) => {
      event.preventDefault();
      navigate({ view, id, note: null, ...noSearch });
      closeSidebarOnPhone();
    },
    ...extra,
  }, h('span', { className: 'nav-name', title: label }, label), count === null ? null : h('span', { className: 'count' }, String(count)));
}

export function renderSidebar() {
  const route = currentRoute();
  const { counts } = sidebarData;
  replaceChildren(document.getElementById('smart-lists'),
    h('li', {}, navLink(t('allNotes'), counts.all ?? 0, route, 'all', null, dropTarget(null))),
    h('li', {}, navLink(t('pinned'), counts.pinned ?? 0, route, 'pinned')),
    h('li', {}, navLink(t('recent'), counts.recent ?? 0, route, 'recent')),
    h('li', {}, navLink(t('trash'), counts.trash ?? 0, route, 'trash')));
  replaceChildren(document.getElementById('folder-tree'), sidebarData.folders.map((folder) => folderItem(folder, route)));
  if (sidebarData.folders.length === 0) {
    document.getElementById('folder-tree').append(h('li', { className: 'hint' }, t('noFolders')));
  }
  replaceChildren(document.getElementById('tag-list'), sidebarData.tags.map((tag) =>
    h('li', {}, h('a', {
      href: '#', 'aria-current': route.view === 'tag' && route.id === tag.name ? 'page' : null,
      onclick: (event) => {
        event.preventDefault();
        navigate({ view: 'tag', id: tag.name, note: null, q: '' });
        closeSidebarOnPhone();
      },
    }, h('span', { className: 'nav-name', title: `#${tag.name}` }, `#${tag.name}`), h('span', { className: 'count' }, String(tag.noteCount))))));
  if (sidebarData.tags.length === 0) document.getElementById('tag-list').append(h('li', { className: 'hint' }, t('noTags')));
}

function folderItem(folder, route) {
  const link = navLink(folder.name, folder.totalNoteCount, route, 'folder', folder.id, {
    draggable: 'true',
    title: folder.path,
    ondragstart: (event) => {
      event.dataTransfer.setData('application/x-notetaker-folder', folder.id);
      event.dataTransfer.effectAllowed = 'move';
    },
    ...dropTarget(folder.id),
  });
  const actions = h('button', {
    type: 'button', className: 'quiet small folder-actions', 'aria-label': t('folderActionsFor', { name: folder.name }),
    title: t('folderActions'), onclick: () => openFolderDialog(folder),
  }, t('folderActionsShort'));
  if (!folder.children.length) return h('li', {}, h('div', { className: 'folder-row' }, h('span', { className: 'folder-toggle-space' }), link, actions));
  const collapsed = collapsedFolders().has(folder.id);
  const children = h('ul', { className: 'nav-list', id: `folder-children-${folder.id}`, hidden: collapsed },
    folder.children.map((child) => folderItem(child, route)));
  const toggle = h('button', {
    type: 'button', className: 'folder-toggle', 'aria-expanded': String(!collapsed), 'aria-controls': children.id,
    'aria-label': t(collapsed ? 'expandFolder' : 'collapseFolder', { name: folder.name }),
    onclick: () => setCollapsed(folder.id, !collapsedFolders().has(folder.id)),
  }, collapsed ? '▸' : '▾');
  return h('li', {}, h('div', { className: 'folder-row' }, toggle, link, actions), children);
}

/** The folders collapsed in the sidebar, kept in this browser. */
function collapsedFolders() {
  try {
    return new Set(JSON.parse(localStorage.getItem('notetaker.collapsedFolders') ?? '[]'));
  } catch {
    return new Set();
  }
}

function setCollapsed(id, collapsed) {
  const folders = collapsedFolders();
  if (collapsed) folders.add(id); else folders.delete(id);
  localStorage.setItem('notetaker.collapsedFolders', JSON.stringify([...folders]));
  renderSidebar();
  document.querySelector(`[aria-controls="folder-children-${id}"]`)?.focus();
}

/** Lets notes and folders be dropped on a folder (or on "All notes", which unfiles). */
function dropTarget(folderId) {
  return {
    ondragover: (event) => {
      const types = event.dataTransfer.types;
      if (types.includes('application/x-notetaker-note') || (folderId !== undefined && types.includes('application/x-notetaker-folder'))) {
        event.preventDefault();
        event.currentTarget.classList.add('drop-target');
      }
    },
    ondragleave: (event) => event.currentTarget.classList.remove('drop-target'),
    ondrop: async (event) => {
      event.preventDefault();
      event.currentTarget.classList.remove('drop-target');
      const noteId = event.dataTransfer.getData('application/x-notetaker-note');
      const movedFolder = event.dataTransfer.getData('application/x-notetaker-folder');
      try {
        if (noteId) {
          await api.updateNote(noteId, { folderId });
          toast(t('noteMoved'));
        } else if (movedFolder && movedFolder !== folderId) {
          await api.updateFolder(movedFolder, { parentId: folderId });
          toast(t('folderMoved'));
        }
      } catch (error) {
        toast(errorText(error));
      }
    },
  };
}

export function closeSidebarOnPhone() {
  document.body.classList.remove('sidebar-open');
  document.getElementById('menu-toggle').setAttribute('aria-expanded', 'false');
}

// The folder dialog: a new folder, or rename / move / delete an existing one.
let editingFolder = null;

export function openFolderDialog(folder = null) {
  editingFolder = folder;
  const dialog = document.getElementById('folder-dialog');
  document.getElementById('folder-dialog-title').textContent = folder ? t('editFolderTitle', { name: folder.name }) : t('newFolderTitle');
  document.getElementById('folder-name').value = folder ? folder.name : '';
  document.getElementById('folder-error').textContent = '';
  document.getElementById('folder-delete').hidden = !folder;
  const parent = document.getElementById('folder-parent');
  const excluded = folder ? new Set(flatFolders([folder]).map(({ folder: f }) => f.id)) : new Set();
  const currentParent = folder ? folder.parentId : (currentRoute().view === 'folder' ? currentRoute().id : null);
  replaceChildren(parent, h('option', { value: '' }, t('topLevel')),
    flatFolders().filter(({ folder: f }) => !excluded.has(f.id)).map(({ folder: f, depth }) =>
      h('option', { value: f.id, selected: f.id === currentParent }, `${'\u2003'.repeat(depth)}${f.name}`)));
  dialog.showModal();
  document.getElementById('folder-name').focus();
}

export function setUpFolderDialog() {
  const dialog = document.getElementById('folder-dialog');
  const error = document.getElementById('folder-error');
  document.getElementById('folder-cancel').addEventListener('click', () => dialog.close());
  document.getElementById('folder-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = document.getElementById('folder-name').value.trim();
    const parentId = document.getElementById('folder-parent').value || null;
    try {
      if (!editingFolder) {
        const created = await api.createFolder({ name, parentId });
        toast(t('folderCreated', { name: created.name }));
      } else {
        if (name !== editingFolder.name) await api.updateFolder(editingFolder.id, { name });
        if (parentId !== (editingFolder.parentId ?? null)) await api.updateFolder(editingFolder.id, { parentId });
      }
      dialog.close();
      await refreshSidebar();
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
  document.getElementById('folder-delete').addEventListener('click', async () => {
    if (!editingFolder || !(await ask(t('confirmDeleteFolder', { name: editingFolder.name }), t('deleteFolder'), { danger: true }))) return;
    try {
      await api.deleteFolder(editingFolder.id);
      if (currentRoute().view === 'folder' && currentRoute().id === editingFolder.id) navigate({ view: 'all', id: null });
      dialog.close();
      await refreshSidebar();
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
}
