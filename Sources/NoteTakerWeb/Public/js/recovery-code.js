// A new end-to-end encrypted account's recovery code, shown once (docs/encryption.md §2.5): to
// download as a text file or print, with what losing it means, and closed only once the person
// types its last group back, so that it was written down before anything else goes on.
import { h } from './dom.js';
import { longDate, t } from './strings.js';

/** The last group as a person may type it: case, spaces, and O, I, L for 0, 1, 1 do not matter. */
export function sameGroup(typed, group) {
  const normalized = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return normalized === group.toUpperCase();
}

/** Shows `code` for `user` on `server`; resolves once the person has confirmed saving it. */
export function showRecoveryCode(code, { server, user }) {
  return new Promise((resolve) => {
    const lastGroup = code.split('-').pop();
    const fileText = t('recoveryFile', { server, user, date: longDate(Date.now()), code });
    const download = h('a', {
      id: 'recovery-download', className: 'button-link', download: `NoteTaker recovery code - ${user}.txt`,
      href: `data:text/plain;charset=utf-8,${encodeURIComponent(fileText)}`,
    }, t('recoveryDownload'));
    const check = h('input', {
      id: 'recovery-check', autocomplete: 'off', spellcheck: 'false', maxLength: 12, 'aria-describedby': 'recovery-check-error',
    });
    const mistake = h('p', { className: 'error', id: 'recovery-check-error', role: 'alert' });
    const done = h('button', { type: 'submit', id: 'recovery-done' }, t('recoveryDone'));
    const form = h('form', { method: 'dialog' },
      h('h2', { id: 'recovery-title' }, t('recoveryTitle')),
      h('p', {}, t('recoveryExplain')),
      h('pre', { id: 'recovery-code', className: 'recovery-code', tabindex: '0' }, code),
      h('p', { className: 'warning' }, t('recoveryWarning')),
      h('div', { className: 'button-row' },
        download,
        h('button', { type: 'button', className: 'quiet', id: 'recovery-print', onclick: () => window.print() }, t('recoveryPrint'))),
      h('div', { className: 'field recovery-check' }, h('label', { for: 'recovery-check' }, t('recoveryCheck')), check, mistake),
      h('div', { className: 'dialog-buttons' }, done));
    // Printed (with the button or the browser's own command), the page shows the dialog alone.
    const dialog = h('dialog', { className: 'recovery', 'aria-labelledby': 'recovery-title' }, form);
    // Esc does not close it: the code would be gone before it was saved.
    dialog.addEventListener('cancel', (event) => event.preventDefault());
    form.addEventListener('submit', (event) => {
      if (sameGroup(check.value, lastGroup)) return;
      event.preventDefault();
      mistake.textContent = t('recoveryCheckWrong');
      check.focus();
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve();
    });
    document.body.append(dialog);
    dialog.showModal();
    download.focus();
  });
}
