package dev.codeinterp.model.assistant;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The event-stream rules both modes read chat completions with, fed one character at a time and in every split. */
class SseParserTest {
    private static List<String> trickled(String text) {
        List<String> data = new ArrayList<>();
        SseParser parser = new SseParser(d -> {
            data.add(d);
            return !d.equals("[DONE]");
        });
        for (int i = 0; i < text.length() && parser.feed(text.substring(i, i + 1)); i++) {
            // one character a read: every line and every CRLF is split
        }
        parser.end();
        return data;
    }

    @Test
    void keep_alives_and_other_fields_are_skipped_and_data_arrives_in_order() {
        assertThat(trickled(": keep-alive\n\nevent: message\nid: 7\nretry: 100\ndata: {\"a\":1}\n\n:\n\ndata: [DONE]\n\n"))
                .containsExactly("{\"a\":1}", "[DONE]");
    }

    @Test
    void a_crlf_split_between_two_reads_ends_one_line_not_two() {
        List<String> data = new ArrayList<>();
        SseParser parser = new SseParser(d -> data.add(d));
        parser.feed("data: one\r");
        parser.feed("\ndata: more\r");
        parser.feed("\n\r");
        parser.feed("\ndata: two\r\r");
        assertThat(data).containsExactly("one\nmore", "two");
    }

    @Test
    void every_way_of_cutting_a_stream_gives_the_same_events() {
        String stream = "data: {\"x\": \"é✓😀\"}\r\n\r\n: ping\n\ndata:a\ndata:b\n\ndata: [DONE]\n\ndata: never\n\n";
        for (int cut = 0; cut <= stream.length(); cut++) {
            List<String> data = new ArrayList<>();
            SseParser parser = new SseParser(d -> {
                data.add(d);
                return !d.equals("[DONE]");
            });
            if (parser.feed(stream.substring(0, cut))) {
                parser.feed(stream.substring(cut));
            }
            parser.end();
            assertThat(data).as("cut at %d", cut).containsExactly("{\"x\": \"é✓😀\"}", "a\nb", "[DONE]");
        }
    }

    @Test
    void the_last_event_counts_without_its_blank_line_and_nothing_is_read_after_a_stop() {
        assertThat(trickled("data: tail")).containsExactly("tail");
        assertThat(trickled("data: [DONE]\n\ndata: never\n\n")).containsExactly("[DONE]");
    }

    @Test
    void an_endless_line_is_refused_at_the_bound() {
        SseParser parser = new SseParser(d -> true);
        String block = "x".repeat(1 << 16);
        assertThatThrownBy(() -> {
            for (int i = 0; i <= SseParser.MAX_LINE_CHARS / block.length(); i++) {
                parser.feed(block);
            }
        }).isInstanceOf(SseParser.LineTooLong.class).hasMessageContaining("longer than");
    }
}
