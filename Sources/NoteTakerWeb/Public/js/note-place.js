// Moving a note between the account's own notes and its shares (docs/sharing.md §3.5): the
// choices the note's folder menu adds, and the move itself, which that menu and a note dropped
// on the sidebar both use. Its tags, files and whole history go with it.
import { api } from './api.js';
import { h, toast } from './dom.js';
import { shareName } from './share-dialog.js';
import { flatFolders, sidebarData } from './sidebar.js';
import { currentRoute, navigate, noSearch } from './state.js';
import { t } from './strings.js';

/** The shared folders a note can move into from the share shown (`here`, null: the account's own notes): those this account may edit. */
export function movableShares(here = currentRoute().share) {
  return sidebarData.shares.filter((share) => share.accepted && share.kind === 'folder' && share.role !== 'viewer' && share.zone !== here);
}

/**
 * The folder menu's options that take a note elsewhere: to the account's own notes (from a
 * share), and into each shared folder this account may edit. Their values start with `own:`
 * or `share:` (``placeOf`` reads them).
 */
export function placeOptions() {
  const here = currentRoute().share;
  const groups = [];
  if (here) {
    groups.push(h('optgroup', { label: t('moveToOwnNotes') },
      h('option', { value: 'own:' }, t('ownNotesNoFolder')),
      flatFolders(sidebarData.folders).map(({ folder, depth }) => h('option', { value: `own:${folder.id}` }, `${'\u2003'.repeat(depth)}${folder.name}`))));
  }
  const shares = movableShares(here);
  if (shares.length) {
    groups.push(h('optgroup', { label: t('moveToShare') }, shares.map((share) => h('option', { value: `share:${share.zone}` }, shareName(share)))));
  }
  return groups;
}

/** Where an option of ``placeOptions`` moves a note (`{ toShare, folderId }`), or null for a folder where the note is. */
export function placeOf(value) {
  if (value.startsWith('share:')) return { toShare: value.slice('share:'.length), folderId: null };
  if (value.startsWith('own:')) return { toShare: null, folderId: value.slice('own:'.length) || null };
  return null;
}

/**
 * Moves note `id` from where the page is to `place` (`toShare`: a share's zone, null for the
 * account's own notes; `folderId` there, null for the shared folder's top or no folder), says
 * so, and follows the note there when it is the one open. Returns the note where it now is.
 */
export async function moveNoteTo(id, place) {
  const moved = await api.moveNote(id, place);
  const share = place.toShare ? sidebarData.shares.find((candidate) => candidate.zone === place.toShare) : null;
  const done = share ? t('noteMovedToShare', { name: shareName(share) }) : t('noteMovedToOwn');
  toast(moved.syncProblem ? `${done} ${t('noteMoveNotSynced', { reason: moved.syncProblem })}` : done);
  if (currentRoute().note === id) {
    navigate({ share: place.toShare, view: place.folderId ? 'folder' : 'all', id: place.folderId, note: id, ...noSearch });
  }
  return moved.note;
}
