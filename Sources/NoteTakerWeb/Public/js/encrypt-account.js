// Settings → Sync account → Turn on end-to-end encryption: for an account without it (one the
// server's operator made, or one registered without it). A new password, since the current one
// travelled as it is; an account that holds notes is converted in place (docs/encryption.md
// §2.4): this device sends everything again sealed, the server deletes what it held readable,
// and the other devices ask for the new password once. The recovery code is shown once.
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { h, toast } from './dom.js';
import { showRecoveryCode } from './recovery-code.js';
import { t } from './strings.js';

/** The part, for an account without encryption; `done` redraws Settings afterwards. */
export function encryptAccountPart(status, done) {
  const field = (id, labelKey, autocomplete) => h('div', { className: 'field' },
    h('label', { for: id }, t(labelKey)), h('input', { id, type: 'password', required: true, autocomplete }));
  const error = h('p', { className: 'error', role: 'alert', id: 'encrypt-error' });
  const form = h('form', { id: 'encrypt-form', className: 'account-form' },
    h('p', { className: 'hint' }, t('encryptHint')),
    field('encrypt-current', 'passwordCurrent', 'current-password'),
    field('encrypt-new', 'passwordNew', 'new-password'),
    field('encrypt-confirm', 'passwordConfirm', 'new-password'),
    error,
    h('div', { className: 'button-row' }, h('button', { type: 'submit', id: 'encrypt-start' }, t('encryptAction'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const value = (id) => form.querySelector(`#${id}`).value;
    if (value('encrypt-new') !== value('encrypt-confirm')) {
      error.textContent = t('passwordMismatch');
      return;
    }
    if (value('encrypt-new') === value('encrypt-current')) {
      error.textContent = t('encryptSamePassword');
      return;
    }
    if (!await ask(t('encryptAsk', { server: status.server }), t('encryptAction'))) return;
    try {
      const encrypted = await api.encryptAccount({ currentPassword: value('encrypt-current'), newPassword: value('encrypt-new') });
      form.reset();
      if (encrypted.recoveryCode) await showRecoveryCode(encrypted.recoveryCode, { server: encrypted.server, user: encrypted.username });
      toast(t('encryptDone'));
      await done();
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
  return h('details', { id: 'encrypt-part' }, h('summary', {}, t('encryptTitle')), form);
}
