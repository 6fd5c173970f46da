package dev.codeinterp.model.wire;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Limit;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.health.Health;
import dev.codeinterp.model.local.LocalRuntimeConfig;
import dev.codeinterp.model.local.WheelIndex;
import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.rest.EventHistory;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.model.rest.FileList;
import dev.codeinterp.model.rest.ResultFold;
import dev.codeinterp.model.rest.SessionCreated;
import dev.codeinterp.model.rest.UploadedFiles;
import dev.codeinterp.model.runner.RunnerMessage;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every REST body is a record, and its JSON is exactly what clients (docs/protocol.md, the browser
 * tests, agents) already read: same keys, same order, same nulls. Each body decodes back to itself.
 */
class WireBodiesTest {
    private static final FileEntry CSV = new FileEntry("a.csv", 12, 1700000000000L, "text/csv", "/api/v1/sessions/s1/files/a.csv");
    private static final String CSV_JSON =
            "{\"name\":\"a.csv\",\"size\":12,\"modified\":1700000000000,\"mime\":\"text/csv\",\"url\":\"/api/v1/sessions/s1/files/a.csv\"}";

    @Test
    void a_created_session_gives_id_token_and_runtime() {
        SessionCreated created = new SessionCreated("s1", "t0k", "runsc");
        String json = WireCodec.encode(created);
        assertThat(json).isEqualTo("{\"id\":\"s1\",\"token\":\"t0k\",\"runtime\":\"runsc\"}");
        assertThat(WireCodec.decodeSessionCreated(json)).isEqualTo(created);
    }

    @Test
    void a_history_page_holds_session_events_and_the_newest_seq() {
        EventHistory history = new EventHistory("s1", List.of(
                new SessionEvent(1, "e1", 1700000000000L, new Event.Queued("1+1")),
                new SessionEvent(2, "e1", 1700000000001L, new Event.Finished(Status.OK, 1L, 5L, 4L, null))), 7);
        String json = WireCodec.encode(history);
        assertThat(json).isEqualTo("{\"session_id\":\"s1\",\"events\":["
                + "{\"seq\":1,\"execution_id\":\"e1\",\"time\":1700000000000,\"type\":\"queued\",\"code\":\"1+1\"},"
                + "{\"seq\":2,\"execution_id\":\"e1\",\"time\":1700000000001,\"type\":\"finished\",\"status\":\"ok\","
                + "\"execution_count\":1,\"duration_ms\":5,\"cpu_ms\":4,\"peak_memory_kb\":null}],\"last_seq\":7}");
        assertThat(WireCodec.decodeEventHistory(json)).isEqualTo(history);
    }

    @Test
    void a_stored_event_is_the_event_frame_without_its_frame_key() {
        SessionEvent event = new SessionEvent(3, "e2", 1700000000002L, new Event.Stream(StreamName.STDERR, "oops\n"));
        String json = WireCodec.encode(event);
        assertThat(json).isEqualTo("{\"seq\":3,\"execution_id\":\"e2\",\"time\":1700000000002,\"type\":\"stream\",\"name\":\"stderr\",\"text\":\"oops\\n\"}");
        assertThat(WireCodec.decodeSessionEvent(json)).isEqualTo(event);
    }

    @Test
    void a_file_listing_gives_entries_and_the_workspace_room() {
        FileList list = new FileList(List.of(CSV), 12, 1L << 30, 100L << 20);
        String json = WireCodec.encode(list);
        assertThat(json).isEqualTo("{\"files\":[" + CSV_JSON + "],\"used_bytes\":12,\"limit_bytes\":1073741824,\"max_upload_bytes\":104857600}");
        assertThat(WireCodec.decodeFileList(json)).isEqualTo(list);
    }

    @Test
    void an_upload_answers_with_the_entries_stored() {
        assertThat(WireCodec.encode(CSV)).isEqualTo(CSV_JSON);
        assertThat(WireCodec.decodeFileEntry(CSV_JSON)).isEqualTo(CSV);
        UploadedFiles uploaded = new UploadedFiles(List.of(CSV, CSV));
        String json = WireCodec.encode(uploaded);
        assertThat(json).isEqualTo("{\"files\":[" + CSV_JSON + "," + CSV_JSON + "]}");
        assertThat(WireCodec.decodeUploadedFiles(json)).isEqualTo(uploaded);
    }

    @Test
    void health_says_whether_code_can_run_which_runtime_version_how_full_the_server_is_and_a_cells_timeouts() {
        Health ok = new Health(new Health.Engine(true, "20.10.24", List.of("runc", "runsc"), null), "runsc", "0.0~20240729.0",
                "codeinterp-sandbox:abc",
                new Health.Pool(2, 2, null), 3, true, new Health.Limits(1000, 250, 32, 8, 30_000, 600_000), new Health.Use(3, 1));
        String json = WireCodec.encode(ok);
        assertThat(json).isEqualTo("{\"status\":\"ok\",\"server_mode\":true,"
                + "\"docker\":{\"available\":true,\"version\":\"20.10.24\",\"runtimes\":[\"runc\",\"runsc\"],\"problem\":null},"
                + "\"runtime\":\"runsc\",\"runtime_version\":\"0.0~20240729.0\",\"runtime_platform\":null,"
                + "\"image\":\"codeinterp-sandbox:abc\","
                + "\"pool\":{\"ready\":2,\"target\":2,\"problem\":null},"
                + "\"sessions\":3,\"auth_required\":true,"
                + "\"limits\":{\"sessions\":1000,\"sessions_per_client\":250,\"queued_cells\":32,\"concurrent_creates\":8,"
                + "\"timeout_ms\":30000,\"max_timeout_ms\":600000},"
                + "\"use\":{\"sessions\":3,\"creating\":1},\"assistant\":{\"enabled\":false,\"model\":null,"
                + "\"operator_note\":\"no model endpoint is configured: set CODEINTERP_LLM_BASE_URL and CODEINTERP_LLM_MODEL "
                + "to turn the assistant on (README, \\\"An assistant that writes the code\\\")\"}}");
        assertThat(WireCodec.decodeHealth(json)).isEqualTo(ok);
        // an older server does not say its cell timeouts: unknown (0), never a guess
        assertThat(WireCodec.decodeHealth("{\"docker\":{\"available\":true},\"limits\":{\"sessions\":1}}").limits().maxTimeoutMs()).isZero();
    }

    @Test
    void health_names_gvisors_platform_and_an_older_server_reads_as_not_saying() {
        Health h = new Health(new Health.Engine(true, "20.10.24", List.of("runc", "runsc"), null), "runsc", "0.0~20240729.0", "img",
                new Health.Pool(0, 0, null), 0, false, new Health.Limits(1, 1, 1, 1), new Health.Use(0, 0), Health.Assistant.OFF,
                null, null, null, "systrap");
        String json = WireCodec.encode(h);
        assertThat(json).contains("\"runtime_version\":\"0.0~20240729.0\",\"runtime_platform\":\"systrap\",");
        assertThat(WireCodec.decodeHealth(json)).isEqualTo(h);
        assertThat(WireCodec.decodeHealth("{\"docker\":{\"available\":true}}").runtimePlatform()).isNull();
    }

    @Test
    void health_names_the_assistants_model_when_prompts_can_be_sent() {
        Health h = new Health(new Health.Engine(true, "20.10.24", List.of("runc"), null), "runc", "1.1.5", "img",
                new Health.Pool(0, 0, null), 0, false, new Health.Limits(1, 1, 1, 1), new Health.Use(0, 0),
                new Health.Assistant(true, "qwen2.5:7b"));
        String json = WireCodec.encode(h);
        assertThat(json).endsWith(",\"assistant\":{\"enabled\":true,\"model\":\"qwen2.5:7b\"}}");
        assertThat(WireCodec.decodeHealth(json)).isEqualTo(h);
        // an older server says nothing of the assistant: off, with no note
        assertThat(WireCodec.decodeHealth("{\"docker\":{\"available\":true}}").assistant()).isEqualTo(new Health.Assistant(false, null, null));
    }

    @Test
    void health_says_how_its_runtime_was_chosen_and_an_older_server_reads_as_not_saying() {
        Health h = new Health(new Health.Engine(true, "20.10.24", List.of("runc"), null), "runc", "1.1.5", "img",
                new Health.Pool(0, 0, null), 0, false, new Health.Limits(1, 1, 1, 1), new Health.Use(0, 0), Health.Assistant.OFF,
                new Health.Idle(false, 3600, "no checkpoints"), new Health.RuntimeChoice("runc", "fallback", "no gVisor"));
        String json = WireCodec.encode(h);
        assertThat(json).endsWith(",\"runtime_choice\":{\"runtime\":\"runc\",\"chosen_by\":\"fallback\",\"why\":\"no gVisor\"}}");
        assertThat(WireCodec.decodeHealth(json)).isEqualTo(h);
        assertThat(WireCodec.decodeHealth(json).runtimeChoice().fallback()).isTrue();
        assertThat(WireCodec.decodeHealth("{\"docker\":{\"available\":true}}").runtimeChoice()).isNull();
    }

    @Test
    void health_without_an_engine_is_degraded_and_says_why() {
        Health degraded = new Health(new Health.Engine(false, null, List.of(), "no Docker engine"), "runc", null,
                "codeinterp-sandbox:abc",
                new Health.Pool(0, 0, null), 0, false, new Health.Limits(1, 1, 1, 1), new Health.Use(0, 0));
        String json = WireCodec.encode(degraded);
        assertThat(json).startsWith("{\"status\":\"degraded\",\"server_mode\":false,"
                + "\"docker\":{\"available\":false,\"version\":null,\"runtimes\":[],\"problem\":\"no Docker engine\"}");
        assertThat(WireCodec.decodeHealth(json)).isEqualTo(degraded);
    }

    @Test
    void health_from_a_server_without_limits_reads_them_as_absent() {
        Health h = WireCodec.decodeHealth("{\"status\":\"ok\",\"docker\":{\"available\":true}}");
        assertThat(h.limits()).isNull();
        assertThat(h.runtimeVersion()).isNull();
        assertThat(h.docker().available()).isTrue();
    }

    @Test
    void an_execute_answer_keeps_its_camel_case_time_and_its_omitted_files() {
        ExecuteResponse response = new ExecuteResponse(false, Status.ERROR, "hi\n", "", List.of(Map.of("text/plain", "2")),
                List.of(new ExecuteResponse.Image("png", "iVBOR")), new ExecuteResponse.ErrorInfo("ValueError", "bad", "Traceback…"),
                0.25, List.of(new ExecuteResponse.ReturnedFile("out.txt", 2, "aGk=", null),
                        new ExecuteResponse.ReturnedFile("big.bin", 99, null, "too large")));
        String json = WireCodec.encode(response);
        assertThat(json).isEqualTo("{\"success\":false,\"status\":\"error\",\"stdout\":\"hi\\n\",\"stderr\":\"\","
                + "\"results\":[{\"text/plain\":\"2\"}],\"images\":[{\"type\":\"png\",\"base64\":\"iVBOR\"}],"
                + "\"error\":{\"name\":\"ValueError\",\"value\":\"bad\",\"traceback\":\"Traceback…\"},\"executionTime\":0.25,"
                + "\"files\":[{\"name\":\"out.txt\",\"size\":2,\"content_base64\":\"aGk=\"},"
                + "{\"name\":\"big.bin\",\"size\":99,\"content_base64\":null,\"omitted\":\"too large\"}]}");
        assertThat(WireCodec.decodeExecuteResponse(json)).isEqualTo(response);
        ExecuteResponse fine = new ExecuteResponse(true, Status.OK, "", "", List.of(), List.of(), null, 2, List.of());
        assertThat(WireCodec.encode(fine)).contains("\"error\":null,\"executionTime\":2,");
        assertThat(WireCodec.decodeExecuteResponse(WireCodec.encode(fine))).isEqualTo(fine);
    }

    @Test
    void an_execute_answer_says_when_the_interpreter_was_replaced_and_its_variables_are_gone() {
        ResultFold fold = new ResultFold();
        fold.add(new Event.Restarted("the server restarted and this session's sandbox was gone"), 0);
        ExecuteResponse answer = fold.add(new Event.Finished(Status.OK, 1L, 3L, null, null), 0.01);
        assertThat(answer.restarted()).isEqualTo("the server restarted and this session's sandbox was gone");
        String json = WireCodec.encode(answer);
        assertThat(json).endsWith(",\"restarted\":\"the server restarted and this session's sandbox was gone\"}");
        assertThat(WireCodec.decodeExecuteResponse(json)).isEqualTo(answer);
        ExecuteResponse kept = new ResultFold().add(new Event.Finished(Status.OK, 2L, 3L, null, null), 0.01);
        assertThat(kept.restarted()).isNull();
        assertThat(WireCodec.encode(kept)).doesNotContain("restarted");
    }

    @Test
    void the_runner_and_the_server_number_its_lines_to_replay_what_a_restarted_server_missed() {
        assertThat(WireCodec.encodeRunnerAck(17)).isEqualTo("{\"type\":\"ack\",\"ack\":17}");
        assertThat(WireCodec.encodeRunnerReplay(5)).isEqualTo("{\"type\":\"replay\",\"from\":5}");
        assertThat(WireCodec.decodeRunnerLine("{\"type\":\"replay\",\"from\":7,\"lost\":2}"))
                .isEqualTo(new RunnerMessage.Replay(7, 2));
    }

    @Test
    void an_error_names_the_limit_that_refused_and_when_to_retry() {
        ApiError full = new ApiError("the server is full", Limit.SESSIONS, 5);
        String json = WireCodec.encode(full);
        assertThat(json).isEqualTo("{\"error\":\"the server is full\",\"limit\":\"sessions\",\"retry_after\":5}");
        assertThat(WireCodec.decodeApiError(json)).isEqualTo(full);
        assertThat(WireCodec.encodeError("no such session")).isEqualTo("{\"error\":\"no such session\"}");
    }

    @Test
    void local_mode_gets_its_page_config_and_wheel_index_in_the_keys_its_javascript_reads() {
        assertThat(WireCodec.encode(new LocalRuntimeConfig("0.27.7", "/pyodide/0.27.7/", "/pyodide/0.27.7/", "/local/abc/",
                "/local/wheels/", 100L << 20, 30_000, 3_600_000, 1L << 20, 300_000, 2_000)))
                .isEqualTo("{\"pyodideVersion\":\"0.27.7\",\"indexURL\":\"/pyodide/0.27.7/\",\"packagesURL\":\"/pyodide/0.27.7/\","
                        + "\"runtimeURL\":\"/local/abc/\",\"wheelsURL\":\"/local/wheels/\",\"maxUploadBytes\":104857600,"
                        + "\"timeoutMs\":30000,\"maxTimeoutMs\":3600000,\"maxOutputBytes\":1048576,\"inputTimeoutMs\":300000,\"interruptGraceMs\":2000}");
        assertThat(WireCodec.encode(new WheelIndex(List.of(new WheelIndex.Wheel("tiny-1.0-py3-none-any.whl", 10, List.of("tiny", "tiny_extra"))))))
                .isEqualTo("{\"wheels\":[{\"file\":\"tiny-1.0-py3-none-any.whl\",\"size\":10,\"imports\":[\"tiny\",\"tiny_extra\"]}]}");
    }
}
