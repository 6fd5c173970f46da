// Memory snapshots: a return visit boots Python from a copy of an initialised interpreter's
// WebAssembly memory instead of starting it (Pyodide's `_makeSnapshot` / `makeMemorySnapshot()` /
// `_loadSnapshot`; see docs/local-runtime-protocol.md, "Memory snapshots").
//
// The snapshot is taken by a freshly started worker after the runner is imported and before the
// host exists, so before any cell: it holds the interpreter, the standard library modules and
// our modules, never user data. It is the wasm memory only: the file system (the stdlib, our
// sources, the workspace) is JavaScript state and is put back after a restore as after a start.
// Pyodide checks its own build id in the snapshot; the frame and the app key it by Pyodide version
// and runtime hash besides, so a new build never even offers an old one.

import { startPyodide } from './boot.mjs';
import { describe } from './errors.mjs';

/**
 * Starts Pyodide from `handed.snapshot` when there is one, else as usual (ready to take a snapshot
 * when `handed.makeSnapshot`). A snapshot that fails to load is reported with `onFailed(message)`
 * and the normal start follows (which takes a new snapshot if the frame wants one). Resolves to {pyodide, restored}.
 */
export async function startFromSnapshotOrFresh(config, handed, onFailed) {
  if (handed.snapshot) {
    try {
      const pyodide = await startPyodide(config, { snapshot: handed.snapshot });
      // the restored interpreter must answer before it is trusted with cells
      if (pyodide.runPython("import sys, pyodide_host\n'pyodide_host' in sys.modules") !== true) {
        throw new Error('the restored interpreter lacks the host module');
      }
      return { pyodide, restored: true };
    } catch (error) {
      onFailed(`the memory snapshot could not be loaded (${describe(error)}); starting Python normally`);
    }
  }
  const pyodide = await startPyodide(config, { makeSnapshot: handed.makeSnapshot });
  return { pyodide, restored: false };
}

/** The snapshot of `pyodide` (loaded with makeSnapshot, host module imported, no cell run), or null if it cannot be made. */
export function takeSnapshot(pyodide) {
  try {
    return pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn('no memory snapshot:', describe(error));
    return null;
  }
}
