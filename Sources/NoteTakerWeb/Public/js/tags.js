// A tag's own actions, shown above its list: rename (into another tag's name merges the two)
// and delete (its notes stay).
import { api, errorText } from './api.js';
import { ask } from './ask.js';
import { h, replaceChildren, toast } from './dom.js';
import { refreshSidebar, sidebarData } from './sidebar.js';
import { currentRoute, navigate } from './state.js';
import { t } from './strings.js';

function currentTag() {
  const route = currentRoute();
  return route.view === 'tag' ? sidebarData.tags.find((tag) => tag.name.toLowerCase() === route.id.toLowerCase()) ?? { name: route.id, noteCount: 0 } : null;
}

function openRenameDialog() {
  const tag = currentTag();
  if (!tag) return;
  document.getElementById('tag-dialog-title').textContent = t('renameTagTitle', { name: tag.name });
  document.getElementById('tag-name').value = tag.name;
  document.getElementById('tag-error').textContent = '';
  replaceChildren(document.getElementById('tag-names'),
    sidebarData.tags.filter((other) => other.name !== tag.name).map((other) => h('option', { value: other.name })));
  document.getElementById('tag-dialog').showModal();
  document.getElementById('tag-name').select();
}

async function rename(event) {
  event.preventDefault();
  const tag = currentTag();
  const into = document.getElementById('tag-name').value.trim().replace(/^#/, '');
  if (!tag || !into) return;
  const existing = sidebarData.tags.find((other) => other.name.toLowerCase() === into.toLowerCase() && other.name !== tag.name);
  if (existing && !(await ask(t('confirmMergeTag', { name: tag.name, into: existing.name }), t('mergeTags')))) return;
  try {
    const renamed = await api.renameTag(tag.name, into);
    // To the tag's new list at once: the old name's list is gone.
    navigate({ view: 'tag', id: renamed.name }, { replace: true });
    document.getElementById('tag-dialog').close();
    toast(t(existing ? 'tagMerged' : 'tagRenamed', { name: tag.name, into: renamed.name }));
    await refreshSidebar();
  } catch (error) {
    document.getElementById('tag-error').textContent = errorText(error);
  }
}

async function remove() {
  const tag = currentTag();
  if (!tag || !(await ask(t('confirmDeleteTag', { name: tag.name, count: tag.noteCount }), t('deleteTag'), { danger: true }))) return;
  // Away from the tag's list first, so nothing asks for the list of a tag that is gone.
  navigate({ view: 'all', id: null, note: null });
  try {
    await api.deleteTag(tag.name);
    toast(t('tagDeleted', { name: tag.name }));
    await refreshSidebar();
  } catch (error) {
    toast(errorText(error));
  }
}

export function setUpTagActions() {
  document.getElementById('tag-rename').addEventListener('click', openRenameDialog);
  document.getElementById('tag-delete').addEventListener('click', remove);
  document.getElementById('tag-form').addEventListener('submit', rename);
  document.getElementById('tag-cancel').addEventListener('click', () => document.getElementById('tag-dialog').close());
}
