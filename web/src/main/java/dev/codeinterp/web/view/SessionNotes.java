package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.health.Health;

/**
 * What the page says of a server session's life between cells (a resume from disk, what idleness does
 * to it) and of the sandbox it runs in, where that is less than the default.
 */
public final class SessionNotes {
    private SessionNotes() {
    }

    /** The note a {@code resumed} event shows: quiet, since nothing was lost. */
    static String resumed(Event.Resumed resumed) {
        return "Session resumed from disk in " + Format.duration(resumed.durationMs()) + " — variables kept.";
    }

    /**
     * Where the server fell back to runc because gVisor is not installed on it, the plain words for it;
     * null where it runs gVisor, or runc because its operator set it, or does not say.
     */
    public static String runtime(Health.RuntimeChoice choice) {
        if (choice == null || !choice.fallback()) {
            return null;
        }
        return "Code here runs under runc, because gVisor is not installed on this server: "
                + "your code is kept in a container, without gVisor's extra boundary.";
    }

    /**
     * Where this server does not keep variables past idle, the plain words for it (with the server's
     * reason); null where it does (an idle session is suspended and resumes with them) or does not say.
     */
    public static String idle(Health.Idle idle) {
        if (idle == null || idle.keepsVariables()) {
            return null;
        }
        String why = idle.why() == null ? "" : idle.why().replaceAll("[.\\s]+$", "");
        return "Variables are kept while you work, not past idle: after " + Format.span(idle.afterSeconds())
                + " without use this session is closed, its variables and files with it."
                + (why.isEmpty() ? "" : " This server cannot keep them: " + why + ".");
    }
}
