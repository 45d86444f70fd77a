package dev.flowform.config.lang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Suggestions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Template parsing into literal and reference parts, and the did-you-mean helper. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class TemplateTest {

    static Stream<Arguments> templates() {
        return Stream.of(
                Arguments.of("plain", List.of(new Template.Literal("plain"))),
                Arguments.of("", List.of(new Template.Literal(""))),
                Arguments.of("${var.a}", List.of(new Template.Reference("var", List.of("a"), "var.a"))),
                Arguments.of("x${ var.a }y", List.of(new Template.Literal("x"),
                        new Template.Reference("var", List.of("a"), "var.a"), new Template.Literal("y"))),
                Arguments.of("$${var.a}", List.of(new Template.Literal("${var.a}"))),
                Arguments.of("${module.m.out}", List.of(new Template.Reference("module", List.of("m", "out"), "module.m.out"))),
                Arguments.of("${secrets:ns/n:k}${var.a}", List.of(new Template.Literal("${secrets:ns/n:k}"),
                        new Template.Reference("var", List.of("a"), "var.a"))),
                Arguments.of("${var:x}", List.of(new Template.Literal("${var:x}"))),
                Arguments.of("${variable}", List.of(new Template.Literal("${variable}"))));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("templates")
    void should_split_into_parts(String text, List<Template.Part> parts) {
        Template.Parsed parsed = Template.parse(text);

        assertThat(parsed.problem()).isNull();
        assertThat(parsed.template().parts()).isEqualTo(parts);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("problems")
    void should_refuse(String text, String summary) {
        assertThat(Template.parse(text).problem().summary()).isEqualTo(summary);
        assertThat(Template.firstReference(text)).isNotNull();
    }

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of("${var}", "Invalid reference"),
                Arguments.of("${var.a[0]}", "Unsupported expression"),
                Arguments.of("${var.a + 1}", "Unsupported expression"),
                Arguments.of("${lower(var.a)}", "Unsupported expression"),
                Arguments.of("x ${var.a", "Unterminated template interpolation"));
    }

    @Test
    void should_find_no_reference_in_escapes_and_provider_placeholders() {
        assertThat(Template.firstReference("$${var.a} ${secrets:a:b} ${file:/var.conf:k}")).isNull();
    }

    @Test
    void should_suggest_close_names_or_prefixes() {
        List<String> names = List.of("replicas", "replication_flow", "manage", "namespace");

        assertThat(Suggestions.closest("replics", names)).contains("replicas");
        assertThat(Suggestions.closest("mange", names)).contains("manage");
        assertThat(Suggestions.closest("replication", names)).contains("replication_flow");
        assertThat(Suggestions.closest("name", names)).contains("namespace");
        assertThat(Suggestions.closest("xyz", names)).isEmpty();
        assertThat(Suggestions.closest("replicas", names)).isEmpty();
    }
}
