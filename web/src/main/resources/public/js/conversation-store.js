// The list of conversations this browser can open, server and local: one record per conversation
// (its title, mode, state, last activity and the code of its cells, for search) as JSON under its
// route ("/s/<id>", "/l/<id>"), in IndexedDB beside the local conversations' events and nowhere
// else. Failures come back as sentences; nothing here throws at the caller.

import { openStore } from './idb.js';

const DB_NAME = 'codeinterp-conversations';
const STORE = 'conversations';

const open = () => openStore(DB_NAME, STORE);

function withStore(mode, use, failed) {
  open().then((db) => {
    try {
      use(db.transaction(STORE, mode).objectStore(STORE));
    } catch (e) {
      failed(String(e));
    }
  }, (e) => failed(String((e && e.message) || e)));
}

/** Calls `done(jsons, null)` with every record, or `done([], error)` if they cannot be read. */
export function loadRecords(done) {
  withStore('readonly', (store) => {
    const r = store.getAll();
    r.onsuccess = () => done(r.result.map(String), null);
    r.onerror = () => done([], String(r.error));
  }, (error) => done([], error));
}

/** Keeps (or replaces) the record of `route`; `failed(message)` if it is not kept. */
export function putRecord(route, json, failed) {
  withStore('readwrite', (store) => {
    const r = store.put(json, route);
    r.onerror = () => failed(String(r.error));
  }, failed);
}

export function removeRecord(route) {
  withStore('readwrite', (store) => store.delete(route), () => {});
}

/** The ids of the server sessions whose tokens this browser keeps (localStorage "codeinterp.token.<id>"). */
export function heldSessionIds() {
  const ids = [];
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key && key.startsWith('codeinterp.token.')) {
        ids.push(key.substring('codeinterp.token.'.length));
      }
    }
  } catch {
    // no storage: no sessions held
  }
  return ids;
}

/** Sets the page's title (the tab's, and the window list's). */
export function setPageTitle(title) {
  document.title = title;
}
