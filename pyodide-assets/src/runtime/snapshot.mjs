// Memory snapshots: a return visit boots Python from a copy of an initialised interpreter's
// WebAssembly memory instead of starting it (Pyodide's `_makeSnapshot` / `makeMemorySnapshot()` /
// `_loadSnapshot`; see docs/local-runtime-protocol.md, "Memory snapshots").
//
// The snapshot is taken by a worker of its own, started by the frame in the background once the
// user's interpreter is ready (so a first visit waits for nothing more than a normal start). That
// worker never runs a cell and is never handed a workspace file: it installs our sources, imports
// the host module, takes the snapshot before the host exists and is terminated. So the snapshot
// holds the interpreter, the standard library modules and our modules, never user data. It is
// the wasm memory only: the file system (the stdlib, our sources, the workspace) is JavaScript
// state and is put back after a restore as after a start. Pyodide checks its own build id in the
// snapshot; the frame and the app key it by Pyodide version and runtime hash besides, so a new
// build never even offers an old one. It is kept and handed over as a Blob of its non-zero pages
// (snapshot-pages.mjs): the Blob crosses postMessage without its bytes being copied, and only
// this worker reads it.

import { startPyodide } from './boot.mjs';
import { describe } from './errors.mjs';
import { compact, expand } from './snapshot-pages.mjs';

/**
 * The snapshot in `kept` (a Blob made of what `takeSnapshot` gave) as Pyodide takes it, read while
 * the worker imports Pyodide's modules. Rejects if it cannot be read or is not whole.
 * `timings.unpack`: reading and expanding it.
 */
export async function unpackSnapshot(kept, timings) {
  const begun = performance.now();
  const snapshot = expand(await kept.arrayBuffer());
  timings.unpack = Math.round(performance.now() - begun);
  return snapshot;
}

/**
 * Starts Pyodide from `unpacked` (unpackSnapshot's promise), instantiating `core` (compileCore's).
 * Rejects if the snapshot could not be read or does not load; `checkRestored` says whether it works.
 */
export async function startFromSnapshot(config, modules, unpacked, core, timings) {
  return startPyodide(config, modules, { snapshot: await unpacked, core, timings });
}

/**
 * The restored interpreter must answer before it is trusted with cells: a snapshot whose header is
 * valid but whose heap is damaged can load and still be broken. `hostModule.check_cell()` runs a
 * small cell through a throwaway runner and returns its events as protocol lines; they are judged
 * here, outside the heap (Python's own comparisons would share a damaged string's damage). Throws
 * with what was wrong (a damaged heap may as well trap or raise in there).
 */
export function checkRestored(hostModule) {
  const proxy = hostModule.check_cell();
  let events;
  try {
    events = proxy.toJs().map((line) => JSON.parse(line));
  } finally {
    proxy.destroy();
  }
  const of = (type) => events.filter((event) => event.type === type && event.id === 'boot-check');
  const printed = of('stream').map((event) => event.text).join('');
  const results = of('execute_result').map((event) => event.data && event.data['text/plain']);
  const ends = of('finished').map((event) => event.status);
  if (printed !== '{"n": 42}\n' || results.join('|') !== '(2, 45)' || ends.join('|') !== 'ok' || of('started').length !== 1) {
    throw new Error(`the restored interpreter failed its check: printed ${JSON.stringify(printed)}, `
      + `results ${JSON.stringify(results)}, finished ${JSON.stringify(ends)}`);
  }
}

/** The snapshot of `pyodide` (loaded with makeSnapshot, host module imported, no cell run) as an ArrayBuffer of its non-zero pages, or null if it cannot be made. */
export function takeSnapshot(pyodide) {
  try {
    return compact(pyodide.makeMemorySnapshot());
  } catch (error) {
    console.warn('no memory snapshot:', describe(error));
    return null;
  }
}
