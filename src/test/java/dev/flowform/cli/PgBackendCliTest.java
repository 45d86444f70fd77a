package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.SimSettings;
import dev.flowform.testing.PgServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart with {@code "backend": {"pg": ...}}: every command finds the state in PostgreSQL through the backend
 * block and {@code FLOWFORM_PG_CONN_STR} (no state folder), and neither the live cluster's secret nor the database
 * password reaches the output, the saved plan, or any text column of any PostgreSQL table.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PgBackendCliTest {

    /** The quickstart seed's connector password, replaced by a canary. */
    private static final String LIVE_PASSWORD = "Canary-PgLive-6c1d2e";
    /** The database password (the test server trusts loopback and ignores it, so it only travels). */
    private static final String DB_PASSWORD = "Canary-PgPass-93fa01";
    private static final List<String> CANARIES = List.of(LIVE_PASSWORD, DB_PASSWORD);
    private static final String SCHEMA = "team_state";

    @TempDir
    Path tmp;

    /** @return a copy of the quickstart whose state is in schema {@value #SCHEMA} */
    static Path quickstartOnPg(Path target) throws IOException {
        Path dir = CliFiles.quickstart(target);
        Path main = dir.resolve("main.flow.json");
        String text = Pattern.compile("\"backend\": \\{\\s*\"local\": \\{[^}]*\\}\\s*\\}").matcher(Files.readString(main))
                .replaceFirst("\"backend\": {\"pg\": {\"schema_name\": \"" + SCHEMA + "\"}}");
        assertThat(text).contains("\"pg\"").doesNotContain("\"local\"");
        Files.writeString(main, text);
        Path seed = dir.resolve("seed/mm2-connect.yaml");
        Files.writeString(seed, Files.readString(seed).replace("Fixture-Secret-4417", LIVE_PASSWORD));
        return dir;
    }

    /** @return a runner whose environment points the pg backend at {@code db} (with a password) */
    static CliRunner runner(PgServer.Database db, String password) {
        Map<String, String> env = Map.of("FLOWFORM_PG_CONN_STR", db.keywordConnStr() + " password=" + password);
        return new CliRunner(new CliContext(Clock.systemUTC(), new Prompter() {
            @Override
            public boolean interactive() {
                return false;
            }

            @Override
            public String ask(String prompt) {
                return null;
            }
        }, env, SimSettings.fast(), Duration.ofSeconds(10)));
    }

    @Test
    void the_quickstart_applies_with_state_in_postgresql_and_no_secret_reaches_output_plan_or_tables() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("cli");
        Path dir = quickstartOnPg(tmp.resolve("qs"));
        CliRunner cli = runner(db, DB_PASSWORD);
        List<String> outputs = new ArrayList<>();
        Path planFile = tmp.resolve("eos.plan.json");

        CliRunner.Result plan = run(cli, outputs, "plan", "--dir", dir.toString(), "--out", planFile.toString(), "--no-color");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        CliRunner.Result apply = run(cli, outputs, "apply", "--dir", dir.toString(), planFile.toString(), "--no-color");
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.out()).contains("Apply complete!");
        CliRunner.Result again = run(cli, outputs, "plan", "--dir", dir.toString(), "--detailed-exitcode", "--no-color");
        assertThat(again.exitCode()).as("%s", again).isZero();
        assertThat(again.out()).contains("No changes.");
        CliRunner.Result history = run(cli, outputs, "history", "--dir", dir.toString(), "--no-color");
        assertThat(history.exitCode()).as("%s", history).isZero();
        assertThat(history.out()).contains("Run 1  apply  SUCCEEDED");
        assertThat(run(cli, outputs, "state", "list", "--dir", dir.toString()).out())
                .contains("kafka_connector.dc1-to-dc2-source");
        assertThat(run(cli, outputs, "show", "--dir", dir.toString(), "--no-color").exitCode()).isZero();
        assertThat(run(cli, outputs, "output", "--dir", dir.toString(), "--no-color").exitCode()).isZero();
        CliRunner.Result pull = run(cli, outputs, "state", "pull", "--dir", dir.toString());
        assertThat(pull.exitCode()).isZero();
        assertThat(pull.out()).contains("\"format\" : \"flowform-state\"");
        CliRunner.Result restore = run(cli, outputs, "state", "restore", "--dir", dir.toString(), "--no-color");
        assertThat(restore.exitCode()).isEqualTo(1);
        assertThat(restore.err()).contains("No backups of PostgreSQL state", "pg_dump", "state pull");
        CliRunner.Result other = run(cli, outputs, "history", "--dir", dir.toString(), "-e", "staging", "--no-color");
        assertThat(other.exitCode()).isEqualTo(1);
        assertThat(other.err()).contains("No state for environment \"staging\"", "in PostgreSQL schema " + SCHEMA);

        assertThat(dir.resolve("state/demo/flowform.mv.db")).as("no H2 state file").doesNotExist();
        String all = String.join("\n", outputs) + Files.readString(planFile);
        for (String canary : CANARIES) {
            assertThat(all).as("output and saved plan").doesNotContain(canary);
        }
        assertThat(textColumns(db)).as("every text column of every table").isNotEmpty()
                .allSatisfy(text -> CANARIES.forEach(c -> assertThat(text).doesNotContain(c)));
        assertThat(String.join("\n", textColumns(db))).as("the scan saw the state").contains("dc1-to-dc2", "sha256:");
    }

    private static CliRunner.Result run(CliRunner cli, List<String> outputs, String... args) {
        CliRunner.Result r = cli.run(args);
        outputs.add(String.join(" ", args) + " (exit " + r.exitCode() + ")\n" + r.out() + "\n" + r.err());
        return r;
    }

    /** @return the value of every text column of every table of every schema but PostgreSQL's own, one per cell */
    static List<String> textColumns(PgServer.Database db) throws SQLException {
        List<String> cells = new ArrayList<>();
        try (Connection c = db.connect()) {
            DatabaseMetaData md = c.getMetaData();
            List<String[]> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, null, "%", "%")) {
                while (rs.next()) {
                    String schema = rs.getString("TABLE_SCHEM");
                    String type = rs.getString("TYPE_NAME");
                    if (!schema.equals("pg_catalog") && !schema.equals("information_schema")
                            && (type.contains("char") || type.equals("text") || type.equals("json") || type.equals("jsonb"))) {
                        columns.add(new String[] {schema, rs.getString("TABLE_NAME"), rs.getString("COLUMN_NAME")});
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String[] col : columns) {
                    try (ResultSet rs = s.executeQuery("SELECT \"" + col[2] + "\"::text FROM \"" + col[0] + "\".\""
                            + col[1] + "\" WHERE \"" + col[2] + "\" IS NOT NULL")) {
                        while (rs.next()) {
                            cells.add(new String(rs.getString(1).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
                        }
                    }
                }
            }
        }
        return cells;
    }
}
