// The sidebar: smart lists, the folder tree with counts (create, rename, move by drag or by
// the folder dialog, delete), the tags with counts, and the shares (with the folders of the
// one shown) and invitations.
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { h, replaceChildren, toast } from './dom.js';
import { movableShares, moveNoteTo } from './note-place.js';
import { openShareDialog, shareName, shareOrigin } from './share-dialog.js';
import { currentRoute, navigate, noSearch } from './state.js';
import { t } from './strings.js';

/** What the sidebar shows; `shareFolders` and `shareTrash`: the folder tree and the count in the trash of the share the page shows. */
export const sidebarData = { folders: [], tags: [], counts: {}, shares: [], canShare: false, sharesOffline: false, shareFolders: [], shareTrash: 0 };

/** The folders of the place the page shows: the share's, or the account's. */
export function currentFolders() {
  return currentRoute().share ? sidebarData.shareFolders : sidebarData.folders;
}

/** The share the page shows, as listed; `null` in the account's own notes. */
export function currentShare() {
  const zone = currentRoute().share;
  return zone ? sidebarData.shares.find((share) => share.zone === zone) ?? null : null;
}

/** Whether the page shows a share this account may only view. */
export function viewOnly() {
  return currentShare()?.role === 'viewer';
}

/** Every folder, depth first, with its depth: for menus. */
export function flatFolders(folders = currentFolders(), depth = 0, into = []) {
  for (const folder of folders) {
    into.push({ folder, depth });
    flatFolders(folder.children, depth + 1, into);
  }
  return into;
}

export async function refreshSidebar() {
  const share = currentRoute().share;
  const [sidebar, tags, shared] = await Promise.all([api.sidebar(), api.tags(), share ? api.sidebar(share).catch(() => null) : null]);
  sidebarData.folders = sidebar.folders;
  sidebarData.tags = tags;
  sidebarData.counts = { all: sidebar.allNotes, pinned: sidebar.pinnedNotes, recent: sidebar.recentNotes, trash: sidebar.trashedNotes };
  sidebarData.shareFolders = shared?.folders ?? [];
  sidebarData.shareTrash = shared?.trashedNotes ?? 0;
  renderSidebar();
  document.dispatchEvent(new CustomEvent('sidebar-changed'));
}

/** Lists the shares and invitations again (when they change, not on every edit: it asks the server). */
export async function refreshShares() {
  try {
    const listed = await api.shares();
    sidebarData.shares = listed.shares;
    sidebarData.canShare = listed.canShare;
    sidebarData.sharesOffline = listed.offline;
  } catch {
    // No account, or one that cannot share: no shares to show.
    sidebarData.shares = [];
    sidebarData.canShare = false;
  }
  renderSidebar();
  document.dispatchEvent(new CustomEvent('sidebar-changed'));
}

function isCurrent(route, view, id = null, share = null) {
  return route.view === view && (id === null || route.id === id) && (route.share ?? null) === share;
}

function navLink(label, count, route, view, id = null, extra = {}, share = null) {
  return h('a', {
    href: '#', 'aria-current': isCurrent(route, view, id, share) ? 'page' : null,
    onclick: (event) => {
      event.preventDefault();
      navigate({ view, id, note: null, share, ...noSearch });
      closeSidebarOnPhone();
    },
    ...extra,
  }, h('span', { className: 'nav-name', title: label }, label), count === null ? null : h('span', { className: 'count' }, String(count)));
}

export function renderSidebar() {
  const route = currentRoute();
  // A share this account may only view takes no new notes or folders.
  document.getElementById('new-note').disabled = viewOnly();
  document.getElementById('new-folder').disabled = viewOnly();
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
      href: '#', 'aria-current': route.view === 'tag' && route.id === tag.name && !route.share ? 'page' : null,
      onclick: (event) => {
        event.preventDefault();
        navigate({ view: 'tag', id: tag.name, note: null, q: '', share: null });
        closeSidebarOnPhone();
      },
    }, h('span', { className: 'nav-name', title: `#${tag.name}` }, `#${tag.name}`), h('span', { className: 'count' }, String(tag.noteCount))))));
  if (sidebarData.tags.length === 0) document.getElementById('tag-list').append(h('li', { className: 'hint' }, t('noTags')));
  renderShares(route);
}

/** The shares: each accepted one a place of its own (its folders under it when shown), each invitation to accept or decline. */
function renderShares(route) {
  const { shares, canShare, sharesOffline } = sidebarData;
  document.getElementById('shares-section').hidden = !canShare && shares.length === 0;
  const items = shares.map((share) => share.accepted ? shareItem(share, route) : invitationItem(share));
  if (!items.length) items.push(h('li', { className: 'hint' }, t('noShares')));
  if (sharesOffline) items.push(h('li', { className: 'hint' }, t('sharesOffline')));
  replaceChildren(document.getElementById('share-list'), items);
}

function shareItem(share, route) {
  // A note dropped on a shared folder goes to its top.
  const drop = share.kind === 'folder' ? dropTarget(share.root, share.zone) : {};
  const link = navLink(shareName(share), null, route, 'all', null, { title: shareOrigin(share), dataset: { zone: share.zone }, ...drop }, share.zone);
  link.prepend(h('span', { className: 'shared-mark', 'aria-hidden': 'true' }, '⇄'));
  link.append(h('span', { className: 'share-origin' }, shareOrigin(share)));
  const actions = h('button', {
    type: 'button', className: 'quiet small folder-actions share-actions', 'aria-label': t('shareActionsFor', { name: shareName(share) }),
    title: t('shareActions'), onclick: () => openShareDialog({ share }),
  }, t('folderActionsShort'));
  const shown = route.share === share.zone;
  // A shared folder is the one folder at its share's top: its subfolders are listed under the share.
  const folders = shown ? sidebarData.shareFolders.flatMap((folder) => share.kind === 'folder' ? folder.children : [folder]) : [];
  // The share's own trash: its notes trashed by any member, restored from there.
  const trash = shown ? h('li', { className: 'share-trash' }, navLink(t('trash'), sidebarData.shareTrash, route, 'trash', null, {}, share.zone)) : null;
  return h('li', {}, h('div', { className: 'folder-row' }, h('span', { className: 'folder-toggle-space' }), link, actions),
    shown ? h('ul', { className: 'nav-list' }, folders.map((folder) => folderItem(folder, route, share.zone)), trash) : null);
}

function invitationItem(share) {
  const run = async (action) => {
    try {
      await action();
    } catch (error) {
      toast(errorText(error));
    }
  };
  return h('li', { className: 'invitation', dataset: { zone: share.zone } },
    h('p', {}, t(share.kind === 'note' ? 'invitationNote' : 'invitationFolder', { user: share.owner })),
    h('div', { className: 'invitation-buttons' },
      h('button', {
        type: 'button', className: 'small accept-share', onclick: () => run(async () => {
          const done = await api.acceptShare(share.zone);
          await refreshShares();
          toast(t('shareAccepted', { name: shareName(done.share ?? share) }));
          navigate({ view: 'all', id: null, note: null, share: share.zone, ...noSearch });
        }),
      }, t('acceptShare')),
      h('button', {
        type: 'button', className: 'quiet small decline-share', onclick: () => run(async () => {
          await api.leaveShare(share.zone);
          await refreshShares();
          toast(t('shareDeclined'));
        }),
      }, t('declineShare'))));
}

function folderItem(folder, route, share = null) {
  const link = navLink(folder.name, folder.totalNoteCount, route, 'folder', folder.id, {
    draggable: 'true',
    title: folder.path,
    ondragstart: (event) => {
      event.dataTransfer.setData('application/x-notetaker-folder', folder.id);
      event.dataTransfer.effectAllowed = 'move';
    },
    ...dropTarget(folder.id, share),
  }, share);
  const actions = h('button', {
    type: 'button', className: 'quiet small folder-actions', 'aria-label': t('folderActionsFor', { name: folder.name }),
    title: t('folderActions'), onclick: () => openFolderDialog(folder),
  }, t('folderActionsShort'));
  if (!folder.children.length) return h('li', {}, h('div', { className: 'folder-row' }, h('span', { className: 'folder-toggle-space' }), link, actions));
  const collapsed = collapsedFolders().has(folder.id);
  const children = h('ul', { className: 'nav-list', id: `folder-children-${folder.id}`, hidden: collapsed },
    folder.children.map((child) => folderItem(child, route, share)));
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

/**
 * Lets notes and folders be dropped on a folder (or on "All notes", which unfiles) of the
 * account's own notes or of share `share`. A note dropped in another place than the one shown
 * moves there (into a share, or out of one); folders move only within one place.
 */
function dropTarget(folderId, share = null) {
  const elsewhere = () => (currentRoute().share ?? null) !== share;
  return {
    ondragover: (event) => {
      const types = event.dataTransfer.types;
      const note = types.includes('application/x-notetaker-note')
        && (!elsewhere() || (!viewOnly() && (!share || movableShares().some((candidate) => candidate.zone === share))));
      if (note || (folderId !== undefined && !elsewhere() && types.includes('application/x-notetaker-folder'))) {
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
        if (noteId && elsewhere()) {
          await moveNoteTo(noteId, { toShare: share, folderId });
        } else if (noteId) {
          await api.updateNote(noteId, { folderId });
          toast(t('noteMoved'));
        } else if (movedFolder && movedFolder !== folderId && !elsewhere()) {
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
  document.getElementById('folder-share').hidden = !folder || !sidebarData.canShare || Boolean(currentRoute().share);
  const parent = document.getElementById('folder-parent');
  const excluded = folder ? new Set(flatFolders([folder]).map(({ folder: f }) => f.id)) : new Set();
  const share = currentShare();
  const currentParent = folder ? folder.parentId
    : (currentRoute().view === 'folder' ? currentRoute().id : (share?.kind === 'folder' ? share.root : null));
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
  document.getElementById('folder-share').addEventListener('click', () => {
    const folder = editingFolder;
    dialog.close();
    if (folder) openShareDialog({ item: { folderId: folder.id }, name: folder.name });
  });
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
