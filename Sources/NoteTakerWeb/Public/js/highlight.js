// What was searched, marked in the opened note's preview: words and "quoted phrases" of the
// search, found as search finds them (case and accents ignored, a word's start).

/** The words and phrases of a search, without its operators (OR, -excluded). */
export function searchTerms(query) {
  const terms = [];
  const pattern = /(-?)"([^"]*)"?|(\S+)/g;
  for (const [, minus, phrase, word] of query.matchAll(pattern)) {
    if (minus || word?.startsWith('-') || word === 'OR') continue;
    const text = (phrase ?? word).replace(/[^\p{L}\p{N}\s]/gu, ' ').trim();
    if (text) terms.push(text);
  }
  return terms;
}

const fold = (text) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * Where `terms` match in `text`, as `[start, end]` offsets into it, in order and not
 * overlapping. Case and accents are ignored; matches start words unless `anywhere` (a search
 * for text inside words).
 */
export function matchOffsets(text, terms, { anywhere = false } = {}) {
  if (!terms.length) return [];
  // Folded character by character, so a match maps back to the original text.
  let folded = '';
  const starts = [];
  for (let index = 0; index < text.length; index += 1) {
    const piece = fold(text[index]);
    for (let k = 0; k < piece.length; k += 1) starts.push(index);
    folded += piece;
  }
  starts.push(text.length);
  const found = [];
  for (const term of terms.map((each) => fold(each).replace(/\s+/g, ' '))) {
    if (!term) continue;
    let at = folded.indexOf(term);
    while (at !== -1) {
      const wordStart = anywhere || at === 0 || !/[\p{L}\p{N}]/u.test(folded[at - 1]);
      if (wordStart) found.push([starts[at], starts[at + term.length]]);
      at = folded.indexOf(term, at + term.length);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const kept = [];
  for (const range of found) if (!kept.length || range[0] >= kept[kept.length - 1][1]) kept.push(range);
  return kept;
}

/** Each text node under `container` with the matches of `terms` in it. */
function matchesIn(container, terms, options) {
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  const matches = [];
  while (walker.nextNode()) {
    const offsets = matchOffsets(walker.currentNode.data, terms, options);
    if (offsets.length) matches.push({ node: walker.currentNode, offsets });
  }
  return matches;
}

/** Wraps the matches of `terms` in `<mark>` inside `container` (a preview); returns the first mark. */
export function markMatches(container, terms, options = {}) {
  let first = null;
  for (const { node, offsets } of matchesIn(container, terms, options)) {
    const original = node.data;
    const fragment = document.createDocumentFragment();
    let position = 0;
    for (const [start, end] of offsets) {
      fragment.append(original.slice(position, start));
      const mark = document.createElement('mark');
      mark.textContent = original.slice(start, end);
      fragment.append(mark);
      first ??= mark;
      position = end;
    }
    fragment.append(original.slice(position));
    node.replaceWith(fragment);
  }
  return first;
}

/**
 * Marks the matches of `terms` in `container` without touching its nodes (the editor, whose
 * rows are its text): a CSS highlight named `search-match`. Returns the first match's range,
 * or `null`; `clearMatchHighlight()` takes the marks away.
 */
export function highlightMatches(container, terms, options = {}) {
  if (typeof CSS === 'undefined' || !CSS.highlights || typeof Highlight === 'undefined') return null;
  const ranges = [];
  for (const { node, offsets } of matchesIn(container, terms, options)) {
    for (const [start, end] of offsets) {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      ranges.push(range);
    }
  }
  if (ranges.length) CSS.highlights.set('search-match', new Highlight(...ranges));
  else CSS.highlights.delete('search-match');
  return ranges[0] ?? null;
}

/** Takes away the marks `highlightMatches` made. */
export function clearMatchHighlight() {
  if (typeof CSS !== 'undefined' && CSS.highlights) CSS.highlights.delete('search-match');
}
