package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.config.lang.Numbers;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.config.syntax.SourceText;
import dev.flowform.diag.SourcePos;
import dev.flowform.diag.SourceRange;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The located JSON tree: positions, order, repeated keys, numbers, and syntax errors as diagnostics. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class JsonSourceParserTest {

    private static ParsedFile parse(String text) {
        return JsonSourceParser.parse("main.flow.json", null, text.getBytes(StandardCharsets.UTF_8));
    }

    private static SourceRange range(int line, int col, int endLine, int endCol) {
        return new SourceRange("main.flow.json", new SourcePos(line, col), new SourcePos(endLine, endCol));
    }

    @Test
    void should_record_start_and_end_of_every_key_and_value() {
        String text = "{\n"
                + "  \"a\": \"x\\\"y\",\n"
                + "  \"b\": [1.50, true, null],\n"
                + "  \"c\": {}\n"
                + "}";
        ParsedFile file = parse(text);

        assertThat(file.ok()).isTrue();
        ConfigNode.ObjectNode root = file.root();
        assertThat(root.range()).isEqualTo(range(1, 1, 5, 2));
        ConfigNode.Entry a = root.entries().get(0);
        assertThat(a.keyRange()).isEqualTo(range(2, 3, 2, 6));
        assertThat(a.value()).isEqualTo(new ConfigNode.StringNode("x\"y", range(2, 8, 2, 14)));
        ConfigNode.ArrayNode b = (ConfigNode.ArrayNode) root.entries().get(1).value();
        assertThat(b.range()).isEqualTo(range(3, 8, 3, 26));
        assertThat(b.items()).containsExactly(
                new ConfigNode.NumberNode(new BigDecimal("1.50"), "1.50", range(3, 9, 3, 13)),
                new ConfigNode.BoolNode(true, range(3, 15, 3, 19)),
                new ConfigNode.NullNode(range(3, 21, 3, 25)));
        assertThat(root.entries().get(2).value().range()).isEqualTo(range(4, 8, 4, 10));
    }

    @Test
    void should_count_columns_in_code_points_and_accept_crlf_and_a_byte_order_mark() {
        ParsedFile file = parse("\uFEFF{\"é😀\": \"ü\",\r\n \"k\": 1}");

        assertThat(file.ok()).isTrue();
        ConfigNode.Entry first = file.root().entries().get(0);
        assertThat(first.key()).isEqualTo("é😀");
        assertThat(first.keyRange()).isEqualTo(range(1, 2, 1, 6));
        assertThat(first.value().range()).isEqualTo(range(1, 8, 1, 11));
        assertThat(file.root().entries().get(1).keyRange()).isEqualTo(range(2, 2, 2, 5));
    }

    @Test
    void should_keep_repeated_keys_and_comments_in_order() {
        ParsedFile file = parse("{\"variable\": {\"a\": {}}, \"//\": \"note\", \"variable\": {\"b\": {}}}");

        assertThat(file.root().entries()).extracting(ConfigNode.Entry::key).containsExactly("variable", "//", "variable");
    }

    @Test
    void should_keep_huge_and_precise_numbers_exactly() {
        ParsedFile file = parse("{\"big\": 123456789012345678901234567890, \"exp\": 1e999999999, \"tiny\": 0.1000000000000000000001}");

        assertThat(file.root().entries()).extracting(e -> ((ConfigNode.NumberNode) e.value()).value()).containsExactly(
                new BigDecimal("123456789012345678901234567890"), new BigDecimal("1e999999999"),
                new BigDecimal("0.1000000000000000000001"));
        assertThat(Numbers.format(new BigDecimal("1e999999999"))).isEqualTo("1e999999999");
    }

    static Stream<Arguments> syntaxErrors() {
        return Stream.of(
                Arguments.of("truncated object", "{\n  \"a\": 1,",
                        "main.flow.json:2:10: Invalid JSON syntax: Unexpected end of file within/between Object entries."),
                Arguments.of("truncated string", "{\"a\": \"abc",
                        "main.flow.json:1:11: Invalid JSON syntax: Unexpected end of file: was expecting closing quote for a string value."),
                Arguments.of("bad keyword", "{\"a\":\n  tru }",
                        "main.flow.json:2:3: Invalid JSON syntax: Unrecognized token 'tru': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')."),
                Arguments.of("trailing comma", "{\"a\": 1,}",
                        "main.flow.json:1:8: Invalid JSON syntax: Trailing comma before \"}\": JSON allows no comma after the last "
                                + "property of an object; remove it."),
                Arguments.of("trailing comma in a list", "{\"a\": [1,\n]}",
                        "main.flow.json:1:9: Invalid JSON syntax: Trailing comma before \"]\": JSON allows no comma after the last "
                                + "element of a list; remove it."),
                Arguments.of("missing comma in a list", "{\"a\": [1 2]}",
                        "main.flow.json:1:9: Invalid JSON syntax: Missing comma after this value: the elements of a list are "
                                + "separated by \",\"."),
                Arguments.of("single quotes", "{'a': 1}",
                        "main.flow.json:1:2: Invalid JSON syntax: Unexpected character ('''): was expecting double-quote to start property name."),
                Arguments.of("NaN", "{\"a\": NaN}",
                        "main.flow.json:1:10: Invalid JSON syntax: Non-standard token 'NaN'."),
                Arguments.of("extra value", "{}\n{}",
                        "main.flow.json:2:1: Invalid JSON syntax: Extra characters after the end of the JSON value: a file holds exactly one value."),
                Arguments.of("empty file", "  \n",
                        "main.flow.json:1:1: Invalid JSON syntax: The file is empty; a configuration file holds one JSON object, at least {}."),
                Arguments.of("root is an array", "[{}]",
                        "main.flow.json:1:1: Invalid JSON syntax: The root of a configuration file must be a JSON object whose properties are block types, got list."),
                Arguments.of("exponent out of range", "{\"a\": 1e9999999999}",
                        "main.flow.json:1:7: Invalid JSON syntax: The number 1e9999999999 is out of range: its exponent is too large."),
                Arguments.of("too deep", "{\"a\":" + "[".repeat(64) + "]".repeat(64) + "}",
                        "main.flow.json:1:69: Nesting too deep: Configuration values may nest at most 64 objects or arrays deep."),
                Arguments.of("number too long", "{\"a\": " + "1".repeat(1001) + "}",
                        "main.flow.json:1:7: Invalid JSON syntax: The number is 1001 characters long; at most 1000 are accepted."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("syntaxErrors")
    void should_report_syntax_errors_with_their_location(String name, String text, String expected) {
        ParsedFile file = parse(text);

        assertThat(file.root()).isNull();
        assertThat(Fixtures.lines(file.diagnostics())).containsExactly(expected);
    }

    @Test
    void should_accept_nesting_up_to_the_limit() {
        ParsedFile file = parse("{\"a\":" + "[".repeat(63) + "]".repeat(63) + "}");

        assertThat(file.ok()).isTrue();
    }

    @Test
    void should_report_invalid_utf8_at_the_offending_byte() {
        byte[] prefix = "{\n  \"é\": \"".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[prefix.length + 4];
        System.arraycopy(prefix, 0, bytes, 0, prefix.length);
        bytes[prefix.length] = (byte) 0xC3;
        bytes[prefix.length + 1] = (byte) 0x28;
        bytes[prefix.length + 2] = '"';
        bytes[prefix.length + 3] = '}';

        ParsedFile file = JsonSourceParser.parse("main.flow.json", null, bytes);

        assertThat(file.root()).isNull();
        assertThat(Fixtures.lines(file.diagnostics())).containsExactly("main.flow.json:2:9: Invalid UTF-8: Configuration files "
                + "must be UTF-8 encoded; found the invalid byte sequence 0xC3 here.");
    }

    @Test
    void should_parse_any_value_for_command_line_use() {
        dev.flowform.diag.Diagnostics diags = new dev.flowform.diag.Diagnostics();
        ConfigNode node = JsonSourceParser.parseValue(new SourceText("--var topics", "[\"a\", \"b\"]"), diags);

        assertThat(diags.isEmpty()).isTrue();
        assertThat(node).isInstanceOf(ConfigNode.ArrayNode.class);
        assertThat(((ConfigNode.ArrayNode) node).items()).extracting(ConfigNode::kind).containsExactly("string", "string");
        assertThat(List.of(node.range().toString())).containsExactly("--var topics:1:1");
    }
}
