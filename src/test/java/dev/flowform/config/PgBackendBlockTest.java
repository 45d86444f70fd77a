package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code backend "pg"} block: Terraform's pg backend arguments, decoded as literals and checked with located
 * errors, kept as written (the environment is read when the state opens, not here).
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PgBackendBlockTest {

    private static final String ENV = "\"environment\": {\"demo\": {\"namespace\": \"kafka\"}}";

    @TempDir
    Path tmp;

    /** What {@link BackendDecoder} makes of one file's backend blocks. */
    private record Decoded(StateBackend backend, List<String> errors, List<String> warnings) {
    }

    private Decoded decode(String backendJson) {
        ParsedFile file = JsonSourceParser.parseText("main.flow.json", tmp, "{\"backend\": " + backendJson + "}");
        assertThat(file.diagnostics().hasErrors()).as("the test's JSON parses").isFalse();
        Diagnostics diagnostics = new Diagnostics();
        Sink sink = new Sink(diagnostics);
        List<Blocks.Block> blocks = new ArrayList<>();
        for (ConfigNode.Entry e : file.root().entries()) {
            blocks.addAll(Blocks.expand(e, 1, file, sink));
        }
        StateBackend backend = BackendDecoder.decode(blocks, tmp, sink);
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (Diagnostic d : diagnostics) {
            (d.isError() ? errors : warnings).add(Fixtures.line(d));
        }
        return new Decoded(backend, errors, warnings);
    }

    @Test
    void a_valid_block_decodes_to_its_settings_without_errors() {
        Decoded d = decode("{\"pg\": {\"conn_str\": \"postgresql://flowform@db.example/state\", \"schema_name\": \"team_a\"}}");

        assertThat(d.backend()).isEqualTo(new StateBackend.Pg("postgresql://flowform@db.example/state", "team_a",
                d.backend().declaredAt()));
        assertThat(d.backend().type()).isEqualTo("pg");
        assertThat(d.backend().declaredAt()).hasToString("main.flow.json:1:14");
        assertThat(d.backend().isDefault()).isFalse();
        assertThat(d.errors()).isEmpty();
        assertThat(d.warnings()).isEmpty();
    }

    @Test
    void without_conn_str_or_schema_name_the_connection_is_left_to_the_environment_and_the_schema_is_flowform() {
        for (String body : List.of("{}", "{\"conn_str\": null, \"schema_name\": null}")) {
            Decoded d = decode("{\"pg\": " + body + "}");

            assertThat(d.backend()).as(body).isInstanceOfSatisfying(StateBackend.Pg.class, pg -> {
                assertThat(pg.connStr()).isNull();
                assertThat(pg.schemaName()).isEqualTo(StateBackend.DEFAULT_SCHEMA).isEqualTo("flowform");
            });
            assertThat(d.errors()).isEmpty();
        }
    }

    @Test
    void the_loader_accepts_a_pg_block() {
        Path dir = Fixtures.writeMain(tmp.resolve("cfg"), "{\"backend\": {\"pg\": {\"schema_name\": \"ff\"}}, " + ENV + "}");

        assertThat(Fixtures.errors(new ConfigLoader().load(dir, null, Map.of()))).isEmpty();
        assertThat(new ConfigLoader().backend(dir).backend()).isInstanceOfSatisfying(StateBackend.Pg.class,
                pg -> assertThat(pg.schemaName()).isEqualTo("ff"));
    }

    @Test
    void a_reference_in_conn_str_points_to_the_environment_variables_instead() {
        Decoded d = decode("{\"pg\": {\"conn_str\": \"postgresql://${var.user}@db/state\"}}");

        assertThat(d.backend()).as("an unusable block leaves the default").isEqualTo(StateBackend.defaultFor(tmp));
        assertThat(d.errors()).contains("main.flow.json:1:33: Variables not allowed: References such as ${var.user} cannot "
                + "be used in a backend block: it is read before variables are, and by commands that read none. Leave "
                + "conn_str out and set FLOWFORM_PG_CONN_STR, or libpq's variables (PGHOST, PGPORT, PGUSER, PGPASSWORD, "
                + "PGDATABASE, PGSSLMODE), in flowform's environment.");
        assertThat(decode("{\"pg\": {\"conn_str\": \"password=$${literal}\"}}").backend())
                .as("an escaped $${ is a literal").isInstanceOf(StateBackend.Pg.class);
    }

    @Test
    void a_password_in_conn_str_is_a_located_warning_in_every_form() {
        for (String conn : List.of("postgresql://ff:hunter2@db/state", "host=db user=ff password=hunter2",
                "host=db password = 'hunter 2'", "postgres://ff@db/state?sslmode=require&password=hunter2")) {
            Decoded d = decode("{\"pg\": {\"conn_str\": \"" + conn + "\"}}");

            assertThat(d.warnings()).as(conn).singleElement().asString()
                    .startsWith("main.flow.json:1:33: Password in the configuration: conn_str holds a password")
                    .contains("PGPASSWORD", "FLOWFORM_PG_CONN_STR").doesNotContain("hunter");
            assertThat(d.backend()).as(conn).isInstanceOf(StateBackend.Pg.class);
            assertThat(d.backend().toString()).as(conn).doesNotContain("hunter").contains("****");
        }
        assertThat(decode("{\"pg\": {\"conn_str\": \"postgresql://ff@db:5432/state?sslmode=require\"}}").warnings())
                .isEmpty();
    }

    @Test
    void wrong_types_empty_strings_bad_schema_names_and_unknown_arguments_are_located_errors() {
        assertThat(decode("{\"pg\": {\"conn_str\": 5432}}").errors()).contains("main.flow.json:1:33: Incorrect attribute "
                + "value type: Inappropriate value for argument \"conn_str\": expected string, got number (a PostgreSQL "
                + "connection string).");
        assertThat(decode("{\"pg\": {\"conn_str\": \"  \"}}").errors()).anySatisfy(e -> assertThat(e)
                .startsWith("main.flow.json:1:33: Invalid backend connection string: conn_str is empty."));
        for (String bad : List.of("Flowform", "9lives", "flow-form", "x".repeat(64), "")) {
            Decoded d = decode("{\"pg\": {\"schema_name\": \"" + bad + "\"}}");
            assertThat(d.backend()).as(bad).isInstanceOf(StateBackend.Local.class);
            assertThat(d.errors()).as(bad).anySatisfy(e -> assertThat(e).startsWith("main.flow.json:1:36: Invalid backend "
                    + "schema name: schema_name \"").contains("must be a lower-case PostgreSQL name of at most 63"));
        }
        assertThat(decode("{\"pg\": {\"schema_name\": \"" + "x".repeat(63) + "\"}}").backend()).isInstanceOf(StateBackend.Pg.class);
        assertThat(decode("{\"pg\": {\"schema_name\": \"_team$1_state\"}}").backend()).isInstanceOf(StateBackend.Pg.class);
        assertThat(decode("{\"pg\": {\"schema_name\": \"pg_state\"}}").errors()).anySatisfy(e -> assertThat(e)
                .contains("must not start with \"pg_\", which PostgreSQL reserves for system schemas"));
        assertThat(decode("{\"pg\": {\"skip_table_creation\": true}}").errors()).anySatisfy(e -> assertThat(e)
                .startsWith("main.flow.json:1:21: Unsupported argument: flowform creates the schema, its tables and"));
        assertThat(decode("{\"pg\": {\"conn\": \"x\"}}").errors()).anySatisfy(e -> assertThat(e)
                .contains("An argument named \"conn\" is not expected in a backend \"pg\" block. Did you mean \"conn_str\"?"));
    }

    @Test
    void a_second_backend_block_after_a_pg_block_is_a_duplicate() {
        Decoded d = decode("{\"pg\": {}, \"local\": {}}");

        assertThat(d.backend()).isInstanceOf(StateBackend.Pg.class);
        assertThat(d.errors()).anySatisfy(e -> assertThat(e).startsWith("main.flow.json:1:24: Duplicate backend block"));
    }

    @Test
    void masking_hides_the_password_of_both_forms_and_nothing_else() {
        assertThat(StateBackend.Pg.masked("postgresql://ff:p%40ss@db:5432/state?sslmode=require"))
                .isEqualTo("postgresql://ff:****@db:5432/state?sslmode=require");
        assertThat(StateBackend.Pg.masked("postgres://ff:a@b@db/state")).isEqualTo("postgres://ff:****@db/state");
        assertThat(StateBackend.Pg.masked("postgres://ff@db/state?password=x&sslmode=disable"))
                .isEqualTo("postgres://ff@db/state?password=****&sslmode=disable");
        assertThat(StateBackend.Pg.masked("host=db password='a \\' b' user=ff")).isEqualTo("host=db password=**** user=ff");
        assertThat(StateBackend.Pg.masked("password=x\\ y user=ff")).isEqualTo("password=**** user=ff");
        assertThat(StateBackend.Pg.masked("postgresql://ff@db:5432/state")).isEqualTo("postgresql://ff@db:5432/state");
        assertThat(StateBackend.Pg.masked("host=db user=ff sslpassword_like=x")).isEqualTo("host=db user=ff sslpassword_like=x");
        assertThat(new StateBackend.Pg(null, "flowform", tmpRange()).toString()).contains("connStr=null");
    }

    @Test
    void a_pg_backend_has_no_state_folder_and_a_local_one_keeps_its_record_form() {
        StateBackend.Pg pg = new StateBackend.Pg("host=db user=ff", "flowform", tmpRange());
        assertThatThrownBy(pg::stateDir).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("keeps its state in PostgreSQL");

        StateBackend.Local local = StateBackend.defaultFor(tmp);
        assertThat(local.type()).isEqualTo(StateBackend.LOCAL);
        assertThat(local.isDefault()).isTrue();
        assertThat(local).isEqualTo(new StateBackend.Local(tmp.toAbsolutePath().resolve("state").normalize(), null));
    }

    private dev.flowform.diag.SourceRange tmpRange() {
        return decode("{\"pg\": {}}").backend().declaredAt();
    }
}
