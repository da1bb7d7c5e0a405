// Settings → Forgot your password?: an end-to-end encrypted account takes a new password with
// its recovery code (docs/encryption.md §2.5), on the server and user name the log-in form
// above holds. Every other device then logs in again with the new password.
import { api, errorText } from './api.js';
import { h, toast } from './dom.js';
import { t } from './strings.js';

/**
 * The part under the log-in form; `connection()` answers the server, user name and how to
 * reach the server, as that form has them; `recovered()` runs once logged in.
 */
export function recoverPart(connection, recovered) {
  const field = (id, labelKey, attributes) => h('div', { className: 'field' },
    h('label', { for: id }, t(labelKey)), h('input', { id, required: true, ...attributes }));
  const error = h('p', { className: 'error', role: 'alert', id: 'recover-error' });
  const form = h('form', { id: 'recover-form', className: 'account-form' },
    h('p', { className: 'hint' }, t('recoverHint')),
    field('recover-code', 'recoveryCode', { autocomplete: 'off', spellcheck: 'false' }),
    field('recover-new', 'passwordNew', { type: 'password', autocomplete: 'new-password' }),
    field('recover-confirm', 'passwordConfirm', { type: 'password', autocomplete: 'new-password' }),
    error,
    h('div', { className: 'button-row' }, h('button', { type: 'submit', id: 'recover-submit' }, t('recoverAction'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const value = (id) => form.querySelector(`#${id}`).value;
    if (value('recover-new') !== value('recover-confirm')) {
      error.textContent = t('passwordMismatch');
      return;
    }
    try {
      await api.recover({ ...await connection(), recoveryCode: value('recover-code'), newPassword: value('recover-new') });
      toast(t('recovered'));
      await recovered();
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
  return h('details', { id: 'recover-part' }, h('summary', {}, t('forgotPassword')), form);
}
