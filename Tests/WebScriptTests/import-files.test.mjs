import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importsOf, progressView, randomUUID } from '../../Sources/NoteTakerWeb/Public/js/import-files.js';

const file = (name, webkitRelativePath = '') => ({ name, webkitRelativePath });
const summary = (imports) => imports.map(({ name, files, batch }) => ({ name, batch, paths: files.map(({ path }) => path) }));

test('each Evernote file is an import of its own; the Markdown files chosen together are one', () => {
  const imports = importsOf([file('Kitchen.enex'), file('Plan.md'), file('Work.ENEX'), file('Reading list.markdown')], []);
  assert.deepEqual(summary(imports), [
    { name: 'Kitchen.enex', batch: false, paths: ['Kitchen.enex'] },
    { name: 'Work.ENEX', batch: false, paths: ['Work.ENEX'] },
    { name: 'importMarkdownFiles', batch: true, paths: ['Plan.md', 'Reading list.markdown'] },
  ]);
});

test('a Takeout or Simplenote zip, a notes.json, a Joplin .jex, a Standard Notes .txt and a Bear backup are imports of their own, beside the Markdown files', () => {
  const imports = importsOf([file('takeout-20261126T101500Z-001.zip'), file('Plan.md'), file('notes.json'), file('Old.md'), file('Joplin Export.JEX'), file('Standard Notes Backup and Import File.txt'), file('Bear Notes.bear2bk')], []);
  assert.deepEqual(summary(imports), [
    { name: 'takeout-20261126T101500Z-001.zip', batch: false, paths: ['takeout-20261126T101500Z-001.zip'] },
    { name: 'notes.json', batch: false, paths: ['notes.json'] },
    { name: 'Joplin Export.JEX', batch: false, paths: ['Joplin Export.JEX'] },
    { name: 'Standard Notes Backup and Import File.txt', batch: false, paths: ['Standard Notes Backup and Import File.txt'] },
    { name: 'Bear Notes.bear2bk', batch: false, paths: ['Bear Notes.bear2bk'] },
    { name: 'importMarkdownFiles', batch: true, paths: ['Plan.md', 'Old.md'] },
  ]);
});

test('one Markdown file is imported under its own name', () => {
  assert.deepEqual(summary(importsOf([file('Plan.md')], [])), [{ name: 'Plan.md', batch: false, paths: ['Plan.md'] }]);
});

test('a folder is one batch under its name, with every file at its path inside it, hidden ones left out', () => {
  const vault = [
    file('Plan.md', 'Vault/Plan.md'), file('diagram.png', 'Vault/Projects/diagram.png'),
    file('workspace.json', 'Vault/.obsidian/workspace.json'), file('.DS_Store', 'Vault/Projects/.DS_Store'),
  ];
  assert.deepEqual(summary(importsOf([], vault)), [{ name: 'Vault', batch: true, paths: ['Plan.md', 'Projects/diagram.png'] }]);
  assert.deepEqual(summary(importsOf([], [file('Plan.md', 'Vault/Plan.md')])), [{ name: 'Vault', batch: true, paths: ['Plan.md'] }],
    'a folder of one file is a batch too (it may be anything, not only Markdown)');
  assert.deepEqual(importsOf([], [file('.hidden', 'Vault/.hidden')]), [], 'a folder of nothing but hidden files imports nothing');
});

test('nothing chosen is no import, and empty files are left out', () => {
  assert.deepEqual(importsOf([], []), []);
  const empty = { ...file('Empty.md', 'Vault/Empty.md'), size: 0 };
  assert.deepEqual(importsOf([empty], [empty]), []);
});

test('a batch id is a version 4 UUID, different each time', () => {
  const one = randomUUID();
  assert.match(one, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(one, randomUUID());
});

test('the progress bar shows no amount while the file is sent, then the notes read, then the indexing', () => {
  assert.deepEqual(progressView('a.enex', null), { value: null, max: null, text: 'importProgressSending' });
  assert.deepEqual(progressView('a.enex', { done: 400, total: 1000, notes: 12, indexing: false }), { value: 400, max: 1000, text: 'importProgressNotes' });
  assert.deepEqual(progressView('a.enex', { done: 3, total: null, notes: 3, indexing: false }), { value: null, max: null, text: 'importProgressNotes' });
  assert.deepEqual(progressView('a.enex', { done: 5, total: 12, notes: 12, indexing: true }), { value: 5, max: 12, text: 'importProgressIndexing' });
});

test('the parts of one Google Takeout chosen together are one import; one part alone is an import of its own', () => {
  const imports = importsOf([file('takeout-20261126T101500Z-001.zip'), file('Plan.md'), file('takeout-20261126T101500Z-002.zip')], []);
  assert.deepEqual(summary(imports), [
    { name: 'importTakeoutParts', batch: true, paths: ['takeout-20261126T101500Z-001.zip', 'takeout-20261126T101500Z-002.zip'] },
    { name: 'Plan.md', batch: false, paths: ['Plan.md'] },
  ]);
  assert.deepEqual(summary(importsOf([file('takeout-20261126T101500Z-001.zip')], [])),
    [{ name: 'takeout-20261126T101500Z-001.zip', batch: false, paths: ['takeout-20261126T101500Z-001.zip'] }]);
});
