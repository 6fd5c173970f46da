package dev.codeinterp.server.assistant;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.config.AssistantSettings;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static dev.codeinterp.server.assistant.ScriptedEndpoint.DONE;
import static dev.codeinterp.server.assistant.ScriptedEndpoint.finish;
import static dev.codeinterp.server.assistant.ScriptedEndpoint.textChunk;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cells and prompts on one WebSocket are answered in the order sent, each by its own event
 * ({@code queued}, {@code prompt}) or its own {@code protocol_error}: what lets the browser
 * (web's {@code UnansweredRequests}) give a refusal back to the request it belongs to. The server and
 * sandbox are real (runc); the model endpoint is scripted, so that a turn can be held open.
 */
class PromptAndCellAnswersTest {

    @Test
    void a_prompt_and_a_cell_sent_back_to_back_each_get_their_own_answer_in_the_order_sent() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedEndpoint endpoint = new ScriptedEndpoint()) {
            endpoint.then(exchange -> { // the first turn's answer waits until the test lets it go
                exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                release.await(60, TimeUnit.SECONDS);
                exchange.getResponseBody().write((textChunk("ok") + finish("stop") + DONE).getBytes(StandardCharsets.UTF_8));
            });
            AssistantSettings settings = new AssistantSettings(endpoint.baseUrl(), "scripted", "sk-scripted-4c1a", 4, 100,
                    Duration.ofSeconds(60), 2000);
            try (TestApp app = TestApp.withAssistant("runc", settings)) {
                TestApp.SessionRef s = app.createSession();
                try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
                    ws.send(new ClientMessage.Hello(s.token(), 0));
                    assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);

                    // a cell the server refuses (a package off its allowlist), then a prompt it takes
                    ws.send(new ClientMessage.Execute("print('never')", null, "python", List.of("codeinterp-not-allowlisted")));
                    ws.send(new ClientMessage.Prompt("first"));
                    List<String> answers = answers(ws, 2);
                    assertThat(answers.get(0)).startsWith("refused: ").contains("'codeinterp-not-allowlisted'");
                    assertThat(answers.get(1)).isEqualTo("prompt: first");

                    // while "first" is answered: a prompt the server refuses, then a cell it takes
                    ws.send(new ClientMessage.Prompt("second"));
                    ws.send(new ClientMessage.Execute("print('ran')", null, "python", List.of()));
                    answers = answers(ws, 2);
                    assertThat(answers.get(0)).startsWith("refused: ").contains("still answering");
                    assertThat(answers.get(1)).isEqualTo("queued: print('ran')");

                    assertThat(until(ws, e -> e instanceof Event.Stream)).as("the cell taken runs")
                            .isEqualTo(new Event.Stream(StreamName.STDOUT, "ran\n"));
                    release.countDown();
                    assertThat(until(ws, e -> e instanceof Event.AssistantDone)).isNotNull();
                }
                List<String> prompts = app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().objectList("events")
                        .stream().filter(e -> e.string("type").equals("prompt")).map(e -> e.string("text")).toList();
                assertThat(prompts).as("only the prompt taken is recorded").containsExactly("first");
            } finally {
                release.countDown();
            }
        }
    }

    /**
     * The next {@code n} answers on the socket, in the order they came: refusals, and the
     * {@code queued} and {@code prompt} events (the other events of a running turn or cell are skipped).
     */
    private static List<String> answers(WsClient ws, int n) throws InterruptedException {
        List<String> answers = new ArrayList<>();
        while (answers.size() < n) {
            ServerMessage m = ws.next(30_000);
            if (m instanceof ServerMessage.ProtocolError p) {
                answers.add("refused: " + p.message());
            } else if (m instanceof ServerMessage.EventFrame f && f.event().event() instanceof Event.Queued q) {
                answers.add("queued: " + q.code());
            } else if (m instanceof ServerMessage.EventFrame f && f.event().event() instanceof Event.Prompt p) {
                answers.add("prompt: " + p.text());
            }
        }
        return answers;
    }

    private static Event until(WsClient ws, Predicate<Event> wanted) throws InterruptedException {
        while (true) {
            if (ws.next(60_000) instanceof ServerMessage.EventFrame f && wanted.test(f.event().event())) {
                return f.event().event();
            }
        }
    }
}
