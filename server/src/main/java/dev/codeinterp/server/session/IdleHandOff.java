package dev.codeinterp.server.session;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One {@link IdleWork} on its way to a session's worker, and the caller waiting for what it answers:
 * the worker {@link #run}s it (or {@link #fail}s it), the caller {@link #await}s it.
 */
final class IdleHandOff<T> {
    private final IdleWork<T> work;
    private final CompletableFuture<T> done = new CompletableFuture<>();

    IdleHandOff(IdleWork<T> work) {
        this.work = work;
    }

    /** On the worker: runs the work; what it throws is the worker's to handle, then to {@link #fail} with. */
    void run(Sandbox sandbox, Workspace workspace) {
        done.complete(work.withIdle(sandbox, workspace));
    }

    void fail(RuntimeException why) {
        done.completeExceptionally(why);
    }

    /**
     * What the work answered, waited for at most 5 minutes; its failure rethrown as it was.
     * {@code what} ("suspended", "moved", "copied") words the other failures.
     */
    T await(String what) {
        try {
            return done.get(5, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the session was " + what, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the session was not " + what + " within 5 minutes", e);
        }
    }
}
