// The conflict view: a note whose body changed on two devices in ways that could not merge.
// Both versions side by side; keep this device's, the server's, or both (as two notes).
import { api, errorText } from './api.js';
import { h, replaceChildren, toast } from './dom.js';
import { navigate } from './state.js';
import { t } from './strings.js';

export function renderConflict(note) {
  const panel = h('section', { className: 'conflict', 'aria-labelledby': 'conflict-heading' },
    h('h3', { id: 'conflict-heading' }, t('conflictHeading')),
    h('p', {}, t('conflictExplanation')));
  api.conflicts().then((conflicts) => {
    const conflict = conflicts.find((entry) => entry.noteId.toLowerCase() === note.id);
    if (!conflict) return;
    const version = (headingKey, body) => h('div', { className: 'conflict-version' },
      h('h4', {}, t(headingKey)), h('pre', { tabindex: '0' }, body));
    const choose = (keep, labelKey) => h('button', {
      type: 'button', onclick: async () => {
        try {
          await api.resolveConflict(note.id, keep);
          toast(t('conflictResolved'));
          navigate({ note: note.id });
          document.dispatchEvent(new CustomEvent('note-reload'));
        } catch (error) {
          toast(errorText(error));
        }
      },
    }, t(labelKey));
    panel.append(
      h('div', { className: 'conflict-versions' }, version('conflictLocal', conflict.localBody), version('conflictServer', conflict.serverBody)),
      h('div', { className: 'conflict-buttons' }, choose('local', 'keepLocal'), choose('server', 'keepServer'), choose('both', 'keepBoth')));
  }).catch((error) => replaceChildren(panel, h('p', { role: 'alert' }, errorText(error))));
  return panel;
}
