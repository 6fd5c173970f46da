// Local mode's frame: the runner lines of the running cell, from either interpreter's worker:
// checked (only the running cell's, only once it started), numbered across languages, held to the
// output cap, and the cell's end when its `finished` comes.
import { clearTimers, timeoutError } from './running-cell.mjs';

/**
 * `onLine(line)` for the cell running in `run` ({cell, executionCount, uncounted}); `stop`,
 * `pauseClock` and `pump` are cells.mjs's.
 */
export function cellLines({ frame, run, stop, pauseClock, pump }) {
  const { toApp, sendLine } = frame;
  const utf8 = new TextEncoder();

  /** One runner line from the worker: checked, capped and forwarded. */
  function onLine(line) {
    const cell = run.cell;
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
          cell.count = event.execution_count + run.uncounted;
        } else {
          cell.count = run.executionCount + 1;
          run.uncounted += cell.language === 'python' ? 0 : 1;
        }
        run.executionCount = cell.count;
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
          forwardCapped(cell, event, line);
        }
        return;
      case 'truncated':
        if (cell.started) {
          markTruncated(cell);
        }
        return;
      case 'error':
        if (!cell.started) {
          return;
        }
        if (cell.timedOut && event.ename === 'KeyboardInterrupt') {
          sendLine({ type: 'error', id: cell.id, ...timeoutError(cell), traceback: [] });
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
        run.cell = null;
        clearTimers(cell);
        if (cell.timedOut) {
          sendLine({ ...event, status: 'timeout', execution_count: cell.count });
        } else {
          forwardNumbered(cell, event, line);
        }
        pump();
        return;
      }
      default:
        return; // not the runner's to say (restarted, queued) or not ours to know
    }
  }

  /** Forwards a line, with the cell's own count where the Python runner's differs (cells of other languages came between). */
  function forwardNumbered(cell, event, line) {
    if (Number.isInteger(event.execution_count) && event.execution_count !== cell.count && cell.count !== null) {
      sendLine({ ...event, execution_count: cell.count });
    } else {
      toApp({ type: 'runner', line });
    }
  }

  /** The output cap, held here whatever the worker sends: text past it is dropped. */
  function forwardCapped(cell, event, line) {
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
    markTruncated(cell);
  }

  function markTruncated(cell) {
    if (!cell.truncated) {
      cell.truncated = true;
      sendLine({ type: 'truncated', id: cell.id, limit_bytes: cell.maxOutputBytes });
    }
  }

  return onLine;
}
