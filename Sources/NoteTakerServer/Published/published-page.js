// A published note (docs/sharing.md §5): the server keeps it sealed; the key is in the link's
// fragment, which the browser never sends. This script fetches the sealed page, opens it with
// WebCrypto, and shows it in a frame that runs no script.

/** The four bytes a sealed page starts with. */
export const HEADER = 'NTP1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Bytes from base64url without padding, or null when `text` is not that. */
export function fromBase64URL(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(base64);
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** The page's id (from the path `/p/{id}`) and key (the fragment), or null when either is missing or malformed. */
export function pageAddress(pathname, hash) {
  const match = /^\/p\/([A-Za-z0-9_-]{22})$/.exec(pathname);
  const key = fromBase64URL((hash || '').replace(/^#/, ''));
  const id = match && fromBase64URL(match[1]);
  if (!match || !id || id.length !== 16 || !key || key.length !== 32) return null;
  return { id: match[1], key };
}

/**
 * Opens a sealed page: `NTP1 ‖ nonce ‖ AES-256-GCM(key, nonce, JSON, "notetaker v1 published|" + id)`.
 * Resolves to `{ title, html, published }`; rejects with an error named `damaged` when the blob
 * is not one, was changed, or was sealed with another key or for another id.
 */
export async function openPage(blob, id, key, subtle = globalThis.crypto.subtle) {
  const damaged = () => Object.assign(new Error('damaged'), { name: 'damaged' });
  const bytes = new Uint8Array(blob);
  const head = new TextDecoder().decode(bytes.subarray(0, 4));
  if (bytes.length < 4 + NONCE_BYTES + TAG_BYTES || head !== HEADER) throw damaged();
  let plaintext;
  try {
    const cryptoKey = await subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
    plaintext = await subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(4, 4 + NONCE_BYTES), additionalData: new TextEncoder().encode(`notetaker v1 published|${id}`), tagLength: 128 },
      cryptoKey, bytes.subarray(4 + NONCE_BYTES));
  } catch {
    throw damaged();
  }
  let page;
  try {
    page = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw damaged();
  }
  if (!page || page.v !== 1 || typeof page.title !== 'string' || typeof page.html !== 'string') throw damaged();
  return { title: page.title, html: page.html, published: typeof page.published === 'string' ? page.published : '' };
}

/** `text` safe inside HTML text and attribute values. */
export function escapeHTML(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const MESSAGES = {
  en: {
    insecure: 'This page can be opened only over a secure (https) connection.',
    opening: 'Opening the page…',
    incomplete: 'This link is incomplete: the part after # holds the page’s key. Copy the whole link again.',
    damaged: 'This page could not be opened: the link is not the one it was published with, or the page was changed on the server.',
    gone: 'This page is no longer published.',
    failed: 'The page could not be loaded. Try again later.',
    footer: 'Published with NoteTaker on {date}',
  },
  de: {
    insecure: 'Diese Seite lässt sich nur über eine sichere (https-)Verbindung öffnen.',
    opening: 'Seite wird geöffnet …',
    incomplete: 'Dieser Link ist unvollständig: Der Teil nach # enthält den Schlüssel der Seite. Kopieren Sie den ganzen Link noch einmal.',
    damaged: 'Diese Seite lässt sich nicht öffnen: Der Link ist nicht der, mit dem sie veröffentlicht wurde, oder die Seite wurde auf dem Server verändert.',
    gone: 'Diese Seite ist nicht mehr veröffentlicht.',
    failed: 'Die Seite konnte nicht geladen werden. Versuchen Sie es später noch einmal.',
    footer: 'Mit NoteTaker veröffentlicht am {date}',
  },
  es: {
    insecure: 'Esta página solo puede abrirse mediante una conexión segura (https).',
    opening: 'Abriendo la página…',
    incomplete: 'Este enlace está incompleto: la parte tras # contiene la clave de la página. Vuelva a copiar el enlace entero.',
    damaged: 'No se pudo abrir esta página: el enlace no es el que se publicó, o la página se modificó en el servidor.',
    gone: 'Esta página ya no está publicada.',
    failed: 'No se pudo cargar la página. Inténtelo más tarde.',
    footer: 'Publicado con NoteTaker el {date}',
  },
  fr: {
    insecure: 'Cette page ne peut s’ouvrir que par une connexion sécurisée (https).',
    opening: 'Ouverture de la page…',
    incomplete: 'Ce lien est incomplet : la partie après # contient la clé de la page. Copiez de nouveau le lien entier.',
    damaged: 'Impossible d’ouvrir cette page : le lien n’est pas celui de sa publication, ou la page a été modifiée sur le serveur.',
    gone: 'Cette page n’est plus publiée.',
    failed: 'La page n’a pas pu être chargée. Réessayez plus tard.',
    footer: 'Publié avec NoteTaker le {date}',
  },
  'zh-Hans': {
    insecure: '此页面只能通过安全（https）连接打开。',
    opening: '正在打开页面…',
    incomplete: '此链接不完整：# 之后的部分是页面的密钥。请重新复制完整的链接。',
    damaged: '无法打开此页面：链接不是发布时的链接，或者页面在服务器上被修改过。',
    gone: '此页面已不再公开。',
    failed: '无法加载页面。请稍后再试。',
    footer: '于 {date} 通过 NoteTaker 发布',
  },
};

/** The messages in the first of `languages` this page speaks (English otherwise), and its tag. */
export function messagesFor(languages) {
  for (const language of languages || []) {
    const tag = String(language).toLowerCase();
    if (tag.startsWith('zh')) return { tag: 'zh-Hans', text: MESSAGES['zh-Hans'] };
    const base = tag.split('-')[0];
    if (MESSAGES[base]) return { tag: base, text: MESSAGES[base] };
  }
  return { tag: 'en', text: MESSAGES.en };
}

/** The frame's document: the note's title, its HTML as the publishing device rendered it, and when. */
export function frameDocument(page, messages, language) {
  const date = page.published ? new Date(page.published) : null;
  const when = date && !Number.isNaN(date.getTime()) ? date.toLocaleDateString(language, { year: 'numeric', month: 'long', day: 'numeric' }) : '';
  const footer = when ? `<footer>${escapeHTML(messages.footer.replace('{date}', when))}</footer>` : '';
  return `<!doctype html><html lang="${escapeHTML(language)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><style>
body { max-width: 44rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; font: 17px/1.6 system-ui, sans-serif; color: #1d1d1f; background: #fff; overflow-wrap: anywhere; }
@media (prefers-color-scheme: dark) { body { color: #f2f2f7; background: #1c1c1e; } a { color: #6cb4ff; } }
img { max-width: 100%; height: auto; } pre { overflow-x: auto; padding: .75rem; background: rgba(127,127,127,.12); border-radius: 6px; }
code { font: .9em ui-monospace, monospace; } blockquote { margin-left: 0; padding-left: 1rem; border-left: 3px solid rgba(127,127,127,.4); }
table { border-collapse: collapse; } th, td { border: 1px solid rgba(127,127,127,.35); padding: .3rem .6rem; }
li.task { list-style: none; } footer { margin-top: 3rem; font-size: .85rem; opacity: .65; }
</style></head><body><article><h1>${escapeHTML(page.title)}</h1>${page.html}</article>${footer}</body></html>`;
}

async function show() {
  const messages = messagesFor(navigator.languages);
  document.documentElement.lang = messages.tag;
  const status = document.getElementById('status');
  const frame = document.getElementById('page');
  const say = (key) => {
    status.textContent = messages.text[key];
    status.hidden = false;
    frame.hidden = true;
    frame.removeAttribute('srcdoc');
  };
  say('opening');
  const address = pageAddress(location.pathname, location.hash);
  if (!address) { say('incomplete'); return; }
  // WebCrypto is there only in a secure context: https, or this machine.
  if (!globalThis.crypto?.subtle) { say('insecure'); return; }
  let response;
  try {
    response = await fetch(`/v1/published/${address.id}`, { cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch {
    say('failed');
    return;
  }
  if (response.status === 404) { say('gone'); return; }
  if (!response.ok) { say('failed'); return; }
  let page;
  try {
    page = await openPage(await response.arrayBuffer(), address.id, address.key);
  } catch {
    say('damaged');
    return;
  }
  document.title = page.title || 'NoteTaker';
  frame.title = page.title;
  frame.srcdoc = frameDocument(page, messages.text, messages.tag);
  frame.hidden = false;
  status.hidden = true;
}

if (typeof document !== 'undefined') {
  show();
  // A link pasted over this one differs only after '#': the browser does not load the page again.
  window.addEventListener('hashchange', show);
}
