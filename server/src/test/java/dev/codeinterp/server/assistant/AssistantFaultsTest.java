// Over 300 lines: every way a model endpoint misbehaves, each a short case against one scripted endpoint and one server.
package dev.codeinterp.server.assistant;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.assistant.CompletionStream;
import dev.codeinterp.model.assistant.ToolCallAssembler;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.config.AssistantSettings;
import dev.codeinterp.server.session.CellLimits;
import dev.codeinterp.server.session.Cells;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static dev.codeinterp.server.assistant.ScriptedEndpoint.DONE;
import static dev.codeinterp.server.assistant.ScriptedEndpoint.finish;
import static dev.codeinterp.server.assistant.ScriptedEndpoint.stream;
import static dev.codeinterp.server.assistant.ScriptedEndpoint.textChunk;
import static dev.codeinterp.server.assistant.ScriptedEndpoint.toolChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Faults of the model endpoint that a real llama-server cannot be made to produce, from a scripted
 * endpoint in this JVM; the code still runs in a real sandbox. (The normal path, against a real
 * llama-server, is {@link AssistantLoopTest}.)
 */
class AssistantFaultsTest {
    static TestApp app;
    ScriptedEndpoint endpoint;
    Session session;
    final BlockingQueue<SessionEvent> events = new LinkedBlockingQueue<>();
    final Consumer<SessionEvent> listener = events::add;

    @BeforeAll
    static void startApp() {
        app = TestApp.shared("runc");
    }

    @BeforeEach
    void open() throws IOException {
        endpoint = new ScriptedEndpoint();
        TestApp.SessionRef s = app.createSession();
        session = app.main.sessions().open(s.id(), s.token());
        session.subscribe(0, listener);
    }

    @AfterEach
    void closeEndpoint() {
        session.unsubscribe(listener);
        endpoint.close();
    }

    Assistant assistant(int maxRounds, Duration timeout) {
        return assistant(maxRounds, timeout, Cells.LIMITS);
    }

    Assistant assistant(int maxRounds, Duration timeout, CellLimits cells) {
        return new Assistant(new AssistantSettings(endpoint.baseUrl(), "scripted", "sk-scripted-9f2e", maxRounds, 100,
                timeout, 2000), cells);
    }

    Assistant assistant() {
        return assistant(4, Duration.ofSeconds(20));
    }

    @Test
    void argument_fragments_split_across_chunks_and_bytes_split_across_reads_are_joined() throws Exception {
        String code = "print(\"split\" + 'ok')\nprint(6 * 7)";
        String arguments = "{\"code\": \"print(\\\"split\\\" + 'ok')\\nprint(6 * 7)\", \"language\": \"python\"}";
        assertThat(JsonObject.parse(arguments).string("code")).isEqualTo(code);
        int cut = arguments.indexOf("\\\"split") + 1; // between a backslash and the quote it escapes
        String sse = ": keep-alive\n\n"
                + toolChunk(0, "call_a", "run_code", "").replace("\n\n", "\r\n\r\n")
                + toolChunk(0, null, null, arguments.substring(0, 5))
                + ": ping\n\n"
                + toolChunk(0, null, null, arguments.substring(5, cut))
                + toolChunk(0, null, null, arguments.substring(cut, cut + 9))
                + toolChunk(0, null, null, arguments.substring(cut + 9)).replace("\n\n", "\r\r")
                + finish("tool_calls") + DONE;
        endpoint.then(ScriptedEndpoint.bytes(sse, 7))
                .then(ScriptedEndpoint.bytes(textChunk("Ünïcødé ✓ ") + textChunk("done.") + finish("stop") + DONE, 3));

        try (Assistant assistant = assistant()) {
            assistant.ask(session, "split it");
            List<SessionEvent> turn = untilDone();

            assertThat(AssistantLoopTest.only(turn, Event.Queued.class).code()).isEqualTo(code);
            assertThat(AssistantLoopTest.only(turn, Event.ToolResult.class).text()).contains("splitok\n42\n");
            assertThat(text(turn)).isEqualTo("Ünïcødé ✓ done.");
            assertThat(done(turn).status()).isEqualTo(AssistantStatus.ANSWERED);
        }
        JsonObject second = JsonObject.parse(endpoint.requests.get(1));
        List<JsonObject> messages = second.objectList("messages");
        JsonObject call = messages.get(messages.size() - 2).objectList("tool_calls").get(0);
        assertThat(call.string("id")).isEqualTo("call_a");
        assertThat(call.object("function").string("arguments")).isEqualTo(arguments);
        assertThat(messages.get(messages.size() - 1).string("tool_call_id")).isEqualTo("call_a");
        assertThat(endpoint.authorizations).containsOnly("Bearer sk-scripted-9f2e");
    }

    @Test
    void parallel_tool_calls_in_one_message_run_in_order_and_their_results_go_back_in_order() throws Exception {
        String first = "{\"code\": \"x = 1\\nprint('first', x)\", \"language\": \"python\"}";
        String second = "{\"code\": \"print('second', x + 1)\", \"language\": \"python\"}";
        endpoint.then(stream(toolChunk(0, "call_1", "run_code", first.substring(0, 10)),
                        toolChunk(1, "call_2", "run_code", second.substring(0, 12)),
                        toolChunk(0, null, null, first.substring(10)),
                        toolChunk(1, null, null, second.substring(12)),
                        finish("tool_calls"), DONE))
                .then(stream(textChunk("x is 1, then 2."), finish("stop"), DONE));

        try (Assistant assistant = assistant()) {
            assistant.ask(session, "two at once");
            List<SessionEvent> turn = untilDone();

            assertThat(turn.stream().map(SessionEvent::event).filter(e -> e instanceof Event.Queued)
                    .map(e -> ((Event.Queued) e).code())).containsExactly("x = 1\nprint('first', x)", "print('second', x + 1)");
            assertThat(turn.stream().map(SessionEvent::event).filter(e -> e instanceof Event.Finished)
                    .map(e -> ((Event.Finished) e).status())).containsExactly(Status.OK, Status.OK);
        }
        List<JsonObject> messages = JsonObject.parse(endpoint.requests.get(1)).objectList("messages");
        JsonObject asked = messages.get(messages.size() - 3);
        assertThat(asked.objectList("tool_calls").stream().map(c -> c.string("id"))).containsExactly("call_1", "call_2");
        assertThat(messages.get(messages.size() - 2).string("tool_call_id")).isEqualTo("call_1");
        assertThat(messages.get(messages.size() - 2).string("content")).contains("first 1");
        assertThat(messages.get(messages.size() - 1).string("tool_call_id")).isEqualTo("call_2");
        assertThat(messages.get(messages.size() - 1).string("content")).contains("second 2");
    }

    @Test
    void a_429_ends_the_turn_with_a_readable_message_and_when_to_retry() throws Exception {
        endpoint.then(ScriptedEndpoint.status(429,
                "{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\"}}", "20"));
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "hello");
            Event.AssistantDone done = done(untilDone());
            assertThat(done.status()).isEqualTo(AssistantStatus.ERROR);
            assertThat(done.message()).contains("rate-limiting requests (HTTP 429)").contains("Rate limit reached for requests")
                    .contains("Try again in 20 s");
        }
    }

    @Test
    void a_connection_the_endpoint_closes_without_answering_is_tried_once_more() throws Exception {
        endpoint.then(ScriptedEndpoint.hangUp()).then(stream(textChunk("Hello."), finish("stop"), DONE));
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "hello");
            List<SessionEvent> turn = untilDone();
            assertThat(done(turn).status()).isEqualTo(AssistantStatus.ANSWERED);
            assertThat(text(turn)).isEqualTo("Hello.");
            assertThat(endpoint.requests).hasSize(2);
        }
        endpoint.then(ScriptedEndpoint.hangUp()).then(ScriptedEndpoint.hangUp());
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "hello again");
            Event.AssistantDone done = done(untilDone());
            assertThat(done.status()).isEqualTo(AssistantStatus.ERROR);
            assertThat(done.message()).contains("The request to the model endpoint failed");
            assertThat(endpoint.requests).as("once more, not again and again").hasSize(4);
        }
    }

    @Test
    void a_stream_cut_off_mid_answer_ends_the_turn_with_a_readable_message_and_keeps_what_came() throws Exception {
        endpoint.then(stream(textChunk("Partial "), "data: {\"choi"));
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "hello");
            List<SessionEvent> turn = untilDone();
            assertThat(text(turn)).isEqualTo("Partial ");
            assertThat(done(turn).status()).isEqualTo(AssistantStatus.ERROR);
            assertThat(done(turn).message()).containsAnyOf("closed the stream before the answer was complete",
                    "broke mid-answer", "malformed stream chunk");
        }
    }

    @Test
    void an_answer_cut_at_the_token_limit_says_so() throws Exception {
        endpoint.then(stream(textChunk("The trend is"), finish("length"), DONE));
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "hello");
            Event.AssistantDone done = done(untilDone());
            assertThat(done.status()).isEqualTo(AssistantStatus.LENGTH);
            assertThat(done.message()).contains("token limit");
        }
    }

    @Test
    void an_endpoint_that_never_stops_writing_is_cut_off_and_one_that_floods_tool_calls_runs_none() throws Exception {
        String[] pieces = new String[22];
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = textChunk("x".repeat(10_000));
        }
        StringBuilder flood = new StringBuilder();
        for (int i = 0; i <= ToolCallAssembler.MAX_CALLS; i++) {
            flood.append(toolChunk(i, "call_" + i, "run_code", "{\"code\": \"print(1)\"}"));
        }
        endpoint.then(stream(pieces)).then(stream(flood.toString(), finish("tool_calls"), DONE));
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "write forever");
            List<SessionEvent> turn = untilDone();
            assertThat(text(turn).length()).isLessThanOrEqualTo(CompletionStream.MAX_ANSWER_CHARS);
            assertThat(done(turn).message()).contains("more than " + CompletionStream.MAX_ANSWER_CHARS + " characters");

            assistant.ask(session, "call everything");
            turn = untilDone();
            assertThat(turn.stream().filter(e -> e.event() instanceof Event.Queued)).isEmpty();
            assertThat(done(turn).message()).contains("more than " + ToolCallAssembler.MAX_CALLS + " tool calls");
        }
    }

    @Test
    void a_model_that_keeps_calling_tools_is_stopped_at_the_round_limit() throws Exception {
        for (int i = 0; i < 3; i++) {
            endpoint.then(stream(toolChunk(0, "call_" + i, "run_code", "{\"code\": \"print(" + i + ")\", \"language\": \"python\"}"),
                    finish("tool_calls"), DONE));
        }
        try (Assistant assistant = assistant(2, Duration.ofSeconds(20))) {
            assistant.ask(session, "loop forever");
            List<SessionEvent> turn = untilDone();
            assertThat(turn.stream().filter(e -> e.event() instanceof Event.Queued)).hasSize(2);
            assertThat(done(turn).status()).isEqualTo(AssistantStatus.ROUNDS);
            assertThat(done(turn).message()).contains("2 rounds");
        }
    }

    @Test
    void an_endpoint_that_stalls_is_given_up_after_the_timeout() throws Exception {
        endpoint.then(exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write(textChunk("Hm").getBytes(StandardCharsets.UTF_8));
            exchange.getResponseBody().flush();
            Thread.sleep(8000);
        });
        try (Assistant assistant = assistant(4, Duration.ofSeconds(1))) {
            long start = System.nanoTime();
            assistant.ask(session, "hello");
            Event.AssistantDone done = done(untilDone());
            assertThat(done.status()).isEqualTo(AssistantStatus.ERROR);
            assertThat(done.message()).contains("sent nothing for 1 s");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(6000);
        }
    }

    @Test
    void stop_during_a_tool_call_interrupts_the_cell_and_ends_the_turn() throws Exception {
        endpoint.then(stream(toolChunk(0, "call_s", "run_code",
                "{\"code\": \"import time\\nprint('sleeping', flush=True)\\ntime.sleep(60)\", \"language\": \"python\"}"),
                finish("tool_calls"), DONE));
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "sleep");
            List<SessionEvent> seen = until(e -> e.event() instanceof Event.Stream);
            assertThat(assistant.stop(session)).isTrue();
            seen.addAll(untilDone());
            assertThat(seen.stream().map(SessionEvent::event).filter(e -> e instanceof Event.Finished)
                    .map(e -> ((Event.Finished) e).status())).containsExactly(Status.INTERRUPTED);
            assertThat(done(seen).status()).isEqualTo(AssistantStatus.STOPPED);
            assertThat(endpoint.requests).hasSize(1); // the interrupted result was not sent on
        }
    }

    @Test
    void stop_while_the_model_streams_cancels_the_upstream_request() throws Exception {
        CountDownLatch upstreamSawTheCancel = new CountDownLatch(1);
        endpoint.then(exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            try {
                out.write(textChunk("Thinking").getBytes(StandardCharsets.UTF_8));
                out.flush();
                for (int i = 0; i < 300; i++) { // a keep-alive every 100 ms until the client hangs up
                    Thread.sleep(100);
                    out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException hungUp) {
                upstreamSawTheCancel.countDown();
            }
        });
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "think");
            until(e -> e.event() instanceof Event.AssistantText);
            assertThat(assistant.stop(session)).isTrue();
            assertThat(done(untilDone()).status()).isEqualTo(AssistantStatus.STOPPED);
            assertThat(upstreamSawTheCancel.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void an_unknown_tool_and_broken_arguments_run_nothing_and_tell_the_model_why() throws Exception {
        endpoint.then(stream(toolChunk(0, "call_x", "delete_everything", "{}"),
                        toolChunk(1, "call_y", "run_code", "{not json"), finish("tool_calls"), DONE))
                .then(stream(textChunk("Sorry."), finish("stop"), DONE));
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "break things");
            List<SessionEvent> turn = untilDone();
            assertThat(turn.stream().filter(e -> e.event() instanceof Event.Queued)).isEmpty();
            assertThat(done(turn).status()).isEqualTo(AssistantStatus.ANSWERED);
        }
        List<JsonObject> messages = JsonObject.parse(endpoint.requests.get(1)).objectList("messages");
        assertThat(messages.get(messages.size() - 2).string("content")).contains("there is no tool 'delete_everything'");
        assertThat(messages.get(messages.size() - 1).string("content")).contains("run_code was not run");
    }

    @Test
    void code_past_the_size_limit_runs_nothing_and_tells_the_model_the_limit() throws Exception {
        CellLimits small = new CellLimits(64, Duration.ofSeconds(30), Duration.ofMinutes(10));
        String huge = "{\"code\": \"print('" + "x".repeat(100) + "')\", \"language\": \"python\"}";
        endpoint.then(stream(toolChunk(0, "call_big", "run_code", huge), finish("tool_calls"), DONE))
                .then(stream(textChunk("Too long, then."), finish("stop"), DONE));
        try (Assistant assistant = assistant(4, Duration.ofSeconds(20), small)) {
            assistant.ask(session, "print a long line");
            List<SessionEvent> turn = untilDone();
            assertThat(turn.stream().filter(e -> e.event() instanceof Event.Queued)).isEmpty();
            assertThat(AssistantLoopTest.only(turn, Event.ToolResult.class).text())
                    .isEqualTo("error: run_code was not run: code is larger than 64 bytes");
            assertThat(done(turn).status()).isEqualTo(AssistantStatus.ANSWERED);
        }
        List<JsonObject> messages = JsonObject.parse(endpoint.requests.get(1)).objectList("messages");
        assertThat(messages.get(messages.size() - 1).string("content")).isEqualTo("error: run_code was not run: code is larger than 64 bytes");
    }

    @Test
    void a_second_prompt_while_the_first_is_answered_is_refused_and_nothing_is_recorded() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        endpoint.then(exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            release.await(20, TimeUnit.SECONDS);
            exchange.getResponseBody().write((textChunk("ok") + finish("stop") + DONE).getBytes(StandardCharsets.UTF_8));
        });
        try (Assistant assistant = assistant()) {
            assistant.ask(session, "first");
            assertThatThrownBy(() -> assistant.ask(session, "second")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("still answering");
            release.countDown();
            List<SessionEvent> turn = untilDone();
            assertThat(turn.stream().filter(e -> e.event() instanceof Event.Prompt)).hasSize(1);
        }
    }

    @Test
    void with_no_endpoint_configured_a_prompt_is_refused_and_nothing_is_called() throws Exception {
        try (Assistant off = new Assistant(AssistantSettings.OFF, Cells.LIMITS)) {
            assertThat(off.enabled()).isFalse();
            assertThatThrownBy(() -> off.ask(session, "hello")).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the assistant is off on this server: no model endpoint is configured"); // settings: /healthz, README
        }
        // the shared app has no endpoint configured: a prompt frame is refused over the WebSocket
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            ws.next(5000);
            ws.send(new ClientMessage.Prompt("hello"));
            ServerMessage m = ws.next(5000);
            assertThat(m).isInstanceOf(ServerMessage.ProtocolError.class);
            assertThat(((ServerMessage.ProtocolError) m).message()).contains("the assistant is off");
        }
        assertThat(endpoint.requests).isEmpty();
        assertThat(events.stream().filter(e -> e.event() instanceof Event.Prompt)).isEmpty();
        assertThat(dev.codeinterp.model.wire.WireCodec.decodeHealth(app.get("/healthz", null).body()).assistant())
                .isEqualTo(dev.codeinterp.model.health.Health.Assistant.OFF);
        // the operator's detail is in /healthz, not in the conversation
        assertThat(dev.codeinterp.model.health.Health.Assistant.OFF.operatorNote()).contains("CODEINTERP_LLM_BASE_URL", "CODEINTERP_LLM_MODEL");
    }

    private List<SessionEvent> untilDone() throws InterruptedException {
        return until(e -> e.event() instanceof Event.AssistantDone);
    }

    private List<SessionEvent> until(Predicate<SessionEvent> last) throws InterruptedException {
        List<SessionEvent> seen = new ArrayList<>();
        while (true) {
            SessionEvent e = events.poll(60, TimeUnit.SECONDS);
            if (e == null) {
                throw new AssertionError("no event in 60 s; saw " + seen);
            }
            seen.add(e);
            if (last.test(e)) {
                return seen;
            }
        }
    }

    private static Event.AssistantDone done(List<SessionEvent> turn) {
        return (Event.AssistantDone) turn.get(turn.size() - 1).event();
    }

    private static String text(List<SessionEvent> turn) {
        return turn.stream().map(SessionEvent::event).filter(e -> e instanceof Event.AssistantText)
                .map(e -> ((Event.AssistantText) e).text()).collect(Collectors.joining());
    }
}
