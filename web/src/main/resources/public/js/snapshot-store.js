// Local mode's memory snapshot (docs/local-runtime-protocol.md, "Memory snapshots"), kept in this
// origin's IndexedDB for the runtime frame, which has an opaque origin and no storage of its own.
// One record at most: the snapshot of the current build, keyed "<pyodide version>/<runtime hash>";
// storing one deletes every other, so a new build's snapshot replaces the old one. It holds an
// interpreter taken before any cell ran: no user data. Failures only cost the fast start: every
// function here resolves (to null when there is nothing) and never throws at the caller.
//
// The snapshot is a Blob (the frame's worker made it and is the only one that reads it): IndexedDB
// gives a Blob back without reading its bytes (the 30 MiB snapshot stored as an ArrayBuffer took
// 220-310 ms to read here; stored as a Blob, 35-145 ms with its bytes read), and it crosses
// postMessage to the frame and on to the worker as a handle, not a copy.

import { openStore } from './idb.js';

const DB_NAME = 'codeinterp-snapshots';
const STORE = 'snapshots';
const KEY = /^[0-9][0-9A-Za-z.+-]{0,39}\/[0-9a-f]{16}$/;

const open = () => openStore(DB_NAME, STORE);

/** Whether `key` is a snapshot key as the frame makes them. */
export function validKey(key) {
  return typeof key === 'string' && KEY.test(key);
}

function request(mode, use) {
  return open().then((db) => new Promise((resolve) => {
    const tx = db.transaction(STORE, mode);
    const r = use(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(r.result ?? null);
    tx.onerror = () => resolve(null);
    tx.onabort = () => resolve(null);
  })).catch(() => null);
}

/** The snapshot stored under `key` (a Blob), or null. */
export function loadSnapshot(key) {
  if (!validKey(key)) {
    return Promise.resolve(null);
  }
  return request('readonly', (store) => store.get(key))
    .then((record) => (record && record.bytes instanceof Blob ? record.bytes : null));
}

/** Whether any snapshot is kept (of this build or an older one): local mode was used in this browser. */
export function anySnapshot() {
  return request('readonly', (store) => store.count()).then((count) => count > 0);
}

/** Keeps `bytes` (a Blob) under `key` as the only snapshot. Resolves to true once stored. */
export function storeSnapshot(key, bytes) {
  if (!validKey(key) || !(bytes instanceof Blob)) {
    return Promise.resolve(false);
  }
  return request('readwrite', (store) => {
    store.clear();
    return store.put({ bytes, stored: Date.now() }, key);
  }).then((stored) => stored === key);
}

/** Forgets the snapshot under `key` (it failed to load). */
export function dropSnapshot(key) {
  if (!validKey(key)) {
    return Promise.resolve(null);
  }
  return request('readwrite', (store) => store.delete(key));
}
