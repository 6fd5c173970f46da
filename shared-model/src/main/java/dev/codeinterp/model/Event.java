package dev.codeinterp.model;

import java.util.List;
import java.util.Map;

/**
 * What happens to one execution, in Jupyter's output model plus our lifecycle events. The runner
 * emits most of these; {@link Queued}, {@link Restarted} and the timeout/oom statuses come from
 * the server. Every execution ends with exactly one {@link Finished}.
 */
public sealed interface Event permits Event.Queued, Event.Started, Event.Stream, Event.DisplayData,
        Event.ExecuteResult, Event.Error, Event.Truncated, Event.Artifact, Event.Restarted, Event.Resumed, Event.Finished,
        Event.Prompt, Event.AssistantText, Event.ToolCall, Event.ToolResult, Event.AssistantDone,
        Event.UpdateDisplayData, Event.ClearOutput,
        Event.InputRequest, Event.Install {

    EventType type();

    /**
     * The cell was accepted and waits its turn; carries the code and its language so history can
     * show them (a stored event without a language is a Python cell).
     */
    record Queued(String code, Language language) implements Event {
        public Queued {
            language = language == null ? Language.PYTHON : language;
        }

        public Queued(String code) {
            this(code, Language.PYTHON);
        }

        public EventType type() { return EventType.QUEUED; }
    }

    record Started(long executionCount) implements Event {
        public EventType type() { return EventType.STARTED; }
    }

    /** Text written to stdout or stderr while the cell runs. */
    record Stream(StreamName name, String text) implements Event {
        public EventType type() { return EventType.STREAM; }
    }

    /**
     * A rich output: a MIME bundle (mime type → text, or base64 for binary types). A non-null
     * {@code displayId} (Jupyter's {@code transient.display_id}) lets a later {@link UpdateDisplayData} replace it.
     */
    record DisplayData(Map<String, Object> data, Map<String, Object> metadata, String displayId) implements Event {
        public DisplayData(Map<String, Object> data, Map<String, Object> metadata) {
            this(data, metadata, null);
        }

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

    /**
     * A suspended session came back: its interpreter was restored from disk in {@code durationMs},
     * variables included. (When they could not be kept, a {@link Restarted} says so instead.)
     */
    record Resumed(long durationMs) implements Event {
        public EventType type() { return EventType.RESUMED; }
    }

    /** Replaces, in place, the output shown earlier (by this cell or an earlier one) with {@code displayId}. */
    record UpdateDisplayData(Map<String, Object> data, Map<String, Object> metadata, String displayId) implements Event {
        public EventType type() { return EventType.UPDATE_DISPLAY_DATA; }
    }

    /**
     * Clears the cell's outputs so far (Jupyter's clear_output). With {@code wait}, the clearing
     * happens when the cell's next output arrives, so a redrawn output does not flicker.
     */
    record ClearOutput(boolean waitForNext) implements Event {
        public EventType type() { return EventType.CLEAR_OUTPUT; }
    }

    /** The terminal event. Measurements are null when unknown. */
    record Finished(Status status, Long executionCount, Long durationMs, Long cpuMs, Long peakMemoryKb) implements Event {
        public EventType type() { return EventType.FINISHED; }
    }

    // ---- an assistant turn (its own execution id): prompt first, assistant_done last ---------

    /** A person's plain-language message to the assistant; the first event of an assistant turn. */
    record Prompt(String text) implements Event {
        public EventType type() { return EventType.PROMPT; }
    }

    /** A piece of the assistant's answer, streamed in order as the model writes it. */
    record AssistantText(String text) implements Event {
        public EventType type() { return EventType.ASSISTANT_TEXT; }
    }

    /**
     * The model called a tool. {@code arguments} is the JSON text the model sent; {@code cellId} is
     * the execution id of the cell that runs it ({@code run_code}), or null.
     */
    record ToolCall(String callId, String name, String arguments, String cellId) implements Event {
        public EventType type() { return EventType.TOOL_CALL; }
    }

    /** Exactly what went back to the model for a tool call. */
    record ToolResult(String callId, String text) implements Event {
        public EventType type() { return EventType.TOOL_RESULT; }
    }

    /** The terminal event of an assistant turn: how it ended, and a readable message when it failed. */
    record AssistantDone(AssistantStatus status, String message) implements Event {
        public EventType type() { return EventType.ASSISTANT_DONE; }

    }

    /**
     * The cell called {@code input()} (or {@code getpass()}, then {@code password}) and waits for the
     * person's {@link dev.codeinterp.model.session.ClientMessage.InputReply}.
     */
    record InputRequest(String prompt, boolean password) implements Event {
        public EventType type() { return EventType.INPUT_REQUEST; }

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
