// Local mode's interpreter: one Pyodide in a module worker, driven by runtime.js. This module
// takes the frame's messages and runs them; boot.mjs starts Pyodide, packages.mjs loads what a
// cell imports, workspace-fs.mjs keeps the workspace (all imported from the same hashed path).
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

import { fetchPythonSources, handedOver, installPythonSources, receiveAssets, releaseAssets, routeFdOutput } from './boot.mjs';
import { describe } from './errors.mjs';
import { InputReplies } from './input-replies.mjs';
import { Packages } from './packages.mjs';
import { startFromSnapshotOrFresh, takeSnapshot } from './snapshot.mjs';
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
  try {
    post({ kind: 'loading', message: `Loading Python (Pyodide ${config.pyodideVersion})` });
    const sources = fetchPythonSources(config.runtimeURL);
    const begun = performance.now();
    const timings = {};
    const mark = (name, since) => {
      timings[name] = Math.round(performance.now() - since);
      return performance.now();
    };
    // the core's modules load while the frame gathers the big files (and the snapshot, if any)
    const modules = Promise.all([import(config.indexURL + 'pyodide.mjs'), import(config.indexURL + 'pyodide.asm.mjs')]);
    modules.catch(() => {}); // startPyodide reports a missing module
    const handed = await handedOver();
    let at = mark('assets', begun);
    const started = await startFromSnapshotOrFresh(config, handed, (why) => {
      post({ kind: 'snapshotFailed', message: why });
      post({ kind: 'loading', message: 'Loading Python again: ' + why });
    });
    releaseAssets();
    pyodide = started.pyodide;
    at = mark(started.restored ? 'restore' : 'start', at);
    let hostModule = null;
    workspace = new WorkspaceFs(pyodide, config.mirrorFileLimit, (name) => hostModule.mime_of(name));
    post({ kind: 'loading', message: 'Starting the interpreter' });
    installPythonSources(pyodide, await sources, started.restored);
    workspace.ensure();
    pyodide.FS.chdir(WORKSPACE);
    hostModule = pyodide.pyimport('pyodide_host');
    at = mark('host', at);
    if (started.restored) {
      hostModule.reseed(); // every session would draw the snapshot's random numbers otherwise
    } else if (handed.makeSnapshot) {
      // before the host holds our callbacks and before any cell: nothing of the user's is in it
      const snapshot = takeSnapshot(pyodide);
      if (snapshot) {
        at = mark('snapshot', at);
        mark('total', begun);
        // the frame replaces this worker by one booted from it (see runtime.js, onSnapshot)
        post({ kind: 'snapshot', bytes: snapshot.buffer, timings }, [snapshot.buffer]);
      }
    }
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
    post({ kind: 'ready', python, pyodide: pyodide.version, isolated, boot: started.restored ? 'snapshot' : 'fresh', timings });
  } catch (error) {
    post({ kind: 'fatal', message: `Python could not be loaded in this browser: ${describe(error)}` });
  }
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
