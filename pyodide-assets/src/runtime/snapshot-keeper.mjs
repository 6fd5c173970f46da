// Local mode's frame: its memory snapshot (snapshot.mjs takes and boots one in a worker). Which
// one every worker of this frame boots from (the app's, kept from an earlier visit, or one taken
// here), when a second worker takes one in the background, and when it is dropped.
import { assetsFromParent, config, sanitizedTimings, snapshotKey } from './frame-config.mjs';
import { spawnWorker } from './python-workers.mjs';

// The background worker that takes the snapshot starts this long after `ready`, once no cell
// runs or waits, and is given up after SNAPSHOT_TAKE_TIMEOUT_MS.
const SNAPSHOT_IDLE_MS = 1000;
const SNAPSHOT_TAKE_TIMEOUT_MS = 120000;

/** `frame`: runtime.mjs's view of the worker; `cells`: cells.mjs's; `assets`: core-assets.mjs's. */
export function snapshotKeeper({ frame, cells, assets }) {
  const { toApp } = frame;
  let snapshot = null; // Blob: the snapshot every worker of this frame boots from (snapshot-pages.mjs's layout)
  let snapshotFromApp = false; // `snapshot` is the one the app kept (else: taken here)
  let snapshotTaken = false; // this frame started taking one already: at most one per frame
  let appKeepsSnapshots = false; // the app's `assets` said it keeps one (`snapshots: true`): only then is one taken
  let snapshotWorker = null; // the background worker taking it
  let snapshotTimer = null;

  /** The app's answer to `fetchAssets`: whether it keeps snapshots, and ours if it kept one. */
  function onAssets(m) {
    appKeepsSnapshots = m.snapshots === true;
    if (snapshotKey && m.snapshot instanceof Blob && m.snapshot.size > 0) {
      snapshot = m.snapshot;
      snapshotFromApp = true;
    }
  }

  /**
   * Once the person's interpreter is ready and no cell runs or waits, a second worker takes the
   * snapshot in the background (snapshot.mjs), so a first visit waits for nothing more than a
   * normal start. Only when the app keeps snapshots, this frame has none, and at most once per
   * frame. The snapshot worker runs no cell and is handed no workspace file.
   */
  function schedule() {
    if (!wanted() || snapshotTimer) {
      return;
    }
    snapshotTimer = setTimeout(() => {
      snapshotTimer = null;
      if (!wanted()) {
        return;
      }
      if (!frame.ready || !cells.idle()) {
        schedule(); // after the running cell (a `ready` schedules again after a restart)
        return;
      }
      takeInBackground();
    }, SNAPSHOT_IDLE_MS);
  }

  /**
   * A cell came while the background worker was starting: that start (a whole Python boot) would
   * take the person's CPU, so it is given up and tried again in the next quiet moment.
   */
  function yieldToCell() {
    if (snapshotWorker) {
      snapshotWorker.terminate();
      snapshotWorker = null;
      snapshotTaken = false;
      schedule();
    }
  }

  function wanted() {
    return snapshotKey !== null && appKeepsSnapshots && snapshot === null && !snapshotTaken && frame.fatal === null;
  }

  function takeInBackground() {
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
    assets.handTo(taker, null);
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

  /** How the ready interpreter started: from the app's snapshot, from one this frame just took, or normally. */
  function bootKind(boot) {
    if (boot !== 'snapshot') {
      return 'fresh';
    }
    return snapshotFromApp ? 'snapshot' : 'new-snapshot';
  }

  /** The snapshot did not load: forget it here and in the app; the next fresh worker takes a new one (once per frame). */
  function drop(reason) {
    if (!snapshotKey) {
      return;
    }
    snapshot = null;
    toApp({ type: 'snapshotDropped', key: snapshotKey, reason });
  }

  /** Python cannot load: no snapshot is taken now. */
  function stopTaking() {
    clearTimeout(snapshotTimer);
    snapshotTimer = null;
    if (snapshotWorker) {
      snapshotWorker.terminate();
      snapshotWorker = null;
    }
  }

  return { onAssets, schedule, yieldToCell, bootKind, drop, stopTaking, get current() { return snapshot; } };
}
