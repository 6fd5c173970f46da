// Local mode's frame: stopping the running cell, on the person's interrupt or at its timeout. A
// Python cell gets SIGINT through the SharedArrayBuffer when the page is cross-origin isolated,
// and loses its worker past the grace period or without isolation; a JavaScript cell always loses
// its worker (a busy one cannot be interrupted), and its variables with it.
import { seconds } from './cell-limits.mjs';
import { stopEnding } from './running-cell.mjs';

const RESIGNAL_MS = 150; // while it has not stopped, a SIGINT Python took without raising is sent again

/**
 * `stop(timedOut)` for the cell running in `run` (`run.cell`): `endCell(ending, reason)` and
 * `pump()` are cells.mjs's.
 */
export function cellStopper({ frame, run, javascript, graceMs, endCell, pump }) {
  /** Interrupt (or, with `timedOut`, the timeout): SIGINT if we can, else a fresh worker. */
  return function stop(timedOut) {
    const cell = run.cell;
    if (timedOut) {
      cell.timedOut = true;
    }
    if (cell.grace) {
      return; // already stopping
    }
    if (cell.language === 'javascript') {
      // A busy worker cannot be interrupted: it is ended, and its variables with it
      javascript.stop();
      endCell(stopEnding(cell), (timedOut ? `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)}, so ` : '')
        + 'the JavaScript interpreter was replaced to stop the cell; its variables are lost, Python\'s are kept');
      pump();
      return;
    }
    const interrupts = frame.interrupts;
    if (!interrupts || !frame.ready) {
      frame.replaceWorker(timedOut
        ? `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)}, so the interpreter was restarted`
        : 'interrupting needs a cross-origin isolated page, so the interpreter was restarted',
      stopEnding(cell));
      return;
    }
    cell.interruptRequested = true;
    cell.awaitingInput = false; // the interrupt ends the wait (the worker polls between checks for it)
    if (cell.started) {
      Atomics.store(interrupts, 0, 2); // SIGINT: KeyboardInterrupt in the running cell
    }
    // Pyodide now and then takes the SIGINT from the buffer and raises nothing (about 1 in 25
    // interrupts of `while True: pass` here); asked again, it raises. A cell that caught the first
    // and carries on gets it again, as a second press of Stop would do. A buffer still holding
    // the signal means Python has not looked: stuck in C, and only a new worker stops it.
    const again = setInterval(() => {
      if (cell.started && Atomics.load(interrupts, 0) === 0) { // cleared with the cell's other timers when it ends
        Atomics.store(interrupts, 0, 2);
      }
    }, RESIGNAL_MS);
    cell.grace = setTimeout(() => {
      clearInterval(again);
      frame.replaceWorker(`the cell did not stop within ${seconds(graceMs)} of being interrupted, so the interpreter was restarted`,
        stopEnding(cell));
    }, graceMs);
    cell.resignal = again;
  };
}
