import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkCatalog } from './catalog-check.mjs';
import { chooseLanguage, formattingLocale, languages, t, useCatalog } from '../../Sources/NoteTakerWeb/Public/js/strings.js';

const catalog = (tag) => JSON.parse(readFileSync(new URL(`../../Sources/NoteTakerWeb/Public/strings/${tag}.json`, import.meta.url), 'utf8'));
const english = catalog('en');
// Words that are the same in every language: the app's name, file formats, units.
const sameEverywhere = new Set(['appName', 'keyCtrl', 'keyShift', 'sizeBytes', 'exportFormat_pdf', 'sizeGB', 'sizeMB', 'sizeKB', 'importWarning', 'menu', 'exportFormat',
  'noteActions', 'inFolder', 'folderName', 'editorHeading', 'notesLabel', 'exportWhich', 'statNotes', 'syncServer',
  'toolShort_code', 'tool_code', 'placeholderCode', 'toolShort_link', 'tool_link', 'syncConflict', 'folderParent', 'sort_title',
  'titleLabel', 'titlePlaceholder', 'toolShort_bulletList', 'toolbarLabel']);

for (const tag of Object.keys(languages).filter((tag) => tag !== 'en')) {
  test(`${tag}: every string of the app, with the same placeholders and every plural form the language has`, () => {
    checkCatalog(english, catalog(tag), tag, sameEverywhere);
  });
}

test('the language is the one chosen, else the first of the browser’s the app speaks', () => {
  assert.equal(chooseLanguage('de', ['fr-FR']), 'de');
  assert.equal(chooseLanguage('xx', ['fr-CA', 'en']), 'fr');
  assert.equal(chooseLanguage(null, ['pt-BR', 'es-MX', 'en']), 'es');
  assert.equal(chooseLanguage(null, ['zh-CN']), 'zh-Hans');
  assert.equal(chooseLanguage(null, ['zh']), 'zh-Hans');
  assert.equal(chooseLanguage(null, ['zh-Hans-SG']), 'zh-Hans');
  assert.equal(chooseLanguage(null, ['zh-TW', 'ja']), 'en', 'traditional Chinese is not written in Simplified');
  assert.equal(chooseLanguage(null, []), 'en');
  assert.equal(formattingLocale('en', ['en-GB', 'fr']), 'en-GB', 'dates as the reader’s region writes them');
  assert.equal(formattingLocale('fr', ['de-DE']), 'fr');
  assert.equal(formattingLocale('zh-Hans', ['zh-TW']), 'zh-Hans');
});

test('plural forms follow each language’s rules, numbers its way of writing them', () => {
  useCatalog('fr', catalog('fr'));
  assert.equal(t('resultCount', { count: 0 }), '0 note', 'French counts zero as one');
  assert.equal(t('resultCount', { count: 2 }), '2 notes');
  assert.equal(t('resultCount', { count: 1234 }), '1\u202f234 notes');
  useCatalog('de', catalog('de'));
  assert.equal(t('indicatorPending', { count: 1 }), '1 Änderung wartet');
  assert.equal(t('indicatorPending', { count: 3 }), '3 Änderungen warten');
  useCatalog('en', english);
  assert.equal(t('resultCount', { count: 1 }), '1 note');
  assert.equal(t('resultCount', { count: 0 }), '0 notes');
  assert.equal(t('confirmDeleteTag', { count: 1, name: 'x' }), 'Delete #x? Its note stays, without the tag.');
  assert.equal(t('resultCount', { count: 12345 }), '12,345 notes');
  assert.equal(t('missingKey'), 'missingKey');
});
