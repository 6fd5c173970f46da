package dev.codeinterp.web.view;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which type of a MIME bundle the UI shows: the richest it can render, as Jupyter's notebook picks. */
class MimePrecedenceTest {
    @Test
    void a_dataframe_shows_as_html_not_its_text() {
        Map<String, Object> bundle = new LinkedHashMap<>();
        bundle.put("text/plain", "   a\n0  1");
        bundle.put("text/html", "<table></table>");
        assertThat(MimePrecedence.pick(bundle)).isEqualTo(new MimePrecedence.Chosen("text/html", "<table></table>"));
    }

    @Test
    void a_plotly_figure_wins_over_its_html_and_arrives_parsed() {
        Map<String, Object> bundle = Map.of("application/vnd.plotly.v1+json", "{\"data\": []}", "text/html", "<div></div>",
                "text/plain", "Figure()");
        MimePrecedence.Chosen chosen = MimePrecedence.pick(bundle);
        assertThat(chosen.type()).isEqualTo("application/vnd.plotly.v1+json");
        assertThat(chosen.value()).isEqualTo(Map.of("data", List.of()));
    }

    @Test
    void a_plotly_figure_that_is_not_an_object_falls_through_to_the_next_type() {
        Map<String, Object> bundle = Map.of("application/vnd.plotly.v1+json", "[1, 2]", "text/plain", "Figure()");
        assertThat(MimePrecedence.pick(bundle).type()).isEqualTo("text/plain");
    }

    @Test
    void json_arrives_parsed_and_unparseable_json_stays_text() {
        assertThat(MimePrecedence.pick(Map.of("application/json", "{\"a\": 1}")).value()).isEqualTo(Map.of("a", 1L));
        assertThat(MimePrecedence.pick(Map.of("application/json", "{not json")).value()).isEqualTo("{not json");
        // an imported notebook gives the value itself
        assertThat(MimePrecedence.pick(Map.of("application/json", Map.of("b", true))).value()).isEqualTo(Map.of("b", true));
    }

    @Test
    void an_image_beats_text_and_svg_beats_png() {
        assertThat(MimePrecedence.pick(Map.of("image/png", "iVBOR", "text/plain", "<Figure>")).type()).isEqualTo("image/png");
        assertThat(MimePrecedence.pick(Map.of("image/png", "iVBOR", "image/svg+xml", "<svg/>")).type()).isEqualTo("image/svg+xml");
    }

    @Test
    void a_text_type_that_is_not_a_string_is_skipped_and_a_bundle_of_unknown_types_shows_nothing() {
        assertThat(MimePrecedence.pick(Map.of("text/html", 42L, "text/plain", "42")).type()).isEqualTo("text/plain");
        assertThat(MimePrecedence.pick(Map.of("application/x-unknown", "x"))).isNull();
        assertThat(MimePrecedence.pick(Map.of())).isNull();
    }
}
