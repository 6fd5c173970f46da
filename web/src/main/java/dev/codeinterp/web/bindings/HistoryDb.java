package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/**
 * Local conversations in this browser's IndexedDB (public/js/history-db.js): each event's wire
 * JSON under [conversation id, seq], and copies of the workspace's files under [conversation id,
 * name]. Failures come back as sentences; nothing throws.
 */
@JSModule("./js/history-db.js")
public abstract class HistoryDb implements JSObject {
    private HistoryDb() {
    }

    @JSFunctor
    public interface EventJson extends JSObject {
        void call(String json);
    }

    @JSFunctor
    public interface Done extends JSObject {
        /** {@code error} is null on success. */
        void call(String error);
    }

    @JSFunctor
    public interface KeptFile extends JSObject {
        void call(String name, JSObject bytes);
    }

    /** Each stored event's JSON in seq order, then {@code done(null)}; {@code done(error)} if they cannot be read. */
    @JSTopLevel
    public static native void loadEvents(String conversationId, EventJson onEvent, Done done);

    /** Stores {@code jsons[i]} as event {@code seqs[i]}, in one transaction; {@code failed} if they are not kept. */
    @JSTopLevel
    public static native void storeEvents(String conversationId, double[] seqs, String[] jsons, Done failed);

    @JSTopLevel
    public static native void keepFile(String conversationId, String name, JSObject bytes);

    @JSTopLevel
    public static native void dropFile(String conversationId, String name);

    /** Drops the kept files whose names are not in {@code names}. */
    @JSTopLevel
    public static native void retainFiles(String conversationId, String[] names);

    @JSTopLevel
    public static native void loadFiles(String conversationId, KeptFile onFile);

    @JSFunctor
    public interface Ids extends JSObject {
        void call(String[] ids);
    }

    /** The id of every conversation with stored events (none if storage fails). */
    @JSTopLevel
    public static native void conversationIds(Ids done);

    /** Deletes a conversation's events and kept files. */
    @JSTopLevel
    public static native void forget(String conversationId);
}
