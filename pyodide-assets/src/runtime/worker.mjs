// Local mode's interpreter: one Pyodide in a module worker, driven by runtime.js.
//
// runtime.js starts a classic worker from a blob: URL that imports this module, because the
// frame's origin is opaque (sandbox without allow-same-origin) and may not start a worker from an
// http URL. The worker inherits the frame's CSP: it can fetch our static assets and nothing else.
//
// Messages are handled one at a time, in arrival order (a file written before a cell is there
// when the cell runs). While a cell runs, Python holds this thread: later messages wait, and
// interrupts come through the SharedArrayBuffer (when the frame is cross-origin isolated) or by
// the frame terminating this worker. Replies use `kind` (the frame's vocabulary); runner events
// go out as the runner-protocol lines the frame forwards to the app.

const WORKSPACE = '/workspace';
const CODE_DIR = '/opt/codeinterp';
const MAX_NAME_BYTES = 255;

let config = null;
let pyodide = null;
let hostModule = null;
let host = null;
let work = Promise.resolve();
let assetsArrived = null;
/** url -> bytes of the core's big files, from the frame (which keeps them across workers). */
const assets = new Promise((resolve) => {
  assetsArrived = resolve;
});

const post = (message, transfer = []) => self.postMessage(message, transfer);

/** Called by the bootstrap once this module has loaded, with the messages that came before. */
export function start(early) {
  self.onmessage = receive;
  for (const event of early) {
    receive(event);
  }
}

function receive(event) {
  const message = event.data;
  if (message.kind === 'assets') {
    // Not queued: init is waiting for these.
    assetsArrived(new Map((message.files || []).map((file) => [file.url, file.bytes])));
    return;
  }
  work = work.then(() => handle(message)).catch((error) => {
    post({ kind: 'crashed', message: describe(error) });
  });
}

async function handle(message) {
  switch (message.kind) {
    case 'init': return init(message);
    case 'execute': return execute(message);
    case 'writeFile':
    case 'listFiles':
    case 'readFile':
    case 'deleteFile':
      return fileOperation(message);
    default:
      return undefined;
  }
}

// ---- start ---------------------------------------------------------------------------------

async function init(message) {
  config = message.config;
  try {
    post({ kind: 'loading', message: `Loading Python (Pyodide ${config.pyodideVersion})` });
    const sources = fetchPythonSources(config.runtimeURL);
    const { loadPyodide } = await import(config.indexURL + 'pyodide.mjs');
    const wasm = watchWasmFailure();
    const restoreFetch = serveAssets();
    try {
      pyodide = await Promise.race([wasm.failed, loadPyodide({
        indexURL: config.indexURL,
        lockFileURL: config.packagesURL + 'pyodide-lock.json',
        packageBaseUrl: config.packagesURL,
        // Output outside cells (package loader chatter) goes to the console, never to the app.
        stdout: (text) => console.log(text),
        stderr: (text) => console.warn(text),
      })]);
    } finally {
      wasm.stop();
      restoreFetch();
    }
    post({ kind: 'loading', message: 'Starting the interpreter' });
    const FS = pyodide.FS;
    for (const [path, text] of await sources) {
      const file = `${CODE_DIR}/${path}`;
      FS.mkdirTree(file.slice(0, file.lastIndexOf('/')));
      FS.writeFile(file, text);
    }
    ensureWorkspace();
    FS.chdir(WORKSPACE);
    pyodide.runPython(`import sys\nsys.path.append(${JSON.stringify(CODE_DIR)})`);
    hostModule = pyodide.pyimport('pyodide_host');
    host = hostModule.Host(postLine, filesChanged, heapKb, takeFdOutput);
    routeFdOutput();
    let isolated = false;
    if (message.interruptBuffer && self.crossOriginIsolated) {
      pyodide.setInterruptBuffer(message.interruptBuffer);
      isolated = true;
    }
    for (const file of message.files || []) {
      writeWorkspaceFile(file.name, file.bytes);
    }
    const python = pyodide.runPython("import sys\n'%d.%d.%d' % sys.version_info[:3]");
    post({ kind: 'ready', python, pyodide: pyodide.version, isolated });
  } catch (error) {
    post({ kind: 'fatal', message: `Python could not be loaded in this browser: ${describe(error)}` });
  }
}

/**
 * While Pyodide loads, its fetches of the files the frame handed over are answered from those
 * bytes; anything else (and a file the frame could not get) goes to the network as usual.
 */
function serveAssets() {
  const realFetch = self.fetch;
  self.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (config.bigAssets.includes(url)) {
      const bytes = (await assets).get(url);
      if (bytes) {
        const type = url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
        return new Response(bytes, { status: 200, headers: { 'Content-Type': type } });
      }
    }
    return realFetch(input, init);
  };
  return () => {
    self.fetch = realFetch;
    assets.then((files) => files.clear()); // Pyodide has them now
  };
}

/**
 * Pyodide catches a failed WebAssembly instantiation (a 404, a truncated download), logs it with
 * two console.warn calls and then waits forever. `failed` rejects with the logged error instead.
 */
function watchWasmFailure() {
  const warn = console.warn;
  let stop = () => {};
  const failed = new Promise((_, reject) => {
    let next = false;
    console.warn = (...args) => {
      warn.apply(console, args);
      if (next) {
        reject(new Error(`WebAssembly could not be loaded: ${describe(args[0])}`));
      }
      next = args[0] === 'wasm instantiation failed!';
    };
    stop = () => {
      console.warn = warn;
    };
  });
  return { failed, stop };
}

/**
 * Output written below sys.stdout (os.write(1, ...), C code) reaches Pyodide's fd 1 and 2. It is
 * kept here until the host takes it into the running cell, as the sandbox's pipes do there: the
 * write happens without the GIL, so it cannot call into Python itself.
 */
const fdOutput = [];

function routeFdOutput() {
  for (const [name, set] of [['stdout', pyodide.setStdout], ['stderr', pyodide.setStderr]]) {
    const decoder = new TextDecoder();
    set.call(pyodide, {
      isatty: false,
      write: (bytes) => {
        const text = decoder.decode(bytes, { stream: true });
        if (text) {
          fdOutput.push([name, text]);
        }
        return bytes.length;
      },
    });
  }
}

/** [[stream name, text], ...] written to fds 1 and 2 since the last call. */
function takeFdOutput() {
  return fdOutput.splice(0);
}

/**
 * The Python files of the runtime as [[path under CODE_DIR, text], ...]: the build lists them in
 * python-files.json next to them (pyodide_host.py, then every module of the runner package).
 */
async function fetchPythonSources(runtimeURL) {
  const paths = JSON.parse(await fetchText(runtimeURL + 'python-files.json'));
  return Promise.all(paths.map(async (path) => [path, await fetchText(runtimeURL + path)]));
}

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url} answered ${response.status}`);
  }
  return response.text();
}

// ---- cells ---------------------------------------------------------------------------------

function postLine(type, line) {
  post({ kind: 'line', event: type, line });
}

function heapKb() {
  const heap = pyodide?._module?.HEAPU8;
  return heap ? Math.round(heap.length / 1024) : null;
}

async function execute(message) {
  if (!host) {
    return;
  }
  const notes = await preparePackages(message.code);
  ensureWorkspace();
  try {
    host.execute(message.id, message.code, message.maxOutputBytes, notes);
  } catch (error) {
    // The runner reports every Python exception itself; what escapes is Pyodide failing
    // (a fatal error, JavaScript out of memory). The frame replaces this worker.
    post({ kind: 'crashed', message: describe(error) });
  }
}

/**
 * Loads what the cell imports before it runs: packages of the configured package source (by
 * the lock file's import names), then wheels of the server's wheelhouse whose top-level names
 * match. Returns one stderr note per module still missing, shown right after `started`.
 */
async function preparePackages(code) {
  let missing = missingModules(importedModules(code));
  if (missing.length === 0) {
    return [];
  }
  const callbacks = {
    messageCallback: (text) => post({ kind: 'loading', message: text }),
    errorCallback: (text) => console.warn(text),
  };
  try {
    await pyodide.loadPackagesFromImports(code, callbacks);
    missing = missingModules(missing);
    const wheels = missing.length ? await wheelsFor(missing) : [];
    for (const url of wheels) {
      await pyodide.loadPackage(url, { ...callbacks, checkIntegrity: false });
    }
    if (wheels.length) {
      missing = missingModules(missing);
    }
  } catch (error) {
    console.warn('loading packages failed', error);
  }
  return missing.map((name) => `Local mode: the module '${name}' is not available in this browser: neither `
    + `the Pyodide package source nor the server's wheelhouse has it. Switch to Server mode to run code that needs it.\n`);
}

function importedModules(code) {
  let found;
  try {
    found = pyodide.pyodide_py.code.find_imports(code);
  } catch {
    return []; // a syntax error: the runner reports it
  }
  try {
    return found.toJs();
  } finally {
    found.destroy();
  }
}

function missingModules(names) {
  if (names.length === 0) {
    return [];
  }
  const missing = hostModule.missing_modules(names);
  try {
    return missing.toJs();
  } finally {
    missing.destroy();
  }
}

/** URLs of the wheelhouse's wheels providing any of `names` (asked anew: wheels come and go). */
async function wheelsFor(names) {
  const response = await fetch(config.wheelsURL + 'index.json', { cache: 'no-cache' });
  if (!response.ok) {
    return [];
  }
  const index = await response.json();
  const wanted = new Set(names);
  return (index.wheels || [])
    .filter((wheel) => (wheel.imports || []).some((name) => wanted.has(name)))
    .map((wheel) => config.wheelsURL + encodeURIComponent(wheel.file));
}

/** Called by the host after a cell: mirrors what it wrote into the frame, so a reset keeps it. */
function filesChanged(changedProxy, deletedProxy) {
  const changed = changedProxy.toJs();
  const deleted = deletedProxy.toJs();
  const files = [];
  for (const name of changed) {
    try {
      const stat = pyodide.FS.stat(`${WORKSPACE}/${name}`);
      if (stat.size > config.mirrorFileLimit) {
        files.push({ name, bytes: null, modified: mtimeMs(stat) });
        continue;
      }
      const bytes = pyodide.FS.readFile(`${WORKSPACE}/${name}`);
      files.push({ name, bytes: bytes.buffer, modified: mtimeMs(stat) });
    } catch {
      deleted.push(name);
    }
  }
  post({ kind: 'mirror', files, deleted }, files.filter((f) => f.bytes).map((f) => f.bytes));
}

// ---- files ---------------------------------------------------------------------------------

async function fileOperation(message) {
  const reply = (result, transfer) => post({ kind: 'file', seq: message.seq, ...result }, transfer);
  if (!pyodide) {
    reply({ error: 'the interpreter is not running' });
    return;
  }
  try {
    const name = message.kind === 'listFiles' ? null : checkName(message.name);
    const path = `${WORKSPACE}/${name}`;
    switch (message.kind) {
      case 'writeFile': {
        const size = writeWorkspaceFile(name, message.bytes);
        reply({ result: { type: 'fileWritten', name, size } });
        break;
      }
      case 'listFiles':
        reply({ result: { type: 'files', files: listWorkspace() } });
        break;
      case 'readFile': {
        regularFile(path, name);
        const bytes = pyodide.FS.readFile(path);
        reply({ result: { type: 'fileContent', name, mime: mimeOf(name), bytes: bytes.buffer } }, [bytes.buffer]);
        break;
      }
      case 'deleteFile':
        regularFile(path, name);
        pyodide.FS.unlink(path);
        reply({ result: { type: 'fileDeleted', name } });
        break;
      default:
        break;
    }
  } catch (error) {
    reply({ error: error instanceof NameError ? error.message : `${message.name ?? 'workspace'}: ${fsMessage(error)}` });
  }
}

class NameError extends Error {}

/** One plain path segment, as WorkspaceNames checks on the server. */
function checkName(name) {
  if (typeof name !== 'string' || name === '') {
    throw new NameError('a file name is required');
  }
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) {
    throw new NameError(`file name longer than ${MAX_NAME_BYTES} bytes`);
  }
  if (name === '.' || name === '..') {
    throw new NameError(`'${name}' is not a file name`);
  }
  if (/[/\\]/.test(name)) {
    throw new NameError('file names may not contain path separators');
  }
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) {
    throw new NameError('file names may not contain control characters');
  }
  return name;
}

function ensureWorkspace() {
  const FS = pyodide.FS;
  const found = FS.analyzePath(WORKSPACE);
  if (!found.exists) {
    FS.mkdirTree(WORKSPACE);
  }
}

function regularFile(path, name) {
  let stat;
  try {
    stat = pyodide.FS.lstat(path);
  } catch {
    throw new NameError(`no file named '${name}'`);
  }
  if (!pyodide.FS.isFile(stat.mode)) {
    throw new NameError(`'${name}' is not a regular file`);
  }
  return stat;
}

function writeWorkspaceFile(name, bytes) {
  ensureWorkspace();
  const path = `${WORKSPACE}/${name}`;
  if (pyodide.FS.analyzePath(path).exists) {
    regularFile(path, name); // never write through a symlink or over a directory
  }
  const data = new Uint8Array(bytes);
  pyodide.FS.writeFile(path, data);
  return data.length;
}

function listWorkspace() {
  ensureWorkspace();
  const FS = pyodide.FS;
  const files = [];
  for (const name of FS.readdir(WORKSPACE)) {
    if (name === '.' || name === '..') {
      continue;
    }
    const stat = FS.lstat(`${WORKSPACE}/${name}`);
    if (FS.isFile(stat.mode)) {
      files.push({ name, size: stat.size, modified: mtimeMs(stat), mime: mimeOf(name) });
    }
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function mimeOf(name) {
  return hostModule.mime_of(name);
}

function mtimeMs(stat) {
  const mtime = stat.mtime;
  return mtime instanceof Date ? mtime.getTime() : Number(mtime);
}

function fsMessage(error) {
  if (error && error.name === 'ErrnoError') {
    return `file system error ${error.errno}`;
  }
  return describe(error);
}

function describe(error) {
  if (error && typeof error.message === 'string') {
    return error.message;
  }
  return String(error);
}
