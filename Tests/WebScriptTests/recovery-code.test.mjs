import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameGroup } from '../../Sources/NoteTakerWeb/Public/js/recovery-code.js';

test('the last group is read as a person types it: case, spaces and look-alike letters do not matter', () => {
  assert.ok(sameGroup('7K0Q1', '7K0Q1'));
  assert.ok(sameGroup('7k0q1', '7K0Q1'));
  assert.ok(sameGroup(' 7K0Q1 ', '7K0Q1'));
  assert.ok(sameGroup('7KOQL', '7K0Q1'), 'O for 0 and L for 1, as Crockford base32 reads them');
  assert.ok(sameGroup('7K-0Q 1', '7K0Q1'));
});

test('another group, a part of it, or nothing is not taken', () => {
  assert.ok(!sameGroup('7K0Q2', '7K0Q1'));
  assert.ok(!sameGroup('7K0Q', '7K0Q1'));
  assert.ok(!sameGroup('', '7K0Q1'));
  assert.ok(!sameGroup('7K0Q17', '7K0Q1'));
});
