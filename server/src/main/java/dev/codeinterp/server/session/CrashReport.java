package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.server.sandbox.SandboxExit;

import java.util.List;

/**
 * What the user is told when a sandbox died under the session: the diagnosis of
 * {@link SandboxExit} in words, the running cell's error and status, and the reason of the
 * {@code restarted} event; or, when supervision gave up, how to recover.
 */
final class CrashReport {
    private final SandboxExit exit;
    private final long memoryBytes;

    CrashReport(SandboxExit exit, long memoryBytes) {
        this.exit = exit;
        this.memoryBytes = memoryBytes;
    }

    /** What happened, without what the session did about it. */
    String what() {
        return switch (exit.cause()) {
            case OOM_KILLED -> "the interpreter ran out of memory";
            case KILLED -> "the interpreter was killed (SIGKILL, exit code 137)";
            case EXITED -> "the interpreter exited" + (exit.exitCode() == null ? "" : " with code " + exit.exitCode());
            case ENGINE_GONE -> "the interpreter exited";
        };
    }

    /** The {@code restarted} event's reason when a fresh interpreter replaces the dead one. */
    String restartedReason() {
        return what() + " and was restarted";
    }

    /** The running cell's error when a fresh interpreter replaces the dead one. */
    Event.Error cellError() {
        return switch (exit.cause()) {
            case OOM_KILLED -> new Event.Error("MemoryError", "the cell used more than the sandbox's "
                    + (memoryBytes >> 20) + " MiB of memory; the interpreter was restarted", List.of());
            case KILLED, EXITED, ENGINE_GONE -> new Event.Error("SandboxExited", restartedReason(), List.of());
        };
    }

    Status cellStatus() {
        return switch (exit.cause()) {
            case OOM_KILLED -> Status.OOM;
            case KILLED, EXITED, ENGINE_GONE -> Status.ERROR;
        };
    }

    /** The error when this death was one too many and no fresh interpreter follows. */
    Event.Error gaveUpError(String whyGaveUp) {
        return keepsCrashing(what() + "; " + whyGaveUp);
    }

    /** What every cell hears while supervision has given up, until the user restarts the interpreter. */
    static Event.Error keepsCrashing(String why) {
        return new Event.Error("SandboxKeepsCrashing", "the sandbox keeps crashing (" + why
                + "). Restart the interpreter to try again, or start a new session.", List.of());
    }
}
