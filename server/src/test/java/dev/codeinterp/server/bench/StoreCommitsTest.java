package dev.codeinterp.server.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StoreCommitsTest {
    private static String scrape(int fast, int slow, double sum) {
        return """
                # HELP codeinterp_store_commit_seconds How long a commit of the event store took (one group of writes)
                # TYPE codeinterp_store_commit_seconds histogram
                codeinterp_store_commit_seconds_bucket{le="5.0E-4"} %d
                codeinterp_store_commit_seconds_bucket{le="0.001"} %d
                codeinterp_store_commit_seconds_bucket{le="0.0025"} %d
                codeinterp_store_commit_seconds_bucket{le="+Inf"} %d
                codeinterp_store_commit_seconds_count %d
                codeinterp_store_commit_seconds_sum %s
                codeinterp_store_commit_seconds_created 1.7e9
                """.formatted(fast, fast, fast + slow, fast + slow, fast + slow, sum);
    }

    @Test
    void the_commits_of_a_window_are_the_difference_of_two_scrapes_of_the_servers_histogram() {
        StoreCommits before = StoreCommits.parse(scrape(100, 0, 0.02));
        StoreCommits after = StoreCommits.parse(scrape(160, 40, 0.02 + 60 * 0.0004 + 40 * 0.002));

        assertThat(after.since(before, 50)).isEqualTo("100 commits (2.00 a cell), mean 1.04 ms, p50 <= 0.5 ms, p95 <= 2.5 ms");
        assertThat(after.since(after, 50)).isEqualTo("none");
    }

    @Test
    void a_scrape_without_the_histogram_gives_nothing() {
        assertThat(StoreCommits.parse("jvm_threads_current 12\n")).isNull();
    }
}
