package dev.codeinterp.server.assistant;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test fixture itself, on the raw wire (no code of ours between): a real llama-server, asked
 * with {@code stream: true} and a {@code run_code} tool, streams a parsed Hermes tool call with
 * {@code finish_reason: tool_calls}; after a {@code tool} message it streams the fixed answer, and
 * the answer depends on the tool's output. This proves the fixture speaks llama.cpp's real OpenAI
 * wire format (SSE chunks, tool-call deltas, finish reasons, bearer auth). It proves nothing about
 * any model's quality: the model is a lookup table that "writes" one fixed program.
 */
class LlamaServerWireTest {
    static final String TOOLS = "[{\"type\":\"function\",\"function\":{\"name\":\"run_code\",\"description\":\"Run code\","
            + "\"parameters\":{\"type\":\"object\",\"properties\":{\"code\":{\"type\":\"string\"},"
            + "\"language\":{\"type\":\"string\",\"enum\":[\"python\",\"javascript\",\"bash\"]}},"
            + "\"required\":[\"code\",\"language\"]}}}]";
    static final String USER = "{\"role\":\"user\",\"content\":\"What is six times seven?\"}";
    static final String CALL = "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call-1\",\"type\":\"function\","
            + "\"function\":{\"name\":\"run_code\",\"arguments\":\"{\\\"code\\\": \\\"print(6 * 7)\\\", \\\"language\\\": \\\"python\\\"}\"}}]}";

    static LlamaServer llama;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startLlama() throws Exception {
        llama = LlamaServer.start();
    }

    @AfterAll
    static void stopLlama() {
        if (llama != null) {
            llama.close();
        }
    }

    @Test
    void a_prompt_with_tools_streams_a_parsed_run_code_call() throws Exception {
        List<JsonObject> chunks = stream("[" + USER + "]", LlamaServer.API_KEY);

        List<JsonObject> calls = new ArrayList<>();
        for (JsonObject chunk : chunks) {
            for (JsonObject choice : chunk.objectList("choices")) {
                calls.addAll(choice.optObject("delta").objectList("tool_calls"));
            }
        }
        assertThat(calls).hasSize(1);
        JsonObject function = calls.get(0).object("function");
        assertThat(function.string("name")).isEqualTo("run_code");
        JsonObject arguments = JsonObject.parse(function.string("arguments"));
        assertThat(arguments.string("code")).isEqualTo(LlamaServer.TOOL_CODE);
        assertThat(arguments.string("language")).isEqualTo("python");
        assertThat(finishReason(chunks)).isEqualTo("tool_calls");
    }

    @Test
    void after_a_tool_message_with_the_output_the_answer_streams_in_pieces() throws Exception {
        String tool = "{\"role\":\"tool\",\"tool_call_id\":\"call-1\",\"content\":\"stdout:\\n42\\n\"}";
        List<JsonObject> chunks = stream("[" + USER + "," + CALL + "," + tool + "]", LlamaServer.API_KEY);

        List<String> pieces = contentPieces(chunks);
        assertThat(pieces).hasSizeGreaterThanOrEqualTo(2);
        assertThat(String.join("", pieces)).isEqualTo(LlamaServer.ANSWER_SEEN);
        assertThat(finishReason(chunks)).isEqualTo("stop");
    }

    @Test
    void the_answer_depends_on_what_the_tool_returned() throws Exception {
        String tool = "{\"role\":\"tool\",\"tool_call_id\":\"call-1\",\"content\":\"NameError: name 'x' is not defined\"}";
        List<JsonObject> chunks = stream("[" + USER + "," + CALL + "," + tool + "]", LlamaServer.API_KEY);

        assertThat(String.join("", contentPieces(chunks))).isEqualTo(LlamaServer.ANSWER_OTHER);
    }

    @Test
    void a_wrong_api_key_is_refused() throws Exception {
        HttpResponse<String> r = http.send(request("[" + USER + "]", "sk-wrong"), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(401);
    }

    private List<JsonObject> stream(String messages, String key) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> r = http.send(request(messages, key), HttpResponse.BodyHandlers.ofLines());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<String> data = r.body().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).collect(Collectors.toList());
        assertThat(data).last().isEqualTo("[DONE]");
        return data.subList(0, data.size() - 1).stream().map(JsonObject::parse).collect(Collectors.toList());
    }

    private HttpRequest request(String messages, String key) {
        String body = "{\"model\":\"test\",\"stream\":true,\"messages\":" + messages + ",\"tools\":" + TOOLS + "}";
        Json.parse(body); // the test's own literal must be valid JSON
        return HttpRequest.newBuilder(URI.create(llama.baseUrl() + "/chat/completions"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static List<String> contentPieces(List<JsonObject> chunks) {
        List<String> pieces = new ArrayList<>();
        for (JsonObject chunk : chunks) {
            for (JsonObject choice : chunk.objectList("choices")) {
                JsonObject delta = choice.optObject("delta");
                if (delta.has("content") && !delta.string("content").isEmpty()) {
                    pieces.add(delta.string("content"));
                }
            }
        }
        return pieces;
    }

    private static String finishReason(List<JsonObject> chunks) {
        String reason = null;
        for (JsonObject chunk : chunks) {
            for (JsonObject choice : chunk.objectList("choices")) {
                reason = choice.optString("finish_reason", reason);
            }
        }
        return reason;
    }
}
