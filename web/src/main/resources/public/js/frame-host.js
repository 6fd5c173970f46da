// The app's end of the postMessage channel to the local runtime frame (an opaque-origin iframe;
// docs/local-runtime-protocol.md). It takes messages only from the frame's own window, posts
// nothing until the frame has spoken (earlier posts would reach its initial about:blank), answers
// the frame's `fetchAssets` itself (with the memory snapshot it keeps for the frame, see
// snapshot-store.js), and hands every other message to the app as JSON text with the file bytes
// beside it.

import { anySnapshot, dropSnapshot, loadSnapshot, storeSnapshot, validKey } from './snapshot-store.js';

/**
 * Connects to `frame` (an iframe element). With `keepSnapshot`, the frame's memory snapshot is kept
 * in this origin's IndexedDB and handed back on the next visit; without it (an embed widget, which
 * stores nothing), none is kept or offered. `receive(json, bytes)` gets each message as JSON
 * without its `bytes` member, which comes as the second argument (null if there is none).
 * With `held`, the frame is being started before the person chose local mode (LocalWarmUp): it
 * loads its page and its worker's modules, and its `fetchAssets` is read (the files from our HTTP
 * cache, the snapshot from IndexedDB) but answered only at `release()`, so Python does not start
 * until then. Returns `{post(json, bytes, transfer), release(), close()}`: `post` sends a message
 * given as JSON text, with `bytes` (or null) put back in as its `bytes` member and, if
 * `transfer`, handed over rather than copied.
 */
export function connect(frame, receive, keepSnapshot = false, held = false) {
  startMarks();
  let release = null;
  const released = held ? new Promise((resolve) => { release = resolve; }) : null;
  let heard = false;
  let executed = false; // the first execute was posted (marked)
  let lined = false; // the first runner line came (marked)
  let snapshotKey = null; // the key the frame asked for, once: the only one it may store or drop
  const early = []; // [message, transfer list] posted before the frame spoke
  const send = (message, transfer) => frame.contentWindow?.postMessage(message, '*', transfer);
  const onMessage = (e) => {
    if (e.source !== frame.contentWindow || !e.data || typeof e.data.type !== 'string') {
      return;
    }
    if (!heard) {
      heard = true;
      mark('heard');
      early.splice(0).forEach(([message, transfer]) => send(message, transfer));
    }
    const { bytes = null, ...fields } = e.data;
    if (fields.type === 'ready') {
      markReady(fields.at);
    } else if (fields.type === 'runner' && !lined) {
      lined = true;
      mark('line');
    }
    if (fields.type === 'fetchAssets') {
      mark('asked');
      if (keepSnapshot && snapshotKey === null && validKey(fields.snapshot)) {
        snapshotKey = fields.snapshot;
      }
      answerAssets(frame, fields.urls, validKey(fields.snapshot) && fields.snapshot === snapshotKey ? snapshotKey : null, released);
      return;
    }
    if (fields.type === 'snapshot' || fields.type === 'snapshotDropped') {
      onSnapshotMessage(fields, bytes);
      return;
    }
    let json;
    try {
      json = JSON.stringify(fields);
    } catch {
      return; // not JSON (a cycle, a BigInt): not a message of ours
    }
    receive(json, bytes);
  };
  /** The frame's snapshot (taken before its first cell) to keep, or word that ours did not load. */
  const onSnapshotMessage = (fields, bytes) => {
    if (snapshotKey === null || fields.key !== snapshotKey) {
      return;
    }
    if (fields.type === 'snapshot' && bytes instanceof Blob) {
      storeSnapshot(snapshotKey, bytes);
    } else if (fields.type === 'snapshotDropped') {
      dropSnapshot(snapshotKey);
    }
  };
  window.addEventListener('message', onMessage);
  return {
    post(json, bytes, transfer) {
      const message = JSON.parse(json);
      if (bytes) {
        message.bytes = bytes;
      }
      const transferList = bytes && transfer ? [bytes] : [];
      if (message.type === 'execute' && !executed) {
        executed = true;
        mark('execute');
      }
      if (heard) {
        send(message, transferList);
      } else {
        early.push([message, transferList]);
      }
    },
    release() {
      if (release) {
        mark('release');
        release();
        release = null;
      }
    },
    close() {
      window.removeEventListener('message', onMessage);
    },
  };
}

/**
 * Calls `callback` once this page is idle (its own start done), if this browser keeps a local-mode
 * snapshot: someone here has used local mode, so starting a frame ahead (LocalWarmUp) is likely to
 * pay. Pages of browsers that never used local mode start nothing.
 */
export function whenIdleWithSnapshot(callback) {
  const idle = window.requestIdleCallback || ((run) => setTimeout(run, 1000));
  idle(() => anySnapshot().then((kept) => {
    if (kept) {
      callback();
    }
  }), { timeout: 5000 });
}

/**
 * The URLs of `urls` the app may fetch for the frame: GETs of `origin` under /pyodide/ (the core)
 * or /local/<runtime hash>/ (our Python sources), with no query and no credentials in the URL.
 * Anything else (another origin, our API, the wheelhouse) is left out.
 */
export function wantedAssets(urls, origin) {
  return (Array.isArray(urls) ? urls : []).filter((url) => {
    try {
      const u = new URL(url);
      return u.origin === origin && (u.pathname.startsWith('/pyodide/') || /^\/local\/[0-9a-f]{16}\//.test(u.pathname))
        && u.search === '' && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  });
}

/**
 * Fetches the wanted files from our own HTTP cache (an opaque-origin frame's own fetches are never
 * cached) without credentials, and answers with one `assets` message of Blobs; files that fail
 * are left out, and the frame fetches those itself. With `snapshotKey`, the snapshot kept under it
 * (a Blob, if any) goes along as `snapshot`. `took` says how long the files and the snapshot took
 * here, in ms (for the figures). Blobs: no byte is read or copied here, only the frame's worker
 * reads them (a cached response's `blob()` took half the time of its `arrayBuffer()` here).
 * With `released` (a promise), the answer waits for it.
 */
function answerAssets(frame, urls, snapshotKey, released) {
  const begun = performance.now();
  const took = {};
  const timed = (name, promise) => promise.finally(() => {
    took[name] = Math.round(performance.now() - begun);
  });
  const snapshot = timed('snapshot', snapshotKey ? loadSnapshot(snapshotKey) : Promise.resolve(null));
  const fetched = wantedAssets(urls, location.origin).map((url) => fetch(url, { credentials: 'omit', redirect: 'error' })
    .then((response) => (response.ok ? response.blob() : null))
    .then((bytes) => (bytes ? { url, bytes } : null), () => null));
  Promise.all([timed('files', Promise.all(fetched)), snapshot, released]).then(([got, kept]) => {
    const files = got.filter((file) => file);
    // snapshots: we keep one (without this the frame never takes one)
    const message = { type: 'assets', files, snapshots: snapshotKey !== null, took, ...(kept ? { snapshot: kept } : {}) };
    frame.contentWindow?.postMessage(message, '*');
    mark('handed');
  });
}

// ---- where a start's time goes -------------------------------------------------------------
// Marks on this page's performance timeline (DevTools' Performance panel, and bench-local.js),
// named `local:<step>`, for the latest frame only: `frame` (connected, about to be inserted),
// `heard` (its first message: its script runs), `asked` (its fetchAssets), `release` (a frame
// started ahead may start Python), `handed` (our answer posted, the snapshot read), `ready`,
// `execute` (the first cell posted, or queued until `heard`), `line` (the first runner line
// back); with `ready`, the frame's own moments (`frame-page`,
// `frame-worker`, `frame-init`, `frame-handed`, `frame-ready`; see runtime.js's startMoments).

const MARK = 'local:';

function startMarks() {
  for (const entry of performance.getEntriesByType('mark')) {
    if (entry.name.startsWith(MARK)) {
      performance.clearMarks(entry.name);
    }
  }
  mark('frame');
}

/** `epochMs` (ms since the epoch, as the frame reports them) or now. */
function mark(name, epochMs) {
  const startTime = epochMs === undefined ? performance.now() : epochMs - performance.timeOrigin;
  if (Number.isFinite(startTime) && startTime >= 0) {
    performance.mark(MARK + name, { startTime });
  }
}

/** `ready` and the frame's moments it carries (numbers only: the frame's messages are never trusted). */
function markReady(at) {
  mark('ready');
  for (const [name, ms] of Object.entries(at && typeof at === 'object' ? at : {})) {
    if (/^[a-z]{1,16}$/.test(name) && typeof ms === 'number') {
      mark('frame-' + name, ms);
    }
  }
}
