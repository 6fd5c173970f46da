// Local mode's frame: the core's files every worker is handed (CORE_FILES in frame-config.mjs),
// from the app when it answers `fetchAssets` (`#assets=parent`), else the big ones fetched here;
// a file missing from both the worker fetches itself.
import { BIG_ASSETS, CORE_FILES, assetsFromParent, epochNow, sanitizedTimings, snapshotKey } from './frame-config.mjs';

export function coreAssets(toApp) {
  let appTook = {}; // the app's {step: ms} answering fetchAssets, for the figures
  let answerAssets = null; // resolves the pending fetchAssets, when the app has been asked
  let bigAssets = null; // a promise of url -> Blob, the same for every worker of this frame

  /** The app has been asked and has not answered yet. */
  function awaited() {
    return answerAssets !== null;
  }

  /** The app's answer to `fetchAssets`: the requested files it could fetch (the rest we fetch). */
  function onAssets(m) {
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

  /** url -> Blob of CORE_FILES, from the app or (BIG_ASSETS) fetched here; a missing one the worker fetches. */
  function obtain() {
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

  /** Hands `target` the core's files and `withSnapshot` (Blobs: the next worker gets the same ones, and no bytes are copied). */
  function handTo(target, withSnapshot) {
    obtain().then((assets) => {
      target.handedAt = epochNow();
      target.postMessage({ kind: 'assets', files: [...assets].map(([url, bytes]) => ({ url, bytes })),
        snapshot: withSnapshot, took: appTook });
    });
  }

  return { awaited, onAssets, obtain, handTo };
}
