// The Share dialog (docs/sharing.md §3.4): share a folder or a note with other accounts on the
// server, end-to-end encrypted; for a share, its members and roles, each member's safety number
// to compare with them, adding and removing members (the owner), leaving (a member) or stopping.
import { api, showingFailuresIn } from './api.js';
import { ask } from './ask.js';
import { h, replaceChildren, toast } from './dom.js';
import { currentRoute, navigate, noSearch } from './state.js';
import { t } from './strings.js';

/** A share's name in the sidebar and the dialog: its title, or words for one not synced yet. */
export function shareName(share) {
  return share.title || t(share.kind === 'note' ? 'sharedNoteUntitled' : 'sharedFolderUntitled');
}

/** Who a share is from, or with how many people this account shares it. */
export function shareOrigin(share) {
  if (share.role === 'owner') return t('sharedByYou', { count: Math.max(share.members.length - 1, 0) });
  return t('sharedBy', { user: share.owner });
}

function roleSelect(role, label, onchange) {
  return h('select', { 'aria-label': label, onchange },
    h('option', { value: 'editor', selected: role === 'editor' }, t('roleEditor')),
    h('option', { value: 'viewer', selected: role === 'viewer' }, t('roleViewer')));
}

/**
 * Opens the dialog: `{ item, name }` to share a folder (`{ folderId }`) or a note
 * (`{ noteId }`) named `name`; `{ share }` for a share as `GET /shares` lists it.
 */
export function openShareDialog({ item = null, name = '', share = null }) {
  const body = h('div', { className: 'share-body' });
  const problem = h('p', { className: 'error', id: 'share-error', role: 'alert' });
  const heading = h('h2', { id: 'share-title' });
  const dialog = h('dialog', { className: 'share-dialog', id: 'share-dialog', 'aria-labelledby': 'share-title' }, heading, body, problem);
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  const close = () => h('button', { type: 'button', className: 'quiet', id: 'share-close', onclick: () => dialog.close() }, t('shareDone'));

  const run = showingFailuresIn(problem);
  const changed = () => document.dispatchEvent(new CustomEvent('shares-changed'));

  /** The form that adds a member: a user name and a role; `submit(account, role)` does it. */
  function addForm(submit, action) {
    const account = h('input', { id: 'share-account', required: true, maxlength: '64', autocomplete: 'off', spellcheck: 'false', 'aria-label': t('shareWithLabel'), placeholder: t('shareWithPlaceholder') });
    const role = roleSelect('editor', t('shareRoleLabel'));
    role.id = 'share-role';
    const form = h('form', { className: 'share-add', id: 'share-add' },
      h('label', { for: 'share-account' }, t('shareWithLabel')),
      h('div', { className: 'share-add-row' }, account, role, h('button', { type: 'submit', id: 'share-submit' }, action)));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      run(() => submit(account.value.trim(), role.value));
    });
    return { form, account };
  }

  function showNew() {
    heading.textContent = t('shareTitle', { name });
    const { form, account } = addForm(async (user, role) => {
      const done = await api.share(item, [{ account: user, role }]);
      dialog.close();
      changed();
      toast(t('sharedToast', { name, user }));
      if (done.syncProblem) toast(done.syncProblem);
      navigate({ view: 'all', id: null, note: null, share: done.zone, ...noSearch });
    }, t('shareSubmit'));
    replaceChildren(body, h('p', {}, t('shareExplain')), form, h('div', { className: 'dialog-buttons' }, close()));
    account.focus();
  }

  function memberRow(member) {
    const mine = share.role === 'owner';
    const safety = h('p', { className: 'safety-number', hidden: true });
    const verify = h('button', {
      type: 'button', className: 'quiet small', onclick: () => run(async () => {
        showSafety(safety, await api.identity(member.account));
      }),
    }, t('safetyNumberAction'));
    const controls = [];
    if (member.role === 'owner') {
      controls.push(h('span', { className: 'member-role' }, t('roleOwner')));
    } else if (mine) {
      controls.push(roleSelect(member.role, t('roleFor', { user: member.account }), (event) => run(async () => {
        share = await api.setShareMember(share.zone, member.account, event.target.value);
        changed();
        toast(t('roleChanged', { user: member.account }));
      })));
      controls.push(h('button', {
        type: 'button', className: 'quiet small danger', onclick: () => run(async () => {
          if (!(await ask(t('removeMemberQuestion', { user: member.account }), t('removeMember'), { danger: true }))) return;
          share = await api.removeShareMember(share.zone, member.account);
          changed();
          showShare();
        }),
      }, t('removeMember')));
    } else {
      controls.push(h('span', { className: 'member-role' }, t(member.role === 'editor' ? 'roleEditor' : 'roleViewer')));
    }
    return h('li', { className: 'share-member', dataset: { account: member.account } },
      h('div', { className: 'share-member-row' }, h('span', { className: 'member-name' }, member.account), ...controls, verify), safety);
  }

  function showSafety(element, identity) {
    const rows = [h('code', {}, identity.safetyNumber), ' ', t('safetyNumberCompare', { user: identity.account })];
    if (identity.keys === 'changed') {
      rows.push(h('span', { className: 'error' }, ' ', t('identityChangedWarning', { user: identity.account })),
        h('button', {
          type: 'button', className: 'quiet small', onclick: () => run(async () => {
            showSafety(element, await api.confirmIdentity(identity.account));
          }),
        }, t('confirmIdentity')));
    }
    replaceChildren(element, rows);
    element.hidden = false;
  }

  function showShare() {
    heading.textContent = t('shareTitle', { name: shareName(share) });
    const owner = share.role === 'owner';
    const members = h('ul', { className: 'share-members', id: 'share-members', 'aria-label': t('shareMembers') }, share.members.map(memberRow));
    const add = owner ? addForm(async (user, role) => {
      share = await api.setShareMember(share.zone, user, role);
      changed();
      toast(t('memberAdded', { user }));
      showShare();
    }, t('addMember')).form : null;
    const end = h('button', {
      type: 'button', className: 'danger', id: 'share-end', onclick: () => run(async () => {
        const question = owner ? t('stopSharingQuestion', { name: shareName(share) }) : t('leaveShareQuestion', { name: shareName(share) });
        const action = owner ? t('stopSharing') : t('leaveShare');
        if (!(await ask(question, action, { danger: true }))) return;
        const done = await api.leaveShare(share.zone);
        dialog.close();
        changed();
        toast(done.keptPrivately ? t('shareEndedKept', { count: done.keptPrivately }) : t(owner ? 'shareStopped' : 'shareLeft'));
        if (currentRoute().share === share.zone) navigate({ view: 'all', id: null, note: null, share: null, ...noSearch });
      }),
    }, owner ? t('stopSharing') : t('leaveShare'));
    replaceChildren(body,
      h('p', { className: 'share-origin-line' }, shareOrigin(share), ' · ', t(share.role === 'viewer' ? 'youMayView' : 'youMayEdit')),
      members, add,
      h('p', { className: 'hint' }, t('safetyNumberHint')),
      h('div', { className: 'dialog-buttons' }, end, close()));
  }

  if (share) showShare(); else showNew();
  dialog.showModal();
}
