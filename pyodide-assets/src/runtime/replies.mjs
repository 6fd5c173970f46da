// Local mode's frame: answers to a cell's input(), written into a SharedArrayBuffer that the
// worker (input-replies.mjs, the reading side of this layout) polls while Python waits. cells.mjs
// writes the answers; runtime.mjs makes one buffer per worker, and only when the page is
// cross-origin isolated (without that there is no SharedArrayBuffer, and input() says so).
//
// Layout: Int32 [0] state (0: empty, 1: an answer is there), Int32 [1] its length in bytes, then
// the UTF-8 bytes from byte 8.

export const MAX_REPLY_BYTES = 1 << 20;
const HEADER = 8;

export function createReplies() {
  return new SharedArrayBuffer(HEADER + MAX_REPLY_BYTES);
}

/** Puts one answer in `buffer` and wakes the worker; false when it is too long to fit. */
export function writeReply(buffer, bytes) {
  if (bytes.length > MAX_REPLY_BYTES) {
    return false;
  }
  const state = new Int32Array(buffer, 0, 2);
  new Uint8Array(buffer, HEADER).set(bytes);
  state[1] = bytes.length;
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  return true;
}
