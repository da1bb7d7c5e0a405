// Settings → Sync account, for an end-to-end encrypted account: lock this device (it forgets
// the account's keys; its notes and changes stay, and syncing waits) and unlock it again with
// the account's password (docs/encryption.md §2.4).
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { h, toast } from './dom.js';
import { t } from './strings.js';

/** The form that unlocks a locked device; `done` redraws Settings afterwards. */
export function unlockPart(done) {
  const password = h('input', { id: 'unlock-password', type: 'password', required: true, autocomplete: 'current-password' });
  const error = h('p', { className: 'error', role: 'alert', id: 'unlock-error' });
  const form = h('form', { id: 'unlock-form', className: 'account-form' },
    h('p', { className: 'hint' }, t('unlockHint')),
    h('div', { className: 'field' }, h('label', { for: 'unlock-password' }, t('password')), password),
    error,
    h('div', { className: 'button-row' }, h('button', { type: 'submit', id: 'unlock-action' }, t('unlockAction'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      await api.unlock(password.value);
      toast(t('unlocked'));
      await done();
    } catch (problem) {
      error.textContent = errorText(problem);
      password.select();
    }
  });
  return form;
}

/** The button that locks an unlocked device, once its person confirms; `done` redraws Settings. */
export function lockButton(done) {
  return h('button', {
    type: 'button', className: 'quiet', id: 'lock-device',
    onclick: async () => {
      if (!await ask(t('lockAsk'), t('lockAction'))) return;
      try {
        await api.lock();
        toast(t('locked'));
        await done();
      } catch (problem) {
        toast(errorText(problem));
      }
    },
  }, t('lockAction'));
}
