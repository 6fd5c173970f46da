package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cell's input(): lines sent with a REST request, or a question the person answers over the
 * WebSocket, with the cell's timeout standing still while it waits and a bound of its own.
 */
class InteractiveInputTest {
    private static final int MAX_CODE = 64 * 1024;
    static TestApp app;

    @BeforeAll
    static void start() {
        app = TestApp.start("runc", Map.of("INPUT_TIMEOUT", "4s", "MAX_CODE", String.valueOf(MAX_CODE)));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    // ---- REST: stdin lines -------------------------------------------------------------------

    private static TestApp.Response post(String path, String token, String code, String stdin) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        if (stdin != null) {
            body.put("stdin", stdin);
        }
        return app.post(path, Json.write(body), token);
    }

    @Test
    void a_one_shot_execute_feeds_its_stdin_lines_to_input_in_order() {
        TestApp.Response r = post("/api/v1/execute", null, "a = input('first? ')\nb = input()\nprint(a + b)", "Ada\nLovelace\n");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().optBoolean("success", false)).isTrue();
        assertThat(r.json().string("stdout")).isEqualTo("first? Ada\nLovelace\nAdaLovelace\n");
    }

    @Test
    void a_session_execute_feeds_stdin_and_input_past_the_last_line_is_eof() {
        TestApp.SessionRef s = app.createSession();
        JsonObject r = post("/api/v1/sessions/" + s.id() + "/execute", s.token(), "name = input()\ninput()", "Grace").json();
        assertThat(r.string("status")).isEqualTo("error");
        assertThat(r.object("error").string("name")).isEqualTo("EOFError");
        assertThat(app.execute(s, "name", null).objectList("results").get(0).string("text/plain")).isEqualTo("'Grace'");
    }

    @Test
    void without_stdin_a_rest_cell_fails_at_once_and_clearly_instead_of_waiting() {
        TestApp.SessionRef s = app.createSession();
        long t0 = System.nanoTime();
        JsonObject r = app.execute(s, "input('name? ')", 20.0);
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
        assertThat(r.object("error").string("name")).isEqualTo("StdinNotImplementedError");
        assertThat(r.object("error").string("value")).contains("stdin");
    }

    @Test
    void stdin_larger_than_the_code_limit_is_refused_before_anything_runs() {
        TestApp.Response r = post("/api/v1/execute", null, "input()", "x".repeat(MAX_CODE + 1));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().string("error")).contains("stdin");
    }

    // ---- WebSocket: a person answers ---------------------------------------------------------

    private static WsClient connect(TestApp.SessionRef s) throws InterruptedException {
        WsClient ws = WsClient.connect(app.wsUri(s.id()), null);
        ws.send(new ClientMessage.Hello(s.token(), 0));
        assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
        return ws;
    }

    private static Event nextEvent(WsClient ws, List<Event> seen) throws InterruptedException {
        while (true) {
            ServerMessage m = ws.next(20_000);
            if (m instanceof ServerMessage.EventFrame f) {
                seen.add(f.event().event());
                return f.event().event();
            }
        }
    }

    private static Event.InputRequest awaitRequest(WsClient ws, List<Event> seen) throws InterruptedException {
        while (true) {
            if (nextEvent(ws, seen) instanceof Event.InputRequest request) {
                return request;
            }
        }
    }

    private static Event.Finished awaitFinished(WsClient ws, List<Event> seen) throws InterruptedException {
        while (true) {
            if (nextEvent(ws, seen) instanceof Event.Finished finished) {
                return finished;
            }
        }
    }

    private static String stdout(List<Event> events) {
        StringBuilder out = new StringBuilder();
        events.stream().filter(Event.Stream.class::isInstance).forEach(e -> out.append(((Event.Stream) e).text()));
        return out.toString();
    }

    private static ServerMessage.ProtocolError nextProtocolError(WsClient ws) throws InterruptedException {
        while (true) {
            if (ws.next(5000) instanceof ServerMessage.ProtocolError p) {
                return p;
            }
        }
    }

    @Test
    void a_cell_that_asks_for_input_waits_for_the_reply() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("name = input('name? ')\nprint('hello', name)", null));
            assertThat(awaitRequest(ws, seen)).isEqualTo(new Event.InputRequest("name? ", false));
            ws.send(new ClientMessage.InputReply("Ada"));
            assertThat(awaitFinished(ws, seen).status()).isEqualTo(Status.OK);
            assertThat(stdout(seen)).isEqualTo("name? Ada\nhello Ada\n");
        }
        // the question stays in the history, so a reload shows what was asked and answered
        List<String> types = app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().objectList("events")
                .stream().map(e -> e.string("type")).toList();
        assertThat(types).containsSubsequence("started", "input_request", "stream", "finished");
    }

    @Test
    void a_password_prompt_says_so_and_the_answer_is_not_echoed() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("import getpass\nkey = getpass.getpass('API key: ')\nlen(key)", null));
            assertThat(awaitRequest(ws, seen).password()).isTrue();
            ws.send(new ClientMessage.InputReply("hunter2"));
            awaitFinished(ws, seen);
            assertThat(seen.toString()).doesNotContain("hunter2").contains("text/plain=7");
        }
    }

    @Test
    void the_cells_timeout_stands_still_while_it_waits_for_a_person() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("import time\ntime.sleep(0.5)\nx = input()\ntime.sleep(0.5)\nprint(x)", 1.5));
            awaitRequest(ws, seen);
            Thread.sleep(2_500); // longer than the cell's whole timeout, shorter than INPUT_TIMEOUT
            ws.send(new ClientMessage.InputReply("late but fine"));
            Event.Finished finished = awaitFinished(ws, seen);
            assertThat(finished.status()).isEqualTo(Status.OK);
            assertThat(stdout(seen)).endsWith("late but fine\n");
        }
    }

    @Test
    void the_code_running_before_and_after_the_wait_still_counts_against_the_timeout() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("import time\ntime.sleep(0.8)\ninput()\ntime.sleep(0.8)", 1.2));
            awaitRequest(ws, seen);
            ws.send(new ClientMessage.InputReply(""));
            assertThat(awaitFinished(ws, seen).status()).isEqualTo(Status.TIMEOUT);
        }
    }

    @Test
    void nobody_answering_within_the_input_timeout_stops_the_cell_and_says_why() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("x = 1\ninput('anyone? ')", 60.0));
            awaitRequest(ws, seen);
            long t0 = System.nanoTime();
            Event.Finished finished = awaitFinished(ws, seen);
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(finished.status()).isEqualTo(Status.TIMEOUT);
            assertThat(waitedMs).isBetween(3_000L, 10_000L); // INPUT_TIMEOUT is 4 s, not the cell's 60
            Event.Error error = seen.stream().filter(Event.Error.class::isInstance).map(Event.Error.class::cast).findFirst().orElseThrow();
            assertThat(error.ename()).isEqualTo("TimeoutError");
            assertThat(error.evalue()).contains("input()").contains("4 s");
            // a reply now has nothing to answer
            ws.send(new ClientMessage.InputReply("too late"));
            assertThat(nextProtocolError(ws).message()).contains("no input is pending");
        }
        assertThat(app.execute(s, "x", null).objectList("results").get(0).string("text/plain")).isEqualTo("1");
    }

    @Test
    void an_interrupt_cancels_the_wait_and_keeps_the_state() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("y = 2\ninput()", null));
            awaitRequest(ws, seen);
            ws.send(new ClientMessage.Interrupt());
            assertThat(awaitFinished(ws, seen).status()).isEqualTo(Status.INTERRUPTED);
            assertThat(seen).anyMatch(e -> e instanceof Event.Error err && err.ename().equals("KeyboardInterrupt"));
            assertThat(seen).noneMatch(Event.Restarted.class::isInstance);
        }
        assertThat(app.execute(s, "y", null).objectList("results").get(0).string("text/plain")).isEqualTo("2");
    }

    @Test
    void a_reply_when_no_input_is_pending_gets_a_protocol_error_and_is_not_kept_for_later() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            ws.send(new ClientMessage.InputReply("nobody asked"));
            assertThat(nextProtocolError(ws).message()).isEqualTo("no input is pending: no running cell is waiting for input()");
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("import time\ntime.sleep(1)", null));
            ws.send(new ClientMessage.InputReply("still nobody")); // a cell runs, but it does not ask
            assertThat(nextProtocolError(ws).message()).contains("no input is pending");
            awaitFinished(ws, seen);
            ws.send(new ClientMessage.Execute("input()", null));
            awaitRequest(ws, seen);
            ws.send(new ClientMessage.InputReply("the real one"));
            awaitFinished(ws, seen);
            assertThat(stdout(seen)).isEqualTo("the real one\n");
        }
    }

    @Test
    void a_huge_reply_is_refused_and_the_cell_keeps_waiting_for_a_proper_one() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("len(input())", null));
            awaitRequest(ws, seen);
            ws.send(new ClientMessage.InputReply("x".repeat(MAX_CODE + 1)));
            assertThat(nextProtocolError(ws).message()).contains("larger than " + MAX_CODE);
            ws.send(new ClientMessage.InputReply("é".repeat(MAX_CODE / 2))); // at the limit in UTF-8 bytes
            assertThat(awaitFinished(ws, seen).status()).isEqualTo(Status.OK);
            assertThat(seen).anyMatch(e -> e instanceof Event.ExecuteResult r
                    && r.data().get("text/plain").equals(String.valueOf(MAX_CODE / 2)));
        }
    }

    @Test
    void a_reply_with_newlines_and_quotes_arrives_exactly_and_cannot_smuggle_commands() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = connect(s)) {
            List<Event> seen = new ArrayList<>();
            ws.send(new ClientMessage.Execute("v = input()\nv", null));
            awaitRequest(ws, seen);
            String hostile = "a\"}\n{\"type\":\"shutdown\"}\n\u0000\u2028b";
            ws.send(new ClientMessage.InputReply(hostile));
            assertThat(awaitFinished(ws, seen).status()).isEqualTo(Status.OK);
            assertThat(seen).anyMatch(e -> e instanceof Event.ExecuteResult r
                    && r.data().get("text/plain").equals("'a\"}\\n{\"type\":\"shutdown\"}\\n\\x00\\u2028b'"));
        }
        assertThat(app.execute(s, "1 + 1", null).string("status")).isEqualTo("ok"); // the runner is still there
    }
}
