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
// Four classic scripts, loaded in this order by runtime.html, share one global,
// `codeinterpRuntime`: javascript.js (the JavaScript cells' worker), cells.js (the queue and the
// running cell: timeout, interrupt, output cap, how a cell ends), workspace.js (file requests and
// the mirror that survives a reset) and this one, part 4 of 4: the app's messages, the Python
// worker (start, crash, fatal, replacement) and the big core files it is handed.
(function (ns) {
  'use strict';

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
  // The background worker that takes the snapshot starts this long after `ready`, once no cell
  // runs or waits, and is given up after SNAPSHOT_TAKE_TIMEOUT_MS.
  const SNAPSHOT_IDLE_MS = 1000;
  const SNAPSHOT_TAKE_TIMEOUT_MS = 120000;

  const base = location.href;
  const raw = JSON.parse(document.getElementById('config').textContent);
  const config = {
    pyodideVersion: raw.pyodideVersion,
    indexURL: new URL(raw.indexURL, base).href,
    packagesURL: new URL(raw.packagesURL, base).href,
    runtimeURL: new URL(raw.runtimeURL, base).href,
    wheelsURL: new URL(raw.wheelsURL, base).href,
    maxUploadBytes: raw.maxUploadBytes,
    timeoutMs: raw.timeoutMs,
    maxOutputBytes: raw.maxOutputBytes,
    inputTimeoutMs: raw.inputTimeoutMs,
    interruptGraceMs: raw.interruptGraceMs,
    mirrorFileLimit: ns.workspace.MIRROR_FILE_LIMIT,
  };
  // The big files of the core. This frame's origin is opaque, and Chromium never caches what an
  // opaque origin fetches, so they are fetched once per frame and handed to every worker; with
  // `#assets=parent` in this page's URL the app fetches them (from its HTTP cache) instead, and
  // with them Pyodide's two modules and our Python sources (CORE_FILES), which the worker
  // otherwise fetches itself.
  const BIG_ASSETS = ['pyodide.asm.wasm', 'python_stdlib.zip'].map((name) => config.indexURL + name);
  // The Python worker's modules, all of them (tests/runtime-modules.test.js holds the list to the
  // imports): its bootstrap starts fetching them at once, where importing worker.mjs alone would
  // find them level by level, a round trip each (the frame's fetches are never cached); 70-250 ms
  // of a return visit here.
  const WORKER_MODULES = ['worker.mjs', 'boot.mjs', 'errors.mjs', 'input-replies.mjs', 'packages.mjs', 'snapshot.mjs',
    'snapshot-pages.mjs', 'workspace-fs.mjs', 'workspace-names.mjs'];
  const CORE_FILES = [...BIG_ASSETS, config.indexURL + 'pyodide.mjs', config.indexURL + 'pyodide.asm.mjs',
    config.runtimeURL + 'python-sources.json'];
  config.bigAssets = BIG_ASSETS;
  const assetsFromParent = /(^#|&)assets=parent(&|$)/.test(location.hash);
  let appTook = {}; // the app's {step: ms} answering fetchAssets, for the figures
  let answerAssets = null; // resolves the pending fetchAssets, when the app has been asked
  // Memory snapshots (snapshot.mjs): only an app that answers fetchAssets can keep one for us (this
  // origin has no storage). It is keyed by Pyodide version and the runtime's content hash (the last
  // segment of runtimeURL), so a new build never boots an old one.
  const runtimeHash = (/\/([0-9a-f]{16})\/$/.exec(config.runtimeURL) || [])[1] || null;
  const snapshotKey = assetsFromParent && runtimeHash ? `${config.pyodideVersion}/${runtimeHash}` : null;
  let snapshot = null; // Blob: the snapshot every worker of this frame boots from (snapshot-pages.mjs's layout)
  let snapshotFromApp = false; // `snapshot` is the one the app kept (else: taken here)
  let snapshotTaken = false; // this frame started taking one already: at most one per frame
  let appKeepsSnapshots = false; // the app's `assets` said it keeps one (`snapshots: true`): only then is one taken
  let snapshotWorker = null; // the background worker taking it
  let snapshotTimer = null;

  let worker = null;
  let ready = false;
  let fatal = null; // why Python cannot load; cleared by `restart`
  let loadTimer = null;
  let bootRetries = 0; // failed starts since the last `ready`
  let retryTimer = null;
  let interrupts = null; // Int32Array over a SharedArrayBuffer, when cross-origin isolated
  let inputReplies = null; // the SharedArrayBuffer answers to input() go through (replies.js), when isolated

  const toApp = (message, transfer) => window.parent.postMessage(message, '*', transfer || []);
  // When things happened, in ms since the epoch (a clock the app shares), for `ready.at`: figures only
  const epochNow = () => Math.round(performance.timeOrigin + performance.now());
  const scriptAt = epochNow();
  const sendLine = (event) => toApp({ type: 'runner', line: JSON.stringify(event) });

  /** What cells.js and workspace.js see of this frame: the live worker state, read at each use. */
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
  const cells = ns.cells(frame);
  const workspace = ns.workspace(frame);

  // ---- the app's messages --------------------------------------------------------------------

  window.addEventListener('message', (e) => {
    const m = e.data;
    if (e.source !== window.parent || !m || typeof m !== 'object') {
      return;
    }
    switch (m.type) {
      case 'execute':
        yieldSnapshotToCell();
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
    if (!answerAssets) {
      return;
    }
    appKeepsSnapshots = m.snapshots === true;
    if (snapshotKey && m.snapshot instanceof Blob && m.snapshot.size > 0) {
      snapshot = m.snapshot;
      snapshotFromApp = true;
    }
    appTook = sanitizedTimings(m.took);
    const files = new Map();
    for (const file of Array.isArray(m.files) ? m.files : []) {
      if (file && CORE_FILES.includes(file.url) && file.bytes instanceof Blob) {
        files.set(file.url, file.bytes);
      }
    }
    answerAssets(files);
    answerAssets = null;
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

  /** url -> Blob of CORE_FILES, from the app or (BIG_ASSETS) fetched here; a missing one the worker fetches. */
  let bigAssets = null;
  function obtainBigAssets() {
    bigAssets ??= (assetsFromParent ? fromParent() : Promise.resolve(new Map())).then(async (given) => {
      const files = new Map(given);
      await Promise.all(BIG_ASSETS.filter((url) => !files.has(url)).map(async (url) => {
        try {
          const response = await fetch(url);
          if (response.ok) {
            files.set(url, await response.blob());
          }
        } catch {
          // the worker tries again and reports what fails
        }
      }));
      return files;
    });
    return bigAssets;
  }

  function fromParent() {
    return new Promise((resolve) => {
      answerAssets = resolve;
      toApp(snapshotKey ? { type: 'fetchAssets', urls: CORE_FILES, snapshot: snapshotKey } : { type: 'fetchAssets', urls: CORE_FILES });
    });
  }

  /**
   * A new Pyodide worker (`name` shows in the browser's tools) whose messages go to `onMessage(m)`
   * and whose failures to `onFailed(message)`; null if it cannot be started (`onFailed` says why).
   */
  function spawnWorker(name, onMessage, onFailed) {
    let started;
    try {
      // The frame's origin is opaque: a worker from an http URL would be refused, and Chromium
      // fails module workers from a blob: URL of an opaque origin. A classic worker from a blob:
      // URL of this frame works; it inherits this page's CSP and imports our worker module
      // (CORS-enabled). Messages that arrive before the module has loaded are kept for it.
      const source = `(() => {
  const early = [];
  self.onmessage = (e) => early.push(e);
  // Pyodide refuses classic workers (it tests whether importScripts works); nothing here needs
  // importScripts, so it fails as it does in a module worker.
  self.importScripts = () => { throw new TypeError('importScripts() is not available here'); };
  for (const url of ${JSON.stringify(WORKER_MODULES.slice(1).map((name) => config.runtimeURL + name))}) {
    import(url).catch(() => {}); // fetched now; a failure shows where worker.mjs imports it
  }
  import(${JSON.stringify(config.runtimeURL + WORKER_MODULES[0])}).then((m) => m.start(early), (e) => {
    self.postMessage({ kind: 'fatal', message: 'the worker module could not be loaded: ' + e });
  });
})();
`;
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      started = new Worker(url, { name });
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (error) {
      onFailed(`the Python worker could not be started: ${error.message || error}`);
      return null;
    }
    started.onmessage = (e) => onMessage(e.data);
    started.onerror = (e) => {
      e.preventDefault();
      onFailed(e.message || 'the Python worker failed');
    };
    started.onmessageerror = () => onFailed('a message from the Python worker could not be read');
    return started;
  }

  /** Hands `target` the core's files and `withSnapshot` (Blobs: the next worker gets the same ones, and no bytes are copied). */
  function handAssets(target, withSnapshot) {
    obtainBigAssets().then((assets) => {
      target.handedAt = epochNow();
      target.postMessage({ kind: 'assets', files: [...assets].map(([url, bytes]) => ({ url, bytes })),
        snapshot: withSnapshot, took: appTook });
    });
  }

  function startWorker() {
    clearTimeout(retryTimer);
    ready = false;
    const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
    interrupts = isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    inputReplies = isolated ? ns.replies.create() : null;
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
    obtainBigAssets().then(() => {
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
      started.snapshotGiven = snapshot !== null;
      handAssets(started, snapshot);
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
          boot: bootKind(m.boot), timings: sanitizedTimings(m.timings), at: startMoments(source, m.at) });
        workspace.flush();
        cells.pump();
        scheduleSnapshot();
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
      dropSnapshot(`a worker booting from it failed: ${message}`); // the next one starts normally
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

  // ---- memory snapshots ----------------------------------------------------------------------

  /**
   * Once the person's interpreter is ready and no cell runs or waits, a second worker takes the
   * snapshot in the background (snapshot.mjs), so a first visit waits for nothing more than a
   * normal start. Only when the app keeps snapshots, this frame has none, and at most once per
   * frame. The snapshot worker runs no cell and is handed no workspace file.
   */
  function scheduleSnapshot() {
    if (!wantSnapshot() || snapshotTimer) {
      return;
    }
    snapshotTimer = setTimeout(() => {
      snapshotTimer = null;
      if (!wantSnapshot()) {
        return;
      }
      if (!ready || !cells.idle()) {
        scheduleSnapshot(); // after the running cell (a `ready` schedules again after a restart)
        return;
      }
      takeSnapshotInBackground();
    }, SNAPSHOT_IDLE_MS);
  }

  /**
   * A cell came while the background worker was starting: that start (a whole Python boot) would
   * take the person's CPU, so it is given up and tried again in the next quiet moment.
   */
  function yieldSnapshotToCell() {
    if (snapshotWorker) {
      snapshotWorker.terminate();
      snapshotWorker = null;
      snapshotTaken = false;
      scheduleSnapshot();
    }
  }

  function wantSnapshot() {
    return snapshotKey !== null && appKeepsSnapshots && snapshot === null && !snapshotTaken && fatal === null;
  }

  function takeSnapshotInBackground() {
    snapshotTaken = true;
    let taker = null;
    const stop = (why) => {
      if (snapshotWorker === taker && taker) {
        taker.terminate();
        snapshotWorker = null;
        console.warn('no memory snapshot:', why);
      }
    };
    taker = spawnWorker('codeinterp-snapshot', (m) => onSnapshotWorkerMessage(taker, m), stop);
    if (!taker) {
      return;
    }
    snapshotWorker = taker;
    taker.postMessage({ kind: 'init', config, role: 'snapshot', handed: assetsFromParent });
    handAssets(taker, null);
    setTimeout(() => stop(`not taken within ${SNAPSHOT_TAKE_TIMEOUT_MS / 1000} s`), SNAPSHOT_TAKE_TIMEOUT_MS);
  }

  /**
   * The background worker's snapshot: kept for this frame's next workers (after a restart, reset
   * or crash) and handed to the app to keep for the next visit. Whether it works is checked where
   * it is used: a worker booting from it runs a check cell first, and drops it if that fails.
   */
  function onSnapshotWorkerMessage(source, m) {
    if (source !== snapshotWorker || !m || typeof m !== 'object') {
      return;
    }
    if (m.kind === 'fatal') {
      source.terminate();
      snapshotWorker = null;
      console.warn('no memory snapshot:', String(m.message));
      return;
    }
    if (m.kind !== 'snapshot' || !(m.bytes instanceof ArrayBuffer)) {
      return; // its `loading` lines are not the person's business
    }
    source.terminate();
    snapshotWorker = null;
    snapshot = new Blob([m.bytes]);
    snapshotFromApp = false;
    // the same Blob for the app to keep; `timings`: where that worker's start went (`snapshot`: taking it)
    toApp({ type: 'snapshot', key: snapshotKey, bytes: snapshot, timings: sanitizedTimings(m.timings) });
  }

  /**
   * The worker booting from the snapshot could not use it (it did not load, failed its check, or
   * was not ready in time): it is dropped here and in the app, and a fresh worker starts normally
   * (this one's heap may be anything now). The background worker takes a new one once that is
   * ready, unless this frame took one already.
   */
  function abandonSnapshotBoot(reason) {
    dropSnapshot(reason);
    toApp({ type: 'loading', message: 'Loading Python again: ' + reason });
    worker.terminate();
    worker = null;
    clearTimeout(loadTimer);
    startWorker();
  }

  /** How the ready interpreter started: from the app's snapshot, from one this frame just took, or normally. */
  function bootKind(boot) {
    if (boot !== 'snapshot') {
      return 'fresh';
    }
    return snapshotFromApp ? 'snapshot' : 'new-snapshot';
  }

  /** The snapshot did not load: forget it here and in the app; the next fresh worker takes a new one (once per frame). */
  function dropSnapshot(reason) {
    if (!snapshotKey) {
      return;
    }
    snapshot = null;
    toApp({ type: 'snapshotDropped', key: snapshotKey, reason });
  }

  /** The worker's boot timings ({step: ms}) for the app's figures: small integers only. */
  function sanitizedTimings(timings) {
    const clean = {};
    for (const [name, ms] of Object.entries(timings && typeof timings === 'object' ? timings : {})) {
      if (/^[a-z]{1,16}$/.test(name) && Number.isInteger(ms) && ms >= 0) {
        clean[name] = ms;
      }
    }
    return clean;
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
    clearTimeout(snapshotTimer);
    snapshotTimer = null;
    if (snapshotWorker) {
      snapshotWorker.terminate();
      snapshotWorker = null;
    }
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
})(self.codeinterpRuntime);
