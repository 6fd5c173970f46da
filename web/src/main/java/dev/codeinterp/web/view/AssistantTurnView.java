package dev.codeinterp.web.view;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * An assistant turn: the person's prompt as a turn of its own, then the assistant's turn with its
 * words as they stream and, in their place among them, the code turns it ran (moved in from the
 * conversation, labelled as run by the assistant), then how it ended.
 */
final class AssistantTurnView {
    /** Finds the code turn of a cell id (the cell's {@code queued} came just before the tool call). */
    interface CodeTurns {
        TurnView find(String cellId);
    }

    private final HTMLElement prompt = Dom.el("article", "turn prompt-turn");
    private final HTMLElement promptText = Dom.el("div", "prompt-text");
    private final HTMLElement answer = Dom.el("article", "turn assistant-turn running");
    private final HTMLElement body = Dom.el("div", "assistant-body");
    private final HTMLElement footer = Dom.el("div", "turn-footer");
    private final CodeTurns codeTurns;
    /** The words being written now, or null when the next piece starts a new stretch (after a tool call). */
    private AssistantText current;
    private boolean done;

    AssistantTurnView(CodeTurns codeTurns) {
        this.codeTurns = codeTurns;
        prompt.setAttribute("data-testid", "prompt-turn");
        prompt.appendChild(Dom.text("div", "turn-role", "You"));
        prompt.appendChild(promptText);
        answer.setAttribute("data-testid", "assistant-turn");
        answer.appendChild(Dom.text("div", "turn-role", "Assistant"));
        answer.appendChild(body);
        answer.appendChild(footer);
        setFooter("working…", true);
    }

    /** The two elements, in order: the prompt, then the answer. */
    HTMLElement promptRoot() {
        return prompt;
    }

    HTMLElement answerRoot() {
        return answer;
    }

    boolean done() {
        return done;
    }

    void apply(Event event) {
        switch (event.type()) {
            case PROMPT:
                Dom.setText(promptText, ((Event.Prompt) event).text());
                break;
            case ASSISTANT_TEXT:
                if (current == null) {
                    current = new AssistantText();
                    body.appendChild(current.root());
                }
                current.append(((Event.AssistantText) event).text());
                break;
            case TOOL_CALL:
                toolCall((Event.ToolCall) event);
                break;
            case TOOL_RESULT:
                toolResult((Event.ToolResult) event);
                break;
            case ASSISTANT_DONE:
                finish((Event.AssistantDone) event);
                break;
            default:
                break;
        }
    }

    private void toolCall(Event.ToolCall call) {
        current = null;
        TurnView cell = call.cellId() == null ? null : codeTurns.find(call.cellId());
        if (cell != null) {
            cell.ranByAssistant();
            body.appendChild(cell.root());
        } else {
            HTMLElement line = Dom.text("div", "tool-call muted", "Used " + call.name());
            line.setAttribute("data-testid", "tool-call");
            body.appendChild(line);
        }
    }

    /** Exactly what went back to the model, folded away: the cell above shows the same output. */
    private void toolResult(Event.ToolResult result) {
        current = null;
        HTMLElement details = Dom.el("details", "tool-result");
        details.setAttribute("data-testid", "tool-result");
        details.appendChild(Dom.text("summary", null, "What went back to the assistant"));
        details.appendChild(Dom.text("pre", null, result.text()));
        body.appendChild(details);
    }

    private void finish(Event.AssistantDone end) {
        done = true;
        current = null;
        answer.getClassList().remove("running");
        answer.getClassList().add("assistant-" + end.status().wire());
        setFooter(ending(end.status(), end.message()), false);
    }

    /** How the turn ended, in a sentence (the server's message says why it failed). */
    static String ending(AssistantStatus status, String message) {
        String why = message == null || message.isBlank() ? "" : ": " + message;
        switch (status) {
            case ANSWERED: return "answered";
            case LENGTH: return "The answer was cut off: the model reached its token limit" + why;
            case ROUNDS: return "Stopped: the assistant still wanted to run code after the most rounds allowed" + why;
            case STOPPED: return "Stopped" + why;
            case ERROR: return "The assistant failed" + why;
            default: return status.wire() + why;
        }
    }

    private void setFooter(String text, boolean working) {
        Dom.clear(footer);
        footer.setAttribute("data-testid", "assistant-footer");
        if (working) {
            footer.appendChild(Dom.el("span", "spinner"));
        }
        footer.appendChild(Dom.document().createTextNode(text));
    }
}
