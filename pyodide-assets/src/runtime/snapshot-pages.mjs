// A memory snapshot as it is kept: its pages that hold anything. Pyodide's snapshot is the whole
// wasm heap (30 MiB here), of which half is zero pages; the app keeps and hands over only the
// others, so reading it back (IndexedDB) and handing it to the worker move 14 MiB instead of 30.
// Measured against the browser's CompressionStream (gzip: 5.9 MiB, but 150-280 ms to inflate on a
// return visit, more than it saves on reading): dropping zero pages costs ~15 ms either way. No
// library does this, and the format is ours alone (never sent over the network), hence by hand.
//
// Layout, little-endian 32-bit words: MAGIC, the snapshot's byte length, PAGE, the number n of
// pages kept, then their n page numbers (strictly increasing), then their bytes in that order (the
// last page of the snapshot may be shorter than PAGE). `expand` refuses anything that does not
// add up exactly (a truncated or damaged record), so a bad one is dropped, never half restored.

const MAGIC = 0x31706e73; // "snp1"
const PAGE = 4096;
const HEADER_BYTES = 16;
const MAX_BYTES = 2 ** 31; // a wasm32 heap this size cannot be (Pyodide's memory is smaller by far)

/** The pages of `snapshot` (a Uint8Array from makeMemorySnapshot) that are not all zero, as an ArrayBuffer in the layout above. */
export function compact(snapshot) {
  const pages = Math.ceil(snapshot.length / PAGE);
  const kept = [];
  let keptBytes = 0;
  for (let p = 0; p < pages; p++) {
    const page = snapshot.subarray(p * PAGE, Math.min(snapshot.length, (p + 1) * PAGE));
    if (!zero(page)) {
      kept.push(p);
      keptBytes += page.length;
    }
  }
  const out = new ArrayBuffer(HEADER_BYTES + 4 * kept.length + keptBytes);
  new Uint32Array(out, 0, 4).set([MAGIC, snapshot.length, PAGE, kept.length]);
  new Uint32Array(out, HEADER_BYTES, kept.length).set(kept);
  const bytes = new Uint8Array(out);
  let at = HEADER_BYTES + 4 * kept.length;
  for (const p of kept) {
    const page = snapshot.subarray(p * PAGE, Math.min(snapshot.length, (p + 1) * PAGE));
    bytes.set(page, at);
    at += page.length;
  }
  return out;
}

/** The snapshot `buffer` (an ArrayBuffer made by `compact`) holds, as a Uint8Array; throws if it is not exactly such a buffer. */
export function expand(buffer) {
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < HEADER_BYTES) {
    throw new Error(`the kept snapshot is truncated (${buffer?.byteLength} bytes)`);
  }
  const [magic, length, pageSize, count] = new Uint32Array(buffer, 0, 4);
  if (magic !== MAGIC || pageSize !== PAGE || length === 0 || length > MAX_BYTES) {
    throw new Error('the kept snapshot is not one of ours (bad header)');
  }
  const pages = Math.ceil(length / PAGE);
  if (count > pages || buffer.byteLength < HEADER_BYTES + 4 * count) {
    throw new Error(`the kept snapshot is truncated (${buffer.byteLength} bytes for ${count} pages)`);
  }
  const index = new Uint32Array(buffer, HEADER_BYTES, count);
  let expected = HEADER_BYTES + 4 * count;
  for (let i = 0; i < count; i++) {
    if (index[i] >= pages || (i > 0 && index[i] <= index[i - 1])) {
      throw new Error('the kept snapshot has a damaged page index');
    }
    expected += Math.min(PAGE, length - index[i] * PAGE);
  }
  if (buffer.byteLength !== expected) {
    throw new Error(`the kept snapshot is truncated (${buffer.byteLength} bytes, ${expected} expected)`);
  }
  const snapshot = new Uint8Array(length);
  const bytes = new Uint8Array(buffer);
  let at = HEADER_BYTES + 4 * count;
  for (const p of index) {
    const size = Math.min(PAGE, length - p * PAGE);
    snapshot.set(bytes.subarray(at, at + size), p * PAGE);
    at += size;
  }
  return snapshot;
}

/** Whether every byte of `page` is zero (word by word where it is aligned). */
function zero(page) {
  const aligned = page.byteOffset % 4 === 0 ? page.length >> 2 : 0;
  if (aligned > 0) {
    const words = new Uint32Array(page.buffer, page.byteOffset, aligned);
    for (let i = 0; i < words.length; i++) {
      if (words[i] !== 0) {
        return false;
      }
    }
  }
  for (let i = aligned * 4; i < page.length; i++) {
    if (page[i] !== 0) {
      return false;
    }
  }
  return true;
}
