// Local mode's frame: the cells. runtime.mjs creates one with `cells(frame)`; `frame` is
// runtime.mjs's view of the worker (see there).
//
// Owns the queue of executes and the running cell's lifecycle: the timeout (cell-stop.mjs: and
// interrupts, SIGINT through the SharedArrayBuffer when the page is cross-origin isolated,
// otherwise a fresh worker), the runner's lines (cell-lines.mjs: the output cap, the numbering),
// and exactly one `started` and one `finished` per execute, with the lines a server's session
// would add when the interpreter is replaced under a cell.
// A cell's `language` picks its interpreter: Python (the Pyodide worker), JavaScript (the worker
// of javascript.mjs; stopping a cell ends that worker) or bash (refused: a browser has no shell).
// Execution counts run across languages, as in a server session's one runner.
import { BASH_UNAVAILABLE, LANGUAGES, limit, positive, seconds } from './cell-limits.mjs';
import { cellLines } from './cell-lines.mjs';
import { cellStopper } from './cell-stop.mjs';
import { javascript as javascriptWorker } from './javascript.mjs';
import { MAX_REPLY_BYTES, writeReply } from './replies.mjs';
import { clearTimers, newCell } from './running-cell.mjs';

export function cells(frame) {
  const { toApp, sendLine, config } = frame;
  // The server's own settings, given with the page (LocalRuntimeConfig): CODEINTERP_TIMEOUT,
  // _MAX_TIMEOUT, _OUTPUT_CAP, _INPUT_TIMEOUT and _INTERRUPT_GRACE. No defaults here, so both modes agree.
  const defaultTimeoutMs = limit(config, 'timeoutMs');
  const maxTimeoutMs = Math.max(limit(config, 'maxTimeoutMs'), defaultTimeoutMs);
  const defaultMaxOutput = limit(config, 'maxOutputBytes');
  const inputTimeoutMs = limit(config, 'inputTimeoutMs');
  const graceMs = limit(config, 'interruptGraceMs'); // an interrupted cell that has not stopped by then loses its worker
  const utf8 = new TextEncoder();
  const run = {
    cell: null, // the execute being run (running-cell.mjs)
    executionCount: 0, // the last cell's execution_count: a synthesized `started` follows it
    uncounted: 0, // cells the Python runner did not number (other languages, synthesized starts)
  };
  let restarting = false; // a `restart` replaces every interpreter and ends the running cell whatever its language
  const executions = []; // executes waiting for the running one, or for the worker
  const javascript = javascriptWorker(frame, (line) => onLine(line), onJavaScriptCrash);
  const stop = cellStopper({ frame, run, javascript, graceMs, endCell, pump });
  const onLine = cellLines({ frame, run, stop, pauseClock, pump });

  function onExecute(m) {
    if (typeof m.id !== 'string' || m.id === '') {
      return; // nothing to answer to
    }
    executions.push({
      id: m.id,
      code: typeof m.code === 'string' ? m.code : '',
      language: LANGUAGES.includes(m.language) ? m.language : 'python',
      timeoutMs: Math.min(positive(m.timeoutMs, defaultTimeoutMs), maxTimeoutMs), // as the server caps a cell's own
      maxOutputBytes: Number.isInteger(m.maxOutputBytes) && m.maxOutputBytes >= 0 ? m.maxOutputBytes : defaultMaxOutput,
    });
    pump();
  }

  function onInterrupt() {
    if (run.cell) {
      stop(false);
    }
  }

  /**
   * `restart`: the JavaScript worker goes too. With `pythonReplaced` the Python replacement that
   * follows ends the running cell, whatever its language; else (Python never loaded) it ends here.
   */
  function onRestart(pythonReplaced) {
    javascript.stop();
    restarting = pythonReplaced;
    if (!pythonReplaced && run.cell && run.cell.language === 'javascript') {
      endCell({ status: 'interrupted' }, 'the interpreter was restarted on request');
    }
  }

  /**
   * The person's answer to the running cell's input(): into the SharedArrayBuffer the worker
   * polls (replies.mjs), and the cell's clock runs again. Without a waiting cell it goes nowhere.
   */
  function onInputReply(m) {
    const cell = run.cell;
    if (!cell || !cell.awaitingInput || cell.grace || typeof m.value !== 'string') {
      return;
    }
    if (!writeReply(frame.inputReplies, utf8.encode(m.value))) {
      sendLine({ type: 'stream', id: cell.id, name: 'stderr',
        text: `[codeinterp] that answer is longer than ${MAX_REPLY_BYTES} bytes; send a shorter one\n` });
      return;
    }
    cell.awaitingInput = false;
    resumeClock();
  }

  /** The cell waits for a person: its own timeout stands still; the wait has its own bound. */
  function pauseClock() {
    const cell = run.cell;
    clearTimeout(cell.timer);
    cell.timeLeftMs -= Date.now() - cell.clockFrom;
    cell.timer = setTimeout(() => {
      cell.timeoutWhy = `nobody answered the cell's input() within ${seconds(inputTimeoutMs)}, so it was interrupted`;
      stop(true);
    }, inputTimeoutMs);
  }

  function resumeClock() {
    const cell = run.cell;
    clearTimeout(cell.timer);
    cell.clockFrom = Date.now();
    cell.timer = setTimeout(() => stop(true), Math.max(0, cell.timeLeftMs));
  }

  /**
   * The Python worker is gone: a running cell ends as `ending` says (else just `reset`); counting
   * restarts. A running JavaScript cell goes on, unless this is a `restart`.
   */
  function onReplaced(reason, ending) {
    if (run.cell && ending && (run.cell.language === 'python' || restarting)) {
      endCell(ending, reason); // says `reset` before the cell's `finished`
    } else {
      toApp({ type: 'reset', reason });
    }
    restarting = false;
    run.executionCount = 0; // the next interpreter counts from 1
    run.uncounted = 0;
  }

  /** The JavaScript worker failed (its scripts did not load, it ran out of memory): the running JavaScript cell ends. */
  function onJavaScriptCrash(message) {
    if (run.cell && run.cell.language === 'javascript') {
      const oom = /memory|allocation/i.test(message);
      endCell({ status: oom ? 'oom' : 'error', error: { ename: oom ? 'MemoryError' : 'InterpreterCrashed', evalue: message } },
        `the JavaScript interpreter crashed (${message}) and was replaced; its variables are lost, Python's are kept`);
      pump();
    }
  }

  /** Python cannot load (`frame.fatal`): the running Python cell and every queued one end with an error. */
  function onFatal(message) {
    if (run.cell && run.cell.language === 'python') {
      endCell({ status: 'error', error: { ename: 'LocalRuntimeError', evalue: message } });
    }
    pump();
  }

  function pump() {
    while (!run.cell && executions.length > 0) {
      const language = executions[0].language;
      if (language === 'bash') {
        run.cell = newCell(executions.shift());
        endCell({ status: 'error', error: BASH_UNAVAILABLE });
      } else if (language === 'javascript') {
        const cell = run.cell = newCell(executions.shift());
        cell.timer = setTimeout(() => stop(true), cell.timeoutMs);
        javascript.run({ ...cell, count: run.executionCount + 1 });
        return;
      } else if (frame.fatal) {
        run.cell = newCell(executions.shift());
        endCell({ status: 'error', error: { ename: 'LocalRuntimeError', evalue: frame.fatal } });
      } else {
        runPython();
        return;
      }
    }
  }

  function runPython() {
    if (!frame.ready) {
      return; // `ready` pumps again
    }
    const cell = run.cell = newCell(executions.shift());
    if (frame.interrupts) {
      Atomics.store(frame.interrupts, 0, 0);
    }
    // Loading the cell's packages counts against the timeout too; `started` restarts the clock.
    cell.timer = setTimeout(() => stop(true), cell.timeoutMs);
    frame.worker.postMessage({ kind: 'execute', id: cell.id, code: cell.code, maxOutputBytes: cell.maxOutputBytes });
  }

  /** Ends the running cell without the worker: started (if missing), error, restarted, finished. */
  function endCell(ending, restartReason) {
    const ended = run.cell;
    run.cell = null;
    clearTimers(ended);
    if (!ended.started) {
      run.executionCount += 1;
      run.uncounted += 1; // no runner numbered it
      sendLine({ type: 'started', id: ended.id, execution_count: run.executionCount });
    }
    if (ending.error) {
      sendLine({ type: 'error', id: ended.id, ename: ending.error.ename, evalue: ending.error.evalue, traceback: [] });
    }
    if (restartReason) {
      sendLine({ type: 'restarted', id: ended.id, reason: restartReason });
      toApp({ type: 'reset', reason: restartReason });
    }
    sendLine({
      type: 'finished', id: ended.id, status: ending.status, execution_count: null,
      duration_ms: Date.now() - ended.begun, cpu_ms: null, peak_memory_kb: null,
    });
  }

  /** No cell runs and none waits: the frame may start background work (the memory snapshot). */
  function idle() {
    return !run.cell && executions.length === 0;
  }

  return { onExecute, onInterrupt, onInputReply, onLine, onRestart, onReplaced, onFatal, pump, idle };
}
