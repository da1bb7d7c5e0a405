import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchOffsets, searchTerms } from '../../Sources/NoteTakerWeb/Public/js/highlight.js';

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

test('matches are found as search finds them: case and accents ignored, at the start of a word unless anywhere', () => {
  assert.deepEqual(matchOffsets('Café plans, and the CAFE next door', ['cafe']), [[0, 4], [20, 24]]);
  assert.deepEqual(matchOffsets('recafe cafe', ['cafe']), [[7, 11]]);
  assert.deepEqual(matchOffsets('recafe cafe', ['cafe'], { anywhere: true }), [[2, 6], [7, 11]]);
  assert.deepEqual(matchOffsets('the next  release is near', ['next release']), []);
  assert.deepEqual(matchOffsets('the next release is near', ['next release', 'release']), [[4, 16]]);
  assert.deepEqual(matchOffsets('nothing here', []), []);
});
