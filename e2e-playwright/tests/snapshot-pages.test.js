// The kept form of local mode's memory snapshot (pyodide-assets/src/runtime/snapshot-pages.mjs):
// its non-zero pages and their index. What comes back must be the snapshot byte for byte, and a
// record that is cut short or has a damaged index must be refused, never half restored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compact, expand } from '../../pyodide-assets/src/runtime/snapshot-pages.mjs';

const PAGE = 4096;

/** A snapshot-like buffer: zero pages, full pages, a page with one byte at its end, a short last page. */
function sample() {
  const bytes = new Uint8Array(10 * PAGE + 100);
  bytes.fill(7, 0, 128); // a header
  bytes[3 * PAGE + PAGE - 1] = 1; // one byte, at a page's last position
  bytes.fill(9, 5 * PAGE, 7 * PAGE); // two pages in a row
  bytes[10 * PAGE + 99] = 3; // the last, short page
  return bytes;
}

test('a snapshot comes back byte for byte from its non-zero pages, which are all that is kept', () => {
  const bytes = sample();
  const kept = compact(bytes);
  assert.equal(kept.byteLength, 16 + 4 * 5 + 4 * PAGE + 100, 'pages 0, 3, 5, 6 and the short 10th, with their index');
  assert.deepEqual(expand(kept), bytes);
  const zero = new Uint8Array(3 * PAGE);
  assert.deepEqual(expand(compact(zero)), zero);
  const odd = new Uint8Array(new ArrayBuffer(PAGE + 8), 1, PAGE + 3); // not word-aligned
  odd[PAGE + 2] = 5;
  assert.deepEqual(expand(compact(odd)), odd.slice());
});

test('a kept snapshot cut short anywhere, or with a damaged header or index, is refused', () => {
  const kept = compact(sample());
  for (const length of [0, 3, 16, 20, 36, 37, kept.byteLength - PAGE, kept.byteLength - 1]) {
    assert.throws(() => expand(kept.slice(0, length)), /truncated/, `cut to ${length} bytes`);
  }
  assert.throws(() => expand(new Uint8Array([...new Uint8Array(kept), 0]).buffer), /truncated/, 'one byte too many');
  const edited = (edit) => {
    const copy = kept.slice(0);
    edit(new Uint32Array(copy, 0, 9));
    return copy;
  };
  assert.throws(() => expand(edited((w) => { w[0] = 0; })), /bad header/, 'magic');
  assert.throws(() => expand(edited((w) => { w[2] = 512; })), /bad header/, 'page size');
  assert.throws(() => expand(edited((w) => { w[3] = 1e6; })), /truncated/, 'more pages than the snapshot has');
  assert.throws(() => expand(edited((w) => { w[5] = 5; w[6] = 3; })), /page index/, 'pages out of order');
  assert.throws(() => expand(edited((w) => { w[8] = 11; })), /page index/, 'a page past the end');
  assert.throws(() => expand(new ArrayBuffer(40)), /bad header/, 'zeros');
  assert.throws(() => expand(null), /truncated/);
});
