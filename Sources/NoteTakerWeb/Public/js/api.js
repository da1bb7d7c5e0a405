// Calls to the app's JSON API (/api/v1). Errors carry a message ready to show: the server's,
// or words for what happened when it could not say (offline, an answer that is not the app's).

import { currentRoute } from './state.js';
import { currentLanguage, t } from './strings.js';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** What to tell the user of a failure: an API error's message, or "offline" words for any other. */
export function errorText(error) {
  return error?.message ?? t('offline');
}

/** A runner of a dialog's actions: each clears `problem` (its error line), and shows there why it failed. */
export function showingFailuresIn(problem) {
  return async (action) => {
    problem.textContent = '';
    try {
      await action();
    } catch (error) {
      problem.textContent = errorText(error);
    }
  };
}

/** The addresses that work in a share's notes when the page shows one (`?share=`). */
const sharedPaths = /^\/(notes|folders|tags|search|titles|attachments|trash|export)(\/|\?|$)/;

/** `path` in the share `options.share` (by default the one the page shows), when it takes one. */
function inShare(path, options) {
  const share = options.share === undefined ? currentRoute().share : options.share;
  if (!share || !sharedPaths.test(path)) return path;
  return `${path}${path.includes('?') ? '&' : '?'}share=${encodeURIComponent(share)}`;
}

async function call(method, path, body, options = {}) {
  path = inShare(path, options);
  // The server words its errors in the language the page speaks.
  const init = { method, headers: { 'Accept-Language': currentLanguage() }, keepalive: options.keepalive ?? false };
  if (body instanceof Blob) {
    init.body = body;
    init.headers['Content-Type'] = 'application/octet-stream';
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(`/api/v1${path}`, init);
  } catch {
    throw new ApiError(0, 'offline', t('offline'));
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data?.error ?? 'error', data?.message ?? t('serverError', { status: response.status }));
  }
  return data;
}

function query(parameters) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== '' && value !== false) search.set(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const api = {
  notes: (filters) => call('GET', `/notes${query(filters)}`),
  note: (id) => call('GET', `/notes/${id}`),
  createNote: (note) => call('POST', '/notes', note),
  updateNote: (id, changes, options) => call('PATCH', `/notes/${id}`, changes, options),
  moveNote: (id, place) => call('POST', `/notes/${id}/move`, place),
  versions: (id) => call('GET', `/notes/${id}/versions`),
  version: (id, version) => call('GET', `/notes/${id}/versions/${version}`),
  restoreVersion: (id, version) => call('POST', `/notes/${id}/versions/${version}/restore`),
  trashNote: (id) => call('DELETE', `/notes/${id}`),
  purgeNote: (id) => call('DELETE', `/notes/${id}?permanent=true`),
  discardIfEmpty: (id, options) => call('DELETE', `/notes/${id}?ifEmpty=true`, undefined, options),
  restoreNote: (id) => call('POST', `/notes/${id}/restore`),
  duplicateNote: (id) => call('POST', `/notes/${id}/duplicate`),
  publication: (id) => call('GET', `/notes/${id}/publication`),
  publishNote: (id) => call('POST', `/notes/${id}/publication`),
  unpublishNote: (id) => call('DELETE', `/notes/${id}/publication`),
  emptyTrash: () => call('DELETE', '/trash'),
  /** The folder tree and counts: the account's, or with `share` that share's. */
  sidebar: (share = null) => call('GET', '/folders', undefined, { share }),
  createFolder: (folder) => call('POST', '/folders', folder),
  updateFolder: (id, changes) => call('PATCH', `/folders/${id}`, changes),
  deleteFolder: (id) => call('DELETE', `/folders/${id}`),
  tags: () => call('GET', '/tags', undefined, { share: null }),
  titles: (prefix) => call('GET', `/titles${query({ prefix, limit: 8 })}`),
  backlinks: (id) => call('GET', `/notes/${id}/backlinks`),
  renameTag: (name, into) => call('PATCH', `/tags/${encodeURIComponent(name)}`, { name: into }),
  deleteTag: (name) => call('DELETE', `/tags/${encodeURIComponent(name)}`),
  search: (parameters) => call('GET', `/search${query(parameters)}`),
  render: (markdown) => call('POST', '/render', { markdown }),
  attach: (noteId, file) => call('POST', `/notes/${noteId}/attachments${query({ name: file.name })}`, file),
  detach: (id) => call('DELETE', `/attachments/${id}`),
  importFile: (file, progress) => call('POST', `/import${query({ name: file.name, progress })}`, file),
  /** One file of several imported as one folder (`path` inside it); the `last` answers the report. */
  importBatchFile: (batch, file, path, last, progress) =>
    call('POST', `/import${query({ batch, path, last: last && 'true', progress: last && progress })}`, file),
  /** How far the import given the progress id `id` has got. */
  importProgress: (id) => call('GET', `/import/progress${query({ id })}`),
  stats: () => call('GET', '/stats'),
  preferences: () => call('GET', '/preferences'),
  setPreferences: (preferences) => call('PUT', '/preferences', preferences),
  syncStatus: () => call('GET', '/sync'),
  connect: (account) => call('POST', '/sync/account', account),
  recover: (recovery) => call('POST', '/sync/account/recover', recovery),
  newRecoveryCode: (password) => call('POST', '/sync/account/recovery-code', { password }),
  rotateKeys: (password) => call('POST', '/sync/account/rotate-keys', { password }),
  lock: () => call('POST', '/sync/account/lock'),
  unlock: (password) => call('POST', '/sync/account/unlock', { password }),
  disconnect: () => call('DELETE', '/sync/account'),
  sessions: () => call('GET', '/sync/sessions'),
  endSession: (id) => call('DELETE', `/sync/sessions/${encodeURIComponent(id)}`),
  changePassword: (change) => call('PUT', '/sync/account/password', change),
  encryptAccount: (change) => call('POST', '/sync/account/encrypt', change),
  syncSettings: (settings) => call('PUT', '/sync/settings', settings),
  syncNow: () => call('POST', '/sync/now'),
  retrySync: () => call('POST', '/sync/retry'),
  conflicts: () => call('GET', '/conflicts'),
  shares: () => call('GET', '/shares'),
  /** Shares a folder (`{ folderId }`) or a note (`{ noteId }`) with `invitees` ([{ account, role }]). */
  share: (item, invitees) => call('POST', '/shares', { ...item, with: invitees }),
  acceptShare: (zone) => call('POST', `/shares/${zone}/accept`),
  leaveShare: (zone) => call('DELETE', `/shares/${zone}`),
  setShareMember: (zone, account, role) => call('PUT', `/shares/${zone}/members/${encodeURIComponent(account)}`, { role }),
  removeShareMember: (zone, account) => call('DELETE', `/shares/${zone}/members/${encodeURIComponent(account)}`),
  identity: (account) => call('GET', `/identities/${encodeURIComponent(account)}`),
  confirmIdentity: (account) => call('POST', `/identities/${encodeURIComponent(account)}/confirm`),
  resolveConflict: (id, keep) => call('POST', `/conflicts/${id}/resolve`, { keep }),
};
