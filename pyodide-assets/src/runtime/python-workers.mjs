// Local mode's frame: starting a Pyodide worker (the person's, or the one that takes a memory
// snapshot in the background) from this frame's opaque origin.
import { WORKER_MODULES, config } from './frame-config.mjs';

/**
 * A new Pyodide worker (`name` shows in the browser's tools) whose messages go to `onMessage(m)`
 * and whose failures to `onFailed(message)`; null if it cannot be started (`onFailed` says why).
 */
export function spawnWorker(name, onMessage, onFailed) {
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
  for (const url of ${JSON.stringify(WORKER_MODULES.slice(1).map((module) => config.runtimeURL + module))}) {
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
