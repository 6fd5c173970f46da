package dev.codeinterp.web.local;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.WireCodec;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;
import org.teavm.jso.browser.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * A local conversation's events, kept in this browser's IndexedDB and nowhere else. Each event is
 * stored as its wire JSON under [conversation id, seq]; appends are gathered and written in one
 * transaction a few times a second, so a chatty cell costs few transactions.
 */
public final class LocalHistory {
    private static final int FLUSH_DELAY_MS = 150;

    interface Loaded {
        /** {@code error} is non-null if the history could not be read (the events are then empty). */
        void loaded(List<SessionEvent> events, String error);
    }

    interface Failure {
        void failed(String message);
    }

    @JSFunctor
    interface JsLoaded extends JSObject {
        void call(JSObject jsonStrings, String error);
    }

    @JSFunctor
    interface JsFailed extends JSObject {
        void call(String error);
    }

    private final String conversationId;
    private final Failure onFailure;
    private final List<String> pending = new ArrayList<>();
    private final List<Double> pendingSeqs = new ArrayList<>();
    private boolean flushScheduled;
    private boolean failed;

    LocalHistory(String conversationId, Failure onFailure) {
        this.conversationId = conversationId;
        this.onFailure = onFailure;
    }

    void load(Loaded callback) {
        load(conversationId, (strings, error) -> {
            List<SessionEvent> events = new ArrayList<>();
            if (strings != null) {
                int n = LocalRuntimeFrame.length(strings);
                for (int i = 0; i < n; i++) {
                    try {
                        events.add(WireCodec.decodeSessionEvent(stringAt(strings, i)));
                    } catch (RuntimeException e) {
                        // a damaged record costs that one event, not the conversation
                    }
                }
            }
            callback.loaded(events, error);
        });
    }

    void append(SessionEvent event) {
        if (failed) {
            return;
        }
        pending.add(WireCodec.encode(event));
        pendingSeqs.add((double) event.seq());
        if (!flushScheduled) {
            flushScheduled = true;
            Window.setTimeout(this::flush, FLUSH_DELAY_MS);
        }
    }

    void flush() {
        flushScheduled = false;
        if (pending.isEmpty()) {
            return;
        }
        JSObject records = newArray();
        for (int i = 0; i < pending.size(); i++) {
            push(records, pendingSeqs.get(i), pending.get(i));
        }
        pending.clear();
        pendingSeqs.clear();
        store(conversationId, records, error -> {
            if (!failed) {
                failed = true;
                onFailure.failed("This browser refused to keep the conversation (" + error + "); it will be gone after a reload.");
            }
        });
    }

    /** Keeps a copy of a workspace file, so a reload can put it back. */
    void keepFile(String name, JSObject bytes) {
        putFile(conversationId, name, bytes);
    }

    void dropFile(String name) {
        deleteFile(conversationId, name);
    }

    /** Drops the kept files whose names are not in {@code names} (a JS array): the code deleted them. */
    void retainFiles(JSObject names) {
        retain(conversationId, names);
    }

    /** The kept files as a JS array of {name, bytes}; empty if there are none or storage fails. */
    void loadFiles(KeptFiles callback) {
        files(conversationId, callback);
    }

    @JSFunctor
    interface KeptFiles extends JSObject {
        void call(JSObject records);
    }

    // One database, two stores: "events" keyed [conversation id, seq] holding each event's JSON,
    // "files" keyed [conversation id, name] holding {bytes, modified}. [id] .. [id, []] spans one
    // conversation's names, since arrays sort after strings.
    private static final String OPEN = "var open = function(done) {"
            + "  if (!window.__codeinterpDb) {"
            + "    window.__codeinterpDb = new Promise(function(resolve, reject) {"
            + "      var r; try { r = indexedDB.open('codeinterp-local', 2); } catch (e) { reject(e); return; }"
            + "      r.onupgradeneeded = function() { var names = r.result.objectStoreNames;"
            + "        if (!names.contains('events')) r.result.createObjectStore('events');"
            + "        if (!names.contains('files')) r.result.createObjectStore('files'); };"
            + "      r.onsuccess = function() { resolve(r.result); };"
            + "      r.onerror = function() { reject(r.error); };"
            + "    });"
            + "  }"
            + "  window.__codeinterpDb.then(function(db) { done(db, null); }, function(err) { done(null, String(err && err.message || err)); });"
            + "};";

    @JSBody(params = {"id", "callback"}, script = OPEN
            + "open(function(db, error) {"
            + "  if (!db) { callback(null, error); return; }"
            + "  try {"
            + "    var r = db.transaction('events', 'readonly').objectStore('events')"
            + "      .getAll(IDBKeyRange.bound([id, 0], [id, Infinity]));"
            + "    r.onsuccess = function() { callback(r.result, null); };"
            + "    r.onerror = function() { callback(null, String(r.error)); };"
            + "  } catch (e) { callback(null, String(e)); }"
            + "});")
    private static native void load(String id, JsLoaded callback);

    @JSBody(params = {"id", "records", "failed"}, script = OPEN
            + "open(function(db, error) {"
            + "  if (!db) { failed(error); return; }"
            + "  try {"
            + "    var tx = db.transaction('events', 'readwrite'); var s = tx.objectStore('events');"
            + "    records.forEach(function(rec) { s.put(rec[1], [id, rec[0]]); });"
            + "    tx.onerror = function() { failed(String(tx.error)); };"
            + "    tx.onabort = function() { failed(String(tx.error || 'aborted')); };"
            + "  } catch (e) { failed(String(e)); }"
            + "});")
    private static native void store(String id, JSObject records, JsFailed failed);

    @JSBody(params = {"id", "name", "bytes"}, script = OPEN
            + "open(function(db) {"
            + "  if (db) try { db.transaction('files', 'readwrite').objectStore('files')"
            + "    .put({bytes: bytes, modified: Date.now()}, [id, name]); } catch (err) {}"
            + "});")
    private static native void putFile(String id, String name, JSObject bytes);

    @JSBody(params = {"id", "name"}, script = OPEN
            + "open(function(db) {"
            + "  if (db) try { db.transaction('files', 'readwrite').objectStore('files').delete([id, name]); } catch (err) {}"
            + "});")
    private static native void deleteFile(String id, String name);

    @JSBody(params = {"id", "names"}, script = OPEN
            + "open(function(db) {"
            + "  if (!db) return;"
            + "  try {"
            + "    var store = db.transaction('files', 'readwrite').objectStore('files');"
            + "    var keys = store.getAllKeys(IDBKeyRange.bound([id], [id, []]));"
            + "    keys.onsuccess = function() { keys.result.forEach(function(key) {"
            + "      if (names.indexOf(key[1]) < 0) store.delete(key); }); };"
            + "  } catch (err) {}"
            + "});")
    private static native void retain(String id, JSObject names);

    @JSBody(params = {"id", "callback"}, script = OPEN
            + "open(function(db) {"
            + "  if (!db) { callback([]); return; }"
            + "  try {"
            + "    var store = db.transaction('files', 'readonly').objectStore('files');"
            + "    var range = IDBKeyRange.bound([id], [id, []]);"
            + "    var keys = store.getAllKeys(range); var values = store.getAll(range);"
            + "    values.onsuccess = function() { callback(values.result.map(function(v, i) {"
            + "      return {name: keys.result[i][1], bytes: v.bytes}; })); };"
            + "    values.onerror = function() { callback([]); };"
            + "  } catch (err) { callback([]); }"
            + "});")
    private static native void files(String id, KeptFiles callback);

    @JSBody(script = "return [];")
    private static native JSObject newArray();

    @JSBody(params = {"a", "seq", "json"}, script = "a.push([seq, json]);")
    private static native void push(JSObject a, double seq, String json);

    @JSBody(params = {"a", "i"}, script = "return String(a[i]);")
    private static native String stringAt(JSObject a, int i);
}
