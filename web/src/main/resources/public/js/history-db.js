// Local conversations, kept in this browser's IndexedDB and nowhere else. One database, two
// stores: "events" keyed [conversation id, seq] holding each event's wire JSON, and "files" keyed
// [conversation id, name] holding {bytes, modified}: copies of the workspace's files that a
// reload puts back. [id] .. [id, []] spans one conversation's names, since arrays sort after
// strings. Failures are reported (or, for the file copies, which are best effort, swallowed);
// nothing here throws at the caller.

const DB_NAME = 'codeinterp-local';
const DB_VERSION = 2;

let opened = null; // one connection for the page, opened on first use

function open() {
  // a throw in here (no IndexedDB at all) rejects the promise
  opened ??= new Promise((resolve, reject) => {
    const r = indexedDB.open(DB_NAME, DB_VERSION);
    r.onupgradeneeded = () => {
      const names = r.result.objectStoreNames;
      if (!names.contains('events')) {
        r.result.createObjectStore('events');
      }
      if (!names.contains('files')) {
        r.result.createObjectStore('files');
      }
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return opened;
}

/** Runs `use(db)` once the database is open; `failed(message)` if it cannot be, or `use` throws. */
function withDb(use, failed) {
  open().then((db) => {
    try {
      use(db);
    } catch (e) {
      failed(String(e));
    }
  }, (e) => failed(String((e && e.message) || e)));
}

const ignore = () => {};
const conversation = (id) => IDBKeyRange.bound([id], [id, []]);

/** Calls `onEvent(json)` for each stored event of the conversation, in seq order, then `done(null)`; `done(error)` if they cannot be read. */
export function loadEvents(id, onEvent, done) {
  withDb((db) => {
    const r = db.transaction('events', 'readonly').objectStore('events').getAll(IDBKeyRange.bound([id, 0], [id, Infinity]));
    r.onsuccess = () => {
      r.result.forEach((json) => onEvent(String(json)));
      done(null);
    };
    r.onerror = () => done(String(r.error));
  }, done);
}

/** Stores events (`seqs[i]` with `jsons[i]`) in one transaction; `failed(message)` if they are not kept. */
export function storeEvents(id, seqs, jsons, failed) {
  withDb((db) => {
    const tx = db.transaction('events', 'readwrite');
    const events = tx.objectStore('events');
    jsons.forEach((json, i) => events.put(json, [id, seqs[i]]));
    tx.onerror = () => failed(String(tx.error));
    tx.onabort = () => failed(String(tx.error || 'aborted'));
  }, failed);
}

/** Keeps a copy of a workspace file (best effort). */
export function keepFile(id, name, bytes) {
  withDb((db) => {
    db.transaction('files', 'readwrite').objectStore('files').put({ bytes, modified: Date.now() }, [id, name]);
  }, ignore);
}

export function dropFile(id, name) {
  withDb((db) => {
    db.transaction('files', 'readwrite').objectStore('files').delete([id, name]);
  }, ignore);
}

/** Drops the kept files whose names are not in `names`. */
export function retainFiles(id, names) {
  withDb((db) => {
    const files = db.transaction('files', 'readwrite').objectStore('files');
    const keys = files.getAllKeys(conversation(id));
    keys.onsuccess = () => keys.result.filter((key) => !names.includes(key[1])).forEach((key) => files.delete(key));
  }, ignore);
}

/** Calls `onFile(name, bytes)` for each kept file of the conversation; none if storage fails. */
export function loadFiles(id, onFile) {
  withDb((db) => {
    const files = db.transaction('files', 'readonly').objectStore('files');
    const keys = files.getAllKeys(conversation(id));
    const values = files.getAll(conversation(id));
    values.onsuccess = () => values.result.forEach((v, i) => onFile(keys.result[i][1], v.bytes));
  }, ignore);
}

/** Calls `done(ids)` with the id of every conversation that has stored events ([] if storage fails). */
export function conversationIds(done) {
  withDb((db) => {
    const ids = [];
    const r = db.transaction('events', 'readonly').objectStore('events').openKeyCursor();
    r.onsuccess = () => {
      const cursor = r.result;
      if (!cursor) {
        done(ids);
        return;
      }
      ids.push(String(cursor.key[0]));
      cursor.continue([cursor.key[0], []]); // on to the next conversation's first event
    };
    r.onerror = () => done(ids);
  }, () => done([]));
}

/** Deletes a conversation's events and kept files. */
export function forget(id) {
  withDb((db) => {
    const tx = db.transaction(['events', 'files'], 'readwrite');
    tx.objectStore('events').delete(conversation(id));
    tx.objectStore('files').delete(conversation(id));
  }, ignore);
}
