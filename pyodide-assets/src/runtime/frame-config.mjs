// Local mode's frame: what the page says (the configuration the server fills in, `#assets=parent`
// in its URL) and what follows from it: the core's files, the Python worker's modules, the key of
// a memory snapshot, and the frame's clock for the figures.
import { MIRROR_FILE_LIMIT } from './workspace.mjs';

const base = location.href;
const raw = JSON.parse(document.getElementById('config').textContent);
export const config = {
  pyodideVersion: raw.pyodideVersion,
  indexURL: new URL(raw.indexURL, base).href,
  packagesURL: new URL(raw.packagesURL, base).href,
  runtimeURL: new URL(raw.runtimeURL, base).href,
  wheelsURL: new URL(raw.wheelsURL, base).href,
  maxUploadBytes: raw.maxUploadBytes,
  timeoutMs: raw.timeoutMs,
  maxTimeoutMs: raw.maxTimeoutMs,
  maxOutputBytes: raw.maxOutputBytes,
  inputTimeoutMs: raw.inputTimeoutMs,
  interruptGraceMs: raw.interruptGraceMs,
  mirrorFileLimit: MIRROR_FILE_LIMIT,
};
// The big files of the core. This frame's origin is opaque, and Chromium never caches what an
// opaque origin fetches, so they are fetched once per frame and handed to every worker; with
// `#assets=parent` in this page's URL the app fetches them (from its HTTP cache) instead, and
// with them Pyodide's two modules and our Python sources (CORE_FILES), which the worker
// otherwise fetches itself.
export const BIG_ASSETS = ['pyodide.asm.wasm', 'python_stdlib.zip'].map((name) => config.indexURL + name);
// The Python worker's modules, all of them (tests/runtime-modules.test.js holds the list to the
// imports): its bootstrap starts fetching them at once, where importing worker.mjs alone would
// find them level by level, a round trip each (the frame's fetches are never cached); 70-250 ms
// of a return visit here.
export const WORKER_MODULES = ['worker.mjs', 'boot.mjs', 'errors.mjs', 'input-replies.mjs', 'packages.mjs', 'snapshot.mjs',
  'snapshot-pages.mjs', 'workspace-fs.mjs', 'workspace-names.mjs'];
export const CORE_FILES = [...BIG_ASSETS, config.indexURL + 'pyodide.mjs', config.indexURL + 'pyodide.asm.mjs',
  config.runtimeURL + 'python-sources.json'];
config.bigAssets = BIG_ASSETS;
export const assetsFromParent = /(^#|&)assets=parent(&|$)/.test(location.hash);
// Memory snapshots (snapshot.mjs): only an app that answers fetchAssets can keep one for us (this
// origin has no storage). It is keyed by Pyodide version and the runtime's content hash (the last
// segment of runtimeURL), so a new build never boots an old one.
const runtimeHash = (/\/([0-9a-f]{16})\/$/.exec(config.runtimeURL) || [])[1] || null;
export const snapshotKey = assetsFromParent && runtimeHash ? `${config.pyodideVersion}/${runtimeHash}` : null;

// When things happened, in ms since the epoch (a clock the app shares), for `ready.at`: figures only
export const epochNow = () => Math.round(performance.timeOrigin + performance.now());

/** The worker's boot timings ({step: ms}) for the app's figures: small integers only. */
export function sanitizedTimings(timings) {
  const clean = {};
  for (const [name, ms] of Object.entries(timings && typeof timings === 'object' ? timings : {})) {
    if (/^[a-z]{1,16}$/.test(name) && Number.isInteger(ms) && ms >= 0) {
      clean[name] = ms;
    }
  }
  return clean;
}
