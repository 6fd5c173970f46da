package dev.codeinterp.server.packages;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The tools' words made one line: what pip and npm print (as captured from them here) and what a person reads. */
class IndexFailuresTest {

    @Test
    void a_missing_project_is_the_index_answering_not_the_index_unreachable() {
        String log = "Could not fetch URL https://pypi.example/simple/nope/: 404 Client Error: Not Found for url: https://pypi.example/simple/nope/ - skipping\n";
        assertThat(IndexFailures.pipUnreachable(log)).isNull();
        String msg = IndexFailures.pip("https://pypi.example/simple").failed("pip download", log,
                "ERROR: Could not find a version that satisfies the requirement nope (from versions: none)\n"
                        + "ERROR: No matching distribution found for nope\n");
        assertThat(msg).isEqualTo("pip download failed: Could not find a version that satisfies the requirement nope (from versions: none); "
                + "No matching distribution found for nope");
    }

    @Test
    void an_index_that_fails_with_a_server_error_is_named_with_its_status() {
        String log = "Could not fetch URL https://m.example/simple/x/: 503 Server Error: Service Unavailable for url: https://m.example/simple/x/ - skipping\n";
        assertThat(IndexFailures.pip("https://m.example/simple").failed("pip download", log, "ERROR: No matching distribution found for x\n"))
                .isEqualTo("the Python package index https://m.example/simple cannot be reached from this server (it answered HTTP 503); "
                        + "the operator can point CODEINTERP_PYTHON_INDEX_URL at one it reaches");
    }

    @Test
    void a_fetch_past_its_bound_names_the_index_and_both_settings() {
        assertThat(IndexFailures.npm("https://r.example/").timedOut("npm pack", Duration.ofSeconds(120)))
                .contains("https://r.example/", "CODEINTERP_PACKAGE_FETCH_TIMEOUT (120 s)", "CODEINTERP_NPM_REGISTRY").doesNotContain("\n");
    }

    @Test
    void npm_errors_keep_what_they_say_and_drop_codes_stacks_and_log_pointers() {
        String stderr = "npm error code E404\nnpm error 404 Not Found - GET https://r.example/nope - Not found\n"
                + "npm error 404  'nope@*' is not in this registry.\nnpm error     at x (y.js:1:1)\n"
                + "npm error A complete log of this run can be found in: /tmp/x.log\n";
        assertThat(IndexFailures.npm("https://r.example/").failed("npm install --package-lock-only", "", stderr))
                .isEqualTo("npm install --package-lock-only failed: 404 Not Found - GET https://r.example/nope - Not found; "
                        + "404  'nope@*' is not in this registry.");
    }

    @Test
    void a_tls_failure_of_the_registry_is_named() {
        assertThat(IndexFailures.npmUnreachable("npm error code SELF_SIGNED_CERT_IN_CHAIN\n")).contains("TLS");
        assertThat(IndexFailures.pipUnreachable("Could not fetch URL https://x/simple/a/: There was a problem confirming the ssl certificate: "
                + "HTTPSConnectionPool(host='x', port=443): Max retries exceeded (Caused by SSLError(...)) - skipping\n")).isEqualTo("TLS failed");
    }

    @Test
    void a_hostile_or_huge_tool_output_is_bounded_to_one_short_line() {
        String stderr = ("ERROR: " + "\u001B[31m".repeat(10) + "x".repeat(5000) + "\n").repeat(3);
        String msg = IndexFailures.pip("https://i.example/simple").failed("pip download", "", stderr);
        assertThat(msg).doesNotContain("\n").hasSizeLessThan(400);
    }
}
