package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of configuration error, one table row each: the files, the environment and
 * {@code --var} values, and the exact diagnostics expected ({@code file:line:col}, summary, and a
 * fragment of the detail). Diagnostics come sorted, so rows list them in file order.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class LoaderErrorsTest {

    @TempDir
    Path dir;

    /** One expected diagnostic. */
    record Expect(String where, String summary, String detail) {
        String head() {
            return (where.isEmpty() ? "" : where + ": ") + summary;
        }
    }

    /** One row of the table. */
    static final class Case {
        final String name;
        final Map<String, String> files = new LinkedHashMap<>();
        String environment = "demo";
        Map<String, String> vars = Map.of();
        final List<Expect> expected = new ArrayList<>();

        Case(String name) {
            this.name = name;
        }

        Case main(String json) {
            files.put("main.flow.json", json);
            return this;
        }

        Case file(String filename, String json) {
            files.put(filename, json);
            return this;
        }

        Case env(String environment) {
            this.environment = environment;
            return this;
        }

        Case vars(String... keysAndValues) {
            this.vars = Fixtures.vars(keysAndValues);
            return this;
        }

        Case expect(String where, String summary, String detail) {
            expected.add(new Expect(where, summary, detail));
            return this;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Case c(String name) {
        return new Case(name);
    }

    private static final String ENV = "  \"environment\": {\"demo\": {\"namespace\": \"kafka\"}},\n";

    static Stream<Case> cases() {
        return Stream.of(
                c("unknown block type").main("{\n" + ENV + "  \"conect_cluster\": {\"c\": {}}\n}")
                        .expect("main.flow.json:3:3", "Unsupported block type", "Did you mean \"connect_cluster\"?"),
                c("terraform block type flowform does not have").main("{\n" + ENV + "  \"resource\": {\"x\": {}}\n}")
                        .expect("main.flow.json:3:3", "Unsupported block type", "the block types are \"variable\", \"locals\""),
                c("unknown argument").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "replics": 3
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:7", "Unsupported argument",
                                "An argument named \"replics\" is not expected in a connect_cluster block. Did you mean \"replicas\"?"),
                c("wrong type").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "replicas": "three"
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:19", "Incorrect attribute value type", "expected number, got string"),
                c("wrong type through a variable").main("""
                        {
                          "variable": {"s": {"type": "string", "default": "x"}},
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "replicas": "${var.s}"
                            }
                          }
                        }""")
                        .expect("main.flow.json:7:19", "Incorrect attribute value type",
                                "Inappropriate value for argument \"replicas\": expected number, got string"),
                c("invalid enum value").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "manage": "owned"
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:17", "Invalid value for argument",
                                "\"owned\" is not a valid value for \"manage\": expected one of \"own\", \"adopt\". Did you mean \"own\"?"),
                c("missing required argument").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "replication_flow": {
                            "orders": {
                              "manage": "adopt"
                            }
                          }
                        }""")
                        .expect("main.flow.json:4:5", "Missing required argument", "The argument \"connect_cluster\" is required"),
                c("own flow without endpoints").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {"mm2": {"bootstrap_servers": "k:9092"}},
                          "replication_flow": {
                            "orders": {
                              "connect_cluster": "mm2",
                              "source": {"alias": "east"}
                            }
                          }
                        }""")
                        .expect("main.flow.json:5:5", "Missing required argument", "The argument \"target\"")
                        .expect("main.flow.json:7:7", "Missing required argument", "\"bootstrap_servers\" is required in source"),
                c("own cluster without bootstrap servers").main("{\n" + ENV + "  \"connect_cluster\": {\"c\": {}}\n}")
                        .expect("main.flow.json:3:23", "Missing required argument", "\"bootstrap_servers\" is required"),
                c("duplicate block across files")
                        .file("a.flow.json", """
                                {
                                  "environment": {"demo": {"namespace": "kafka"}},
                                  "connect_cluster": {"c": {"bootstrap_servers": "k:9092"}}
                                }""")
                        .file("b.flow.json", """
                                {
                                  "connect_cluster": {
                                    "c": {"bootstrap_servers": "k:9093"}
                                  }
                                }""")
                        .expect("b.flow.json:3:5", "Duplicate connect_cluster block",
                                "A connect_cluster named \"c\" was already declared at a.flow.json:3:23."),
                c("duplicate argument").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "bootstrap_servers": "k:9093"
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:7", "Duplicate argument", "already set at main.flow.json:5:7"),
                c("name that is not a Kubernetes name").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "EU_West": {"bootstrap_servers": "k:9092"}
                          }
                        }""")
                        .expect("main.flow.json:4:5", "Invalid connect_cluster name", "([-a-z0-9]*[a-z0-9])?"),
                c("undeclared variable").main("""
                        {
                          "variable": {"password": {"type": "string", "default": "p", "sensitive": true}},
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "config": {"sasl.jaas.config": "pw=${var.pasword}"}
                            }
                          }
                        }""")
                        .expect("main.flow.json:7:38", "Reference to undeclared input variable",
                                "An input variable with the name \"pasword\" has not been declared. Did you mean \"password\"?"),
                c("variable in an environment").main("""
                        {
                          "variable": {"ns": {"default": "kafka"}},
                          "environment": {
                            "demo": {"namespace": "${var.ns}"}
                          }
                        }""")
                        .expect("main.flow.json:4:27", "Variables not allowed", "${var.ns} cannot be used in an environment block"),
                c("variable without a value").main("""
                        {
                          "variable": {
                            "password": {"type": "string"}
                          },
                          "environment": {"demo": {"namespace": "kafka"}}
                        }""")
                        .expect("main.flow.json:3:5", "No value for required variable",
                                "Set it with --var password=... or in the variables of environment \"demo\" (or with a --var-file"),
                c("environment value of the wrong type").main("""
                        {
                          "variable": {"replicas": {"type": "number"}},
                          "environment": {
                            "demo": {
                              "namespace": "kafka",
                              "variables": {"replicas": "three"}
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:33", "Invalid value for input variable", "expected number, got string"),
                c("environment sets an undeclared variable").main("""
                        {
                          "variable": {"replicas": {"type": "number", "default": 1}},
                          "environment": {
                            "demo": {
                              "namespace": "kafka",
                              "variables": {"replica": 3}
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:21", "Value for undeclared variable", "Did you mean \"replicas\"?"),
                c("--var for an undeclared variable")
                        .main("{\n  \"variable\": {\"replicas\": {\"type\": \"number\", \"default\": 1}},\n" + ENV + "  \"//\": \"\"\n}")
                        .vars("replica", "3")
                        .expect("", "Value for undeclared variable",
                                "--var replica=... sets a variable that is not declared. Did you mean \"replicas\"?"),
                c("--var of the wrong type")
                        .main("{\n  \"variable\": {\"replicas\": {\"type\": \"number\", \"default\": 1}},\n" + ENV + "  \"//\": \"\"\n}")
                        .vars("replicas", "three")
                        .expect("", "Invalid value for input variable", "does not fit the type number of variable \"replicas\": expected number, got string"),
                c("--var list that is not JSON")
                        .main("{\n  \"variable\": {\"topics\": {\"type\": \"list(string)\", \"default\": []}},\n" + ENV + "  \"//\": \"\"\n}")
                        .vars("topics", "a,b")
                        .expect("", "Invalid value for input variable", "--var topics must be JSON for the type list(string)"),
                c("--var without a name")
                        .main("{\n" + ENV + "  \"//\": \"\"\n}")
                        .vars("", "x")
                        .expect("", "Invalid --var", "Every --var needs a variable name"),
                c("namespace that is not a Kubernetes name").main("""
                        {
                          "environment": {"demo": {"namespace": "Kafka_NS"}}
                        }""")
                        .expect("main.flow.json:2:41", "Invalid value for argument", "\"Kafka_NS\" is not a valid Kubernetes namespace"),
                c("same name twice through the array form").main("""
                        {
                          "environment": {
                            "demo": [{"namespace": "a"}, {"namespace": "b"}]
                          }
                        }""")
                        .expect("main.flow.json:3:34", "Duplicate environment block",
                                "An environment named \"demo\" was already declared at main.flow.json:3:5."),
                c("unknown environment")
                        .main("{\"environment\": {\"demo\": {\"namespace\": \"a\"}, \"prod\": {\"namespace\": \"b\"}}}")
                        .env("prd")
                        .expect("", "Unknown environment", "declared: demo, prod. Did you mean \"prod\"?"),
                c("no environment").main("{\"connect_cluster\": {\"c\": {\"bootstrap_servers\": \"k\", \"namespace\": \"x\"}}}").env(null)
                        .expect("", "No environment declared", "Declare at least one environment"),
                c("no namespace anywhere").main("""
                        {
                          "environment": {"demo": {}},
                          "connect_cluster": {
                            "c": {"bootstrap_servers": "k:9092"}
                          }
                        }""")
                        .expect("main.flow.json:2:19", "Missing namespace", "Environment \"demo\" sets no namespace."),
                c("flow on an undeclared connect cluster").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {"mm2": {"bootstrap_servers": "k:9092"}},
                          "replication_flow": {
                            "orders": {"manage": "adopt", "connect_cluster": "mm3"}
                          }
                        }""")
                        .expect("main.flow.json:5:54", "Reference to undeclared connect cluster", "Did you mean \"mm2\"?"),
                c("huge number").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "replicas": 1e30
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:19", "Invalid value for argument", "between 0 and 2147483647, got 1000000000000000000000000000000"),
                c("function call in a template").main("""
                        {
                          "variable": {"s": {"default": "x"}},
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "${upper(var.s)}"
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:28", "Unsupported expression", "only plain references such as ${var.name}"),
                c("reference to a local").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "${local.bootstrap}"
                            }
                          }
                        }""")
                        .expect("main.flow.json:5:28", "Reference to undeclared local value", "Declare it with {\"locals\": {\"bootstrap\": ...}}."),
                c("list inside a string template").main("""
                        {
                          "variable": {"topics": {"type": "list(string)", "default": ["a"]}},
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "config": {"x": "topics: ${var.topics}"}
                            }
                          }
                        }""")
                        .expect("main.flow.json:7:23", "Invalid template interpolation value",
                                "${var.topics} is a list, which cannot be part of a string"),
                c("unterminated interpolation").main("""
                        {
                          "variable": {"s": {"default": "x"}},
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "${var.s"
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:28", "Unterminated template interpolation", "has no closing \"}\""),
                c("seed folder missing").main("""
                        {
                          "environment": {
                            "demo": {"namespace": "kafka", "kubernetes": {"embedded": {"seed": "./missing"}}}
                          }
                        }""")
                        .expect("main.flow.json:3:72", "Seed folder not found", "missing\" does not exist"),
                c("embedded Strimzi version that is no release").main("""
                        {
                          "environment": {
                            "demo": {"namespace": "kafka", "kubernetes": {"embedded": {"strimzi_version": "0.48"}}}
                          }
                        }""")
                        .expect("main.flow.json:3:83", "Invalid Strimzi version", "\"0.48\" is not a Strimzi release"),
                c("embedded together with a context").main("""
                        {
                          "environment": {
                            "demo": {"kubernetes": {"context": "x", "embedded": {}}, "namespace": "kafka"}
                          }
                        }""")
                        .expect("main.flow.json:3:45", "Conflicting arguments", "\"embedded\" cannot be combined"),
                c("invalid default").main("""
                        {
                          "variable": {
                            "n": {"type": "number", "default": "abc"}
                          },
                          "environment": {"demo": {"namespace": "kafka"}}
                        }""")
                        .expect("main.flow.json:3:40", "Invalid default value for variable", "expected number, got string"),
                c("invalid type specification").main("""
                        {
                          "variable": {
                            "n": {"type": "list(strin)"}
                          },
                          "environment": {"demo": {"namespace": "kafka"}}
                        }""")
                        .expect("main.flow.json:3:19", "Invalid type specification", "Did you mean \"string\"?"),
                c("repeated key in an object value").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "config": {"a": 1, "a": 2}
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:26", "Duplicate object attribute", "already defined at main.flow.json:6:18"),
                c("EOS key set through config").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "config": {"exactly.once.source.support": "enabled"}
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:18", "Conflicting configuration key", "exactly_once_source_support"),
                c("version written as a number").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {
                              "bootstrap_servers": "k:9092",
                              "version": 3.10
                            }
                          }
                        }""")
                        .expect("main.flow.json:6:18", "Incorrect attribute value type", "expected string, got number"),
                c("tasks_max zero").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {"mm2": {"bootstrap_servers": "k:9092"}},
                          "replication_flow": {
                            "orders": {
                              "manage": "adopt",
                              "connect_cluster": "mm2",
                              "tasks_max": 0
                            }
                          }
                        }""")
                        .expect("main.flow.json:8:20", "Invalid value for argument", "\"tasks_max\" must be a whole number between 1 and"),
                c("body that is not an object").main("{\n" + ENV + "  \"connect_cluster\": {\"c\": \"x\"}\n}")
                        .expect("main.flow.json:3:28", "Incorrect JSON value type", "A JSON object (or a JSON array of objects) is required"),
                c("syntax errors in two files, both reported")
                        .file("a.flow.json", "{\n  \"environment\": {\"demo\": {}}\n  \"x\": 1\n}")
                        .file("b.flow.json", "{\"connect_cluster\": tru}")
                        .expect("a.flow.json:2:30", "Invalid JSON syntax", "Missing comma after this value: the properties of an "
                                + "object are separated by \",\".")
                        .expect("b.flow.json:1:21", "Invalid JSON syntax", "Unrecognized token 'tru'"),
                c("several independent errors in one run").main("""
                        {
                          "environment": {"demo": {"namespace": "kafka"}},
                          "connect_cluster": {
                            "c": {"bootstrap_servers": "k:9092", "replicas": -1, "mange": "adopt"}
                          },
                          "replication_flow": {
                            "f": {"manage": "adopt", "connect_cluster": "c", "state": "run"}
                          }
                        }""")
                        .expect("main.flow.json:4:54", "Invalid value for argument", "between 0 and 2147483647, got -1")
                        .expect("main.flow.json:4:58", "Unsupported argument", "Did you mean \"manage\"?")
                        .expect("main.flow.json:7:63", "Invalid value for argument",
                                "expected one of \"running\", \"paused\", \"stopped\". Did you mean \"running\"?"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void should_report(Case c) {
        Fixtures.write(dir, c.files);

        LoadResult result = new ConfigLoader().load(dir, c.environment, c.vars);

        assertThat(result.configuration()).as("configuration").isNull();
        List<Diagnostic> errors = result.diagnostics().list().stream().filter(Diagnostic::isError).toList();
        List<String> heads = errors.stream()
                .map(d -> (d.range() == null ? "" : d.range() + ": ") + d.summary()).toList();
        assertThat(heads).as(String.join("\n", Fixtures.errors(result)))
                .containsExactlyElementsOf(c.expected.stream().map(Expect::head).toList());
        for (int i = 0; i < errors.size(); i++) {
            assertThat(errors.get(i).detail()).contains(c.expected.get(i).detail());
        }
    }
}
