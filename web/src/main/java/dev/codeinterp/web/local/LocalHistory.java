package dev.codeinterp.web.local;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.HistoryDb;
import org.teavm.jso.JSObject;
import org.teavm.jso.browser.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * A local conversation's events, kept in this browser's IndexedDB and nowhere else
 * ({@link HistoryDb}). Each event is stored as its wire JSON under [conversation id, seq]; appends
 * are gathered and written in one transaction a few times a second, so a chatty cell costs few
 * transactions. A history that is not kept (an embed widget's) stores nothing and loads empty.
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

    private final String conversationId;
    private final Failure onFailure;
    private final boolean kept;
    private final List<String> pending = new ArrayList<>();
    private final List<Long> pendingSeqs = new ArrayList<>();
    private boolean flushScheduled;
    private boolean failed;

    LocalHistory(String conversationId, boolean kept, Failure onFailure) {
        this.conversationId = conversationId;
        this.kept = kept;
        this.onFailure = onFailure;
    }

    void load(Loaded callback) {
        if (!kept) {
            callback.loaded(List.of(), null);
            return;
        }
        List<SessionEvent> events = new ArrayList<>();
        HistoryDb.loadEvents(conversationId, json -> {
            try {
                events.add(WireCodec.decodeSessionEvent(json));
            } catch (RuntimeException e) {
                // a damaged record costs that one event, not the conversation
            }
        }, error -> callback.loaded(error == null ? events : List.of(), error));
    }

    void append(SessionEvent event) {
        if (failed || !kept) {
            return;
        }
        pending.add(WireCodec.encode(event));
        pendingSeqs.add(event.seq());
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
        double[] seqs = new double[pendingSeqs.size()];
        for (int i = 0; i < seqs.length; i++) {
            seqs[i] = pendingSeqs.get(i);
        }
        String[] jsons = pending.toArray(new String[0]);
        pending.clear();
        pendingSeqs.clear();
        HistoryDb.storeEvents(conversationId, seqs, jsons, error -> {
            if (!failed) {
                failed = true;
                onFailure.failed("This browser refused to keep the conversation (" + error + "); it will be gone after a reload.");
            }
        });
    }

    /** Keeps a copy of a workspace file, so a reload can put it back. */
    void keepFile(String name, JSObject bytes) {
        if (!kept) {
            return;
        }
        HistoryDb.keepFile(conversationId, name, bytes);
    }

    void dropFile(String name) {
        if (!kept) {
            return;
        }
        HistoryDb.dropFile(conversationId, name);
    }

    /** Drops the kept files whose names are not in {@code names}: the code deleted them. */
    void retainFiles(List<String> names) {
        if (!kept) {
            return;
        }
        HistoryDb.retainFiles(conversationId, names.toArray(new String[0]));
    }

    /** Each kept file, by name with its bytes; none if there are none or storage fails. */
    void loadFiles(HistoryDb.KeptFile onFile) {
        if (!kept) {
            return;
        }
        HistoryDb.loadFiles(conversationId, onFile);
    }
}
