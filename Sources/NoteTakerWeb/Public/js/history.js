// A note's history: its earlier versions by date, what changed since one of them (a diff
// against the note now, its title too), and Restore, which is an ordinary edit.
import { api, errorText } from './api.js';
import { h, replaceChildren } from './dom.js';
import { preciseDate, t } from './strings.js';

/**
 * Who wrote a version, in words: this device, another by its name, or one that did not say;
 * in a shared folder, another account's version names the account (its `author`) first.
 */
export function deviceWords(version) {
  if (version.author) {
    return version.device ? t('historyByAuthorOnDevice', { author: version.author, device: version.device }) : t('historyByAuthor', { author: version.author });
  }
  if (version.thisDevice) return t('historyThisDevice');
  return version.device ? t('historyOnDevice', { device: version.device }) : t('historyUnknownDevice');
}

/** What the next newer text changed: lines added and removed, in the page's language. */
export function changeWords(version) {
  if (version.linesAdded == null || version.linesRemoved == null) return '';
  if (version.linesAdded === 0 && version.linesRemoved === 0) return t('historyNoTextChange');
  return t('historyChangedLines', { added: version.linesAdded, removed: version.linesRemoved });
}

/** The title's change since a version, as two diff lines; none when it is the same. */
export function titleDiff(version) {
  if (version.title === version.currentTitle) return [];
  return [{ kind: 'removed', text: version.title }, { kind: 'added', text: version.currentTitle }];
}

/**
 * Fills `panel` with the note's versions; `restore(version)` restores the chosen one.
 * `chosen` (a version number) is shown again, as after a change from elsewhere redraws the panel.
 */
export async function showHistory(panel, noteId, restore, chosen = null) {
  if (!panel.querySelector('.history-list')) replaceChildren(panel, h('p', { className: 'hint' }, t('historyLoading')));
  let versions;
  let serverProblem;
  try {
    ({ versions, serverProblem } = await api.versions(noteId));
  } catch (error) {
    replaceChildren(panel, h('p', { role: 'alert' }, errorText(error)));
    return;
  }
  const detail = h('div', { className: 'history-detail', 'aria-live': 'polite' });
  const choose = async (version, button) => {
    panel.querySelectorAll('.history-list button').forEach((other) => other.setAttribute('aria-pressed', String(other === button)));
    panel.dataset.chosen = String(version.version);
    let shown;
    try {
      shown = await api.version(noteId, version.version);
    } catch (error) {
      replaceChildren(detail, h('p', { role: 'alert' }, errorText(error)));
      return;
    }
    const label = t('historyDiffLabel', { date: preciseDate(shown.modifiedAt) });
    const title = titleDiff(shown);
    replaceChildren(detail,
      h('p', { className: 'hint' }, label),
      title.length ? h('div', { className: 'history-title-change' },
        h('p', { className: 'hint' }, t('historyTitleChanged')),
        h('pre', { className: 'history-diff history-title-diff' }, title.map((line) => h('span', { className: line.kind }, line.text)))) : null,
      h('pre', { className: 'history-diff', tabindex: '0', 'aria-label': label },
        shown.diff.map((line) => h('span', { className: line.kind }, line.text))),
      h('button', { type: 'button', id: 'history-restore', onclick: () => restore(shown.version) },
        title.length ? t('historyRestoreWithTitle') : t('historyRestore')));
  };
  const buttons = new Map();
  const list = versions.length === 0
    ? h('p', { className: 'hint' }, t('historyEmpty'))
    : h('ol', { className: 'history-list' }, versions.map((version) => {
      const button = h('button', { type: 'button', className: 'quiet', 'aria-pressed': 'false', onclick: (event) => choose(version, event.currentTarget) },
        h('span', { className: 'history-date' }, preciseDate(version.modifiedAt)),
        h('span', { className: 'history-device', title: t('historyDeviceHint') }, deviceWords(version)),
        h('span', { className: 'history-kind' }, t(`replacedBy_${version.replacedBy}`)),
        h('span', { className: 'history-summary' }, changeWords(version)));
      buttons.set(version.version, { version, button });
      return h('li', {}, button);
    }));
  delete panel.dataset.chosen;
  replaceChildren(panel, h('h3', { id: 'history-heading' }, t('history')),
    serverProblem ? h('p', { className: 'hint', role: 'status' }, t('historyLocalOnly', { reason: serverProblem })) : null,
    list, detail);
  const again = chosen === null ? null : buttons.get(chosen);
  if (again) await choose(again.version, again.button);
}

/** Redraws an open history panel after the note changed, keeping the version chosen in it. */
export function refreshHistory(panel, noteId, restore) {
  if (panel.hidden) return;
  const chosen = panel.dataset.chosen ? Number(panel.dataset.chosen) : null;
  return showHistory(panel, noteId, restore, chosen);
}
