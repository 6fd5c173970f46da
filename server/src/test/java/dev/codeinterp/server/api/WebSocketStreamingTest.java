package dev.codeinterp.server.api;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.EventType;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Live output over the session WebSocket, and resuming after a dropped connection. */
class WebSocketStreamingTest {
    static TestApp app;

    @BeforeAll
    static void start() {
        app = TestApp.shared("runc");
    }

    private static SessionEvent nextEvent(WsClient ws) throws InterruptedException {
        while (true) {
            ServerMessage m = ws.next(20_000);
            if (m instanceof ServerMessage.EventFrame f) {
                return f.event();
            }
        }
    }

    @Test
    void a_cell_printing_a_line_every_200_ms_delivers_the_first_line_before_the_last_is_printed() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
            ws.send(new ClientMessage.Execute("import time\nfor i in range(5):\n    print('line', i)\n    time.sleep(0.2)", null));
            long firstLineAt = 0;
            long finishedAt;
            while (true) {
                SessionEvent e = nextEvent(ws);
                if (e.event() instanceof Event.Stream st && firstLineAt == 0) {
                    assertThat(st.text()).startsWith("line 0");
                    firstLineAt = System.nanoTime();
                }
                if (e.event() instanceof Event.Finished f) {
                    assertThat(f.status()).isEqualTo(Status.OK);
                    finishedAt = System.nanoTime();
                    break;
                }
            }
            assertThat(firstLineAt).isPositive();
            // the last line is printed 800 ms after the first: the first must have arrived well before
            assertThat(TimeUnit.NANOSECONDS.toMillis(finishedAt - firstLineAt)).isGreaterThan(500);
        }
    }

    @Test
    void reconnecting_mid_cell_resumes_without_gap_or_duplicate() throws Exception {
        TestApp.SessionRef s = app.createSession();
        List<SessionEvent> seen = new ArrayList<>();
        try (WsClient first = WsClient.connect(app.wsUri(s.id()), null)) {
            first.send(new ClientMessage.Hello(s.token(), 0));
            first.next(5000);
            first.send(new ClientMessage.Execute("import time\nfor i in range(20):\n    print(i)\n    time.sleep(0.1)", null));
            while (seen.stream().filter(e -> e.event().type() == EventType.STREAM).count() < 3) {
                seen.add(nextEvent(first));
            }
            first.drop();
        }
        Thread.sleep(400); // output keeps coming while nobody listens
        try (WsClient second = WsClient.connect(app.wsUri(s.id()), null)) {
            second.send(new ClientMessage.Hello(s.token(), seen.get(seen.size() - 1).seq()));
            assertThat(second.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
            while (!(seen.get(seen.size() - 1).event() instanceof Event.Finished)) {
                seen.add(nextEvent(second));
            }
        }
        for (int i = 0; i < seen.size(); i++) {
            assertThat(seen.get(i).seq()).as("event %d", i).isEqualTo(seen.get(0).seq() + i);
        }
        StringBuilder out = new StringBuilder();
        seen.stream().filter(e -> e.event() instanceof Event.Stream).forEach(e -> out.append(((Event.Stream) e.event()).text()));
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            expected.append(i).append('\n');
        }
        assertThat(out.toString()).isEqualTo(expected.toString());
    }

    @Test
    void a_wrong_token_closes_the_connection_without_revealing_the_session() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello("wrong", 0));
            assertThat(ws.closedWith().get(5, TimeUnit.SECONDS)).isEqualTo(4404);
        }
    }

    @Test
    void a_handshake_from_a_foreign_origin_is_refused() {
        TestApp.SessionRef s = app.createSession();
        assertThatThrownBy(() -> WsClient.connect(app.wsUri(s.id()), "https://evil.example"))
                .isInstanceOf(CompletionException.class);
    }

    @Test
    void malformed_frames_get_a_protocol_error_and_the_connection_keeps_working() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            ws.next(5000);
            for (String hostile : new String[]{"{not json", "[]", "{\"type\":\"execute\"}", "{\"type\":\"launch\"}",
                    "{\"type\":\"execute\",\"code\":\"1\",\"timeout\":-5}", "[".repeat(10_000), "\u0000"}) {
                ws.sendRaw(hostile);
                assertThat(ws.next(5000)).isInstanceOf(ServerMessage.ProtocolError.class);
            }
            ws.send(new ClientMessage.Execute("6*7", null));
            String result = null;
            while (result == null) {
                SessionEvent e = nextEvent(ws);
                if (e.event() instanceof Event.ExecuteResult r) {
                    result = (String) r.data().get("text/plain");
                }
            }
            assertThat(result).isEqualTo("42");
        }
    }
}
