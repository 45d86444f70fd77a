package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.config.lang.VarType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Variable validation, nullable, object types, variable files, FLOWFORM_VAR_* and the full precedence chain. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class VariableFeaturesTest {

    @TempDir
    Path tmp;

    private final ConfigLoader loader = new ConfigLoader();

    private Path config(String variable, String environmentVariables) {
        return Fixtures.writeMain(tmp.resolve("conf"), """
                {
                  "variable": {"replicas": %s},
                  "environment": {"demo": {"namespace": "kafka", "variables": {%s}}},
                  "connect_cluster": {"c": {"bootstrap_servers": "k:9092", "replicas": "${var.replicas}"}}
                }
                """.formatted(variable, environmentVariables));
    }

    private Path varFile(String name, String json) {
        return Fixtures.write(tmp.resolve("vars"), Map.of(name, json)).resolve(name);
    }

    @Test
    void every_source_in_precedence_order_lowest_first() {
        Path dir = config("{\"type\": \"number\", \"default\": 1}", "\"replicas\": 2");
        Path first = varFile("a.json", "{\"replicas\": 4}");
        Path second = varFile("b.json", "{\"replicas\": 5, \"//\": \"comment\"}");
        Map<String, String> env = Map.of("FLOWFORM_VAR_replicas", "3", "FLOWFORM_VAR_other", "ignored", "PATH", "/bin");

        assertThat(replicas(dir, new VariableInputs(Map.of(), List.of(), Map.of()))).isEqualTo(2);
        assertThat(replicas(dir, new VariableInputs(env, List.of(), Map.of()))).isEqualTo(3);
        assertThat(replicas(dir, new VariableInputs(env, List.of(first), Map.of()))).isEqualTo(4);
        assertThat(replicas(dir, new VariableInputs(env, List.of(first, second), Map.of()))).isEqualTo(5);
        assertThat(replicas(dir, new VariableInputs(env, List.of(second, first), Map.of()))).isEqualTo(4);
        assertThat(replicas(dir, new VariableInputs(env, List.of(first, second), Map.of("replicas", "6")))).isEqualTo(6);
    }

    private int replicas(Path dir, VariableInputs inputs) {
        LoadResult r = loader.loadWith(dir, null, inputs);
        assertThat(Fixtures.lines(r.diagnostics())).isEmpty();
        return r.configuration().clusters().get(0).replicas();
    }

    @Test
    void variable_file_problems_are_located_in_the_file_and_unknown_names_warn() {
        Path dir = config("{\"type\": \"number\", \"default\": 1}", "");
        Path file = varFile("v.json", "{\n  \"replica\": 3,\n  \"replicas\": \"many\"\n}\n");

        LoadResult r = loader.loadWith(dir, null, new VariableInputs(Map.of(), List.of(file), Map.of()));

        String name = file.toString();
        assertThat(Fixtures.lines(r.diagnostics())).containsExactly(
                name + ":2:3: Value for undeclared variable: The variable file sets \"replica\", which is not declared; the "
                        + "value is ignored. Did you mean \"replicas\"?",
                name + ":3:15: Invalid value for input variable: The variable file sets \"replicas\" to a value that does not "
                        + "fit its type number: expected number, got string (a string converts only when it spells a number).");
        assertThat(r.sources()).containsKey(name);
    }

    @Test
    void a_missing_variable_file_and_a_variable_file_that_is_not_an_object_are_errors() {
        Path dir = config("{\"type\": \"number\", \"default\": 1}", "");
        Path list = varFile("list.json", "[1]");

        LoadResult r = loader.loadWith(dir, null, new VariableInputs(Map.of(), List.of(tmp.resolve("nope.json"), list),
                Map.of()));

        assertThat(Fixtures.lines(r.diagnostics())).containsExactly(
                list + ":1:1: Invalid JSON syntax: The root of this file must be a JSON object whose properties are variable "
                        + "names, got list.",
                "Variable file not found: The file " + tmp.resolve("nope.json") + " given with --var-file does not exist. A "
                        + "relative path is relative to the working directory.");
    }

    @Test
    void a_failed_validation_points_at_the_value_and_names_the_rule() {
        Path dir = config("""
                {"type": "number", "default": 1,
                 "validation": [
                   {"condition": "${var.replicas >= 1}", "error_message": "At least one worker."},
                   {"condition": "${var.replicas <= 10}", "error_message": "At most ten workers."}
                 ]}""", "\"replicas\": 12");

        LoadResult r = loader.load(dir, null, Map.of());

        assertThat(Fixtures.lines(r.diagnostics())).containsExactly(
                "main.flow.json:7:76: Invalid value for variable: At most ten workers.\n\nThe value of variable \"replicas\" "
                        + "comes from environment \"demo\"; it was checked by the validation rule at main.flow.json:5:18.");
    }

    @Test
    void a_failed_validation_of_a_command_line_value_points_at_the_rule() {
        Path dir = config("""
                {"type": "number", "validation": {"condition": "var.replicas > 0", "error_message": "Positive."}}""", "");

        LoadResult r = loader.load(dir, null, Map.of("replicas", "0"));

        assertThat(Fixtures.lines(r.diagnostics())).singleElement().asString()
                .startsWith("main.flow.json:2:75: Invalid value for variable: Positive.")
                .contains("comes from --var;");
    }

    @Test
    void validation_blocks_are_checked_when_declared() {
        Path dir = config("""
                {"type": "number", "default": 1, "validation": [
                  {"condition": "${var.other > 1}", "error_message": "x"},
                  {"condition": "${length(var.replicas) >}", "error_message": "x"},
                  {"condition": "${var.replicas > 1}"},
                  {"condition": "${var.replicas > 1 && var.unknown}", "error_message": "y"},
                  {"condition": 1, "error_message": ""}
                ]}""", "");

        List<String> lines = Fixtures.lines(loader.load(dir, null, Map.of()).diagnostics());

        assertThat(lines).as(String.join("\n", lines)).hasSize(6);
        assertThat(lines.get(0)).startsWith("main.flow.json:3:17: Invalid validation condition: The condition for variable "
                + "\"replicas\" must refer to var.replicas");
        assertThat(lines.get(1)).startsWith("main.flow.json:4:17: Invalid validation condition: Invalid condition at character "
                + "23: a value was expected before the end.");
        assertThat(lines.get(2)).startsWith("main.flow.json:5:3: Missing required argument: The argument \"error_message\"");
        assertThat(lines.get(3)).startsWith("main.flow.json:6:17: Reference to undeclared input variable: The condition refers "
                + "to var.unknown");
        assertThat(lines.get(4)).startsWith("main.flow.json:7:17: Invalid validation condition: The condition must be a string");
        assertThat(lines.get(5)).startsWith("main.flow.json:7:37: Invalid validation error message");
    }

    @Test
    void a_condition_that_cannot_be_evaluated_is_an_error_without_the_value() {
        Path dir = config("""
                {"type": "string", "sensitive": true, "validation": {"condition": "${var.replicas > 1}", "error_message": "x"}}""",
                "\"replicas\": \"s3cret\"");

        List<String> lines = Fixtures.lines(loader.load(dir, null, Map.of()).diagnostics());

        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("main.flow.json:2:94: Invalid validation condition: The "
                + "condition could not be evaluated for the value of variable \"replicas\" from environment \"demo\": The "
                + "operator > compares numbers, but got a string and a number."));
        assertThat(lines).noneSatisfy(l -> assertThat(l).contains("s3cret"));
    }

    @Test
    void nullable_false_takes_the_default_for_null_and_refuses_null_without_one() {
        Path withDefault = config("{\"type\": \"number\", \"nullable\": false, \"default\": 2}", "\"replicas\": null");
        assertThat(replicas(withDefault, VariableInputs.NONE)).isEqualTo(2);

        Path without = config("{\"type\": \"number\", \"nullable\": false}", "\"replicas\": null");
        assertThat(Fixtures.lines(loader.load(without, null, Map.of()).diagnostics())).containsExactly(
                "main.flow.json:3:76: Invalid value for input variable: The value of variable \"replicas\" from environment "
                        + "\"demo\" is null, but the variable is declared with nullable = false and has no default to use "
                        + "instead.");

        Path nullDefault = config("{\"type\": \"number\", \"nullable\": false, \"default\": null}", "");
        assertThat(Fixtures.lines(loader.load(nullDefault, null, Map.of()).diagnostics())).singleElement().asString()
                .contains("No value for required variable");

        Path nullable = config("{\"type\": \"number\", \"default\": null}", "");
        LoadResult r = loader.load(nullable, null, Map.of());
        assertThat(Fixtures.lines(r.diagnostics())).isEmpty();
        assertThat(r.configuration().clusters().get(0).replicas()).isNull();
    }

    @Test
    void object_types_convert_attribute_by_attribute() {
        Fixtures.writeMain(tmp.resolve("conf"), """
                {
                  "variable": {"kafka": {"type": "object({bootstrap = string, port = number, tls = optional(bool)})"}},
                  "environment": {"demo": {"namespace": "kafka", "variables": {"kafka": {"bootstrap": "k", "port": "9093"}}}},
                  "connect_cluster": {"c": {"bootstrap_servers": "${var.kafka.bootstrap}:${var.kafka.port}"}}
                }
                """);
        LoadResult ok = loader.load(tmp.resolve("conf"), null, Map.of());
        assertThat(Fixtures.lines(ok.diagnostics())).isEmpty();
        assertThat(ok.configuration().clusters().get(0).bootstrapServers()).isEqualTo("k:9093");

        LoadResult cli = loader.load(tmp.resolve("conf"), null, Map.of("kafka", "{\"bootstrap\": \"k\", \"prot\": 1}"));
        assertThat(Fixtures.lines(cli.diagnostics())).containsExactly("Invalid value for input variable: The value of --var "
                + "kafka does not fit the type object({bootstrap=string, port=number, tls=optional(bool)}) of variable \"kafka\": "
                + "attribute \"prot\" is not declared in the type object({bootstrap=string, port=number, tls=optional(bool)}) "
                + "(did you mean \"port\"?).");

        LoadResult missing = loader.load(tmp.resolve("conf"), null, Map.of("kafka", "{\"bootstrap\": \"k\"}"));
        assertThat(Fixtures.lines(missing.diagnostics())).singleElement().asString().endsWith("attribute \"port\" is required.");
    }

    @Test
    void type_expressions_are_parsed_with_errors_that_say_where() {
        assertThat(VarType.parse("list(object({a = string, b = map(number)}))").type())
                .hasToString("list(object({a=string, b=map(number)}))");
        assertThat(VarType.parse("object({a: string,})").type()).hasToString("object({a=string})");
        assertThat(VarType.parse("object({a = strin})").error()).contains("\"strin\" is not a type", "Did you mean \"string\"?");
        assertThat(VarType.parse("object({a = string, a = number})").error()).contains("declared twice");
        assertThat(VarType.parse("optional(string)").error()).contains("may only mark an attribute of an object type");
        assertThat(VarType.parse("list(".repeat(20) + "string" + ")".repeat(20)).error()).contains("nests more than 16");
        assertThat(VarType.parse("set(string)").error()).contains("is not supported");
    }

    @Test
    void environment_values_reach_expressions_and_validate_checks_every_environment() {
        Fixtures.writeMain(tmp.resolve("conf"), """
                {
                  "variable": {"replicas": {"type": "number",
                    "validation": {"condition": "${var.replicas >= 3 || environment.name != \\"prod\\"}",
                                   "error_message": "prod runs at least three workers."}}},
                  "environment": {
                    "prod": {"namespace": "kafka", "variables": {"replicas": 1}},
                    "staging": {"namespace": "kafka", "variables": {"replicas": 1}},
                    "test": {"namespace": "kafka"}
                  },
                  "connect_cluster": {"c": {"bootstrap_servers": "k-${environment.name}:9092", "replicas": "${var.replicas}"}}
                }
                """);

        ValidationResult result = loader.validate(tmp.resolve("conf"), null, VariableInputs.NONE);

        assertThat(result.environments()).containsExactly("prod", "staging", "test");
        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "main.flow.json:2:16: No value for required variable: The input variable \"replicas\" has no default and no "
                        + "value was given. Set it with --var replicas=... or in the variables of environment \"test\" (or with "
                        + "a --var-file, or the environment variable FLOWFORM_VAR_replicas).\n\nIn environment \"test\".",
                "main.flow.json:6:62: Invalid value for variable: prod runs at least three workers.\n\nThe value of variable "
                        + "\"replicas\" comes from environment \"prod\"; it was checked by the validation rule at "
                        + "main.flow.json:3:33.\n\nIn environment \"prod\".");
        LoadResult staging = loader.load(tmp.resolve("conf"), "staging", Map.of());
        assertThat(staging.configuration().clusters().get(0).bootstrapServers()).isEqualTo("k-staging:9092");
    }
}
