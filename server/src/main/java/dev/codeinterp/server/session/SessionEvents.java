package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.NewEvent;
import dev.codeinterp.server.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A session's numbered event log. {@link #emit} stores an event before any listener sees it, so
 * a crash loses nothing that was sent; {@link #subscribe} replays stored events and attaches the
 * listener under the same lock, so a resuming client gets no gap and no duplicate.
 */
public final class SessionEvents {
    private static final Logger log = LoggerFactory.getLogger(SessionEvents.class);
    private static final int REPLAY_PAGE = 1000;
    /** How long a cell's output waits for a store that is down before the session gives up (a database restart takes seconds). */
    static final long STORE_PATIENCE_MS = 60_000;

    private final String sessionId;
    private final EventRepository events;
    private final List<Consumer<SessionEvent>> listeners = new CopyOnWriteArrayList<>();
    /** Sees every event once, after it is stored and before the listeners (metrics). */
    private final Consumer<SessionEvent> observer;
    private final Object lock = new Object();
    private long lastSeq;
    /** The thread whose events wait to be stored together ({@link #inOneWrite}), and what it emitted meanwhile. */
    private volatile Thread holder;
    private final List<Pending> held = new ArrayList<>();
    /** The runner's lines last stored with events ({@link #inOneWrite}); the worker's thread only. */
    private long runnerLinesStored = -1;

    private record Pending(String executionId, Event event) {
    }

    public SessionEvents(String sessionId, long lastSeq, EventRepository events) {
        this(sessionId, lastSeq, events, e -> { });
    }

    SessionEvents(String sessionId, long lastSeq, EventRepository events, Consumer<SessionEvent> observer) {
        this.sessionId = sessionId;
        this.lastSeq = lastSeq;
        this.events = events;
        this.observer = observer;
    }

    /**
     * Numbers, stores (with what it says about its cell) and then fans out the event, with the ids in
     * the log's MDC. A store that is down is waited for (up to {@link #STORE_PATIENCE_MS}): the
     * cell's output is the user's, and a database restart should cost a pause, not the session.
     */
    public void emit(String executionId, Event event) {
        if (Thread.currentThread() == holder) {
            held.add(new Pending(executionId, event));
            return;
        }
        emitAll(List.of(new Pending(executionId, event)), -1, STORE_PATIENCE_MS);
    }

    /** Like {@link #emit}, without waiting: a new cell the store cannot take now is refused, not held. */
    void emitOrRefuse(String executionId, Event event) {
        try {
            emitAll(List.of(new Pending(executionId, event)), -1, 0);
        } catch (StoreException e) {
            throw new HistoryUnavailableException(e);
        }
    }

    /**
     * Runs {@code work}; the events this thread emits meanwhile are numbered, stored in one write
     * and fanned out when it ends (other threads' events go on as usual, before or after them). The
     * worker handles a run of runner output this way: a quick cell's started, result and finished
     * arrive together, and one commit for them instead of three is a third of what storing a cell
     * cost.
     */
    void inOneWrite(Runnable work) {
        inOneWrite(() -> {
            work.run();
            return -1;
        });
    }

    /**
     * As {@link #inOneWrite(Runnable)} for a run of runner output: {@code work} answers how many of
     * the runner's lines have been handled, which is stored with the events they made (or alone,
     * when they made none), so a restarted server asks for exactly the lines after them.
     */
    void inOneWrite(java.util.function.LongSupplier work) {
        holder = Thread.currentThread();
        long runnerLines = -1;
        try {
            runnerLines = work.getAsLong();
        } finally {
            holder = null;
            List<Pending> batch = List.copyOf(held);
            held.clear();
            long lines = runnerLines == runnerLinesStored ? -1 : runnerLines;
            if (!batch.isEmpty()) {
                emitAll(batch, lines, STORE_PATIENCE_MS);
            } else if (lines >= 0) {
                recordPatiently(List.of(), lines, EventRepository.UNKNOWN, STORE_PATIENCE_MS);
            }
            if (lines >= 0) {
                runnerLinesStored = lines;
            }
        }
    }

    /** The session's interpreter was replaced: the new runner's lines are counted from 0. */
    void newRunner() {
        runnerLinesStored = 0;
    }

    private void emitAll(List<Pending> batch, long runnerLines, long patienceMs) {
        synchronized (lock) {
            long now = System.currentTimeMillis();
            List<NewEvent> fresh = new ArrayList<>(batch.size());
            for (Pending p : batch) {
                fresh.add(new NewEvent(p.executionId(), now, p.event()));
            }
            List<SessionEvent> numbered;
            // the store numbers them: it alone knows what another writer of this session stored meanwhile
            try (LogContext ignored = LogContext.of(sessionId, batch.get(0).executionId())) {
                numbered = recordPatiently(fresh, runnerLines, lastSeq, patienceMs);
            }
            long first = numbered.get(0).seq();
            if (first <= lastSeq) {
                // only a store that lost commits it had taken numbers below this log:
                // a crash of PostgreSQL with DATABASE_SYNC=normal
                log.warn("the store lost events {} to {} of session {} (a database crash?); numbering goes on from {}",
                        first, lastSeq, sessionId, first);
            }
            lastSeq = numbered.get(numbered.size() - 1).seq();
            for (SessionEvent e : numbered) {
                try (LogContext ignored = LogContext.of(sessionId, e.executionId())) {
                    fanOut(e);
                }
            }
        }
    }

    /**
     * Stores the batch (numbered from {@code lastSeqSeen}, what this log last stored, when the row
     * still says so), trying again while the store fails and {@code patienceMs} lasts. A write the
     * store failed was rolled back (numbers included), so trying again stores it once; only a commit
     * whose answer was lost with the connection could be stored twice, under new numbers.
     */
    private List<SessionEvent> recordPatiently(List<NewEvent> fresh, long runnerLines, long lastSeqSeen, long patienceMs) {
        long giveUpAt = System.nanoTime() + patienceMs * 1_000_000;
        long pauseMs = 100;
        while (true) {
            try {
                return events.record(sessionId, fresh, runnerLines, lastSeqSeen);
            } catch (StoreException e) {
                if (System.nanoTime() + pauseMs * 1_000_000 > giveUpAt) {
                    throw e;
                }
                if (pauseMs == 100) {
                    log.warn("cannot store the events of session {}; trying again for up to {} s: {}", sessionId,
                            patienceMs / 1000, e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
                }
                try {
                    Thread.sleep(pauseMs);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                pauseMs = Math.min(pauseMs * 2, 2000);
            }
        }
    }

    private void fanOut(SessionEvent e) {
        observer.accept(e);
        CellLog.record(e);
        for (Consumer<SessionEvent> listener : listeners) {
            try {
                listener.accept(e);
            } catch (RuntimeException ex) {
                log.warn("an event listener of session {} failed", sessionId, ex);
            }
        }
    }

    /** Sends every stored event after {@code afterSeq} to the listener, then every new one. Returns the seq reached. */
    long subscribe(long afterSeq, Consumer<SessionEvent> listener) {
        synchronized (lock) {
            long cursor = Math.max(0, afterSeq);
            while (cursor < lastSeq) {
                List<SessionEvent> page = events.after(sessionId, cursor, REPLAY_PAGE);
                if (page.isEmpty()) {
                    break;
                }
                page.forEach(listener);
                cursor = page.get(page.size() - 1).seq();
            }
            listeners.add(listener);
            return lastSeq;
        }
    }

    void unsubscribe(Consumer<SessionEvent> listener) {
        listeners.remove(listener);
    }

    long lastSeq() {
        synchronized (lock) {
            return lastSeq;
        }
    }
}
