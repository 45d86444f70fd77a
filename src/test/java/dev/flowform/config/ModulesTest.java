package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostics;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredState;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Locals, outputs and modules: evaluation order, addresses, nesting, cycles. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ModulesTest {

    @TempDir
    Path tmp;

    private static final String FLOW_MODULE = """
            {
              "variable": {
                "name": {"type": "string"},
                "cluster": {"type": "string"},
                "src": {"type": "object({alias = string, bootstrap = string})"},
                "heartbeats": {"type": "bool", "default": false}
              },
              "locals": {"target_alias": "dc2"},
              "replication_flow": {
                "this": {
                  "name": "${var.name}",
                  "connect_cluster": "${var.cluster}",
                  "source": {"alias": "${var.src.alias}", "bootstrap_servers": "${var.src.bootstrap}"},
                  "target": {"alias": "${local.target_alias}", "bootstrap_servers": "dc2:9093"},
                  "heartbeats": "${var.heartbeats}"
                }
              },
              "output": {
                "source_connector": {"value": "${var.name}-source"},
                "in": {"value": "${environment.name}/${environment.namespace}"}
              }
            }
            """;

    private LoadResult load(Path dir) {
        return new ConfigLoader().load(dir, null, Map.of());
    }

    @Test
    void variable_names_with_a_meaning_in_module_blocks_are_reserved() {
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "variable": {"source": {"default": "x"}, "count": {"default": 1}},
                  "environment": {"demo": {"namespace": "repl"}}
                }
                """);

        assertThat(Fixtures.lines(load(root).diagnostics())).containsExactly(
                "main.flow.json:2:16: Invalid variable name: The variable name \"source\" is reserved: it has a meaning of its "
                        + "own in module blocks.",
                "main.flow.json:2:44: Invalid variable name: The variable name \"count\" is reserved: it has a meaning of its "
                        + "own in module blocks.");
    }

    @Test
    void module_instances_evaluate_their_own_variables_and_outputs() {
        Fixtures.write(tmp.resolve("modules/flow"), Map.of("main.flow.json", FLOW_MODULE));
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "locals": {"cluster": "mm2", "dc1": {"alias": "dc1", "bootstrap": "dc1:9093"}},
                  "connect_cluster": {"mm2": {"bootstrap_servers": "dc2:9093"}},
                  "module": {
                    "orders": {"source": "../modules/flow", "name": "orders", "cluster": "${local.cluster}",
                               "src": {"alias": "dc1", "bootstrap": "dc1:9093"}},
                    "payments": {"source": "../modules/flow", "name": "payments", "cluster": "mm2", "src": "${local.dc1}",
                                 "heartbeats": true}
                  },
                  "output": {
                    "orders": {"value": "${module.orders.source_connector}", "description": "the source"},
                    "where": {"value": "${module.payments.in}"}
                  }
                }
                """);

        LoadResult result = load(root);

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        Configuration config = result.configuration();
        assertThat(config.flows()).extracting(ReplicationFlowBlock::address)
                .containsExactly("module.orders.replication_flow.this", "module.payments.replication_flow.this");
        assertThat(config.flows()).extracting(ReplicationFlowBlock::name).containsExactly("orders", "payments");
        assertThat(config.outputs()).extracting(OutputValue::name, OutputValue::value, OutputValue::description)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("orders", "orders-source", "the source"),
                        org.assertj.core.groups.Tuple.tuple("where", "demo/repl", null));

        Diagnostics diags = new Diagnostics();
        DesiredState desired = DesiredStateFactory.build(config, diags);
        assertThat(diags.list()).isEmpty();
        assertThat(desired.flows()).flatExtracting(f -> f.connectors()).extracting(DesiredConnector::address)
                .containsExactly("module.orders.kafka_connector.orders-source", "module.orders.kafka_connector.orders-checkpoint",
                        "module.payments.kafka_connector.payments-source",
                        "module.payments.kafka_connector.payments-checkpoint",
                        "module.payments.kafka_connector.payments-heartbeat");
        DesiredConnector source = desired.flows().get(0).connectors().get(0);
        assertThat(source.name()).isEqualTo("orders-source");
        assertThat(source.config()).containsEntry("source.cluster.alias", "dc1").containsEntry("target.cluster.alias", "dc2")
                .containsEntry("exactly.once.support", "required");
    }

    @Test
    void modules_nest_and_sources_are_relative_to_the_calling_file() {
        Fixtures.write(tmp.resolve("root/modules/outer"), Map.of("main.flow.json", """
                {
                  "variable": {"x": {}},
                  "module": {"inner": {"source": "./inner", "y": "${var.x}-outer"}},
                  "output": {"z": {"value": "${module.inner.z}"}}
                }
                """));
        Fixtures.write(tmp.resolve("root/modules/outer/inner"), Map.of("main.flow.json", """
                {
                  "variable": {"y": {"type": "string"}},
                  "output": {"z": {"value": "${var.y}-inner"}}
                }
                """));
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "module": {"outer": {"source": "./modules/outer", "x": "root"}},
                  "output": {"z": {"value": "${module.outer.z}"}}
                }
                """);

        LoadResult result = load(root);

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        assertThat(result.configuration().outputs()).extracting(OutputValue::value).containsExactly("root-outer-inner");
    }

    @Test
    void a_module_source_cycle_is_an_error_naming_the_chain() {
        Fixtures.write(tmp.resolve("root/a"), Map.of("main.flow.json", "{\"module\": {\"b\": {\"source\": \"../b\"}}}"));
        Fixtures.write(tmp.resolve("root/b"), Map.of("main.flow.json", "{\"module\": {\"a\": {\"source\": \"../a\"}}}"));
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "module": {"a": {"source": "./a"}}
                }
                """);

        LoadResult result = load(root);

        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "b/main.flow.json:1:29: Module source cycle: Module \"a\" has the source \"../a\", the folder a, which is "
                        + "already being instantiated: a → b → a. A module cannot contain itself, directly or through other modules.");
        assertThat(result.diagnostics().list().get(0).address()).isEqualTo("module.a.module.b.module.a");
    }

    @Test
    void locals_that_refer_to_each_other_in_a_cycle_are_named_in_order() {
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "locals": {"a": "${local.b}", "b": "x-${local.c}", "c": "${local.a}", "d": "${local.a}"}
                }
                """);

        LoadResult result = load(root);

        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "main.flow.json:3:14: Reference cycle: These values refer to each other in a cycle, so none of them can be "
                        + "computed: local.a → local.b → local.c → local.a. Break the cycle by giving one of them a value that "
                        + "does not depend on the others.");
    }

    @Test
    void a_cycle_through_a_module_argument_and_output_is_found() {
        Fixtures.write(tmp.resolve("root/m"), Map.of("main.flow.json", """
                {"variable": {"in": {}}, "output": {"out": {"value": "${var.in}"}}}
                """));
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "locals": {"x": "${module.m.out}"},
                  "module": {"m": {"source": "./m", "in": "${local.x}"}}
                }
                """);

        LoadResult result = load(root);

        assertThat(Fixtures.lines(result.diagnostics())).singleElement().asString()
                .contains("Reference cycle", "local.x → module.m.output.out → module.m.var.in → local.x");
    }

    @Test
    void unknown_module_arguments_and_missing_ones_are_reported_with_suggestions() {
        Fixtures.write(tmp.resolve("root/m"), Map.of("main.flow.json", """
                {"variable": {"replicas": {"type": "number"}, "name": {"default": "x"}}}
                """));
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "module": {"m": {"source": "./m", "replica": 3}}
                }
                """);

        LoadResult result = load(root);

        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "main.flow.json:3:14: Missing required argument: The argument \"replicas\" is required: variable \"replicas\" "
                        + "of module \"m\" has no default.",
                "main.flow.json:3:37: Unsupported argument: An argument named \"replica\" is not expected here: module \"m\" "
                        + "declares no variable of that name. The module's variables are \"name\", \"replicas\". Did you mean "
                        + "\"replicas\"?");
    }

    @Test
    void environment_blocks_in_a_module_and_outputs_of_sensitive_values_are_errors() {
        Fixtures.write(tmp.resolve("root/m"), Map.of("main.flow.json", """
                {"environment": {"x": {"namespace": "a"}}, "variable": {"p": {"sensitive": true}},
                 "output": {"p": {"value": "${var.p}"}}}
                """));
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "module": {"m": {"source": "./m", "p": "secret-value"}}
                }
                """);

        List<String> lines = Fixtures.lines(load(root).diagnostics());

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("m/main.flow.json:1:2: Environment in a module");
        assertThat(lines.get(1)).startsWith("m/main.flow.json:2:28: Output refers to sensitive values");
    }

    @Test
    void attributes_of_objects_are_read_and_missing_ones_suggested() {
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "variable": {"c": {"type": "object({bootstrap = string, port = optional(number)})",
                                     "default": {"bootstrap": "k"}}},
                  "environment": {"demo": {"namespace": "repl"}},
                  "locals": {"a": "${var.c.bootstrap}", "b": "${var.c.bootstap}", "p": "${var.c.port}"},
                  "output": {"a": {"value": "${local.a}"}, "p": {"value": "${local.p}"}}
                }
                """);

        LoadResult result = load(root);

        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "main.flow.json:5:46: Unsupported attribute: var.c has no attribute \"bootstap\". Did you mean \"bootstrap\"?");
    }

    @Test
    void an_output_without_value_and_a_reference_to_a_missing_output_are_errors() {
        Fixtures.write(tmp.resolve("root/m"), Map.of("main.flow.json", "{\"output\": {\"name\": {\"value\": \"x\"}}}"));
        Path root = Fixtures.writeMain(tmp.resolve("root"), """
                {
                  "environment": {"demo": {"namespace": "repl"}},
                  "module": {"m": {"source": "./m"}},
                  "output": {"a": {"description": "no value"}, "b": {"value": "${module.m.nme}"}}
                }
                """);

        assertThat(Fixtures.lines(load(root).diagnostics())).containsExactly(
                "main.flow.json:4:14: Missing required argument: The argument \"value\" is required in an output block: it is "
                        + "what the output shows.",
                "main.flow.json:4:63: Unsupported attribute: Module \"m\" has no output named \"nme\". Did you mean \"name\"? "
                        + "Its outputs are \"name\".");
    }
}
