import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  escapeHTML, frameDocument, fromBase64URL, messagesFor, openPage, pageAddress,
} from '../../Sources/NoteTakerServer/Published/published-page.js';

const vector = JSON.parse(readFileSync(new URL('../../docs/encryption-vectors.json', import.meta.url))).published_page;
const blob = fromBase64URL(vector.blob);
const key = fromBase64URL(vector.key);

test('the page opens a sealed page of the vectors with WebCrypto, as the devices seal it', async () => {
  const page = await openPage(blob, vector.id, key);
  assert.equal(page.title, 'Trip plan');
  assert.equal(page.html, '<p>Bring <strong>the map</strong> ☀</p>');
  assert.equal(page.published, '2026-12-03T10:00:00Z');
});

test('a changed byte, another page’s id, another key, a cut blob or another format is refused as damaged', async () => {
  const changed = blob.slice();
  changed[changed.length - 20] ^= 1;
  const otherFormat = blob.slice();
  otherFormat[3] = '2'.charCodeAt(0);
  const cases = [
    [changed, vector.id, key], [blob, 'AQEBAQEBAQEBAQEBAQEBAQ', key], [blob, vector.id, new Uint8Array(32)],
    [blob.slice(0, blob.length - 1), vector.id, key], [otherFormat, vector.id, key], [new Uint8Array(10), vector.id, key],
  ];
  for (const [bytes, id, pageKey] of cases) {
    await assert.rejects(openPage(bytes, id, pageKey), { name: 'damaged' });
  }
});

test('the link gives the page’s id from its path and its key from the fragment; anything else is incomplete', () => {
  const link = new URL(vector.link);
  const address = pageAddress(link.pathname, link.hash);
  assert.equal(address.id, vector.id);
  assert.deepEqual([...address.key], [...key]);
  assert.equal(pageAddress(link.pathname, ''), null, 'no key');
  assert.equal(pageAddress(link.pathname, link.hash.slice(0, -1)), null, 'a key cut short');
  assert.equal(pageAddress(link.pathname, `${link.hash}A`), null, 'a key too long');
  assert.equal(pageAddress('/p/short', link.hash), null);
  assert.equal(pageAddress(`/p/${vector.id}/more`, link.hash), null);
  assert.equal(pageAddress(link.pathname, '#not base64!'), null);
});

test('base64url is read strictly', () => {
  assert.deepEqual([...fromBase64URL('AAE')], [0, 1]);
  assert.equal(fromBase64URL('A'), null);
  assert.equal(fromBase64URL('AA=='), null, 'no padding');
  assert.equal(fromBase64URL('AA+/'), null, 'base64url, not base64');
});

test('the frame shows the title as text and the page’s own HTML, in the reader’s language', () => {
  const page = { title: '<script>alert(1)</script> & more', html: '<p>Body</p>', published: '2026-12-03T10:00:00Z' };
  const english = messagesFor(['en-GB']);
  const document = frameDocument(page, english.text, english.tag);
  assert.ok(document.includes('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</h1>'));
  assert.ok(document.includes('<p>Body</p>'));
  assert.ok(document.includes('Published with NoteTaker on'));
  assert.equal(messagesFor(['fr-CA', 'en']).tag, 'fr');
  assert.equal(messagesFor(['zh-CN']).tag, 'zh-Hans');
  assert.equal(messagesFor(['ja', 'pt']).tag, 'en');
  assert.equal(escapeHTML(`"'<>&`), '&quot;&#39;&lt;&gt;&amp;');
  const undated = frameDocument({ ...page, published: 'not a date' }, english.text, english.tag);
  assert.ok(!undated.includes('<footer>'));
});
