// Settings: the sync account (server, log in or register, log out, status, sync now,
// failed changes), the merge policy, automatic sync, export and import, local statistics and
// keyboard shortcuts.
import { api, errorText } from './api.js';
import { currentTheme, setTheme, themes } from './appearance.js';
import { append, h, replaceChildren, toast } from './dom.js';
import { importsOf, progressView, randomUUID } from './import-files.js';
import { partsInUse, passwordPart } from './password-form.js';
import { ask } from './ask.js';
import { encryptAccountPart } from './encrypt-account.js';
import { newRecoveryCodePart } from './new-recovery-code.js';
import { rotateKeysPart } from './rotate-keys.js';
import { lockButton, unlockPart } from './lock-device.js';
import { recoverPart } from './recover-form.js';
import { showRecoveryCode } from './recovery-code.js';
import { shortcutText, tools } from './markdown-tools.js';
import { chooseLanguageInSettings, chosenLanguage, fileSize, formatNumber, keyNames, languages, longDate, t } from './strings.js';
import { flatFolders, sidebarData } from './sidebar.js';
import { currentRoute } from './state.js';
import { refreshSyncStatus, syncData } from './syncstatus.js';

export async function openSettings() {
  const main = document.getElementById('editor-region');
  const [stats, preferences] = await Promise.all([api.stats(), api.preferences(), refreshSyncStatus()]);
  replaceChildren(main, h('div', { className: 'settings' },
    h('h2', {}, t('settings')),
    accountSection(syncData.status),
    preferencesSection(syncData.status),
    appearanceSection(preferences),
    exportSection(),
    importSection(),
    statisticsSection(stats),
    shortcutsSection()));
  if (droppedImports) {
    const imports = droppedImports;
    droppedImports = null;
    runImports(imports);
  }
}

/** Re-renders the sync parts when sync changes (without losing what is typed in the form). */
export function refreshSettingsSync() {
  const section = document.getElementById('sync-section');
  if (!section || document.getElementById('account-form') || partsInUse('password-part', 'new-code-part', 'rotate-keys-part', 'encrypt-part', 'unlock-form')) return;
  section.replaceWith(accountSection(syncData.status, document.getElementById('sessions')));
}

/**
 * The account's sessions on the server, each device with when it was last used, and a way to
 * log out any other (a lost phone). `kept`: the part already shown, kept as it is instead of
 * asking the server again whenever sync's state changes.
 */
function sessionsPart(kept) {
  if (kept) return kept;
  const heading = () => h('h4', { id: 'sessions-heading' }, t('sessions'));
  const part = h('div', { id: 'sessions', 'aria-labelledby': 'sessions-heading' }, heading());
  const show = (list) => replaceChildren(part, heading(),
    h('ul', { className: 'sessions' }, list.sessions.map((session) => {
      const device = session.deviceName ?? t('sessionUnnamed');
      return h('li', {},
        h('span', { className: 'session-device' }, device, session.current ? ` (${t('sessionThisDevice')})` : ''), ' ',
        h('span', { className: 'hint' }, t('sessionUsed', {
          date: longDate(session.lastUsedAt * 1000), since: longDate(session.createdAt * 1000) })),
        session.current ? null : h('button', {
          type: 'button', className: 'quiet', 'data-session': session.id, 'aria-label': t('sessionEndLabel', { device }),
          onclick: async (event) => {
            event.target.disabled = true;
            try {
              await api.endSession(session.id);
              toast(t('sessionEnded', { device }));
              show(await api.sessions());
            } catch (error) {
              event.target.disabled = false;
              toast(errorText(error));
            }
          } }, t('sessionEnd')));
    })),
    h('p', { className: 'hint' }, t('sessionsHint')));
  api.sessions().then(show, (error) => part.append(h('p', { className: 'error' }, errorText(error))));
  return part;
}

function accountSection(status, keptSessions) {
  const section = h('section', { id: 'sync-section', 'aria-labelledby': 'sync-heading' }, h('h3', { id: 'sync-heading' }, t('syncAccount')));
  // A locked device has no session either: it unlocks with the password instead of logging in.
  if (!status.server || (!status.loggedIn && !status.locked)) {
    append(section, accountForm(status));
    return section;
  }
  const summary = status.summary;
  append(section,
    h('dl', { className: 'facts' },
      h('dt', {}, t('syncServer')), h('dd', {}, status.server),
      h('dt', {}, t('syncUser')), h('dd', {}, status.username),
      h('dt', {}, t('encryption')), h('dd', { id: 'encryption-state', className: status.encrypted && !status.locked ? null : 'warning' },
        t(status.locked ? 'encryptionLocked' : status.encrypted ? 'encryptionOn' : 'encryptionOff')),
      h('dt', {}, t('syncLast')), h('dd', {}, summary.lastSyncedAt ? longDate(summary.lastSyncedAt) : t('never')),
      h('dt', {}, t('syncWaiting')), h('dd', {}, String(summary.pending)),
      h('dt', {}, t('syncConflicts')), h('dd', {}, String(summary.conflicts)),
      h('dt', {}, t('syncPush')), h('dd', {}, status.state.watching ? (status.state.connected ? t('pushConnected') : t('pushConnecting')) : t('autoSyncOffShort'))),
    // A locked device does not sync: the form below says why, and what to do.
    status.locked ? unlockPart(showAccount) : null,
    status.state.lastError && !status.locked ? h('p', { className: 'error', role: 'alert' }, status.state.lastError) : null,
    summary.failures.length ? h('div', {},
      h('h4', {}, t('failedChanges')),
      h('ul', { className: 'failures' }, summary.failures.map((failure) => h('li', {}, `${failure.label ?? failure.recordType}: ${failure.message}`))),
      h('button', { type: 'button', className: 'quiet', onclick: () => act(api.retrySync(), t('retryQueued')) }, t('retry'))) : null,
    summary.restoredServer ? h('p', { className: 'hint', id: 'restored-server' }, t('restoredServer', {
      time: longDate(summary.restoredServer.noticedAt),
      notes: summary.restoredServer.notesSentAgain,
      others: summary.restoredServer.otherRecordsSentAgain,
    })) : null,
    summary.held.length ? h('div', {},
      h('h4', {}, t('heldChanges')),
      h('ul', { className: 'failures held' }, summary.held.map((record) => h('li', {}, `${record.recordType} ${record.recordId.slice(0, 8)}: ${record.reason}`)))) : null,
    h('div', { className: 'button-row' },
      status.locked ? null : h('button', { type: 'button', id: 'sync-now', onclick: () => act(api.syncNow(), t('syncRequested')) }, t('syncNow')),
      status.encrypted && !status.locked ? lockButton(showAccount) : null,
      h('button', { type: 'button', className: 'quiet', id: 'log-out', onclick: () => act(api.disconnect(), t('loggedOut')) }, t('logOut'))),
    // The password, the recovery code, the keys and the sessions need the session and the keys
    // an unlocked device holds.
    status.locked ? null : passwordPart(),
    status.encrypted && !status.locked ? newRecoveryCodePart(status) : null,
    status.locked ? null : status.encrypted ? rotateKeysPart() : encryptAccountPart(status, showAccount),
    status.locked ? null : sessionsPart(keptSessions));
  return section;
}

function accountForm(status) {
  const field = (id, labelKey, attributes) => h('div', { className: 'field' },
    h('label', { for: id }, t(labelKey)), h('input', { id, ...attributes }));
  const error = h('p', { className: 'error', role: 'alert', id: 'account-error' });
  const form = h('form', { id: 'account-form', className: 'account-form' },
    h('p', { className: 'hint' }, status.server ? t('loggedOutHint', { server: status.server }) : t('noAccountHint')),
    field('account-server', 'syncServer', { value: status.server ?? '', placeholder: 'https://notes.example.com', required: true, autocomplete: 'url' }),
    field('account-user', 'syncUser', { value: status.username ?? '', required: true, autocomplete: 'username' }),
    field('account-password', 'password', { type: 'password', required: true, autocomplete: 'current-password' }),
    h('label', { className: 'check' }, h('input', { type: 'checkbox', id: 'account-insecure' }), ' ', t('allowInsecure')),
    h('label', { className: 'check' },
      h('input', { type: 'checkbox', id: 'account-unencrypted', 'aria-describedby': 'account-unencrypted-hint' }), ' ', t('unencryptedAccount')),
    h('p', { className: 'hint', id: 'account-unencrypted-hint' }, t('unencryptedAccountHint')),
    h('div', { className: 'field' },
      h('label', { for: 'account-ca' }, t('caCertificate')),
      h('input', { id: 'account-ca', type: 'file', accept: '.pem,.crt,.cer,application/x-pem-file' }),
      h('p', { className: 'hint' }, t('caCertificateHint'))),
    error,
    h('div', { className: 'button-row' },
      h('button', { type: 'submit', id: 'log-in', value: 'login' }, t('logIn')),
      h('button', { type: 'submit', className: 'quiet', id: 'register', value: 'register' }, t('register'))));
  const value = (id) => form.querySelector(`#${id}`).value;
  const connection = async () => {
    const certificate = form.querySelector('#account-ca').files[0];
    return {
      server: value('account-server'), username: value('account-user'), insecure: form.querySelector('#account-insecure').checked,
      ...(certificate ? { caCertificate: await certificate.text() } : {}),
    };
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const register = event.submitter?.value === 'register';
    const unencrypted = form.querySelector('#account-unencrypted').checked;
    if (register && unencrypted && !await ask(t('unencryptedAsk', { server: value('account-server') }), t('unencryptedConfirm'), { danger: true })) return;
    try {
      const connected = await api.connect({ ...await connection(), password: value('account-password'), register, unencrypted });
      if (connected.recoveryCode) await showRecoveryCode(connected.recoveryCode, { server: connected.server, user: connected.username });
      toast(t('loggedIn'));
      await showAccount();
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
  return [form, recoverPart(connection, showAccount)];
}

/** Settings drawn afresh, scrolled to the account just logged in to. */
async function showAccount() {
  await openSettings();
  document.getElementById('sync-section')?.scrollIntoView({ block: 'start' });
}

function preferencesSection(status) {
  const policies = h('fieldset', {},
    h('legend', {}, t('mergePolicy')),
    status.mergePolicies.map((policy) => h('label', { className: 'check' },
      h('input', { type: 'radio', name: 'merge-policy', value: policy, checked: policy === status.mergePolicy,
        onchange: () => act(api.syncSettings({ mergePolicy: policy }), t('settingSaved')) }),
      ' ', t(`policy_${policy}`))));
  const auto = h('label', { className: 'check' },
    h('input', { type: 'checkbox', id: 'auto-sync', checked: status.autoSync,
      onchange: (event) => act(api.syncSettings({ autoSync: event.target.checked }), t('settingSaved')) }),
    ' ', t('autoSync'));
  const nameInput = h('input', { id: 'device-name', value: status.deviceName, maxLength: 100, autocomplete: 'off', 'aria-describedby': 'device-name-hint' });
  const deviceName = h('form', { className: 'field', id: 'device-name-form',
    onsubmit: (event) => {
      event.preventDefault();
      act(api.syncSettings({ deviceName: nameInput.value }), t('settingSaved'));
    } },
  h('label', { for: 'device-name' }, t('deviceName')),
  h('div', { className: 'button-row' }, nameInput, h('button', { type: 'submit', className: 'quiet' }, t('save'))),
  h('p', { className: 'hint', id: 'device-name-hint' }, t('deviceNameHint')));
  return h('section', { 'aria-labelledby': 'preferences-heading' }, h('h3', { id: 'preferences-heading' }, t('syncPreferences')),
    auto, policies, h('p', { className: 'hint' }, t('mergePolicyHint')), deviceName);
}

/**
 * Light, dark or as the system is, and the language (both kept in this browser); and whether
 * a single line break shows as one (kept in the store: the preview, print and PDF follow it).
 */
function appearanceSection(preferences) {
  return h('section', { 'aria-labelledby': 'appearance-heading' }, h('h3', { id: 'appearance-heading' }, t('appearance')),
    h('fieldset', {}, h('legend', {}, t('theme')),
      themes.map((theme) => h('label', { className: 'check' },
        h('input', { type: 'radio', name: 'theme', value: theme, id: `theme-${theme}`, checked: theme === currentTheme(),
          onchange: () => setTheme(theme) }),
        ' ', t(`theme_${theme}`)))),
    h('div', { className: 'field' },
      h('label', { for: 'language' }, t('language')),
      h('select', { id: 'language', onchange: (event) => {
        chooseLanguageInSettings(event.target.value || null);
        location.reload();
      } },
      h('option', { value: '', selected: chosenLanguage() === null }, t('language_browser')),
      Object.entries(languages).map(([tag, name]) => h('option', { value: tag, lang: tag, selected: chosenLanguage() === tag }, name)))),
    h('label', { className: 'check' },
      h('input', { type: 'checkbox', id: 'line-breaks', checked: preferences.lineBreaks, 'aria-describedby': 'line-breaks-hint',
        onchange: (event) => act(api.setPreferences({ lineBreaks: event.target.checked }), t('settingSaved')) }),
      ' ', t('lineBreaks')),
    h('p', { className: 'hint', id: 'line-breaks-hint' }, t('lineBreaksHint')));
}

/** Export: a format and which notes, downloaded from /api/v1/export (a PDF, or a zip of the folder export). */
function exportSection() {
  const format = h('select', { id: 'export-format' },
    ['json', 'markdown', 'pdf'].map((value) => h('option', { value }, t(`exportFormat_${value}`))));
  const scope = h('select', { id: 'export-scope' });
  const link = h('a', { id: 'export-download', className: 'button-link', download: '' }, t('exportDownload'));
  const update = () => { link.href = `/api/v1/export?format=${format.value}${scope.value ? `&${scope.value}` : ''}`; };
  // The folders and tags may arrive after Settings opens, and change while it is open.
  const fillScope = () => {
    if (!scope.isConnected && scope.options.length > 0) return document.removeEventListener('sidebar-changed', fillScope);
    const choices = [['', t('exportEverything')],
      ...flatFolders().map(({ folder, depth }) => [`folder=${encodeURIComponent(folder.id)}`, `${'\u2003'.repeat(depth)}${folder.name}`]),
      ...sidebarData.tags.map((tag) => [`tag=${encodeURIComponent(tag.name)}`, `#${tag.name}`])];
    // Options are rebuilt only when they differ: a list open under the pointer stays open.
    const same = choices.length === scope.options.length
      && choices.every(([value, label], index) => scope.options[index].value === value && scope.options[index].text === label);
    if (same) return;
    const chosen = scope.value;
    replaceChildren(scope, choices.map(([value, label]) => h('option', { value }, label)));
    scope.value = choices.some(([value]) => value === chosen) ? chosen : '';
    update();
  };
  document.addEventListener('sidebar-changed', fillScope);
  format.addEventListener('change', update);
  scope.addEventListener('change', update);
  fillScope();
  return h('section', { 'aria-labelledby': 'export-heading' }, h('h3', { id: 'export-heading' }, t('exportTitle')),
    h('div', { className: 'button-row' },
      h('label', {}, t('exportFormat'), ' ', format),
      h('label', {}, t('exportWhich'), ' ', scope),
      link),
    h('p', { className: 'hint' }, t('exportHint')));
}

/**
 * Import: each export file on its own (Evernote, Google Keep, Simplenote, Standard Notes, Joplin, Bear); the Markdown files chosen, or every file of a
 * chosen folder (an Obsidian vault, a Joplin or NoteTaker export), as one import, as
 * `notetaker import FOLDER` does, so links between the notes are kept. Each import answers a
 * report shown here.
 */
function importSection() {
  const input = h('input', { type: 'file', id: 'import-file', multiple: true, accept: '.enex,.zip,.json,.txt,.jex,.textpack,.bear2bk,.md,.markdown' });
  const folderInput = h('input', { type: 'file', id: 'import-folder', webkitdirectory: true });
  const result = h('div', { id: 'import-result', 'aria-live': 'polite' });
  const start = h('button', { type: 'button', id: 'import-start' }, t('importStart'));
  start.addEventListener('click', () => runImports(importsOf([...input.files], [...folderInput.files])));
  return h('section', { 'aria-labelledby': 'import-heading' }, h('h3', { id: 'import-heading' }, t('importTitle')),
    h('div', { className: 'button-row' }, h('label', {}, t('importFiles'), ' ', input)),
    h('div', { className: 'button-row' }, h('label', {}, t('importFolder'), ' ', folderInput), start),
    result,
    h('p', { className: 'hint' }, t('importHint')));
}

/** What was dropped on the window while another view showed, imported once Settings opens. */
let droppedImports = null;

/**
 * Files dropped on the window (anywhere but an open note, which attaches them): imported as
 * if chosen in Settings → Import, which opens to show their reports.
 */
export async function importDropped(files) {
  const imports = importsOf(files, []);
  if (imports.length === 0) return;
  if (currentRoute().view === 'settings' && document.getElementById('import-result')) return runImports(imports);
  droppedImports = imports;
  location.hash = '#view=settings';
}

/** Runs `imports` one after the other, showing each report (and the error that stopped them). */
async function runImports(imports) {
  const start = document.getElementById('import-start');
  const result = document.getElementById('import-result');
  if (imports.length === 0) return toast(t('importChooseFile'));
  start.disabled = true;
  replaceChildren(result, h('p', {}, t('importRunning')));
  result.scrollIntoView({ block: 'nearest' });
  const reports = [];
  try {
    for (const { name, files, batch } of imports) reports.push(importReport(name, await withProgressBar(name, reports, (id) => importFiles(files, batch, id))));
    replaceChildren(result, reports);
    document.getElementById('stats-section')?.replaceWith(statisticsSection(await api.stats()));
  } catch (error) {
    replaceChildren(result, reports, h('p', { className: 'error' }, errorText(error)));
  } finally {
    start.disabled = false;
  }
}

/** Imports one file on its own, or a batch of files as one, under the progress id `progress`; answers the report. */
async function importFiles(files, asBatch, progress) {
  if (!asBatch) return api.importFile(files[0].file, progress);
  const batch = randomUUID();
  let report;
  for (const [index, { file, path }] of files.entries()) {
    report = await api.importBatchFile(batch, file, path, index === files.length - 1, progress);
  }
  return report;
}

/**
 * Runs `work` (given a new progress id) under a progress bar for the import `name`, below the
 * reports so far, asking the server how far it has got twice a second until it answers.
 */
async function withProgressBar(name, reports, work) {
  const id = randomUUID();
  const bar = h('progress', { id: 'import-progress' });
  const label = h('span', { id: 'import-progress-label' });
  const show = (progress) => {
    const view = progressView(name, progress);
    label.textContent = view.text;
    if (view.max) Object.assign(bar, { max: view.max, value: view.value });
    else bar.removeAttribute('value');
  };
  show(null);
  replaceChildren(document.getElementById('import-result'), reports, h('p', { className: 'import-progress' }, label, ' ', bar));
  const timer = setInterval(() => api.importProgress(id).then(show, () => {}), 500);
  try {
    return await work(id);
  } finally {
    clearInterval(timer);
  }
}

function importReport(name, report) {
  const lines = [
    ...(report.stoppedEarly ? [t('importStoppedEarly', { reason: report.stoppedEarly })] : []),
    ...report.updated.map((item) => t('importUpdated', { item })),
    ...report.skipped.map((entry) => t('importSkipped', entry)),
    ...report.warnings.map((entry) => t('importWarning', entry)),
    ...report.attachedFiles.map((entry) => t('importAttached', entry)),
  ];
  return h('div', { className: 'import-report' },
    h('p', {}, t('importSummary', { name, found: report.found, imported: report.imported, already: report.alreadyPresent, skipped: report.skipped.length })),
    lines.length ? h('ul', {}, lines.map((line) => h('li', {}, line))) : null);
}

function statisticsSection(stats) {
  const rows = [
    ['statNotes', stats.notes], ['statPinned', stats.pinnedNotes], ['statTrashed', stats.trashedNotes],
    ['statFolders', stats.folders], ['statTags', stats.tags], ['statAttachments', stats.attachments],
    ['statAttachmentBytes', fileSize(stats.attachmentBytes)], ['statCreated', stats.notesCreated], ['statLaunches', stats.launches],
    ['statPending', stats.pendingChanges], ['statSyncEvents', stats.syncEvents],
  ];
  return h('section', { id: 'stats-section', 'aria-labelledby': 'stats-heading' }, h('h3', { id: 'stats-heading' }, t('statistics')),
    h('dl', { className: 'facts' }, rows.flatMap(([key, value]) => [h('dt', {}, t(key)), h('dd', {}, typeof value === 'number' ? formatNumber(value) : value)])));
}

function shortcutsSection() {
  const rows = [
    [t('shortcutNewNote'), 'Alt+N'], [t('shortcutSearch'), '/'], [t('shortcutList'), t('shortcutListKeys')],
    [t('shortcutBackToList'), t('keyEscape')], [t('shortcutPreview'), `${keyNames().ctrl}+${keyNames().shift}+P`],
    ...tools.map((tool) => [t(`tool_${tool.id}`), shortcutText(tool, keyNames())]),
  ];
  return h('section', { 'aria-labelledby': 'shortcuts-heading' }, h('h3', { id: 'shortcuts-heading' }, t('keyboardShortcuts')),
    h('dl', { className: 'facts' }, rows.flatMap(([what, keys]) => [h('dt', {}, what), h('dd', {}, h('kbd', {}, keys))])));
}

async function act(promise, message) {
  try {
    await promise;
    toast(message);
    await openSettings();
  } catch (error) {
    toast(errorText(error));
    await refreshSyncStatus().catch(() => {});
  }
}
