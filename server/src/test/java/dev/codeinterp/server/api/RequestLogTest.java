package dev.codeinterp.server.api;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's log, captured as the configured pattern writes it (MDC included), while a keyed
 * client runs cells: every request has a line with its id, session work carries the session's and
 * execution's ids, and no key, token or code appears anywhere, even with our own loggers at debug.
 */
class RequestLogTest {
    private static final String MDC_PATTERN = "%level [%thread] %logger {%X} %msg%n%xEx";

    @Test
    void requests_and_cells_are_logged_with_their_ids_and_never_a_key_token_or_code() throws Exception {
        String key = "ci_logkey-" + Tokens.newToken();
        String wrongKey = "ci_wrongkey-" + Tokens.newToken();
        String mark = Tokens.newToken().replaceAll("[^A-Za-z0-9]", "").substring(0, 12);
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "logger " + Tokens.hash(key) + " 4\n");

        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        OutputStreamAppender<ILoggingEvent> appender = capture(logging, captured);
        ch.qos.logback.classic.Logger ours = logging.getLogger("dev.codeinterp");
        Level before = ours.getLevel();
        ours.setLevel(Level.DEBUG);
        String sessionId;
        String token;
        try (TestApp app = TestApp.start("runc", Map.of("API_KEYS", keys.toString(), "POOL_SIZE", "1"))) {
            TestApp.Response once = app.post("/api/v1/execute",
                    "{\"code\": \"once_" + mark + " = 6 * 7\\nprint(once_" + mark + ")\"}", key);
            assertThat(once.status()).as(once.body()).isEqualTo(200);
            assertThat(app.post("/api/v1/sessions", "", wrongKey).status()).isEqualTo(401);
            TestApp.Response created = app.post("/api/v1/sessions", "", key);
            assertThat(created.status()).isEqualTo(201);
            sessionId = created.json().string("id");
            token = created.json().string("token");
            TestApp.SessionRef s = new TestApp.SessionRef(sessionId, token);
            assertThat(app.execute(s, "cell_" + mark + " = 1\nprint('ok')", null).string("stdout")).isEqualTo("ok\n");
            assertThat(app.execute(s, "1/0  # failing_" + mark, null).string("status")).isEqualTo("error");
            assertThat(app.post("/api/v1/sessions/" + sessionId + "/execute", "{\"code\": \"broken_" + mark, token).status())
                    .isEqualTo(400);
            assertThat(app.get("/api/v1/sessions/" + sessionId + "/events", token).status()).isEqualTo(200);
            assertThat(app.delete("/api/v1/sessions/" + sessionId, token).status()).isEqualTo(204);
        } finally {
            ours.setLevel(before);
            logging.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(appender);
            appender.stop();
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        List<String> lines = Arrays.asList(log.split("\n"));

        for (String secret : List.of(key, wrongKey, token, mark, Tokens.hash(token))) {
            assertThat(log).as("the log holds a secret or code: " + secret).doesNotContain(secret);
        }
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("request_id=").contains("POST /api/v1/execute -> 200"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("request_id=").contains("POST /api/v1/sessions -> 401"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("request_id=").contains("session_id=" + sessionId)
                .contains("POST /api/v1/sessions/{id}/execute -> 200"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("session_id=" + sessionId)
                .contains("POST /api/v1/sessions/{id}/execute -> 400"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("request_id=").contains("session_id=" + sessionId)
                .contains("execution_id=").contains("cell queued"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("session_id=" + sessionId).contains("execution_id=")
                .contains("cell finished: error"));
        assertThat(lines).filteredOn(l -> l.contains("RequestLog")).allSatisfy(l -> assertThat(l).contains("request_id="));
    }

    /** An appender on the root logger writing the configured pattern's fields, MDC and stack traces included. */
    private static OutputStreamAppender<ILoggingEvent> capture(LoggerContext logging, ByteArrayOutputStream into) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(logging);
        encoder.setPattern(MDC_PATTERN);
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(logging);
        appender.setEncoder(encoder);
        appender.setOutputStream(into);
        appender.start();
        logging.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
        return appender;
    }
}
