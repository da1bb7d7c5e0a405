// Settings → Sync account → New encryption key: for an end-to-end encrypted account whose key
// may have been exposed, or as a habit. The password makes a new key; notes are sealed with it
// from now on, everything goes up again sealed with it, and other devices learn it at their
// next sync.
import { api, errorText } from './api.js';
import { h, toast } from './dom.js';
import { t } from './strings.js';

/** The part, for an end-to-end encrypted account. */
export function rotateKeysPart() {
  const password = h('input', { id: 'rotate-keys-password', type: 'password', required: true, autocomplete: 'current-password' });
  const error = h('p', { className: 'error', role: 'alert', id: 'rotate-keys-error' });
  const form = h('form', { id: 'rotate-keys-form', className: 'account-form' },
    h('p', { className: 'hint' }, t('rotateKeysHint')),
    h('div', { className: 'field' }, h('label', { for: 'rotate-keys-password' }, t('password')), password),
    error,
    h('div', { className: 'button-row' }, h('button', { type: 'submit', id: 'rotate-keys-make' }, t('rotateKeysAction'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      const { version, pending } = await api.rotateKeys(password.value);
      form.reset();
      form.closest('details')?.removeAttribute('open');
      toast(t('rotateKeysDone', { version, count: pending }));
    } catch (problem) {
      error.textContent = errorText(problem);
    }
  });
  return h('details', { id: 'rotate-keys-part' }, h('summary', {}, t('rotateKeysTitle')), form);
}
