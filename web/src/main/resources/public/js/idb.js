// One IndexedDB connection per database for the page, opened on first use and kept: the stores of
// this folder (conversations, snapshots) each name theirs. A database of one object store, made on
// its first open.

const connections = new Map();

/** The connection to `dbName` (version 1, one object store `store`), opened once. */
export function openStore(dbName, store) {
  if (!connections.has(dbName)) {
    connections.set(dbName, new Promise((resolve, reject) => {
      const r = indexedDB.open(dbName, 1);
      r.onupgradeneeded = () => r.result.createObjectStore(store);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    }));
  }
  return connections.get(dbName);
}
