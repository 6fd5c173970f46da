// Local mode's frame: the JavaScript interpreter, a dedicated worker (js-worker.js) beside the
// Python one, in this same opaque, zero-egress frame. cells.mjs creates one with
// `javascript(frame, onLine, onCrash)`. Started by the first JavaScript cell; cells.mjs ends it to
// stop a cell (a busy worker cannot be interrupted, so its variables are lost) and on `restart`.
// Its runner lines go to cells.mjs like Python's.

export function javascript(frame, onLine, onCrash) {
  let worker = null;

  /** The worker, started on first use. Messages wait in its queue while it loads its scripts. */
  function get() {
    if (worker) {
      return worker;
    }
    const base = frame.config.runtimeURL;
    // As for Python: an opaque origin may start a worker only from a blob: URL of its own; the
    // worker inherits this page's CSP and loads our scripts from the runtime path.
    const source = `importScripts(${['acorn.js', 'inspect.js', 'repl_rewrite.js', 'js-worker.js'].map((f) => JSON.stringify(base + f)).join(', ')});\n`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const started = new Worker(url, { name: 'codeinterp-javascript' });
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    started.onmessage = (e) => {
      const m = e.data;
      if (started === worker && m && m.kind === 'line' && typeof m.line === 'string') {
        onLine(m.line);
      }
    };
    started.onerror = (e) => {
      e.preventDefault();
      if (started === worker) {
        stop();
        onCrash(e.message || 'the JavaScript worker failed');
      }
    };
    worker = started;
    return worker;
  }

  function run(cell) {
    get().postMessage({ kind: 'execute', id: cell.id, code: cell.code, count: cell.count, maxOutputBytes: cell.maxOutputBytes });
  }

  /** Ends the worker: its variables are gone; the next JavaScript cell starts a fresh one. */
  function stop() {
    if (worker) {
      worker.terminate();
      worker = null;
    }
  }

  return { run, stop, get running() { return worker !== null; } };
}
