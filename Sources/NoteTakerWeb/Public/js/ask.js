// Questions the app asks before what cannot be undone, in a dialog of its own: the browser's
// `confirm()` stops every script on the page, cannot be styled or themed, and names the page's
// address instead of the app. The safe answer has the focus, so Enter or Esc never deletes.

import { h } from './dom.js';
import { t } from './strings.js';

/**
 * Asks `question`; resolves `true` when the person chooses `action` (the button's words, such
 * as "Delete for good"), `false` on Cancel or Esc.
 */
export function ask(question, action, { danger = false } = {}) {
  return new Promise((resolve) => {
    const text = h('p', { id: 'ask-question' }, question);
    const no = h('button', { type: 'submit', value: 'no', className: 'quiet', id: 'ask-cancel' }, t('cancel'));
    const yes = h('button', { type: 'submit', value: 'yes', className: danger ? 'danger' : null, id: 'ask-confirm' }, action);
    const dialog = h('dialog', { className: 'ask', role: 'alertdialog', 'aria-describedby': 'ask-question', 'aria-label': action },
      h('form', { method: 'dialog' }, text, h('div', { className: 'dialog-buttons' }, no, yes)));
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'yes');
    });
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  });
}
