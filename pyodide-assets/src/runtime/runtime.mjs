// Local mode's frame: the controller between the app and the Python worker.
//
// This page runs in <iframe sandbox="allow-scripts" src="/local/runtime.html">: an opaque
// origin, so neither it nor the code it runs can reach the app's DOM, cookies, storage or API
// credentials, and its CSP lets it fetch our static assets only. It speaks the message protocol
// of docs/local-runtime-protocol.md with the app, and owns the policies the worker cannot apply
// to itself while Python holds its thread: the timeout, interrupts (SharedArrayBuffer when the
// page is cross-origin isolated, otherwise replacing the worker), crash recovery, the output
// cap, and exactly one `started` and one `finished` per execute.
//
// The frame's modules (runtime.html preloads them all): frame-config.mjs (the page's
// configuration), cells.mjs (the queue and the running cell, with cell-stop.mjs, cell-lines.mjs,
// running-cell.mjs, cell-limits.mjs and javascript.mjs, the JavaScript cells' worker),
// workspace.mjs (file requests and the mirror that survives a reset), core-assets.mjs (the big
// core files every worker is handed), snapshot-keeper.mjs (the memory snapshot), python-workers.mjs
// (starting a Pyodide worker), replies.mjs (answers to input()) and this one: the app's messages
// and the Python worker (start, crash, fatal, replacement).
import { cells as createCells } from './cells.mjs';
import { coreAssets } from './core-assets.mjs';
import { assetsFromParent, config, epochNow, sanitizedTimings } from './frame-config.mjs';
import { spawnWorker } from './python-workers.mjs';
import { createReplies } from './replies.mjs';
import { snapshotKeeper } from './snapshot-keeper.mjs';
import { workspace as createWorkspace } from './workspace.mjs';

// Pyodide that has not started this long after its files were handed over is reported fatal (the
// app may hold them back until the person is about to use a frame it started ahead)
const LOAD_TIMEOUT_MS = 180000;
// A start that fails before `ready` is tried again after these pauses before it is reported
// fatal: a dropped connection is not worth a dead runtime (Chromium aborts requests in flight
// with ERR_NETWORK_CHANGED whenever a network interface comes or goes, as on a Docker host).
const BOOT_RETRY_DELAYS_MS = [1000, 3000];
// A worker booting from a memory snapshot is ready in about a second; one that is not by then
// (a damaged heap can loop) is replaced by a normal start, and the snapshot is dropped.
const SNAPSHOT_BOOT_TIMEOUT_MS = 30000;

let worker = null;
let ready = false;
let fatal = null; // why Python cannot load; cleared by `restart`
let loadTimer = null;
let bootRetries = 0; // failed starts since the last `ready`
let retryTimer = null;
let interrupts = null; // Int32Array over a SharedArrayBuffer, when cross-origin isolated
let inputReplies = null; // the SharedArrayBuffer answers to input() go through (replies.mjs), when isolated

const toApp = (message, transfer) => window.parent.postMessage(message, '*', transfer || []);
const scriptAt = epochNow();
const sendLine = (event) => toApp({ type: 'runner', line: JSON.stringify(event) });

/** What cells.mjs, workspace.mjs and snapshot-keeper.mjs see of this frame: the live worker state, read at each use. */
const frame = {
  config,
  toApp,
  sendLine,
  replaceWorker,
  get worker() { return worker; },
  get ready() { return ready; },
  get fatal() { return fatal; },
  get interrupts() { return interrupts; },
  get inputReplies() { return inputReplies; },
};
const cells = createCells(frame);
const workspace = createWorkspace(frame);
const assets = coreAssets(toApp);
const snapshots = snapshotKeeper({ frame, cells, assets });

// ---- the app's messages --------------------------------------------------------------------

window.addEventListener('message', (e) => {
  const m = e.data;
  if (e.source !== window.parent || !m || typeof m !== 'object') {
    return;
  }
  switch (m.type) {
    case 'execute':
      snapshots.yieldToCell();
      return cells.onExecute(m);
    case 'interrupt': return cells.onInterrupt();
    case 'inputReply': return cells.onInputReply(m);
    case 'restart': return onRestart();
    case 'writeFile':
    case 'listFiles':
    case 'readFile':
    case 'deleteFile':
      return workspace.onFileRequest(m);
    case 'assets':
      return onAssets(m);
    default:
      return undefined;
  }
});

/** The app's answer to `fetchAssets`: the requested files it could fetch (the rest we fetch), and our snapshot if it keeps one. */
function onAssets(m) {
  if (!assets.awaited()) {
    return;
  }
  snapshots.onAssets(m);
  assets.onAssets(m);
}

function onRestart() {
  cells.onRestart(!fatal); // the JavaScript worker goes too
  if (fatal) {
    fatal = null;
    bootRetries = 0;
    startWorker();
    return;
  }
  replaceWorker('the interpreter was restarted on request', { status: 'interrupted' });
}

// ---- the worker ----------------------------------------------------------------------------

function startWorker() {
  clearTimeout(retryTimer);
  ready = false;
  const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  interrupts = isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
  inputReplies = isolated ? createReplies() : null;
  let started = null;
  started = spawnWorker('codeinterp-python', (m) => onWorkerMessage(started, m), (message) => {
    if (started) {
      onWorkerFailed(started, message);
    } else {
      becomeFatal(message);
    }
  });
  if (!started) {
    return;
  }
  worker = started;
  started.spawnedAt = epochNow();
  clearTimeout(loadTimer);
  started.postMessage({ kind: 'init', config, handed: assetsFromParent, interruptBuffer: interrupts,
    inputBuffer: inputReplies, files: workspace.mirroredFiles() });
  assets.obtain().then(() => {
    if (worker !== started) {
      return;
    }
    loadTimer = setTimeout(() => {
      if (worker === started && !ready) {
        becomeFatal(`Python did not start within ${LOAD_TIMEOUT_MS / 1000} s`);
      }
    }, LOAD_TIMEOUT_MS);
    // with a snapshot it boots from that (one that does not load, or not in time, is dropped
    // and a fresh worker starts normally); without one it starts normally
    started.snapshotGiven = snapshots.current !== null;
    assets.handTo(started, snapshots.current);
    if (started.snapshotGiven) {
      setTimeout(() => {
        if (worker === started && !ready) {
          abandonSnapshotBoot(`no interpreter from it was ready within ${SNAPSHOT_BOOT_TIMEOUT_MS / 1000} s`);
        }
      }, SNAPSHOT_BOOT_TIMEOUT_MS);
    }
  });
}

function onWorkerMessage(source, m) {
  if (source !== worker || !m || typeof m !== 'object') {
    return; // a replaced worker's last words
  }
  switch (m.kind) {
    case 'snapshotFailed':
      abandonSnapshotBoot(String(m.message));
      break;
    case 'loading':
      toApp({ type: 'loading', message: String(m.message) });
      break;
    case 'ready':
      if (ready) {
        break;
      }
      ready = true;
      bootRetries = 0;
      clearTimeout(loadTimer);
      toApp({ type: 'ready', python: String(m.python), pyodide: String(m.pyodide), isolated: m.isolated === true,
        timeoutMs: config.timeoutMs, maxTimeoutMs: config.maxTimeoutMs, // the cell timeouts the app may offer
        boot: snapshots.bootKind(m.boot), timings: sanitizedTimings(m.timings), at: startMoments(source, m.at) });
      workspace.flush();
      cells.pump();
      snapshots.schedule();
      break;
    case 'fatal':
      if (!ready) {
        failedToStart(String(m.message));
      }
      break;
    case 'line':
      if (typeof m.line === 'string') {
        cells.onLine(m.line);
      }
      break;
    case 'mirror':
      workspace.updateMirror(m.files, m.deleted);
      break;
    case 'file':
      workspace.onFileReply(m);
      break;
    case 'crashed':
      onWorkerFailed(source, String(m.message));
      break;
    default:
      break;
  }
}

function onWorkerFailed(source, message) {
  if (source !== worker) {
    return;
  }
  if (!ready) {
    failedToStart(`Python could not be loaded in this browser: ${message}`);
    return;
  }
  const oom = /memory|allocation|out of bounds/i.test(message);
  replaceWorker(`the interpreter crashed (${message}) and was restarted`,
    { status: oom ? 'oom' : 'error', error: { ename: oom ? 'MemoryError' : 'InterpreterCrashed', evalue: message } });
}

/** The worker failed before `ready`: a fresh one after a pause, until the retries are spent. */
function failedToStart(message) {
  if (worker.snapshotGiven) {
    snapshots.drop(`a worker booting from it failed: ${message}`); // the next one starts normally
  }
  worker.terminate();
  worker = null;
  clearTimeout(loadTimer);
  if (bootRetries === BOOT_RETRY_DELAYS_MS.length) {
    becomeFatal(`${message} (tried ${bootRetries + 1} times)`);
    return;
  }
  toApp({ type: 'loading', message: `Loading Python again: ${message}` });
  retryTimer = setTimeout(startWorker, BOOT_RETRY_DELAYS_MS[bootRetries++]);
}

/**
 * The worker booting from the snapshot could not use it (it did not load, failed its check, or
 * was not ready in time): it is dropped here and in the app, and a fresh worker starts normally
 * (this one's heap may be anything now). The background worker takes a new one once that is
 * ready, unless this frame took one already.
 */
function abandonSnapshotBoot(reason) {
  snapshots.drop(reason);
  toApp({ type: 'loading', message: 'Loading Python again: ' + reason });
  worker.terminate();
  worker = null;
  clearTimeout(loadTimer);
  startWorker();
}

/**
 * When the ready worker's start went by, in ms since the epoch, for the app's figures: this page's
 * script ran (`page`), the worker was created (`worker`) and began its init (`init`), the files
 * were handed to it (`handed`), it said ready (`ready`).
 */
function startMoments(source, at) {
  const init = at && typeof at === 'object' && Number.isFinite(at.init) ? Math.round(at.init) : null;
  return { page: scriptAt, worker: source.spawnedAt, ...(init === null ? {} : { init }),
    ...(source.handedAt ? { handed: source.handedAt } : {}), ready: epochNow() };
}

/** Pyodide cannot load: every waiting and future request fails with this message. */
function becomeFatal(message) {
  fatal = message;
  clearTimeout(loadTimer);
  snapshots.stopTaking();
  if (worker) {
    worker.terminate();
    worker = null;
  }
  ready = false;
  toApp({ type: 'fatal', message });
  workspace.failAll(message);
  cells.onFatal(message);
}

/**
 * Throws the interpreter away and starts a fresh one: variables are gone, workspace files come
 * back from the mirror. Requests the old worker never answered go to the new one. A running
 * cell (if any) ends as `ending` says, after a `restarted` event (as in server mode).
 */
function replaceWorker(reason, ending) {
  if (worker) {
    worker.terminate();
    worker = null;
  }
  ready = false;
  workspace.requeueUnanswered();
  cells.onReplaced(reason, ending);
  startWorker();
}

// The app may post to this frame only once it has heard from it (earlier messages went to the
// frame's initial about:blank document): say at once that we listen.
toApp({ type: 'loading', message: 'Starting Python' });
startWorker();
