// A note's history: its earlier versions by date, what changed since one of them (a diff
// against the note now), and Restore, which is an ordinary edit.
import { api, errorText } from './api.js';
import { h, replaceChildren } from './dom.js';
import { longDate, t } from './strings.js';

/** Fills `panel` with the note's versions; `restore(version)` restores the chosen one. */
export async function showHistory(panel, noteId, restore) {
  replaceChildren(panel, h('p', { className: 'hint' }, t('historyLoading')));
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
    let chosen;
    try {
      chosen = await api.version(noteId, version.version);
    } catch (error) {
      replaceChildren(detail, h('p', { role: 'alert' }, errorText(error)));
      return;
    }
    replaceChildren(detail,
      h('p', { className: 'hint' }, t('historyDiffLabel', { date: longDate(chosen.modifiedAt) })),
      h('pre', { className: 'history-diff', tabindex: '0', 'aria-label': t('historyDiffLabel', { date: longDate(chosen.modifiedAt) }) },
        chosen.diff.map((line) => h('span', { className: line.kind }, line.text))),
      h('button', { type: 'button', id: 'history-restore', onclick: () => restore(chosen.version) }, t('historyRestore')));
  };
  const list = versions.length === 0
    ? h('p', { className: 'hint' }, t('historyEmpty'))
    : h('ol', { className: 'history-list' }, versions.map((version) => h('li', {},
      h('button', { type: 'button', className: 'quiet', 'aria-pressed': 'false', onclick: (event) => choose(version, event.currentTarget) },
        h('span', { className: 'history-date' }, longDate(version.modifiedAt)),
        h('span', { className: 'history-device' }, version.device ?? t('historyUnknownDevice')),
        h('span', { className: 'history-kind' }, t(`replacedBy_${version.replacedBy}`)),
        h('span', { className: 'history-summary' }, version.summary ?? '')))));
  replaceChildren(panel, h('h3', { id: 'history-heading' }, t('history')),
    serverProblem ? h('p', { className: 'hint', role: 'status' }, t('historyLocalOnly', { reason: serverProblem })) : null,
    list, detail);
}
