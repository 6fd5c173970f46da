// Local mode's JavaScript interpreter: a classic worker that javascript.mjs starts from a blob: URL
// in the same opaque, zero-egress frame as Python (it inherits the frame's CSP), after acorn.js,
// inspect.js (object-inspect) and repl_rewrite.js (the runner's cell rewrite). It runs cells with
// REPL semantics as close to server mode's node_repl.js as a browser allows: one global scope for
// the worker's life, top-level const/let/class rewritten (with acorn) so a later cell may declare
// them again, top-level await, console.log/info/debug as stdout and console.error/warn as stderr,
// streamed while the cell runs, the last expression's value as execute_result (text/plain by
// object-inspect, plus application/json for plain data), errors with the cell's own frames only.
// Each cell is a classic script loaded with importScripts from a blob: URL (never eval: the CSP
// forbids it).
//
// Speaks runner lines to the frame ({kind: 'line', line}), which owns the timeout, the cap and
// interrupts: an interrupt terminates this worker, so its variables are lost (node_repl.js keeps
// them, with breakOnSigint: a browser has no way to stop a busy worker but to end it).
(function () {
  'use strict';

  const acorn = self.acorn;
  const inspect = self.codeinterpInspect;
  const { rewriteCell, isPlainData } = self.codeinterpReplRewrite;
  const RESULT = '__codeinterp_result__';
  const FLUSH_MS = 30; // stream text is gathered this long, so a chatty loop costs few messages

  let current = null; // the running cell: {id, count, maxOutputBytes, bytes, pending: {name, text}}
  let lastFlush = 0;
  let flushTimer = null;

  const postLine = (event) => self.postMessage({ kind: 'line', line: JSON.stringify(event) });

  // ---- console ---------------------------------------------------------------------------------

  function write(name, args) {
    if (!current) {
      return; // output of a cell that has ended (a late timer) goes nowhere, as in the runner
    }
    const text = args.map((a) => (typeof a === 'string' ? a : show(a, 2))).join(' ') + '\n';
    if (current.pending && current.pending.name !== name) {
      flush();
    }
    current.pending = current.pending ? { name, text: current.pending.text + text } : { name, text };
    if (Date.now() - lastFlush >= FLUSH_MS) {
      flush();
    } else if (!flushTimer) {
      flushTimer = setTimeout(flush, FLUSH_MS); // fires only if the cell yields (await, timers)
    }
  }

  function flush() {
    clearTimeout(flushTimer);
    flushTimer = null;
    lastFlush = Date.now();
    if (!current || !current.pending) {
      return;
    }
    const { name, text } = current.pending;
    current.pending = null;
    const room = current.maxOutputBytes - current.bytes;
    if (room <= 0) {
      return; // the frame has said `truncated` already
    }
    current.bytes += new TextEncoder().encode(text).length; // the frame cuts at the exact byte
    postLine({ type: 'stream', id: current.id, name, text });
  }

  for (const method of ['log', 'info', 'debug']) {
    console[method] = (...args) => write('stdout', args);
  }
  for (const method of ['error', 'warn', 'trace']) {
    console[method] = (...args) => write('stderr', args);
  }
  self.addEventListener('error', (e) => {
    e.preventDefault(); // an error in a callback is the cell's output, not this worker's crash
    write('stderr', ['Uncaught ' + (e.error instanceof Error ? e.error.stack || e.error : e.message)]);
  });
  self.addEventListener('unhandledrejection', (e) => {
    e.preventDefault();
    write('stderr', ['Unhandled promise rejection: ' + show(e.reason, 2)]);
  });

  function show(value, depth) {
    try {
      return inspect(value, { depth, indent: null });
    } catch {
      return String(value);
    }
  }

  // ---- cells ---------------------------------------------------------------------------------

  let queue = Promise.resolve(); // one cell at a time, in arrival order
  self.onmessage = (e) => {
    const m = e.data;
    if (m && m.kind === 'execute' && typeof m.id === 'string') {
      queue = queue.then(() => runCell(m));
    }
  };

  async function runCell(m) {
    const count = Number.isInteger(m.count) ? m.count : 1;
    current = { id: m.id, count, maxOutputBytes: m.maxOutputBytes, bytes: 0, pending: null };
    const begun = Date.now();
    postLine({ type: 'started', id: m.id, execution_count: count });
    let status = 'ok';
    let url = null;
    try {
      const { prelude, script, async, syntaxError } = rewrite(String(m.code));
      if (syntaxError) {
        checkSyntax(String(m.code), syntaxError, `<cell-${count}>`);
      }
      url = URL.createObjectURL(new Blob([(prelude || '') + script], { type: 'text/javascript' }));
      delete self[RESULT];
      importScripts(url);
      let value = self[RESULT];
      delete self[RESULT];
      if (async) {
        value = await value;
      }
      flush();
      if (value !== undefined) {
        self._ = value;
        const data = { 'text/plain': show(value, 4) };
        if (isPlainData(value) && typeof value === 'object') {
          data['application/json'] = value;
        }
        postLine({ type: 'execute_result', id: m.id, execution_count: count, data, metadata: {} });
      }
    } catch (error) {
      flush();
      status = 'error';
      postLine({ type: 'error', id: m.id, ...describe(error, url, `<cell-${count}>`) });
    } finally {
      if (url) {
        URL.revokeObjectURL(url);
      }
    }
    flush();
    current = null;
    postLine({
      type: 'finished', id: m.id, status, execution_count: count,
      duration_ms: Date.now() - begun, cpu_ms: null, peak_memory_kb: null,
    });
  }

  /**
   * The cell with REPL semantics (repl_rewrite.js, shared with node_repl.js); the last expression's
   * value goes to self[RESULT]. With top-level await the body runs in an async function, its
   * declarations hoisted to globals first. Prefixes stay on the first line, so line numbers in
   * errors are the cell's own.
   */
  function rewrite(code) {
    const { prelude, body, async, syntaxError } = rewriteCell(acorn, code, `self.${RESULT}`);
    if (syntaxError) {
      return { script: code, async: false, syntaxError }; // the browser's own message, acorn's place
    }
    return async ? { prelude, script: `self.${RESULT} = (async () => {${body}\n})();`, async } : { script: body, async };
  }

  /**
   * Throws the cell's SyntaxError as Node reports one: where (from acorn), the line with a caret,
   * then the browser's own message (its script parser's, from a script that is never run).
   */
  function checkSyntax(code, acornError, filename) {
    let message = acornError.message.replace(/ \(\d+:\d+\)$/, '');
    const url = URL.createObjectURL(new Blob([`(async function () {\n${code}\n});`], { type: 'text/javascript' }));
    try {
      importScripts(url); // only parses: the cell is the body of a function nobody calls
    } catch (error) {
      message = String(error.message).replace(/^Failed to execute 'importScripts' on 'WorkerGlobalScope': /, '');
    } finally {
      URL.revokeObjectURL(url);
    }
    const { line, column } = acornError.loc || { line: 1, column: 0 };
    const error = new SyntaxError(message);
    error.cellTraceback = [`${filename}:${line}`, code.split('\n')[line - 1] ?? '', ' '.repeat(column) + '^', '',
      `SyntaxError: ${message}`];
    throw error;
  }

  /** The error as the runner reports one: the cell's frames only, named `<cell-N>` instead of the blob: URL. */
  function describe(error, url, filename) {
    if (error instanceof SyntaxError && error.cellTraceback) {
      return { ename: 'SyntaxError', evalue: error.message, traceback: error.cellTraceback };
    }
    if (!(error instanceof Error)) {
      const shown = show(error, 2);
      return { ename: 'Uncaught', evalue: shown, traceback: ['Uncaught ' + shown] };
    }
    const stack = String(error.stack || `${error.name}: ${error.message}`);
    const lines = (url ? stack.split(url).join(filename) : stack).split('\n');
    const kept = lines.filter((l) => !/^\s+at /.test(l) || l.includes(filename));
    while (kept.length && kept[kept.length - 1].trim() === '') kept.pop();
    return { ename: error.name || 'Error', evalue: error.message, traceback: kept };
  }

  self.postMessage({ kind: 'ready' });
})();
