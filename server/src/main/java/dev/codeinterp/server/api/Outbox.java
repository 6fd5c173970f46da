package dev.codeinterp.server.api;

import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Frames waiting for one WebSocket, sent one at a time. A client that lets more than
 * {@link #MAX_PENDING_CHARS} pile up is disconnected rather than growing our heap; it resumes
 * from its last sequence number when it reconnects, so it loses nothing.
 */
final class Outbox {
    static final long MAX_PENDING_CHARS = 32L << 20;

    private final Session session;
    private final int tooSlowCode;
    private final Deque<String> queue = new ArrayDeque<>();
    private long pendingChars;
    private boolean sending;
    private boolean dead;

    Outbox(Session session, int tooSlowCode) {
        this.session = session;
        this.tooSlowCode = tooSlowCode;
    }

    void send(String frame) {
        synchronized (this) {
            if (dead) {
                return;
            }
            if (pendingChars + frame.length() > MAX_PENDING_CHARS) {
                dead = true;
                queue.clear();
                pendingChars = 0;
                session.close(tooSlowCode, "client too slow; reconnect to resume", Callback.NOOP);
                return;
            }
            queue.addLast(frame);
            pendingChars += frame.length();
            if (sending) {
                return;
            }
            sending = true;
        }
        next();
    }

    /** Sends queued frames one at a time; loops instead of recursing when a send completes inline. */
    private void next() {
        while (true) {
            String frame;
            synchronized (this) {
                frame = queue.pollFirst();
                if (frame == null || dead) {
                    sending = false;
                    return;
                }
                pendingChars -= frame.length();
            }
            InFlight inFlight = new InFlight();
            session.sendText(frame, Callback.from(() -> {
                if (inFlight.completeAndCheckReturned()) {
                    next();
                }
            }, failure -> {
                synchronized (this) {
                    dead = true;
                    queue.clear();
                    sending = false;
                }
            }));
            if (!inFlight.returnAndCheckCompleted()) {
                return; // the callback will carry on
            }
        }
    }

    /** Who carries on after a send: the caller when it completed inline, otherwise the callback. */
    private static final class InFlight {
        private boolean returned;
        private boolean completed;

        synchronized boolean completeAndCheckReturned() {
            completed = true;
            return returned;
        }

        synchronized boolean returnAndCheckCompleted() {
            returned = true;
            return completed;
        }
    }
}
