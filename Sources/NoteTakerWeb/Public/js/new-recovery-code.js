// Settings → Sync account → New recovery code: for an end-to-end encrypted account whose code
// is lost, or was seen by someone else. The password makes a new one, shown once as at
// registration; the old one stops working at once.
import { api, errorText } from './api.js';
import { h, toast } from './dom.js';
import { showRecoveryCode } from './recovery-code.js';
import { t } from './strings.js';

/** The part for the account `status` (its server and user name go in the code's file). */
export function newRecoveryCodePart(status) {
  const password = h('input', { id: 'new-code-password', type: 'password', required: true, autocomplete: 'current-password' });
  const error = h('p', { className: 'error', role: 'alert', id: 'new-code-error' });
  const form = h('form', { id: 'new-code-form', className: 'account-form' },
    h('p', { className: 'hint' }, t('recoveryNewHint')),
    h('div', { className: 'field' }, h('label', { for: 'new-code-password' }, t('password')), password),
    error,
    h('div', { className: 'button-row' }, h('button', { type: 'submit', id: 'new-code-make' }, t('recoveryNewAction'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      const { recoveryCode } = await api.newRecoveryCode(password.value);
      form.reset();
      form.closest('details')?.removeAttribute('open');
      await showRecoveryCode(recoveryCode, { server: status.server, user: status.username });
      toast(t('recoveryNewDone'));
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
  return h('details', { id: 'new-code-part' }, h('summary', {}, t('recoveryNewTitle')), form);
}
