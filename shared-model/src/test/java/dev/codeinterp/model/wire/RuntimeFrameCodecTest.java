package dev.codeinterp.model.wire;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.local.RuntimeFrameMessage;
import dev.codeinterp.model.rest.FileEntry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RuntimeFrameCodecTest {

    @Test
    void every_message_survives_a_round_trip() {
        List<RuntimeFrameMessage> messages = List.of(
                new RuntimeFrameMessage.Execute("l1-ab12cd34", "print('hi')"),
                new RuntimeFrameMessage.Execute("l2-ab12cd34", "import time; time.sleep(60)", Language.PYTHON, 10000L),
                new RuntimeFrameMessage.Interrupt(),
                new RuntimeFrameMessage.Restart(),
                new RuntimeFrameMessage.InputReply("Ada\n\"quoted\""),
                new RuntimeFrameMessage.WriteFile("f1", "data.csv"),
                new RuntimeFrameMessage.ListFiles("f2"),
                new RuntimeFrameMessage.ReadFile("f3", "out.png"),
                new RuntimeFrameMessage.DeleteFile("f4", "old.txt"),
                new RuntimeFrameMessage.Loading("Starting Python"),
                new RuntimeFrameMessage.Ready("3.13.2", "0.28.0", true),
                new RuntimeFrameMessage.Ready("3.13.2", "0.28.0", false, 30000, 600000),
                new RuntimeFrameMessage.Runner("{\"type\":\"started\",\"id\":\"l1\",\"execution_count\":1}"),
                new RuntimeFrameMessage.Reset("the interpreter was restarted on request"),
                new RuntimeFrameMessage.Fatal("no WebAssembly"),
                new RuntimeFrameMessage.FileWritten("f1", "data.csv", 12),
                new RuntimeFrameMessage.Files("f2", List.of(new FileEntry("a.txt", 3, 1700000000123L, "text/plain", ""))),
                new RuntimeFrameMessage.FileContent("f3", "out.png", "image/png"),
                new RuntimeFrameMessage.FileDeleted("f4", "old.txt"),
                new RuntimeFrameMessage.FileError("f5", "no such file"));
        for (RuntimeFrameMessage m : messages) {
            assertThat(RuntimeFrameCodec.decode(WireCodec.encode(m))).isEqualTo(m);
        }
    }

    @Test
    void the_app_sends_exactly_the_fields_the_frame_reads() {
        assertThat(WireCodec.encode(new RuntimeFrameMessage.Execute("l1-x", "1+1")))
                .isEqualTo("{\"type\":\"execute\",\"id\":\"l1-x\",\"code\":\"1+1\",\"language\":\"python\"}");
        assertThat(WireCodec.encode(new RuntimeFrameMessage.Execute("l2-x", "1", Language.JAVASCRIPT, 300000L)))
                .isEqualTo("{\"type\":\"execute\",\"id\":\"l2-x\",\"code\":\"1\",\"language\":\"javascript\","
                        + "\"timeoutMs\":300000}");
        assertThat(WireCodec.encode(new RuntimeFrameMessage.WriteFile("f7", "a.txt")))
                .isEqualTo("{\"type\":\"writeFile\",\"requestId\":\"f7\",\"name\":\"a.txt\"}");
        assertThat(WireCodec.encode(new RuntimeFrameMessage.Interrupt())).isEqualTo("{\"type\":\"interrupt\"}");
    }

    @Test
    void a_cell_timeout_that_is_not_whole_positive_milliseconds_is_refused() {
        for (String bad : new String[]{"0", "-5", "1.5", "\"10\"", "1e300"}) {
            assertThatThrownBy(() -> RuntimeFrameCodec.decode("{\"type\":\"execute\",\"id\":\"x\",\"code\":\"1\",\"timeoutMs\":"
                    + bad + "}")).as(bad).isInstanceOf(JsonException.class);
        }
        assertThatThrownBy(() -> new RuntimeFrameMessage.Execute("x", "1", Language.PYTHON, 0L))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_listing_as_the_worker_writes_it_decodes_with_fractional_times_and_missing_fields_tolerated() {
        RuntimeFrameMessage.FromFrame m = WireCodec.decodeFromRuntimeFrame("{\"type\":\"files\",\"requestId\":\"f9\",\"files\":["
                + "{\"name\":\"a.txt\",\"size\":3,\"modified\":1700000000123.75,\"mime\":\"text/plain\"},"
                + "{\"name\":\"b.bin\",\"size\":5,\"modified\":null}]}");
        assertThat(m).isEqualTo(new RuntimeFrameMessage.Files("f9", List.of(
                new FileEntry("a.txt", 3, 1700000000123L, "text/plain", ""),
                new FileEntry("b.bin", 5, 0, "application/octet-stream", ""))));
    }

    @Test
    void file_replies_carry_their_request_id() {
        RuntimeFrameMessage.FromFrame m = WireCodec.decodeFromRuntimeFrame(
                "{\"type\":\"fileContent\",\"requestId\":\"f3\",\"name\":\"x\"}");
        assertThat(m).isInstanceOf(RuntimeFrameMessage.FileReply.class);
        assertThat(((RuntimeFrameMessage.FileReply) m).requestId()).isEqualTo("f3");
        assertThat(((RuntimeFrameMessage.FileContent) m).mime()).isEqualTo("application/octet-stream");
    }

    @Test
    void what_the_frame_cannot_send_is_refused() {
        assertThatThrownBy(() -> WireCodec.decodeFromRuntimeFrame("{\"type\":\"execute\",\"id\":\"x\",\"code\":\"1\"}"))
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> WireCodec.decodeFromRuntimeFrame("{\"type\":\"fetchAssets\",\"urls\":[]}"))
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> WireCodec.decodeFromRuntimeFrame("{\"type\":\"runner\"}"))
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> WireCodec.decodeFromRuntimeFrame("{\"type\":\"loading\",\"message\":7}"))
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> WireCodec.decodeFromRuntimeFrame("{\"type\":\"ready\",\"python\":\"3\",\"pyodide\":\"0\","
                + "\"isolated\":\"yes\"}")).isInstanceOf(JsonException.class);
        for (String timeouts : new String[]{"\"timeoutMs\":30000", "\"timeoutMs\":60000,\"maxTimeoutMs\":30000",
                "\"timeoutMs\":-1,\"maxTimeoutMs\":30000", "\"timeoutMs\":1000,\"maxTimeoutMs\":\"lots\""}) {
            assertThatThrownBy(() -> WireCodec.decodeFromRuntimeFrame("{\"type\":\"ready\",\"python\":\"3\",\"pyodide\":\"0\","
                    + timeouts + "}")).as(timeouts).isInstanceOf(JsonException.class);
        }
    }
}
