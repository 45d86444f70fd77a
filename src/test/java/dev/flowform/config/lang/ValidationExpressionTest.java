package dev.flowform.config.lang;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The validation condition language: parsing, each operator and function, and its errors. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ValidationExpressionTest {

    private static final Map<String, Value> VARS = Map.of(
            "replicas", new Value.NumberValue(new BigDecimal("3"), null, false),
            "name", new Value.StringValue("orders-eu", null, false),
            "topics", new Value.ListValue(List.of(new Value.StringValue("a", null, false),
                    new Value.StringValue("b", null, false)), null, false),
            "none", new Value.NullValue(null, false),
            "cluster", new Value.ObjectValue(List.of(new Value.Member("port", null,
                    new Value.NumberValue(new BigDecimal("9093"), null, false))), null, false));

    private static ValidationExpression.Result eval(String text) {
        ValidationExpression.Parsed p = ValidationExpression.parse(text);
        assertThat(p.error()).as(text).isNull();
        return p.condition().evaluate(ref -> {
            if (ref.root().equals("environment")) {
                return new Value.StringValue("prod", null, false);
            }
            Value v = VARS.get(ref.names().get(0));
            for (String attribute : ref.names().subList(1, ref.names().size())) {
                v = ((Value.ObjectValue) v).members().stream().filter(m -> m.key().equals(attribute)).findFirst()
                        .orElseThrow().value();
            }
            return v;
        });
    }

    static Stream<Arguments> trueAndFalse() {
        return Stream.of(
                Arguments.of("${var.replicas >= 1}", true),
                Arguments.of("var.replicas > 3", false),
                Arguments.of("var.replicas == 3.0", true),
                Arguments.of("var.replicas != 3", false),
                Arguments.of("var.replicas < 10 && var.replicas <= 3", true),
                Arguments.of("var.replicas < 1 || var.name == 'orders-eu'", true),
                Arguments.of("!(var.replicas == 3)", false),
                Arguments.of("length(var.topics) == 2 && length(var.name) == 9", true),
                Arguments.of("contains(var.topics, \"b\")", true),
                Arguments.of("contains(['x', 'y'], var.name)", false),
                Arguments.of("strcontains(var.name, '-') && startswith(var.name, 'ord') && endswith(var.name, 'eu')", true),
                Arguments.of("can(regex('^[a-z]+(-[a-z]+)*$', var.name))", true),
                Arguments.of("can(regex('^[0-9]+$', var.name))", false),
                Arguments.of("regex('[0-9]+', 'port 9093') == '9093'", true),
                Arguments.of("var.none == null || length(var.none) > 0", true),
                Arguments.of("var.cluster.port == 9093", true),
                Arguments.of("environment.name == 'prod' && upper(var.name) == 'ORDERS-EU' && lower('A') == 'a'", true),
                Arguments.of("var.replicas == '3'", false),
                Arguments.of("[1, 2] == [1, 2.0]", true),
                Arguments.of("-1 < var.replicas", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trueAndFalse")
    void evaluates(String condition, boolean expected) {
        assertThat(eval(condition)).isEqualTo(new ValidationExpression.Result(expected, null));
    }

    static Stream<Arguments> parseErrors() {
        return Stream.of(
                Arguments.of("", "The condition is empty"),
                Arguments.of("${var.x > 1", "starts with ${ but does not end with the closing }"),
                Arguments.of("var.replicas >", "Invalid condition at character 15: a value was expected before the end."),
                Arguments.of("lenght(var.name) > 1", "there is no function named \"lenght\""),
                Arguments.of("lenght(var.name) > 1", "(did you mean \"length\"?)"),
                Arguments.of("length(var.name, 1)", "length() takes 1 argument, got 2"),
                Arguments.of("local.x == 1", "may refer to var.* and environment.* only"),
                Arguments.of("'open", "the string has no closing '"),
                Arguments.of("var.x == 1 1", "unexpected \"1\""),
                Arguments.of("replicas > 1", "\"replicas\" is not a value"),
                Arguments.of("environment.region == 'eu'", "environment has the attributes name and namespace only"),
                Arguments.of("(".repeat(40) + "1" + ")".repeat(40), "nests more than 32 levels"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("parseErrors")
    void reports_parse_errors(String condition, String message) {
        assertThat(ValidationExpression.parse(condition).error()).contains(message);
    }

    static Stream<Arguments> evaluationErrors() {
        return Stream.of(
                Arguments.of("var.name > 1", "The operator > compares numbers, but got a string and a number."),
                Arguments.of("var.replicas && true", "The operator && takes true or false, but got a number."),
                Arguments.of("length(var.none) > 1", "length() takes a string, list or object, but got null."),
                Arguments.of("contains(var.name, 'a')", "use strcontains(string, substring) for strings"),
                Arguments.of("regex('[', var.name) == ''", "the pattern is not a valid regular expression"),
                Arguments.of("regex('^x', var.name) == ''", "the pattern did not match; wrap the call in can(...)"),
                Arguments.of("var.replicas", "must produce true or false, but it produced a number"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("evaluationErrors")
    void reports_evaluation_errors_without_values(String condition, String message) {
        ValidationExpression.Result r = eval(condition);
        assertThat(r.value()).isNull();
        assertThat(r.error()).contains(message).doesNotContain("orders-eu");
    }
}
