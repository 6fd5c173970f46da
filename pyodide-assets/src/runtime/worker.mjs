// Local mode's interpreter: one Pyodide in a module worker, driven by runtime.mjs. This module
// takes the frame's messages and runs them; boot.mjs starts Pyodide, packages.mjs loads what a
// cell imports, workspace-fs.mjs keeps the workspace (all imported from the same hashed path).
//
// python-workers.mjs starts a classic worker from a blob: URL that imports this module, because the
// frame's origin is opaque (sandbox without allow-same-origin) and may not start a worker from an
// http URL. The worker inherits the frame's CSP: it can fetch our static assets and nothing else.
//
// Messages are handled one at a time, in arrival order (a file written before a cell is there
// when the cell runs). While a cell runs, Python holds this thread: later messages wait, and
// interrupts come through the SharedArrayBuffer (when the frame is cross-origin isolated) or by
// the frame terminating this worker. Replies use `kind` (the frame's vocabulary); runner events
// go out as the runner-protocol lines the frame forwards to the app.

import { compileCore, handedOver, installPythonSources, pyodideModules, pythonSources, receiveAssets, releaseAssets,
  routeFdOutput, startPyodide } from './boot.mjs';
import { describe } from './errors.mjs';
import { InputReplies } from './input-replies.mjs';
import { Packages } from './packages.mjs';
import { checkRestored, startFromSnapshot, takeSnapshot, unpackSnapshot } from './snapshot.mjs';
import { WORKSPACE, WorkspaceFs } from './workspace-fs.mjs';

let config = null;
let pyodide = null;
let workspace = null;
let packages = null;
let host = null;
let work = Promise.resolve();

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
    receiveAssets(message); // not queued: init is waiting for these
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

async function init(message) {
  config = message.config;
  const begun = performance.now();
  const timings = {};
  const mark = (name, since) => {
    timings[name] = Math.round(performance.now() - since);
    return performance.now();
  };
  try {
    post({ kind: 'loading', message: `Loading Python (Pyodide ${config.pyodideVersion})` });
    // Pyodide's modules and our Python sources come from the frame when the app fetches them for
    // it (`handed`: wait for them); else they are fetched now, while the frame gathers the big files.
    const early = message.handed ? null : {
      modules: pyodideModules(config.indexURL, new Map()),
      sources: pythonSources(config.runtimeURL, new Map()),
    };
    early?.modules.catch(() => {}); // reported where awaited
    early?.sources.catch(() => {});
    const handed = await handedOver();
    let at = mark('assets', begun);
    for (const [name, ms] of Object.entries(handed.took)) {
      timings['app' + name] = ms; // the app's share of `assets`: its HTTP cache, its IndexedDB
    }
    // the core compiles and the snapshot is read while Pyodide's modules are imported
    const core = compileCore(config, handed.files, timings);
    const unpacked = handed.snapshot ? unpackSnapshot(handed.snapshot, timings) : null;
    unpacked?.catch(() => {}); // reported where awaited
    const sources = early ? early.sources : pythonSources(config.runtimeURL, handed.files);
    sources.catch(() => {});
    const modules = await (early ? early.modules : pyodideModules(config.indexURL, handed.files));
    at = mark('modules', at);
    if (message.role === 'snapshot') {
      await snapshotOnly(modules, core, await sources, timings, mark, at, begun);
      return;
    }
    let restored = false;
    let hostModule = null;
    if (handed.snapshot) {
      try {
        pyodide = await startFromSnapshot(config, modules, unpacked, core, timings);
        at = mark('restore', at);
        hostModule = setUp(await sources, true);
        at = mark('host', at);
        checkRestored(hostModule);
        hostModule.reseed(); // every session would draw the snapshot's random numbers otherwise
        at = mark('check', at);
        restored = true;
      } catch (error) {
        // loaded or not, an interpreter from this snapshot is not trusted with a cell: the frame
        // drops the snapshot and replaces this worker (whose heap may be anything now) by a fresh one
        post({ kind: 'snapshotFailed', message: `the memory snapshot could not be used (${describe(error)}); starting Python normally` });
        return;
      }
    } else {
      pyodide = await startPyodide(config, modules, { core, timings });
      at = mark('start', at);
      hostModule = setUp(await sources, false);
      at = mark('host', at);
    }
    releaseAssets();
    const fdOutput = [];
    // answers to input() come through a SharedArrayBuffer, so only when isolated; else input() says why not
    // (undefined, not null, when absent: Pyodide hands JavaScript's null to Python as jsnull, not None)
    const replies = message.inputBuffer && self.crossOriginIsolated
      ? new InputReplies(message.inputBuffer, () => pyodide.checkInterrupt()) : undefined;
    host = hostModule.Host(postLine, filesChanged, heapKb, () => fdOutput.splice(0),
      replies && ((ms) => replies.poll(ms)), replies && (() => replies.discard()));
    routeFdOutput(pyodide, fdOutput);
    packages = new Packages(pyodide, hostModule, config.wheelsURL,
      (text) => post({ kind: 'loading', message: text }));
    let isolated = false;
    if (message.interruptBuffer && self.crossOriginIsolated) {
      pyodide.setInterruptBuffer(message.interruptBuffer);
      isolated = true;
    }
    for (const file of message.files || []) {
      workspace.write(file.name, file.bytes);
    }
    const python = pyodide.runPython("import sys\n'%d.%d.%d' % sys.version_info[:3]");
    mark('total', begun);
    post({ kind: 'ready', python, pyodide: pyodide.version, isolated, boot: restored ? 'snapshot' : 'fresh', timings,
      at: { init: performance.timeOrigin + begun } });
  } catch (error) {
    post({ kind: 'fatal', message: `Python could not be loaded in this browser: ${describe(error)}` });
  }
}

/** Our sources in the file system (`restored`: sys.path has their folder already), the workspace as cwd; resolves to the imported host module. */
function setUp(sources, restored) {
  let hostModule = null;
  workspace = new WorkspaceFs(pyodide, config.mirrorFileLimit, (name) => hostModule.mime_of(name));
  post({ kind: 'loading', message: 'Starting the interpreter' });
  installPythonSources(pyodide, sources, restored);
  workspace.ensure();
  pyodide.FS.chdir(WORKSPACE);
  hostModule = pyodide.pyimport('pyodide_host');
  return hostModule;
}

/**
 * The frame's background worker (`role: 'snapshot'`): starts Python as for cells, imports the host
 * module and sends the snapshot, before the host holds any of our callbacks. It is handed no
 * workspace file and runs no cell, so nothing of the user's can be in it; the frame terminates it
 * once it has the bytes (or gives up on a `fatal`).
 */
async function snapshotOnly(modules, core, sources, timings, mark, at, begun) {
  const taker = await startPyodide(config, modules, { makeSnapshot: true, core, timings });
  at = mark('start', at);
  installPythonSources(taker, sources);
  taker.FS.mkdirTree(WORKSPACE);
  taker.FS.chdir(WORKSPACE);
  taker.pyimport('pyodide_host');
  at = mark('host', at);
  const snapshot = takeSnapshot(taker);
  if (!snapshot) {
    post({ kind: 'fatal', message: 'no memory snapshot could be taken' });
    return;
  }
  mark('snapshot', at);
  mark('total', begun);
  post({ kind: 'snapshot', bytes: snapshot, timings }, [snapshot]);
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
  const notes = await packages.prepare(message.code);
  workspace.ensure();
  try {
    host.execute(message.id, message.code, message.maxOutputBytes, notes);
  } catch (error) {
    // The runner reports every Python exception itself; what escapes is Pyodide failing
    // (a fatal error, JavaScript out of memory). The frame replaces this worker.
    post({ kind: 'crashed', message: describe(error) });
  }
}

/** Called by the host after a cell: mirrors what it wrote into the frame, so a reset keeps it. */
function filesChanged(changedProxy, deletedProxy) {
  const { files, deleted, transfer } = workspace.mirror(changedProxy.toJs(), deletedProxy.toJs());
  post({ kind: 'mirror', files, deleted }, transfer);
}

// ---- files ---------------------------------------------------------------------------------

function fileOperation(message) {
  const [answer, transfer] = workspace
    ? workspace.answer(message)
    : [{ error: 'the interpreter is not running' }, []];
  post({ kind: 'file', seq: message.seq, ...answer }, transfer);
}
