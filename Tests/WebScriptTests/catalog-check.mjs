// What every translated catalog must be, the web app's and the Swift side's alike: the same
// keys as English, the same placeholders, every plural form the language has (as Intl knows
// its rules) and none it lacks, and no string left in English unless it reads the same.
import assert from 'node:assert/strict';

const placeholders = (text) => new Set([...String(text).matchAll(/\{(\w+)\}/g)].map((found) => found[1]));
const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);

/** Checks `strings`, the catalog of `tag`, against `english`; `sameEverywhere` lists the keys that may read as in English. */
export function checkCatalog(english, strings, tag, sameEverywhere = new Set()) {
  assert.deepEqual(Object.keys(strings).sort(), Object.keys(english).sort(), 'the same keys as English');
  const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
  for (const [key, source] of Object.entries(english)) {
    const entry = strings[key];
    assert.equal(typeof entry, typeof source, `${key}: a plural in English is one in ${tag}, and only then`);
    if (typeof entry === 'object') {
      for (const category of categories) assert.ok(category in entry, `${key}: no '${category}' form`);
      for (const category of Object.keys(entry)) assert.ok(categories.includes(category), `${key}: '${category}' is no form of ${tag}`);
    }
    const wanted = new Set(forms(source).flatMap((form) => [...placeholders(form)]));
    const given = forms(entry).map(placeholders);
    for (const found of given) for (const name of found) assert.ok(wanted.has(name), `${key}: {${name}} is not in English`);
    const everyName = new Set(given.flatMap((set) => [...set]));
    // A form for one thing may say it in words ("its note") rather than give the count.
    for (const name of wanted) assert.ok(everyName.has(name), `${key}: {${name}} is missing`);
    if (typeof entry === 'string' && !sameEverywhere.has(key)) {
      assert.ok(entry.trim() !== '', `${key}: empty`);
      assert.notEqual(entry, source, `${key}: left in English`);
    }
  }
}
