// What a choice of files to import makes (pure: no page, no network), tested by
// Tests/WebScriptTests/import-files.test.mjs.
import { t } from './strings.js';

/**
 * What the chosen files make: each export file alone (Evernote's .enex, a Google Keep Takeout or
 * Simplenote .zip — a Takeout's parts together —, Simplenote's notes.json, a Standard Notes backup .zip or .txt, Joplin's .jex, a .textpack or Bear's .bear2bk), the Markdown files together, and a
 * folder's files (hidden ones left out, as the import leaves them) together, at their paths
 * inside it, as `notetaker import FOLDER` reads them; each with the name its report goes
 * under, and `batch` when its files go as a batch. Empty files hold no note: they are left out.
 */
export function importsOf(chosen, chosenInFolder) {
  const files = chosen.filter((file) => file.size !== 0);
  const folderFiles = chosenInFolder.filter((file) => file.size !== 0);
  const imports = [];
  const markdown = [];
  // The parts of one Google Takeout chosen together are one import: a note's picture may be in another part.
  const parts = files.filter((file) => /^takeout-.+-\d{3,}\.zip$/i.test(file.name));
  if (parts.length > 1) imports.push({ name: t('importTakeoutParts', { count: parts.length }), files: parts.map((file) => ({ file, path: file.name })), batch: true });
  for (const file of files) {
    if (parts.length > 1 && parts.includes(file)) continue;
    if (/\.(enex|zip|json|txt|jex|textpack|bear2bk)$/i.test(file.name)) imports.push({ name: file.name, files: [{ file, path: file.name }], batch: false });
    else markdown.push({ file, path: file.name });
  }
  if (markdown.length === 1) imports.push({ name: markdown[0].path, files: markdown, batch: false });
  if (markdown.length > 1) imports.push({ name: t('importMarkdownFiles', { count: markdown.length }), files: markdown, batch: true });
  const inFolder = folderFiles
    .map((file) => (file.webkitRelativePath || file.name).split('/'))
    .map((parts, index) => ({ file: folderFiles[index], folder: parts.length > 1 ? parts[0] : '', path: parts.slice(parts.length > 1 ? 1 : 0).join('/') }))
    .filter(({ path }) => !path.split('/').some((part) => part.startsWith('.')));
  if (inFolder.length > 0) {
    imports.push({ name: inFolder[0].folder || inFolder[0].path, files: inFolder.map(({ file, path }) => ({ file, path })), batch: true });
  }
  return imports;
}

/** A random UUID (`crypto.randomUUID` is missing from a page not served from this machine or over HTTPS). */
export function randomUUID() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The progress bar of an import called `name`: its value and maximum (none while the file is
 * sent, when the bar shows no amount) and its words, from what `GET /api/v1/import/progress`
 * answered (`null` before the server has begun).
 */
export function progressView(name, progress) {
  if (!progress) return { value: null, max: null, text: t('importProgressSending', { name }) };
  const { done, total, notes, indexing } = progress;
  if (indexing) return { value: done, max: total, text: t('importProgressIndexing', { name, done, total }) };
  return { value: total ? done : null, max: total || null, text: t('importProgressNotes', { name, notes }) };
}
