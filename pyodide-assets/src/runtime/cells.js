// Over 300 lines: one lifecycle (queue, clocks, cap, numbering, exactly one `finished`) for every cell language.
// Local mode's frame, part 2 of 4: the cells. Loaded before runtime.js, which creates one with
// `codeinterpRuntime.cells(frame)`; `frame` is runtime.js's view of the worker (see there).
//
// Owns the queue of executes and the running cell's lifecycle: the timeout, interrupts
// (SIGINT through the SharedArrayBuffer when the page is cross-origin isolated, otherwise a
// fresh worker), the output cap, and exactly one `started` and one `finished` per execute, with
// the lines a server's session would add when the interpreter is replaced under a cell.
// A cell's `language` picks its interpreter: Python (the Pyodide worker), JavaScript (the worker
// of javascript.js; stopping a cell ends that worker) or bash (refused: a browser has no shell).
// Execution counts run across languages, as in a server session's one runner.
(function (ns) {
  'use strict';

  const RESIGNAL_MS = 150; // while it has not stopped, a SIGINT Python took without raising is sent again
  const LANGUAGES = ['python', 'javascript', 'bash'];
  const BASH_UNAVAILABLE = {
    ename: 'LanguageUnavailable',
    evalue: 'Bash needs a real shell, and local mode runs in this browser, which has none: '
      + 'switch to Server mode to run bash cells',
  };

  ns.cells = function cells(frame) {
    const { toApp, sendLine, config } = frame;
    // The server's own settings, given with the page (LocalRuntimeConfig): CODEINTERP_TIMEOUT,
    // _OUTPUT_CAP, _INPUT_TIMEOUT and _INTERRUPT_GRACE. No defaults here, so both modes agree.
    const defaultTimeoutMs = limit(config, 'timeoutMs');
    const defaultMaxOutput = limit(config, 'maxOutputBytes');
    const inputTimeoutMs = limit(config, 'inputTimeoutMs');
    const graceMs = limit(config, 'interruptGraceMs'); // an interrupted cell that has not stopped by then loses its worker
    const utf8 = new TextEncoder();
    let executionCount = 0; // the last cell's execution_count: a synthesized `started` follows it
    let uncounted = 0; // cells the Python runner did not number (other languages, synthesized starts)
    let restarting = false; // a `restart` replaces every interpreter and ends the running cell whatever its language
    let cell = null; // the execute being run
    const executions = []; // executes waiting for the running one, or for the worker
    const javascript = ns.javascript(frame, onLine, onJavaScriptCrash);

    function onExecute(m) {
      if (typeof m.id !== 'string' || m.id === '') {
        return; // nothing to answer to
      }
      executions.push({
        id: m.id,
        code: typeof m.code === 'string' ? m.code : '',
        language: LANGUAGES.includes(m.language) ? m.language : 'python',
        timeoutMs: positive(m.timeoutMs, defaultTimeoutMs),
        maxOutputBytes: Number.isInteger(m.maxOutputBytes) && m.maxOutputBytes >= 0 ? m.maxOutputBytes : defaultMaxOutput,
      });
      pump();
    }

    function onInterrupt() {
      if (cell) {
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
      if (!pythonReplaced && cell && cell.language === 'javascript') {
        endCell({ status: 'interrupted' }, 'the interpreter was restarted on request');
      }
    }

    /**
     * The person's answer to the running cell's input(): into the SharedArrayBuffer the worker
     * polls (replies.js), and the cell's clock runs again. Without a waiting cell it goes nowhere.
     */
    function onInputReply(m) {
      if (!cell || !cell.awaitingInput || cell.grace || typeof m.value !== 'string') {
        return;
      }
      if (!ns.replies.write(frame.inputReplies, utf8.encode(m.value))) {
        sendLine({ type: 'stream', id: cell.id, name: 'stderr',
          text: `[codeinterp] that answer is longer than ${ns.replies.MAX_BYTES} bytes; send a shorter one\n` });
        return;
      }
      cell.awaitingInput = false;
      resumeClock();
    }

    /** The cell waits for a person: its own timeout stands still; the wait has its own bound. */
    function pauseClock() {
      clearTimeout(cell.timer);
      cell.timeLeftMs -= Date.now() - cell.clockFrom;
      cell.timer = setTimeout(() => {
        cell.timeoutWhy = `nobody answered the cell's input() within ${seconds(inputTimeoutMs)}, so it was interrupted`;
        stop(true);
      }, inputTimeoutMs);
    }

    function resumeClock() {
      clearTimeout(cell.timer);
      cell.clockFrom = Date.now();
      cell.timer = setTimeout(() => stop(true), Math.max(0, cell.timeLeftMs));
    }

    /**
     * The Python worker is gone: a running cell ends as `ending` says (else just `reset`); counting
     * restarts. A running JavaScript cell goes on, unless this is a `restart`.
     */
    function onReplaced(reason, ending) {
      if (cell && ending && (cell.language === 'python' || restarting)) {
        endCell(ending, reason); // says `reset` before the cell's `finished`
      } else {
        toApp({ type: 'reset', reason });
      }
      restarting = false;
      executionCount = 0; // the next interpreter counts from 1
      uncounted = 0;
    }

    /** The JavaScript worker failed (its scripts did not load, it ran out of memory): the running JavaScript cell ends. */
    function onJavaScriptCrash(message) {
      if (cell && cell.language === 'javascript') {
        const oom = /memory|allocation/i.test(message);
        endCell({ status: oom ? 'oom' : 'error', error: { ename: oom ? 'MemoryError' : 'InterpreterCrashed', evalue: message } },
          `the JavaScript interpreter crashed (${message}) and was replaced; its variables are lost, Python's are kept`);
        pump();
      }
    }

    /** Python cannot load (`frame.fatal`): the running Python cell and every queued one end with an error. */
    function onFatal(message) {
      if (cell && cell.language === 'python') {
        endCell({ status: 'error', error: { ename: 'LocalRuntimeError', evalue: message } });
      }
      pump();
    }

    function pump() {
      while (!cell && executions.length > 0) {
        const language = executions[0].language;
        if (language === 'bash') {
          cell = newCell(executions.shift());
          endCell({ status: 'error', error: BASH_UNAVAILABLE });
        } else if (language === 'javascript') {
          cell = newCell(executions.shift());
          cell.timer = setTimeout(() => stop(true), cell.timeoutMs);
          javascript.run({ ...cell, count: executionCount + 1 });
          return;
        } else if (frame.fatal) {
          cell = newCell(executions.shift());
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
      cell = newCell(executions.shift());
      if (frame.interrupts) {
        Atomics.store(frame.interrupts, 0, 0);
      }
      // Loading the cell's packages counts against the timeout too; `started` restarts the clock.
      cell.timer = setTimeout(() => stop(true), cell.timeoutMs);
      frame.worker.postMessage({ kind: 'execute', id: cell.id, code: cell.code, maxOutputBytes: cell.maxOutputBytes });
    }

    function newCell(request) {
      return {
        ...request,
        begun: Date.now(),
        started: false,
        count: null,
        textBytes: 0,
        truncated: false,
        timedOut: false,
        interruptRequested: false,
        timer: null,
        grace: null,
        resignal: null,
        awaitingInput: false,
        clockFrom: 0,
        timeLeftMs: request.timeoutMs,
        timeoutWhy: null,
      };
    }

    /** Interrupt (or, with `timedOut`, the timeout): SIGINT if we can, else a fresh worker. */
    function stop(timedOut) {
      if (timedOut) {
        cell.timedOut = true;
      }
      if (cell.grace) {
        return; // already stopping
      }
      if (cell.language === 'javascript') {
        // A busy worker cannot be interrupted: it is ended, and its variables with it
        javascript.stop();
        endCell(stopEnding(), (timedOut ? `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)}, so ` : '')
          + 'the JavaScript interpreter was replaced to stop the cell; its variables are lost, Python\'s are kept');
        pump();
        return;
      }
      const interrupts = frame.interrupts;
      if (!interrupts || !frame.ready) {
        frame.replaceWorker(timedOut
          ? `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)}, so the interpreter was restarted`
          : 'interrupting needs a cross-origin isolated page, so the interpreter was restarted',
        stopEnding());
        return;
      }
      cell.interruptRequested = true;
      cell.awaitingInput = false; // the interrupt ends the wait (the worker polls between checks for it)
      if (cell.started) {
        Atomics.store(interrupts, 0, 2); // SIGINT: KeyboardInterrupt in the running cell
      }
      const stopping = cell;
      // Pyodide now and then takes the SIGINT from the buffer and raises nothing (about 1 in 25
      // interrupts of `while True: pass` here); asked again, it raises. A cell that caught the first
      // and carries on gets it again, as a second press of Stop would do. A buffer still holding
      // the signal means Python has not looked: stuck in C, and only a new worker stops it.
      const again = setInterval(() => {
        if (stopping.started && Atomics.load(interrupts, 0) === 0) { // cleared with the cell's other timers when it ends
          Atomics.store(interrupts, 0, 2);
        }
      }, RESIGNAL_MS);
      cell.grace = setTimeout(() => {
        clearInterval(again);
        frame.replaceWorker(`the cell did not stop within ${seconds(graceMs)} of being interrupted, so the interpreter was restarted`,
          stopEnding());
      }, graceMs);
      cell.resignal = again;
    }

    function stopEnding() {
      return cell.timedOut
        ? { status: 'timeout', error: timeoutError() }
        : { status: 'interrupted' };
    }

    function timeoutError() {
      return { ename: 'TimeoutError', evalue: cell.timeoutWhy
        || `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)} and was interrupted` };
    }

    /** One runner line from the worker: checked, capped and forwarded. */
    function onLine(line) {
      if (!cell) {
        return; // late output of a cell already ended
      }
      let event;
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      if (!event || typeof event !== 'object' || event.id !== cell.id) {
        return;
      }
      switch (event.type) {
        case 'started':
          if (cell.started) {
            return;
          }
          cell.started = true;
          if (cell.language === 'python' && Number.isInteger(event.execution_count)) {
            cell.count = event.execution_count + uncounted;
          } else {
            cell.count = executionCount + 1;
            uncounted += cell.language === 'python' ? 0 : 1;
          }
          executionCount = cell.count;
          clearTimeout(cell.timer);
          cell.clockFrom = Date.now();
          cell.timeLeftMs = cell.timeoutMs;
          if (!cell.timedOut) {
            cell.timer = setTimeout(() => stop(true), cell.timeoutMs);
          }
          if (cell.interruptRequested && frame.interrupts) {
            Atomics.store(frame.interrupts, 0, 2);
          }
          forwardNumbered(cell, event, line);
          return;
        case 'stream':
          if (cell.started) {
            forwardCapped(event, line);
          }
          return;
        case 'truncated':
          if (cell.started) {
            markTruncated();
          }
          return;
        case 'error':
          if (!cell.started) {
            return;
          }
          if (cell.timedOut && event.ename === 'KeyboardInterrupt') {
            sendLine({ type: 'error', id: cell.id, ...timeoutError(), traceback: [] });
          } else {
            toApp({ type: 'runner', line });
          }
          return;
        case 'input_request':
          if (cell.started && !cell.grace && frame.inputReplies) {
            cell.awaitingInput = true;
            pauseClock();
            toApp({ type: 'runner', line });
          }
          return;
        case 'execute_result':
          if (cell.started) {
            forwardNumbered(cell, event, line);
          }
          return;
        case 'display_data':
        case 'artifact':
        case 'update_display_data':
        case 'clear_output':
          if (cell.started) {
            toApp({ type: 'runner', line });
          }
          return;
        case 'finished': {
          if (!cell.started) {
            return;
          }
          const ended = cell;
          cell = null;
          clearTimers(ended);
          if (ended.timedOut) {
            sendLine({ ...event, status: 'timeout', execution_count: ended.count });
          } else {
            forwardNumbered(ended, event, line);
          }
          pump();
          return;
        }
        default:
          return; // not the runner's to say (restarted, queued) or not ours to know
      }
    }

    /** Forwards a line, with the cell's own count where the Python runner's differs (cells of other languages came between). */
    function forwardNumbered(c, event, line) {
      if (Number.isInteger(event.execution_count) && event.execution_count !== c.count && c.count !== null) {
        sendLine({ ...event, execution_count: c.count });
      } else {
        toApp({ type: 'runner', line });
      }
    }

    /** The output cap, held here whatever the worker sends: text past it is dropped. */
    function forwardCapped(event, line) {
      if (cell.truncated || typeof event.text !== 'string') {
        return;
      }
      const bytes = utf8.encode(event.text);
      if (cell.textBytes + bytes.length <= cell.maxOutputBytes) {
        cell.textBytes += bytes.length;
        toApp({ type: 'runner', line });
        return;
      }
      let room = cell.maxOutputBytes - cell.textBytes;
      while (room > 0 && (bytes[room] & 0xc0) === 0x80) {
        room--; // do not split a UTF-8 character
      }
      if (room > 0) {
        sendLine({ type: 'stream', id: cell.id, name: event.name, text: new TextDecoder().decode(bytes.subarray(0, room)) });
      }
      cell.textBytes = cell.maxOutputBytes;
      markTruncated();
    }

    function markTruncated() {
      if (!cell.truncated) {
        cell.truncated = true;
        sendLine({ type: 'truncated', id: cell.id, limit_bytes: cell.maxOutputBytes });
      }
    }

    /** Ends the running cell without the worker: started (if missing), error, restarted, finished. */
    function endCell(ending, restartReason) {
      const ended = cell;
      cell = null;
      clearTimers(ended);
      if (!ended.started) {
        executionCount += 1;
        uncounted += 1; // no runner numbered it
        sendLine({ type: 'started', id: ended.id, execution_count: executionCount });
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

    function clearTimers(c) {
      clearTimeout(c.timer);
      clearTimeout(c.grace);
      clearInterval(c.resignal);
    }

    /** No cell runs and none waits: the frame may start background work (the memory snapshot). */
    function idle() {
      return !cell && executions.length === 0;
    }

    return { onExecute, onInterrupt, onInputReply, onLine, onRestart, onReplaced, onFatal, pump, idle };
  };

  /** One of the server's limits from the page's configuration; a page without it is the server's bug, said at once. */
  function limit(config, name) {
    const value = config[name];
    if (!Number.isInteger(value) || value <= 0) {
      throw new Error(`the runtime page's configuration has no ${name} (the server gives it with the page)`);
    }
    return value;
  }

  function positive(value, fallback) {
    return typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : fallback;
  }

  function seconds(ms) {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  }
})(self.codeinterpRuntime ??= {});
