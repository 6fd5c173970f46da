package dev.codeinterp.model.assistant;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The messages the model sees, rebuilt from the session's event log (so a reload or a restarted
 * server continues the same conversation): each earlier assistant turn's prompt, its text, its tool
 * calls and exactly the results that were sent back. Cells a person typed are not part of it.
 */
public final class Conversation {
    public static final String SYSTEM = "You are a data analysis assistant with a code interpreter. To compute anything, "
            + "call run_code: it runs in a sandbox that keeps its state between calls and holds the user's files "
            + "(list_files lists them). Read the output before you answer. Answer in Markdown, briefly, with the "
            + "numbers you found.";

    private final List<ChatMessage> messages = new ArrayList<>();
    private final Set<String> turns = new HashSet<>();
    private String text = "";
    private final List<ToolCall> calls = new ArrayList<>();
    private final Map<String, String> results = new LinkedHashMap<>();

    private Conversation() {
        messages.add(ChatMessage.system(SYSTEM));
    }

    /** The conversation before the turn {@code excludeTurn} (whose prompt the caller adds). */
    public static List<ChatMessage> from(List<SessionEvent> log, String excludeTurn) {
        Conversation c = new Conversation();
        for (SessionEvent e : log) {
            if (!e.executionId().equals(excludeTurn)) {
                c.add(e);
            }
        }
        c.flush();
        return c.messages;
    }

    private void add(SessionEvent e) {
        switch (e.event().type()) {
            case PROMPT -> {
                flush();
                turns.add(e.executionId());
                messages.add(ChatMessage.user(((Event.Prompt) e.event()).text()));
            }
            case ASSISTANT_TEXT -> {
                if (turns.contains(e.executionId())) {
                    if (!results.isEmpty()) {
                        flush();
                    }
                    text += ((Event.AssistantText) e.event()).text();
                }
            }
            case TOOL_CALL -> {
                if (turns.contains(e.executionId())) {
                    if (!results.isEmpty()) {
                        flush();
                    }
                    Event.ToolCall call = (Event.ToolCall) e.event();
                    calls.add(new ToolCall(call.callId(), call.name(), call.arguments()));
                }
            }
            case TOOL_RESULT -> {
                if (turns.contains(e.executionId())) {
                    Event.ToolResult result = (Event.ToolResult) e.event();
                    results.put(result.callId(), result.text());
                }
            }
            case ASSISTANT_DONE -> flush();
            default -> {
            }
        }
    }

    /** Ends the pending assistant message: its text and calls, then one result per call (a call left unanswered says so). */
    private void flush() {
        if (text.isEmpty() && calls.isEmpty()) {
            return;
        }
        messages.add(ChatMessage.assistant(text, calls));
        for (ToolCall call : calls) {
            String result = results.get(call.id());
            messages.add(ChatMessage.tool(call.id(), result != null ? result : "not run: the turn was stopped"));
        }
        text = "";
        calls.clear();
        results.clear();
    }
}
