// Publishing a note to the web (docs/sharing.md §5): a page anyone with its link can read, sealed
// on this device with a key only the link carries. The dialog publishes, shows the link to copy,
// updates the page after an edit (at the same link) and takes it down.
import { api, errorText, showingFailuresIn } from './api.js';
import { h, replaceChildren, toast } from './dom.js';
import { ask } from './ask.js';
import { longDate, t } from './strings.js';

/** Opens the dialog for note `noteId`; `flush()` saves what is typed first. */
export async function showPublishDialog(noteId, flush) {
  const body = h('div', { className: 'publish-body' });
  const problem = h('p', { className: 'error', id: 'publish-error', role: 'alert' });
  const dialog = h('dialog', { className: 'publish', id: 'publish-dialog', 'aria-labelledby': 'publish-title' },
    h('h2', { id: 'publish-title' }, t('publishTitle')), body, problem);
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);

  const run = showingFailuresIn(problem);
  const publish = () => run(async () => {
    await flush();
    show(await api.publishNote(noteId));
  });
  const unpublish = () => run(async () => {
    if (!(await ask(t('unpublishQuestion'), t('unpublishAction'), { danger: true }))) return;
    await api.unpublishNote(noteId);
    toast(t('unpublishedToast'));
    dialog.close();
  });
  const close = h('button', { type: 'button', className: 'quiet', id: 'publish-close', onclick: () => dialog.close() }, t('publishDone'));

  function showUnpublished() {
    const start = h('button', { type: 'button', id: 'publish-confirm', onclick: publish }, t('publishAction'));
    replaceChildren(body, h('p', {}, t('publishExplain')), h('div', { className: 'dialog-buttons' }, close, start));
    start.focus();
  }

  function show(page) {
    const link = h('input', { type: 'text', id: 'publish-link', readonly: true, value: page.link, 'aria-label': t('publishLinkLabel') });
    link.addEventListener('focus', () => link.select());
    const copy = h('button', {
      type: 'button', id: 'publish-copy',
      onclick: () => run(async () => {
        await navigator.clipboard.writeText(page.link);
        toast(t('linkCopied'));
      }),
    }, t('copyLink'));
    const state = page.outdated
      ? h('p', { id: 'publish-state', className: 'publish-outdated' }, t('publishOutdated'),
        ' ', h('button', { type: 'button', className: 'quiet', id: 'publish-update', onclick: publish }, t('publishUpdate')))
      : h('p', { id: 'publish-state' }, t('publishedOn', { date: longDate(page.publishedAt) }));
    replaceChildren(body,
      h('p', {}, t('publishLinkLabel')),
      h('div', { className: 'publish-link-row' }, link, copy),
      h('p', { className: 'hint' }, t('publishKeyHint')),
      state,
      h('div', { className: 'dialog-buttons' },
        h('button', { type: 'button', className: 'danger', id: 'publish-stop', onclick: unpublish }, t('unpublishAction')), close));
    copy.focus();
  }

  try {
    const page = await api.publication(noteId);
    if (page) show(page);
    else showUnpublished();
  } catch (error) {
    showUnpublished();
    problem.textContent = errorText(error);
  }
  dialog.showModal();
}
