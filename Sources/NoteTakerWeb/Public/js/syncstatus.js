// Sync as the user sees it: the global indicator and each note's state.
import { api } from './api.js';
import { shortDate, t } from './strings.js';

export const syncData = { status: null };

/** Whether this store syncs at all (per-note states mean nothing otherwise). */
export function syncConfigured() {
  return Boolean(syncData.status?.server);
}

/** A note's sync state in words, or null when there is nothing to say. */
export function syncView(sync) {
  if (!syncConfigured() || !sync) return null;
  switch (sync.status) {
    // A pending note goes up with the sync under way, if there is one.
    case 'pending': return syncData.status?.state?.syncing ? t('syncSyncing') : t('syncPending');
    case 'conflict': return t('syncConflict');
    case 'error': return t('syncError');
    default: return null;
  }
}

export async function refreshSyncStatus() {
  syncData.status = await api.syncStatus();
  renderIndicator();
  document.dispatchEvent(new CustomEvent('sync-changed'));
}

function renderIndicator() {
  const indicator = document.getElementById('sync-indicator');
  const status = syncData.status;
  let text;
  if (!status.server) text = t('indicatorOff');
  else if (!status.loggedIn) text = t('indicatorLoggedOut');
  else if (status.state.syncing) text = t('indicatorSyncing');
  else if (status.summary.conflicts > 0) text = t('indicatorConflicts', { count: status.summary.conflicts });
  else if (status.summary.failures.length > 0 || status.summary.held.length > 0 || status.state.lastError) text = t('indicatorError');
  else if (status.summary.pending > 0) text = t('indicatorPending', { count: status.summary.pending });
  else if (status.summary.lastSyncedAt) text = t('indicatorSynced', { time: shortDate(status.summary.lastSyncedAt) });
  else text = t('indicatorNeverSynced');
  indicator.textContent = text;
  indicator.title = status.state.lastError ?? '';
  indicator.setAttribute('aria-label', t('indicatorLabel', { status: text }));
}
