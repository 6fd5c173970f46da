package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/**
 * The conversation list's records in this browser's IndexedDB (public/js/conversation-store.js):
 * one JSON record per conversation under its route. Failures come back as sentences; nothing throws.
 */
@JSModule("./js/conversation-store.js")
public abstract class ConversationStore implements JSObject {
    private ConversationStore() {
    }

    @JSFunctor
    public interface Records extends JSObject {
        /** {@code error} is null when the records could be read. */
        void call(String[] jsons, String error);
    }

    @JSTopLevel
    public static native void loadRecords(Records done);

    @JSTopLevel
    public static native void putRecord(String route, String json, HistoryDb.Done failed);

    @JSTopLevel
    public static native void removeRecord(String route);

    /** The ids of the server sessions whose tokens this browser keeps. */
    @JSTopLevel
    public static native String[] heldSessionIds();

    @JSTopLevel
    public static native void setPageTitle(String title);
}
