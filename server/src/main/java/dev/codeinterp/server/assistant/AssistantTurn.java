package dev.codeinterp.server.assistant;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.assistant.AssistantException;
import dev.codeinterp.model.assistant.AssistantToolDefinitions;
import dev.codeinterp.model.assistant.ChatMessage;
import dev.codeinterp.model.assistant.Completion;
import dev.codeinterp.model.assistant.ToolCall;
import dev.codeinterp.model.assistant.TurnRules;
import dev.codeinterp.server.session.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * One prompt's loop: ask the model (its text streams into the session as {@code assistant_text}),
 * run the tool calls it makes in order as cells of the session, send their results back, and
 * repeat until it answers or the round limit is hit. Always ends with one {@code assistant_done}.
 * Not thread-safe: one thread runs it; {@link #cancel} may be called from any.
 */
final class AssistantTurn {
    private static final Logger log = LoggerFactory.getLogger(AssistantTurn.class);

    private final Session session;
    private final String turnId;
    private final List<ChatMessage> messages;
    private final ChatClient client;
    private final AssistantTools tools;
    private final int maxToolRounds;
    final Cancellation cancel = new Cancellation();

    AssistantTurn(Session session, String turnId, List<ChatMessage> messages, ChatClient client, AssistantTools tools,
                  int maxToolRounds) {
        this.session = session;
        this.turnId = turnId;
        this.messages = new ArrayList<>(messages);
        this.client = client;
        this.tools = tools;
        this.maxToolRounds = maxToolRounds;
    }

    /** Runs the loop to its end and returns the {@code assistant_done} to record (the caller records it). */
    Event.AssistantDone run() {
        AssistantStatus status;
        String message = null;
        try {
            status = loop();
            if (status == AssistantStatus.ROUNDS) {
                message = "The assistant still wanted to run code after " + maxToolRounds
                        + " rounds and was stopped (CODEINTERP_LLM_MAX_TOOL_ROUNDS).";
            } else if (status == AssistantStatus.LENGTH) {
                message = "The answer was cut at the token limit (CODEINTERP_LLM_MAX_TOKENS).";
            }
        } catch (CancellationException e) {
            status = AssistantStatus.STOPPED;
        } catch (AssistantException e) {
            status = cancel.cancelled() ? AssistantStatus.STOPPED : AssistantStatus.ERROR;
            message = status == AssistantStatus.ERROR ? e.getMessage() : null;
        } catch (RuntimeException e) {
            log.warn("assistant turn {} failed", turnId, e);
            status = AssistantStatus.ERROR;
            message = "The assistant failed inside this server; see its log.";
        }
        return new Event.AssistantDone(status, message);
    }

    private AssistantStatus loop() {
        for (int round = 0; ; round++) {
            Completion answer = client.complete(messages, AssistantToolDefinitions.all(),
                    piece -> session.recordTurnEvent(turnId, new Event.AssistantText(piece)), cancel);
            AssistantStatus end = TurnRules.outcome(answer, round, maxToolRounds);
            if (end != null) {
                return end;
            }
            messages.add(ChatMessage.assistant(answer.text(), answer.toolCalls()));
            for (ToolCall call : answer.toolCalls()) {
                if (cancel.cancelled()) {
                    throw new CancellationException("stopped");
                }
                String result = tools.run(session, call, cellId -> session.recordTurnEvent(turnId,
                        new Event.ToolCall(call.id(), call.name(), call.arguments(), cellId)), cancel);
                session.recordTurnEvent(turnId, new Event.ToolResult(call.id(), result));
                messages.add(ChatMessage.tool(call.id(), result));
            }
            if (cancel.cancelled()) {
                throw new CancellationException("stopped");
            }
        }
    }
}
