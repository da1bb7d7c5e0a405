import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchTerms } from '../../Sources/NoteTakerWeb/Public/js/highlight.js';

test('the words and phrases of a search, without its operators', () => {
  const cases = [
    ['café meeting', ['café', 'meeting']],
    ['"next release" plan', ['next release', 'plan']],
    ['roadmap -draft', ['roadmap']],
    ['a OR b', ['a', 'b']],
    ['-"left out" kept', ['kept']],
    ['"unclosed phrase', ['unclosed phrase']],
    ['tag:work C++', ['tag work', 'C']],
    ['東京 タワー', ['東京', 'タワー']],
    ['   ', []],
  ];
  for (const [query, terms] of cases) assert.deepEqual(searchTerms(query), terms, query);
});
