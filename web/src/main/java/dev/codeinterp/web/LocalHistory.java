package dev.codeinterp.web;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.WireCodec;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
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
final class LocalHistory {
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
                        events.add(WireCodec.decodeSessionEvent(JsonObject.parse(stringAt(strings, i))));
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
        pending.add(Json.write(WireCodec.sessionEventFields(event)));
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

    /** Forgets a conversation: every event of it is deleted from this browser. */
    static void forget(String conversationId) {
        remove(conversationId);
    }

    // One database, one store: keys are [conversation id, seq], values the event's JSON.
    private static final String OPEN = "var open = function(done) {"
            + "  if (!window.__codeinterpDb) {"
            + "    window.__codeinterpDb = new Promise(function(resolve, reject) {"
            + "      var r; try { r = indexedDB.open('codeinterp-local', 1); } catch (e) { reject(e); return; }"
            + "      r.onupgradeneeded = function() { r.result.createObjectStore('events'); };"
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

    @JSBody(params = "id", script = OPEN
            + "open(function(db) {"
            + "  if (db) db.transaction('events', 'readwrite').objectStore('events').delete(IDBKeyRange.bound([id, 0], [id, Infinity]));"
            + "});")
    private static native void remove(String id);

    @JSBody(script = "return [];")
    private static native JSObject newArray();

    @JSBody(params = {"a", "seq", "json"}, script = "a.push([seq, json]);")
    private static native void push(JSObject a, double seq, String json);

    @JSBody(params = {"a", "i"}, script = "return String(a[i]);")
    private static native String stringAt(JSObject a, int i);
}
