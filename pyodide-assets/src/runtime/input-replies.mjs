// The worker's side of the answers to input() (the frame's replies.mjs writes them; the layout is
// described there). pyodide_host.py polls in short waits; after each one `checkInterrupt`
// (Pyodide's) raises KeyboardInterrupt in Python if the frame asked for one through the interrupt
// buffer: an interrupt ends the wait as in the sandbox.

const HEADER = 8;

export class InputReplies {
  constructor(buffer, checkInterrupt) {
    this.checkInterrupt = checkInterrupt;
    this.state = new Int32Array(buffer, 0, 2);
    this.bytes = new Uint8Array(buffer, HEADER);
    this.decoder = new TextDecoder();
  }

  /** The answer, if one arrives within `ms`; undefined (None in Python) otherwise. */
  poll(ms) {
    if (Atomics.load(this.state, 0) !== 1) {
      Atomics.wait(this.state, 0, 0, ms);
      if (Atomics.load(this.state, 0) !== 1) {
        this.checkInterrupt();
        return undefined;
      }
    }
    const value = this.decoder.decode(this.bytes.slice(0, this.state[1])); // a copy: decode refuses shared memory
    Atomics.store(this.state, 0, 0);
    return value;
  }

  /** Drops an answer no one asked for. */
  discard() {
    Atomics.store(this.state, 0, 0);
  }
}
