package dev.codeinterp.server.session.residency;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sessions being suspended, brought back or moved to another node: one such change at a time per
 * session, and whoever asks for the session meanwhile waits for it to end and then looks again.
 */
final class SessionTransitions {
    private final Map<String, CompletableFuture<Void>> underway = new ConcurrentHashMap<>();

    /** One change of one session; {@link #close} ends it (as failed after {@link #fail}), and frees the session. */
    final class Transition implements AutoCloseable {
        private final String id;
        private final CompletableFuture<Void> done;
        private RuntimeException failure;

        private Transition(String id, CompletableFuture<Void> done) {
            this.id = id;
            this.done = done;
        }

        /** The change failed: who waits for it through {@link #ended} hears why. */
        void fail(RuntimeException why) {
            failure = why;
        }

        /** What the change came to, for the caller that asked for it. */
        CompletableFuture<Void> ended() {
            return done;
        }

        @Override
        public void close() {
            underway.remove(id, done); // before telling anyone: who is told and looks again finds it free
            if (failure == null) {
                done.complete(null);
            } else {
                done.completeExceptionally(failure);
            }
        }
    }

    /** Starts a change of session {@code id}; null while another one is under way. */
    Transition begin(String id) {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        return underway.putIfAbsent(id, mine) == null ? new Transition(id, mine) : null;
    }

    boolean underway(String id) {
        return underway.containsKey(id);
    }

    /**
     * Waits for the change of session {@code id} under way, if one is (up to 5 minutes); true when
     * there was one. Whatever came of it, the caller looks again: the caller that made it hears why it failed.
     */
    boolean awaitAny(String id) {
        CompletableFuture<Void> change = underway.get(id);
        if (change == null) {
            return false;
        }
        try {
            change.get(5, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the session was suspended or resumed", e);
        } catch (ExecutionException e) {
            // that caller hears why; this one tries for itself
        } catch (TimeoutException e) {
            throw new IllegalStateException("the session's suspend or resume did not end", e);
        }
        return true;
    }
}
