package dev.codeinterp.server.assistant;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The event-stream reader alone, fed byte by byte, so every line and character is split across reads. */
class SseReaderTest {
    /** Hands out one byte per read, as the slowest network would. */
    private static InputStream trickle(String text) {
        ByteArrayInputStream all = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
        return new InputStream() {
            @Override
            public int read() {
                return all.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return len == 0 ? 0 : all.read(b, off, 1);
            }
        };
    }

    private static List<String> read(String text) throws IOException {
        List<String> data = new ArrayList<>();
        SseReader.read(trickle(text), d -> {
            data.add(d);
            return !d.equals("[DONE]");
        });
        return data;
    }

    @Test
    void keep_alive_comments_and_other_fields_are_skipped() throws IOException {
        assertThat(read(": keep-alive\n\nevent: message\nid: 7\nretry: 100\ndata: {\"a\":1}\n\n:\n\ndata: [DONE]\n\n"))
                .containsExactly("{\"a\":1}", "[DONE]");
    }

    @Test
    void lf_crlf_and_cr_line_ends_all_end_lines() throws IOException {
        assertThat(read("data: one\r\n\r\ndata: two\r\rdata: three\n\n")).containsExactly("one", "two", "three");
    }

    @Test
    void multi_line_data_joins_with_newlines_and_a_missing_space_is_allowed() throws IOException {
        assertThat(read("data:first\ndata: second\ndata\n\n")).containsExactly("first\nsecond\n");
    }

    @Test
    void a_character_split_across_reads_arrives_whole() throws IOException {
        assertThat(read("data: Ünïcødé ✓ 😀\n\n")).containsExactly("Ünïcødé ✓ 😀");
    }

    @Test
    void reading_stops_at_the_listeners_word_and_a_last_event_without_blank_line_still_counts() throws IOException {
        assertThat(read("data: [DONE]\n\ndata: never\n\n")).containsExactly("[DONE]");
        assertThat(read("data: tail")).containsExactly("tail");
    }

    @Test
    void a_line_without_end_beyond_the_bound_is_refused() {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'x';
            }
        };
        assertThatThrownBy(() -> SseReader.read(endless, d -> true)).isInstanceOf(IOException.class)
                .hasMessageContaining("longer than");
    }
}
