package dev.codeinterp.model;

import java.util.List;
import java.util.Map;

/**
 * What happens to one execution, in Jupyter's output model plus our lifecycle events. The runner
 * emits most of these; {@link Queued}, {@link Restarted} and the timeout/oom statuses come from
 * the server. Every execution ends with exactly one {@link Finished}.
 */
public sealed interface Event permits Event.Queued, Event.Started, Event.Stream, Event.DisplayData,
        Event.ExecuteResult, Event.Error, Event.Truncated, Event.Artifact, Event.Restarted, Event.Finished,
        Event.Install {

    EventType type();

    /** The cell was accepted and waits its turn; carries the code so history can show it. */
    record Queued(String code) implements Event {
        public EventType type() { return EventType.QUEUED; }
    }

    record Started(long executionCount) implements Event {
        public EventType type() { return EventType.STARTED; }
    }

    /** Text written to stdout or stderr while the cell runs. */
    record Stream(StreamName name, String text) implements Event {
        public EventType type() { return EventType.STREAM; }
    }

    /** A rich output: a MIME bundle (mime type → text, or base64 for binary types). */
    record DisplayData(Map<String, Object> data, Map<String, Object> metadata) implements Event {
        public EventType type() { return EventType.DISPLAY_DATA; }
    }

    /** The value of the cell's trailing expression, Jupyter's {@code Out[n]}. */
    record ExecuteResult(long executionCount, Map<String, Object> data, Map<String, Object> metadata) implements Event {
        public EventType type() { return EventType.EXECUTE_RESULT; }
    }

    /** An exception; the traceback holds the user's frames only and may carry ANSI colours. */
    record Error(String ename, String evalue, List<String> traceback) implements Event {
        public EventType type() { return EventType.ERROR; }
    }

    /** The cell's text output passed its cap; what follows was dropped. */
    record Truncated(long limitBytes) implements Event {
        public EventType type() { return EventType.TRUNCATED; }
    }

    /** A file the cell created or changed in the workspace. */
    record Artifact(String name, long size, String mime, String url) implements Event {
        public EventType type() { return EventType.ARTIFACT; }
    }

    /** The interpreter was replaced by a fresh one; state is gone. */
    record Restarted(String reason) implements Event {
        public EventType type() { return EventType.RESTARTED; }
    }

    /** The terminal event. Measurements are null when unknown. */
    record Finished(Status status, Long executionCount, Long durationMs, Long cpuMs, Long peakMemoryKb) implements Event {
        public EventType type() { return EventType.FINISHED; }
    }

    /**
     * The cell's {@code packages} were installed before its code ran (the runner says so, in the
     * sandbox, offline). {@code durationMs} counts fetching and installing, none of it against the
     * cell's timeout; {@code cached}: nothing had to be downloaded.
     */
    record Install(Language language, List<String> packages, long durationMs, boolean cached) implements Event {
        public EventType type() { return EventType.INSTALL; }
    }
}
