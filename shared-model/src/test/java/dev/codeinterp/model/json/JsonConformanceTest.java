package dev.codeinterp.model.json;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The reader against hostile input, in the manner of JSONTestSuite: {@code y_} texts RFC 8259
 * accepts, {@code n_} texts it refuses, {@code i_} texts where the RFC leaves the outcome to us
 * (our decision is the expected outcome; see {@link JsonReader}).
 */
class JsonConformanceTest {

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("y_array_empty", "[]", List.of()),
                arguments("y_object_empty", "{}", Map.of()),
                arguments("y_object_empty_key", "{\"\":0}", Map.of("", 0L)),
                arguments("y_nested", "{\"a\":[{\"b\":null}, true, false]}", Map.of("a", Arrays.asList(mapWithNull("b"), true, false))),
                arguments("y_top_level_string", "\"asd\"", "asd"),
                arguments("y_top_level_null", "null", null),
                arguments("y_top_level_true", " true ", true),
                arguments("y_whitespace_all_four_kinds", " \t\r\n[ 1 \t\r\n, 2 ]\n", List.of(1L, 2L)),
                arguments("y_number_zero", "0", 0L),
                arguments("y_number_minus_zero", "-0", 0L),
                arguments("y_number_negative_int", "-123", -123L),
                arguments("y_number_fraction", "1.5", 1.5),
                arguments("y_number_negative_fraction_exponent", "-1.5e-3", -0.0015),
                arguments("y_number_capital_E_plus", "1E+2", 100.0),
                arguments("y_number_exponent", "1e2", 100.0),
                arguments("y_number_zero_fraction", "0.5", 0.5),
                arguments("y_number_zero_exponent", "0e1", 0.0),
                arguments("y_number_big_exponent_in_range", "123e65", 123e65),
                arguments("y_number_largest_long_length", "123456789012345678", 123456789012345678L),
                arguments("y_string_escapes", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t"),
                arguments("y_string_escaped_nul", "\"a\\u0000b\"", "a\u0000b"),
                arguments("y_string_escaped_hex_mixed_case", "\"\\u00e9\\u00C9\"", "\u00e9\u00c9"),
                arguments("y_string_escaped_surrogate_pair", "\"\\uD834\\uDD1E\"", "\uD834\uDD1E"),
                arguments("y_string_raw_surrogate_pair", "\"\uD834\uDD1E\"", "\uD834\uDD1E"),
                arguments("y_string_raw_del_and_line_separators", "\"\u007f\u2028\u2029\"", "\u007f\u2028\u2029"),
                arguments("y_string_raw_non_ascii", "\"héllo ✓\"", "héllo ✓"),
                arguments("y_nesting_at_the_limit", "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH), nestedLists(Json.MAX_DEPTH)),
                // implementation-defined: our decisions
                arguments("i_object_duplicated_key_last_wins", "{\"a\":1,\"a\":2}", Map.of("a", 2L)),
                arguments("i_string_escaped_lone_high_surrogate", "\"a\\uD800b\"", "a\uFFFDb"),
                arguments("i_string_escaped_lone_low_surrogate", "\"\\uDC00\"", "\uFFFD"),
                arguments("i_string_escaped_high_surrogate_then_non_surrogate", "\"\\uD800\\u0041\"", "\uFFFDA"),
                arguments("i_string_escaped_inverted_surrogates", "\"\\uDD1E\\uD834\"", "\uFFFD\uFFFD"),
                arguments("i_string_raw_lone_high_surrogate", "\"a\uD800b\"", "a\uFFFDb"),
                arguments("i_string_raw_lone_low_surrogate_at_end", "\"\uDC00\"", "\uFFFD"),
                arguments("i_object_key_lone_surrogate", "{\"\\uDFAA\":0}", Map.of("\uFFFD", 0L)),
                arguments("i_number_underflow_is_zero", "1e-400", 0.0),
                arguments("i_number_19_digit_int_is_a_double", "1234567890123456789", 1234567890123456789.0),
                arguments("i_number_too_big_int_is_a_double", "-123456789012345678901", -123456789012345678901.0));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                arguments("n_empty", "", "empty input"),
                arguments("n_only_whitespace", " \n\t", "only whitespace"),
                arguments("n_number_leading_zero", "01", "leading zero"),
                arguments("n_number_negative_leading_zero", "-01", "leading zero"),
                arguments("n_number_double_zero", "[00]", "leading zero"),
                arguments("n_number_trailing_dot", "1.", "after '.'"),
                arguments("n_number_negative_trailing_dot", "[-2.]", "after '.'"),
                arguments("n_number_dot_then_exponent", "2.e3", "after '.'"),
                arguments("n_number_zero_dot_exponent", "0.e1", "after '.'"),
                arguments("n_number_leading_dot", ".1", "unexpected '.'"),
                arguments("n_number_minus_leading_dot", "-.1", "needs a digit"),
                arguments("n_number_exponent_without_digits", "1e", "exponent"),
                arguments("n_number_exponent_sign_without_digits", "[1e+]", "exponent"),
                arguments("n_number_capital_exponent_minus_only", "1E-", "exponent"),
                arguments("n_number_exponent_fraction", "1e1.5", "after the JSON value"),
                arguments("n_number_minus_alone", "-", "needs a digit"),
                arguments("n_number_double_minus", "--1", "needs a digit"),
                arguments("n_number_plus", "+1", "unexpected '+'"),
                arguments("n_number_plus_in_array", "[+1]", "unexpected '+'"),
                arguments("n_number_nan", "NaN", "unexpected 'N'"),
                arguments("n_number_minus_nan", "[-NaN]", "needs a digit"),
                arguments("n_number_infinity", "Infinity", "unexpected 'I'"),
                arguments("n_number_minus_infinity", "-Infinity", "needs a digit"),
                arguments("n_number_hex", "0x1", "after the JSON value"),
                arguments("n_number_fullwidth_digit", "[\uFF11]", "U+FF11"),
                arguments("n_number_two_dots", "1.5.5", "after the JSON value"),
                arguments("n_array_trailing_comma", "[1,]", "unexpected ']'"),
                arguments("n_array_double_comma", "[1,,2]", "unexpected ','"),
                arguments("n_array_leading_comma", "[,1]", "unexpected ','"),
                arguments("n_array_missing_comma", "[1 2]", "expected ',' or ']'"),
                arguments("n_array_unclosed", "[1", "end of input"),
                arguments("n_array_single_quotes", "['a']", "unexpected '''"),
                arguments("n_object_trailing_comma", "{\"a\":1,}", "expected a string key"),
                arguments("n_object_comma_only", "{,}", "expected a string key"),
                arguments("n_object_unquoted_key", "{a:1}", "expected a string key"),
                arguments("n_object_number_key", "{1:1}", "expected a string key"),
                arguments("n_object_single_quoted_key", "{'a':1}", "expected a string key"),
                arguments("n_object_missing_colon", "{\"a\" 1}", "expected ':'"),
                arguments("n_object_double_colon", "{\"a\"::1}", "unexpected ':'"),
                arguments("n_object_missing_comma", "{\"a\":1 \"b\":2}", "expected ',' or '}'"),
                arguments("n_object_key_only", "{\"a\"", "end of input"),
                arguments("n_object_missing_value", "{\"a\":", "end of input"),
                arguments("n_structure_lone_close", "]", "unexpected ']'"),
                arguments("n_structure_open_object", "{", "end of input"),
                arguments("n_literal_truncated_true", "tru", "expected 'true'"),
                arguments("n_literal_truncated_null", "[nul]", "expected 'null'"),
                arguments("n_literal_capitalised", "True", "unexpected 'T'"),
                arguments("n_literal_trailing_letters", "nulls", "after the JSON value"),
                arguments("n_string_unterminated", "\"abc", "unterminated string"),
                arguments("n_string_unterminated_escape", "\"\\", "unterminated escape"),
                arguments("n_string_single_quotes", "'a'", "unexpected '''"),
                arguments("n_string_raw_control_character", "[\"a\u0001\"]", "unescaped control character U+0001"),
                arguments("n_string_raw_tab", "\"a\tb\"", "U+0009"),
                arguments("n_string_raw_newline", "\"a\nb\"", "U+000A"),
                arguments("n_string_raw_nul", "\"\u0000\"", "U+0000"),
                arguments("n_string_escape_x", "\"\\x00\"", "invalid escape '\\x'"),
                arguments("n_string_escape_a", "\"\\a\"", "invalid escape"),
                arguments("n_string_escape_single_quote", "\"\\'\"", "invalid escape"),
                arguments("n_string_escape_capital_u", "\"\\U0041\"", "invalid escape"),
                arguments("n_string_escape_of_control_character", "\"\\\u0009\"", "before U+0009"),
                arguments("n_string_unicode_escape_too_short", "\"\\u12\"", "four hex digits"),
                arguments("n_string_unicode_escape_at_end", "\"\\u12", "four hex digits"),
                arguments("n_string_unicode_escape_not_hex", "\"\\uZZZZ\"", "four hex digits"),
                arguments("n_string_unicode_escape_fullwidth_digits", "\"\\u\uFF10\uFF10\uFF14\uFF11\"", "four hex digits"),
                arguments("n_string_second_surrogate_escape_too_short", "\"\\uD800\\u12\"", "four hex digits"),
                arguments("n_trailing_garbage", "{\"a\":1}garbage", "after the JSON value"),
                arguments("n_trailing_close", "[1]]", "after the JSON value"),
                arguments("n_two_values", "1 2", "after the JSON value"),
                arguments("n_trailing_nul", "[1]\u0000", "U+0000 after the JSON value"),
                arguments("n_comment_after", "[1]//x", "after the JSON value"),
                arguments("n_comment_before", "/*c*/[1]", "unexpected '/'"),
                arguments("n_whitespace_no_break_space", "\u00A0[1]", "U+00A0"),
                arguments("n_whitespace_form_feed", "\f[1]", "U+000C"),
                arguments("n_whitespace_vertical_tab", "[1\u000B]", "U+000B"),
                arguments("n_structure_deeper_than_the_limit", "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1), "nesting deeper than 64"),
                arguments("n_structure_100000_open_arrays", "[".repeat(100_000), "nesting deeper than 64"),
                arguments("n_structure_100000_nested_objects", "{\"a\":".repeat(100_000), "nesting deeper than 64"),
                // implementation-defined: our decisions
                arguments("i_structure_byte_order_mark", "\uFEFF{}", "byte order mark"),
                arguments("i_number_huge_exponent", "[1e400]", "out of range"),
                arguments("i_number_negative_overflow", "-1e400", "out of range"),
                arguments("i_structure_500_nested_arrays", "[".repeat(500) + "]".repeat(500), "nesting deeper than 64"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepted_texts_read_as_their_value(String name, String text, Object expected) {
        assertThat(Json.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refused_texts_raise_a_json_exception_that_says_why_and_where(String name, String text, String why) {
        assertThatThrownBy(() -> Json.parse(text))
                .isExactlyInstanceOf(JsonException.class)
                .hasMessageContaining(why)
                .hasMessageContaining("at offset");
    }

    @Test
    void no_text_at_all_is_refused() {
        assertThatThrownBy(() -> Json.parse(null)).isExactlyInstanceOf(JsonException.class).hasMessage("no JSON text");
    }

    @Test
    void a_lone_surrogate_is_written_escaped_and_reads_back_as_a_replacement_character() {
        String json = Json.write(List.of("a\uD800b", "\uD834\uDD1E"));
        assertThat(json).isEqualTo("[\"a\\ud800b\",\"\uD834\uDD1E\"]");
        assertThat(Json.parse(json)).isEqualTo(List.of("a\uFFFDb", "\uD834\uDD1E"));
    }

    @Test
    void what_the_writer_writes_the_reader_reads_back() {
        Map<String, Object> value = Map.of("text", "a\"b\\c\n\u0000\u2028\u001f", "n", -42L, "x", 0.25, "list", Arrays.asList(true, null, "é"));
        assertThat(Json.parse(Json.write(value))).isEqualTo(value);
    }

    private static Map<String, Object> mapWithNull(String key) {
        Map<String, Object> m = new java.util.HashMap<>();
        m.put(key, null);
        return m;
    }

    private static Object nestedLists(int depth) {
        Object value = List.of();
        for (int i = 1; i < depth; i++) {
            value = List.of(value);
        }
        return value;
    }
}
