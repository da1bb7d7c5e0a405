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
 * Wraps the matches of `terms` in `<mark>` inside `container`; returns the first mark.
 * Matches start words unless `anywhere` (a search for text inside words).
 */
export function markMatches(container, terms, { anywhere = false } = {}) {
  if (!terms.length) return null;
  const folded = terms.map((term) => fold(term).replace(/\s+/g, ' '));
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  let first = null;
  for (const node of nodes) {
    // Folded character by character, so a match maps back to the original text.
    const original = node.data;
    let text = '';
    const starts = [];
    for (let index = 0; index < original.length; index += 1) {
      const piece = fold(original[index]);
      for (let k = 0; k < piece.length; k += 1) starts.push(index);
      text += piece;
    }
    starts.push(original.length);
    const ranges = [];
    for (const term of folded) {
      let at = text.indexOf(term);
      while (at !== -1) {
        const wordStart = anywhere || at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1]);
        if (wordStart) ranges.push([starts[at], starts[at + term.length]]);
        at = text.indexOf(term, at + term.length);
      }
    }
    if (!ranges.length) continue;
    ranges.sort((a, b) => a[0] - b[0]);
    const fragment = document.createDocumentFragment();
    let position = 0;
    for (const [start, end] of ranges) {
      if (start < position) continue;
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
