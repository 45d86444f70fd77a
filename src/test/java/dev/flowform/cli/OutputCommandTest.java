package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.state.StateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sensitive outputs: shown as {@code <sensitive>}, never stored or printed in clear; choosing the environment. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class OutputCommandTest {

    private static final String SECRET = "Canary-Output-5521";

    @TempDir
    Path tmp;

    @Test
    void a_sensitive_output_is_stored_as_a_hash_and_never_printed() throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir.resolve("seed"));
        Files.writeString(dir.resolve("main.flow.json"), """
                {
                  "variable": {"password": {"type": "string", "sensitive": true}, "replicas": {"type": "number", "default": 1}},
                  "environment": {
                    "demo": {"kubernetes": {"embedded": {"seed": "./seed"}}, "namespace": "replication",
                             "variables": {"password": "%s"}}
                  },
                  "connect_cluster": {"c": {"bootstrap_servers": "k:9093", "replicas": "${var.replicas}"}},
                  "output": {
                    "password": {"value": "${var.password}", "sensitive": true, "description": "the password"},
                    "settings": {"value": {"replicas": "${var.replicas}", "topics": ["a", "b"]}}
                  }
                }
                """.formatted(SECRET));
        Path state = tmp.resolve("state");
        CliRunner cli = CliRunner.fast();

        CliRunner.Result apply = cli.run("apply", "--dir", dir.toString(), "--state-dir", state.toString(), "--auto-approve",
                "--no-color");
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.out()).contains("password = <sensitive>\nsettings = {\n  \"replicas\": 1,\n  \"topics\": [\"a\", \"b\"]\n}\n")
                .doesNotContain(SECRET);
        try (java.util.stream.Stream<Path> files = Files.list(state.resolve("demo"))) {
            assertThat(files.map(p -> p.getFileName().toString())).as("H2's trace file").noneMatch(f -> f.endsWith(".trace.db"));
        }

        CliRunner.Result list = cli.run("output", "--state-dir", state.toString());
        assertThat(list.out()).startsWith("password = <sensitive>\n").doesNotContain(SECRET);
        CliRunner.Result json = cli.run("output", "--state-dir", state.toString(), "--json");
        assertThat(json.out()).contains("\"password\": {\n    \"sensitive\": true,\n    \"type\": \"string\",\n"
                + "    \"value_hash\": \"sha256:").doesNotContain(SECRET);
        assertThat(cli.run("output", "--state-dir", state.toString(), "password").out()).isEqualTo("<sensitive>\n");
        CliRunner.Result raw = cli.run("output", "--state-dir", state.toString(), "--raw", "password");
        assertThat(raw.exitCode()).isEqualTo(1);
        assertThat(raw.err()).contains("Output \"password\" is sensitive");
        CliRunner.Result rawObject = cli.run("output", "--state-dir", state.toString(), "--raw", "settings");
        assertThat(rawObject.exitCode()).isEqualTo(1);
        assertThat(rawObject.err()).contains("--raw prints strings, numbers and bools only");

        byte[] db = Files.readAllBytes(StateStore.databaseFile(state, "demo"));
        assertThat(new String(db, StandardCharsets.ISO_8859_1)).doesNotContain(SECRET);

        try (StateStore other = StateStore.open(state, "other", Clock.systemUTC())) {
            assertThat(other.outputs().all()).isEmpty();
        }
        CliRunner.Result ambiguous = cli.run("output", "--state-dir", state.toString());
        assertThat(ambiguous.exitCode()).isEqualTo(1);
        assertThat(ambiguous.err()).contains("Several environments have state", "demo, other", "-e NAME");
    }

    @Test
    void without_an_environment_a_postgresql_backend_names_its_schema_once() throws IOException {
        Path dir = tmp.resolve("pg");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("main.flow.json"), """
                {
                  "backend": {"pg": {"schema_name": "team_state"}},
                  "environment": {"a": {"kubernetes": {"embedded": {}}}, "b": {"kubernetes": {"embedded": {}}}}
                }
                """);

        CliRunner.Result r = CliRunner.fast().run("output", "--dir", dir.toString(), "--no-color");

        assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
        assertThat(r.err()).contains("The state is in PostgreSQL schema team_state, which holds every environment")
                .doesNotContain("PostgreSQL PostgreSQL");
    }

    @Test
    void an_environment_without_state_is_named_and_an_undeclared_one_is_an_error() throws IOException {
        Path dir = tmp.resolve("two");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("main.flow.json"), """
                {"environment": {"a": {"kubernetes": {"embedded": {}}}, "b": {"kubernetes": {"embedded": {}}}}}
                """);

        CliRunner.Result none = CliRunner.fast().run("output", "--dir", dir.toString(), "-e", "b", "--no-color");
        CliRunner.Result unknown = CliRunner.fast().run("output", "--dir", dir.toString(), "-e", "prod", "--no-color");

        assertThat(none.exitCode()).as("%s", none).isZero();
        assertThat(FaultSuiteTest.flat(none.out())).contains("No outputs found", "Environment \"b\" has no state under "
                + "the folder " + dir.resolve("state") + " yet: run flowform apply -e b first.");
        assertThat(unknown.exitCode()).as("%s", unknown).isEqualTo(1);
        assertThat(FaultSuiteTest.flat(unknown.err())).contains("Unknown environment",
                "No environment named \"prod\" is declared; declared: a, b.");
    }
}
