// Local mode's frame: the running cell's record (cells.mjs keeps one at a time): its request,
// where it is (started, waiting for a person's input, stopping), its clock and timers, and how a
// stop ends it.
import { seconds } from './cell-limits.mjs';

export function newCell(request) {
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

export function clearTimers(cell) {
  clearTimeout(cell.timer);
  clearTimeout(cell.grace);
  clearInterval(cell.resignal);
}

/** How a stopped cell ends: `timeout` (with its error) past its timeout, else `interrupted`. */
export function stopEnding(cell) {
  return cell.timedOut
    ? { status: 'timeout', error: timeoutError(cell) }
    : { status: 'interrupted' };
}

export function timeoutError(cell) {
  return { ename: 'TimeoutError', evalue: cell.timeoutWhy
    || `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)} and was interrupted` };
}
