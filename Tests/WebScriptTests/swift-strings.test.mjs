// The command line's and the errors' catalogs (Swift reads them; the JSON is the web app's
// format): every language has every string, with the same placeholders and the plural forms
// its rules have (as Intl knows them); every key the Swift code names is in English, and every
// English key is named by the code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkCatalog } from './catalog-check.mjs';

const root = new URL('../../Sources/', import.meta.url);
const catalogs = { cli: 'NoteTakerCLI/Strings', errors: 'NoteTakerModel/Strings' };
const languages = ['es', 'fr', 'de', 'zh-Hans'];
const read = (folder, tag) => JSON.parse(readFileSync(new URL(`${folder}/${tag}.json`, root), 'utf8'));
// Strings that read the same in some language: column names, an id's label, a list's comma.
const sameSomewhere = new Set(['verbatim', 'errorPrefix', 'field_id', 'sessionsId', 'listSeparator', 'syncedErrors', 'versionSize', 'stat_notes', 'stat_folders', 'account_server', 'shareMemberRole', 'versionAuthor']);

const swiftSources = readdirSync(root, { recursive: true })
  .filter((path) => path.endsWith('.swift'))
  .map((path) => readFileSync(new URL(path, root), 'utf8'))
  .join('\n');

for (const [name, folder] of Object.entries(catalogs)) {
  const english = read(folder, 'en');
  for (const tag of languages) {
    test(`${name} in ${tag}: every string, the same placeholders, every plural form the language has`, () => {
      const strings = read(folder, tag);
      checkCatalog(english, strings, tag, sameSomewhere);
      for (const [key, source] of Object.entries(english)) {
        if (typeof source === 'object') assert.ok(Object.values(source).some((form) => form.includes('{count}')), `${key}: a plural needs {count}`);
      }
    });
  }
}

test('every key the Swift code names is in English, and every English key is named by the code', () => {
  const english = { ...read(catalogs.cli, 'en'), ...read(catalogs.errors, 'en') };
  const call = /(?:Words\.text|Words\.usage|CommandError|Wording)\(\s*(?:[^"()\n]*\?\s*)?"(\w+)"(?:\s*:\s*"(\w+)")?/g;
  const named = [...swiftSources.matchAll(call)].flatMap((found) => [found[1], found[2]]).filter(Boolean);
  for (const key of named) assert.ok(key in english, `the code names '${key}', which no catalog has`);
  for (const key of Object.keys(english)) {
    const prefix = key.includes('_') ? key.slice(0, key.indexOf('_') + 1) : null;
    const suffix = prefix ? key.slice(prefix.length) : null;
    const used = swiftSources.includes(`"${key}"`)
      || (prefix && swiftSources.includes(`"${prefix}\\(`) && swiftSources.includes(`"${suffix}"`))
      || (prefix && swiftSources.includes(`"${prefix}\\(`) && /^(pending|synced|conflict|error|edit|sync|merge|restore|resolution|local|server|both)$/.test(suffix));
    assert.ok(used, `'${key}' is in the catalog but no code names it`);
  }
});
