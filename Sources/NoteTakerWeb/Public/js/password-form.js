// Settings → Sync account → Change password: the current password and the new one twice.
// The server logs out the account's other devices; this one stays logged in.
import { api, errorText } from './api.js';
import { h, toast } from './dom.js';
import { t } from './strings.js';

/**
 * Whether any of the parts named (`<details>` holding a form) is open or holds something
 * typed, which a re-render must not close or wipe.
 */
export function partsInUse(...ids) {
  return ids.some((id) => {
    const part = document.getElementById(id);
    return Boolean(part && (part.open || [...part.querySelectorAll('input')].some((input) => input.value !== '')));
  });
}

export function passwordPart() {
  const field = (id, labelKey, autocomplete) => h('div', { className: 'field' },
    h('label', { for: id }, t(labelKey)), h('input', { id, type: 'password', required: true, autocomplete }));
  const error = h('p', { className: 'error', role: 'alert', id: 'password-error' });
  const form = h('form', { id: 'password-form', className: 'account-form' },
    field('password-current', 'passwordCurrent', 'current-password'),
    field('password-new', 'passwordNew', 'new-password'),
    field('password-confirm', 'passwordConfirm', 'new-password'),
    error,
    h('div', { className: 'button-row' }, h('button', { type: 'submit', id: 'password-change' }, t('passwordChange'))),
    h('p', { className: 'hint' }, t('passwordChangeHint')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const value = (id) => form.querySelector(`#${id}`).value;
    if (value('password-new') !== value('password-confirm')) {
      error.textContent = t('passwordMismatch');
      return;
    }
    try {
      await api.changePassword({ currentPassword: value('password-current'), newPassword: value('password-new') });
      form.reset();
      form.closest('details')?.removeAttribute('open');
      toast(t('passwordChanged'));
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
  return h('details', { id: 'password-part' }, h('summary', {}, t('passwordChange')), form);
}
