// What the app shows, kept in the address's hash so that reload, back and forward work:
// #view=all|pinned|recent|trash|folder|tag|search|settings&id=…&q=…&contains=true&note=…&share=…
// (`share`: the zone of a share whose notes are shown, rather than the account's own)

const listeners = new Set();

/** A route's search and its filters, cleared: leaving a search leaves its filters too. */
export const noSearch = { q: '', tag: '', folder: '', pinned: false, contains: false };

export function currentRoute() {
  const parameters = new URLSearchParams(location.hash.slice(1));
  const view = parameters.get('view') ?? 'all';
  return {
    view,
    id: view === 'folder' ? (parameters.get('id') ?? '').toLowerCase() || null : parameters.get('id') ?? null,
    q: parameters.get('q') ?? '',
    tag: parameters.get('tag') ?? '',
    folder: (parameters.get('folder') ?? '').toLowerCase(),
    pinned: parameters.get('pinned') === 'true',
    contains: parameters.get('contains') === 'true',
    note: (parameters.get('note') ?? '').toLowerCase() || null,
    share: (parameters.get('share') ?? '').toLowerCase() || null,
  };
}

export function routeHash(route) {
  const parameters = new URLSearchParams();
  for (const key of ['view', 'id', 'q', 'tag', 'folder', 'pinned', 'contains', 'note', 'share']) {
    const value = route[key];
    if (value && !(key === 'view' && value === 'all')) parameters.set(key, value);
  }
  const text = parameters.toString();
  return text ? `#${text}` : '#';
}

/** Goes to a route: `changes` merged into the current one. `replace` keeps history short (typing a search). */
export function navigate(changes, { replace = false } = {}) {
  const next = { ...currentRoute(), ...changes };
  const hash = routeHash(next);
  if (hash === (location.hash || '#')) return;
  if (replace) history.replaceState(null, '', hash);
  else history.pushState(null, '', hash);
  notify('app');
}

export function onRouteChange(listener) {
  listeners.add(listener);
}

/** Tells the listeners; `source` is 'app' for the app's own navigation, 'history' for back, forward or a typed address. */
export function notify(source = 'history') {
  for (const listener of listeners) listener(currentRoute(), source);
}

globalThis.window?.addEventListener('popstate', () => notify('history'));
