// Local mode's frame: the controller between the app and the Python worker.
//
// This page runs in <iframe sandbox="allow-scripts" src="/local/runtime.html">: an opaque
// origin, so neither it nor the code it runs can reach the app's DOM, cookies, storage or API
// credentials, and its CSP lets it fetch our static assets only. It speaks the message protocol
// of docs/local-runtime-protocol.md with the app, and owns the policies the worker cannot apply
// to itself while Python holds its thread: the timeout, interrupts (SharedArrayBuffer when the
// page is cross-origin isolated, otherwise replacing the worker), crash recovery, the output
// cap, and exactly one `started` and one `finished` per execute.
(function () {
  'use strict';

  const GRACE_MS = 700; // an interrupted cell that has not stopped by then loses its worker
  const LOAD_TIMEOUT_MS = 180000; // Pyodide that has not started by then is reported fatal
  const DEFAULT_TIMEOUT_MS = 30000;
  const DEFAULT_MAX_OUTPUT = 1 << 20;
  const MIRROR_LIMIT = 256 << 20; // bytes of workspace files kept here to survive a reset
  const MIRROR_FILE_LIMIT = 64 << 20;

  const base = location.href;
  const raw = JSON.parse(document.getElementById('config').textContent);
  const config = {
    pyodideVersion: raw.pyodideVersion,
    indexURL: new URL(raw.indexURL, base).href,
    packagesURL: new URL(raw.packagesURL, base).href,
    runtimeURL: new URL(raw.runtimeURL, base).href,
    wheelsURL: new URL(raw.wheelsURL, base).href,
    maxUploadBytes: raw.maxUploadBytes,
    mirrorFileLimit: MIRROR_FILE_LIMIT,
  };
  // The big files of the core. This frame's origin is opaque, and Chromium never caches what an
  // opaque origin fetches, so they are fetched once per frame and handed to every worker; with
  // `#assets=parent` in this page's URL the app fetches them (from its HTTP cache) instead.
  const BIG_ASSETS = ['pyodide.asm.wasm', 'python_stdlib.zip'].map((name) => config.indexURL + name);
  config.bigAssets = BIG_ASSETS;
  const assetsFromParent = /(^#|&)assets=parent(&|$)/.test(location.hash);
  let answerAssets = null; // resolves the pending fetchAssets, when the app has been asked

  let worker = null;
  let ready = false;
  let fatal = null; // why Python cannot load; cleared by `restart`
  let loadTimer = null;
  let interrupts = null; // Int32Array over a SharedArrayBuffer, when cross-origin isolated
  let executionCount = 0; // the runner's last execution_count: a synthesized `started` follows it
  let cell = null; // the execute being run
  const executions = []; // executes waiting for the running one, or for the worker
  const fileOps = []; // file requests waiting for the worker
  const pendingFiles = new Map(); // seq -> file request the worker has not answered yet
  let fileSeq = 0;
  const mirror = new Map(); // name -> {bytes, modified}: workspace files to put back after a reset
  let mirrorBytes = 0;

  const toApp = (message, transfer) => window.parent.postMessage(message, '*', transfer || []);
  const sendLine = (event) => toApp({ type: 'runner', line: JSON.stringify(event) });
  const utf8 = new TextEncoder();

  // ---- the app's messages --------------------------------------------------------------------

  window.addEventListener('message', (e) => {
    const m = e.data;
    if (e.source !== window.parent || !m || typeof m !== 'object') {
      return;
    }
    switch (m.type) {
      case 'execute': return onExecute(m);
      case 'interrupt': return onInterrupt();
      case 'restart': return onRestart();
      case 'writeFile':
      case 'listFiles':
      case 'readFile':
      case 'deleteFile':
        return onFileRequest(m);
      case 'assets':
        return onAssets(m);
      default:
        return undefined;
    }
  });

  /** The app's answer to `fetchAssets`: the requested files it could fetch; the rest we fetch. */
  function onAssets(m) {
    if (!answerAssets) {
      return;
    }
    const files = new Map();
    for (const file of Array.isArray(m.files) ? m.files : []) {
      if (file && BIG_ASSETS.includes(file.url) && file.bytes instanceof ArrayBuffer) {
        files.set(file.url, file.bytes);
      }
    }
    answerAssets(files);
    answerAssets = null;
  }

  function onExecute(m) {
    if (typeof m.id !== 'string' || m.id === '') {
      return; // nothing to answer to
    }
    executions.push({
      id: m.id,
      code: typeof m.code === 'string' ? m.code : '',
      timeoutMs: positive(m.timeoutMs, DEFAULT_TIMEOUT_MS),
      maxOutputBytes: Number.isInteger(m.maxOutputBytes) && m.maxOutputBytes >= 0 ? m.maxOutputBytes : DEFAULT_MAX_OUTPUT,
    });
    pump();
  }

  function onInterrupt() {
    if (cell) {
      stop(false);
    }
  }

  function onRestart() {
    if (fatal) {
      fatal = null;
      startWorker();
      return;
    }
    replaceWorker('the interpreter was restarted on request', cell ? { status: 'interrupted' } : null);
  }

  function onFileRequest(m) {
    const request = { kind: m.type, requestId: m.requestId, name: m.name, bytes: null };
    if (m.type === 'writeFile') {
      const bytes = m.bytes instanceof ArrayBuffer ? m.bytes
        : ArrayBuffer.isView(m.bytes) ? m.bytes.buffer.slice(m.bytes.byteOffset, m.bytes.byteOffset + m.bytes.byteLength)
          : null;
      if (!bytes) {
        return fileFailed(request, 'writeFile needs the bytes as an ArrayBuffer');
      }
      if (typeof config.maxUploadBytes === 'number' && bytes.byteLength > config.maxUploadBytes) {
        return fileFailed(request, `${m.name}: larger than the upload limit of ${config.maxUploadBytes} bytes`);
      }
      request.bytes = bytes;
    }
    if (fatal) {
      return fileFailed(request, fatal);
    }
    fileOps.push(request);
    flushFileOps();
    return undefined;
  }

  function fileFailed(request, message) {
    toApp({ type: 'fileError', requestId: request.requestId, message });
  }

  function flushFileOps() {
    while (ready && fileOps.length) {
      const request = fileOps.shift();
      const seq = ++fileSeq;
      pendingFiles.set(seq, request);
      // Not transferred: the frame keeps written bytes for its mirror.
      worker.postMessage({ kind: request.kind, seq, name: request.name, bytes: request.bytes });
    }
  }

  // ---- the worker ----------------------------------------------------------------------------

  /** url -> ArrayBuffer of BIG_ASSETS, from the app or fetched here; a missing one the worker fetches. */
  let bigAssets = null;
  function obtainBigAssets() {
    bigAssets ??= (assetsFromParent ? fromParent() : Promise.resolve(new Map())).then(async (given) => {
      const files = new Map(given);
      await Promise.all(BIG_ASSETS.filter((url) => !files.has(url)).map(async (url) => {
        try {
          const response = await fetch(url);
          if (response.ok) {
            files.set(url, await response.arrayBuffer());
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
      toApp({ type: 'fetchAssets', urls: BIG_ASSETS });
    });
  }

  function startWorker() {
    ready = false;
    const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
    interrupts = isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
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
  import(${JSON.stringify(config.runtimeURL + 'worker.mjs')}).then((m) => m.start(early), (e) => {
    self.postMessage({ kind: 'fatal', message: 'the worker module could not be loaded: ' + e });
  });
})();
`;
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      started = new Worker(url, { name: 'codeinterp-python' });
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (error) {
      becomeFatal(`the Python worker could not be started: ${error.message || error}`);
      return;
    }
    worker = started;
    started.onmessage = (e) => onWorkerMessage(started, e.data);
    started.onerror = (e) => {
      e.preventDefault();
      onWorkerFailed(started, e.message || 'the Python worker failed');
    };
    started.onmessageerror = () => onWorkerFailed(started, 'a message from the Python worker could not be read');
    clearTimeout(loadTimer);
    loadTimer = setTimeout(() => {
      if (worker === started && !ready) {
        becomeFatal(`Python did not start within ${LOAD_TIMEOUT_MS / 1000} s`);
      }
    }, LOAD_TIMEOUT_MS);
    const files = [];
    for (const [name, file] of mirror) {
      files.push({ name, bytes: file.bytes });
    }
    started.postMessage({ kind: 'init', config, interruptBuffer: interrupts, files });
    obtainBigAssets().then((assets) => {
      if (worker === started) {
        // copied, not transferred: the next worker needs them too
        started.postMessage({ kind: 'assets', files: [...assets].map(([url, bytes]) => ({ url, bytes })) });
      }
    });
  }

  function onWorkerMessage(source, m) {
    if (source !== worker || !m || typeof m !== 'object') {
      return; // a replaced worker's last words
    }
    switch (m.kind) {
      case 'loading':
        toApp({ type: 'loading', message: String(m.message) });
        break;
      case 'ready':
        if (ready) {
          break;
        }
        ready = true;
        clearTimeout(loadTimer);
        toApp({ type: 'ready', python: String(m.python), pyodide: String(m.pyodide), isolated: m.isolated === true });
        flushFileOps();
        pump();
        break;
      case 'fatal':
        if (!ready) {
          becomeFatal(String(m.message));
        }
        break;
      case 'line':
        if (typeof m.line === 'string') {
          onLine(m.line);
        }
        break;
      case 'mirror':
        updateMirror(m.files, m.deleted);
        break;
      case 'file':
        onFileReply(m);
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
      becomeFatal(`Python could not be loaded in this browser: ${message}`);
      return;
    }
    const oom = /memory|allocation|out of bounds/i.test(message);
    replaceWorker(`the interpreter crashed (${message}) and was restarted`,
      cell ? { status: oom ? 'oom' : 'error', error: { ename: oom ? 'MemoryError' : 'InterpreterCrashed', evalue: message } } : null);
  }

  /** Pyodide cannot load: every waiting and future request fails with this message. */
  function becomeFatal(message) {
    fatal = message;
    clearTimeout(loadTimer);
    if (worker) {
      worker.terminate();
      worker = null;
    }
    ready = false;
    toApp({ type: 'fatal', message });
    failPendingFiles(message);
    if (cell) {
      endCell({ status: 'error', error: { ename: 'LocalRuntimeError', evalue: message } });
    }
    pump();
  }

  function failPendingFiles(message) {
    for (const request of [...pendingFiles.values(), ...fileOps]) {
      fileFailed(request, message);
    }
    pendingFiles.clear();
    fileOps.length = 0;
  }

  /**
   * Throws the interpreter away and starts a fresh one: variables are gone, workspace files come
   * back from the mirror. Requests the old worker never answered go to the new one. A running
   * cell ends as `ending` says, after a `restarted` event (as in server mode).
   */
  function replaceWorker(reason, ending) {
    if (worker) {
      worker.terminate();
      worker = null;
    }
    ready = false;
    const unanswered = [...pendingFiles.values()];
    pendingFiles.clear();
    fileOps.unshift(...unanswered);
    if (cell && ending) {
      endCell(ending, reason); // says `reset` before the cell's `finished`
    } else {
      toApp({ type: 'reset', reason });
    }
    executionCount = 0; // the next interpreter counts from 1
    startWorker();
  }

  // ---- cells ---------------------------------------------------------------------------------

  function pump() {
    if (cell || executions.length === 0) {
      return;
    }
    if (fatal) {
      while (executions.length) {
        cell = newCell(executions.shift());
        endCell({ status: 'error', error: { ename: 'LocalRuntimeError', evalue: fatal } });
      }
      return;
    }
    if (!ready) {
      return; // `ready` pumps again
    }
    cell = newCell(executions.shift());
    if (interrupts) {
      Atomics.store(interrupts, 0, 0);
    }
    // Loading the cell's packages counts against the timeout too; `started` restarts the clock.
    cell.timer = setTimeout(() => stop(true), cell.timeoutMs);
    worker.postMessage({ kind: 'execute', id: cell.id, code: cell.code, maxOutputBytes: cell.maxOutputBytes });
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
    if (!interrupts || !ready) {
      replaceWorker(timedOut
        ? `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)}, so the interpreter was restarted`
        : 'interrupting needs a cross-origin isolated page, so the interpreter was restarted',
      stopEnding());
      return;
    }
    cell.interruptRequested = true;
    if (cell.started) {
      Atomics.store(interrupts, 0, 2); // SIGINT: KeyboardInterrupt in the running cell
    }
    cell.grace = setTimeout(() => {
      replaceWorker(`the cell did not stop within ${seconds(GRACE_MS)} of being interrupted, so the interpreter was restarted`,
        stopEnding());
    }, GRACE_MS);
  }

  function stopEnding() {
    return cell.timedOut
      ? { status: 'timeout', error: timeoutError() }
      : { status: 'interrupted' };
  }

  function timeoutError() {
    return { ename: 'TimeoutError', evalue: `the cell ran longer than its timeout of ${seconds(cell.timeoutMs)} and was interrupted` };
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
        cell.count = event.execution_count;
        executionCount = Number.isInteger(event.execution_count) ? event.execution_count : executionCount + 1;
        clearTimeout(cell.timer);
        if (!cell.timedOut) {
          cell.timer = setTimeout(() => stop(true), cell.timeoutMs);
        }
        if (cell.interruptRequested && interrupts) {
          Atomics.store(interrupts, 0, 2);
        }
        toApp({ type: 'runner', line });
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
      case 'display_data':
      case 'execute_result':
      case 'artifact':
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
          sendLine({ ...event, status: 'timeout' });
        } else {
          toApp({ type: 'runner', line });
        }
        pump();
        return;
      }
      default:
        return; // not the runner's to say (restarted, queued) or not ours to know
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
  }

  // ---- files ---------------------------------------------------------------------------------

  function onFileReply(m) {
    const request = pendingFiles.get(m.seq);
    if (!request) {
      return;
    }
    pendingFiles.delete(m.seq);
    if (typeof m.error === 'string' || !m.result) {
      fileFailed(request, String(m.error));
      return;
    }
    const result = { ...m.result, requestId: request.requestId };
    if (result.type === 'fileWritten') {
      remember(request.name, request.bytes, Date.now());
    } else if (result.type === 'fileDeleted') {
      forget(request.name);
    }
    toApp(result, result.type === 'fileContent' && result.bytes instanceof ArrayBuffer ? [result.bytes] : []);
  }

  /** What a cell wrote or removed, so the next worker starts with the same workspace. */
  function updateMirror(files, deleted) {
    for (const name of Array.isArray(deleted) ? deleted : []) {
      forget(name);
    }
    for (const file of Array.isArray(files) ? files : []) {
      forget(file.name);
      if (file.bytes instanceof ArrayBuffer) {
        remember(file.name, file.bytes, file.modified);
      }
    }
  }

  function remember(name, bytes, modified) {
    forget(name);
    if (typeof name === 'string' && bytes && mirrorBytes + bytes.byteLength <= MIRROR_LIMIT) {
      mirror.set(name, { bytes, modified });
      mirrorBytes += bytes.byteLength;
    }
  }

  function forget(name) {
    const old = mirror.get(name);
    if (old) {
      mirrorBytes -= old.bytes.byteLength;
      mirror.delete(name);
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  function positive(value, fallback) {
    return typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : fallback;
  }

  function seconds(ms) {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  }

  // The app may post to this frame only once it has heard from it (earlier messages went to the
  // frame's initial about:blank document): say at once that we listen.
  toApp({ type: 'loading', message: 'Starting Python' });
  startWorker();
})();
