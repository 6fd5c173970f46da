package dev.codeinterp.web.local;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.assistant.AssistantException;
import dev.codeinterp.model.assistant.AssistantToolDefinitions;
import dev.codeinterp.model.assistant.ChatMessage;
import dev.codeinterp.model.assistant.Completion;
import dev.codeinterp.model.assistant.CompletionStream;
import dev.codeinterp.model.assistant.Conversation;
import dev.codeinterp.model.assistant.EndpointRefusal;
import dev.codeinterp.model.assistant.OpenAiWire;
import dev.codeinterp.model.assistant.RunCodeCall;
import dev.codeinterp.model.assistant.SseParser;
import dev.codeinterp.model.assistant.ToolCall;
import dev.codeinterp.model.assistant.ToolResultText;
import dev.codeinterp.model.assistant.TurnRules;
import dev.codeinterp.web.bindings.AssistantRelay;
import org.teavm.jso.browser.Window;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Local mode's assistant: the server's loop, run in this browser by the same shared rules
 * (model.assistant), against the endpoint the person configured. Each request goes out through the
 * relay frame (the only thing in local mode that reaches a network, made on the first prompt);
 * {@code run_code} calls run in the local runtime as ordinary cells, and the turn's events are
 * recorded in the conversation like every other (so they replay from IndexedDB). One turn at a time.
 */
final class LocalAssistant {
    /** As the server's defaults (CODEINTERP_LLM_MAX_TOOL_ROUNDS, _MAX_TOKENS, _TOOL_OUTPUT, _TIMEOUT). */
    static final int MAX_TOOL_ROUNDS = 8;
    static final int MAX_TOKENS = 2048;
    static final int TOOL_OUTPUT_CHARS = 8000;
    static final int STALL_MS = 120_000;
    private static final int MAX_ERROR_BODY_CHARS = 64 << 10;

    /** Numbers, stores and shows an event of the turn. */
    interface Recorder {
        void record(String turnId, Event event);
    }

    /** Runs a cell as a typed one would; returns its execution id. */
    interface Runner {
        String run(String code, Language language);
    }

    private final LocalEndpoint endpoint;
    private final Recorder conversation;
    private final Runner cells;
    private final Runnable interrupt;
    /** The conversation's events so far. */
    private final Supplier<List<SessionEvent>> history;
    private AssistantRelay.Relay relay;
    private Turn turn;
    private int requests;

    LocalAssistant(LocalEndpoint endpoint, Recorder recorder, Runner cells, Runnable interrupt, Supplier<List<SessionEvent>> history) {
        this.endpoint = endpoint;
        this.conversation = recorder;
        this.cells = cells;
        this.interrupt = interrupt;
        this.history = history;
    }

    boolean running() {
        return turn != null;
    }

    /** Starts a turn for the prompt; the caller has checked that none runs. */
    void ask(String turnId, String text) {
        List<ChatMessage> messages = Conversation.from(history.get(), turnId);
        messages.add(ChatMessage.user(text));
        turn = new Turn(turnId, messages);
        conversation.record(turnId, new Event.Prompt(text));
        if (relay == null) {
            relay = AssistantRelay.open(endpoint.origin(), this::receive);
        }
        turn.request();
    }

    /** Stops the turn: its request is aborted, its running cell interrupted. */
    void stop() {
        if (turn != null) {
            Turn t = turn;
            if (t.awaitedCell != null) {
                interrupt.run();
            }
            t.end(AssistantStatus.STOPPED, null);
        }
    }

    /** Every event of the conversation passes here: the awaited cell's output is gathered until its {@code finished}. */
    void observe(SessionEvent e) {
        if (turn != null && e.executionId().equals(turn.awaitedCell)) {
            turn.cellEvents.add(e.event());
            if (e.event() instanceof Event.Finished) {
                turn.cellFinished();
            }
        }
    }

    void close() {
        stop();
        if (relay != null) {
            relay.close();
            relay = null;
        }
    }

    private void receive(String type, String id, int status, String text) {
        if (turn == null) {
            return;
        }
        if (type.equals("unavailable")) {
            turn.end(AssistantStatus.ERROR, "Could not reach the model endpoint at " + endpoint.origin() + ": " + text + ".");
        } else if (id != null && id.equals(turn.requestId)) {
            turn.response(type, status, text);
        }
    }

    /** One prompt's loop, driven by the relay's messages and the cells' events. */
    private final class Turn {
        final String id;
        final List<ChatMessage> messages;
        int round;
        String requestId;
        int status;
        String retryAfter;
        final StringBuilder errorBody = new StringBuilder();
        SseParser parser;
        CompletionStream answer;
        int stallTimer;
        List<ToolCall> calls = List.of();
        int nextCall;
        String awaitedCell;
        final List<Event> cellEvents = new ArrayList<>();
        boolean ended;

        Turn(String id, List<ChatMessage> messages) {
            this.id = id;
            this.messages = messages;
        }

        void request() {
            requestId = "r" + (++requests);
            status = 0;
            errorBody.setLength(0);
            answer = new CompletionStream(piece -> conversation.record(id, new Event.AssistantText(piece)));
            parser = new SseParser(answer::accept);
            relay.send(requestId, endpoint.completionsUrl(), endpoint.apiKey(),
                    OpenAiWire.request(endpoint.model(), messages, AssistantToolDefinitions.runCodeOnly(), MAX_TOKENS));
            watch();
        }

        /** A request that hears nothing for {@link #STALL_MS} is given up, as the server's is. */
        void watch() {
            Window.clearTimeout(stallTimer);
            stallTimer = Window.setTimeout(() -> {
                if (!ended && requestId != null) {
                    end(AssistantStatus.ERROR, "The model endpoint sent nothing for " + STALL_MS / 1000 + " s; the request was given up.");
                }
            }, STALL_MS);
        }

        void response(String type, int httpStatus, String text) {
            watch();
            try {
                switch (type) {
                    case "status":
                        status = httpStatus;
                        retryAfter = text;
                        break;
                    case "chunk":
                        if (status == 200) {
                            parser.feed(text == null ? "" : text);
                        } else if (errorBody.length() < MAX_ERROR_BODY_CHARS) {
                            errorBody.append(text);
                        }
                        break;
                    case "end":
                        answered();
                        break;
                    case "failed":
                        end(AssistantStatus.ERROR, "Could not reach the model endpoint at " + endpoint.origin() + " ("
                                + OpenAiWire.clean(String.valueOf(text)) + "). Is it running, and does it answer CORS requests?");
                        break;
                    default: // aborted: we asked for it, and the turn has already ended
                        break;
                }
            } catch (AssistantException | SseParser.LineTooLong e) {
                end(AssistantStatus.ERROR, e.getMessage());
            }
        }

        void answered() {
            Window.clearTimeout(stallTimer);
            String finishedRequest = requestId;
            requestId = null;
            if (status != 200) {
                throw EndpointRefusal.of(status, retryAfter, errorBody.toString(), "the base URL and the model in the endpoint settings");
            }
            parser.end();
            if (ended || finishedRequest == null) {
                return;
            }
            Completion completion = answer.complete();
            AssistantStatus outcome = TurnRules.outcome(completion, round, MAX_TOOL_ROUNDS);
            if (outcome != null) {
                end(outcome, outcome == AssistantStatus.ROUNDS
                        ? "The assistant still wanted to run code after " + MAX_TOOL_ROUNDS + " rounds and was stopped."
                        : outcome == AssistantStatus.LENGTH ? "The answer was cut at the token limit (" + MAX_TOKENS + " tokens)." : null);
                return;
            }
            messages.add(ChatMessage.assistant(completion.text(), completion.toolCalls()));
            calls = completion.toolCalls();
            nextCall = 0;
            runNextCall();
        }

        /** Runs the calls in order, one cell at a time; after the last, asks the model again. */
        void runNextCall() {
            while (!ended && nextCall < calls.size()) {
                ToolCall call = calls.get(nextCall++);
                String refusal = call.name().equals(AssistantToolDefinitions.RUN_CODE) ? null : RunCodeCall.unknownTool(call, "run_code");
                RunCodeCall args = refusal == null ? RunCodeCall.of(call) : null;
                if (args != null && args.refusal() == null) { // bash ends at once in the frame, saying so
                    cellEvents.clear();
                    awaitedCell = cells.run(args.code(), args.language());
                    conversation.record(id, new Event.ToolCall(call.id(), call.name(), call.arguments(), awaitedCell));
                    return; // cellFinished goes on
                }
                String result = refusal != null ? refusal : args.refusal();
                conversation.record(id, new Event.ToolCall(call.id(), call.name(), call.arguments(), null));
                toolResult(call, result);
            }
            if (!ended) {
                round++;
                request();
            }
        }

        void cellFinished() {
            String result = ToolResultText.of(cellEvents, TOOL_OUTPUT_CHARS);
            awaitedCell = null;
            if (ended) {
                return;
            }
            toolResult(calls.get(nextCall - 1), result);
            runNextCall();
        }

        void toolResult(ToolCall call, String result) {
            conversation.record(id, new Event.ToolResult(call.id(), result));
            messages.add(ChatMessage.tool(call.id(), result));
        }

        void end(AssistantStatus how, String message) {
            if (ended) {
                return;
            }
            ended = true;
            Window.clearTimeout(stallTimer);
            if (requestId != null) {
                relay.abort(requestId);
                requestId = null;
            }
            turn = null;
            conversation.record(id, new Event.AssistantDone(how, message));
        }
    }
}
