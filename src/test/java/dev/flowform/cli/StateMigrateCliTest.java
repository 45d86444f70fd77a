package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.testing.PgServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flowform state migrate}: the quickstart's state after an apply goes H2 -> PostgreSQL -> H2 with the same
 * lineage, serial and history, each copy plans "No changes.", and a target holding another lineage is refused.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StateMigrateCliTest {

    private static final String TO_PG = "{\"pg\": {\"schema_name\": \"migrated\"}}";

    @TempDir
    Path tmp;

    @Test
    void the_quickstart_state_goes_to_postgresql_and_back_with_its_lineage_serial_and_history() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("migrate");
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path h2 = tmp.resolve("h2-state");
        Path back = tmp.resolve("h2-again");
        CliRunner cli = PgBackendCliTest.runner(db, "unused");

        assertThat(cli.run("apply", "--dir", dir.toString(), "--state-dir", h2.toString(), "--auto-approve",
                "--no-color").exitCode()).isZero();
        String history = cli.run("history", "--dir", dir.toString(), "--state-dir", h2.toString(), "--no-color").out();
        String[] ref = lineageAndSerial(history);

        CliRunner.Result toPg = cli.run("state", "migrate", "--dir", dir.toString(), "--state-dir", h2.toString(),
                "--to-backend", TO_PG, "--no-color");
        assertThat(toPg.exitCode()).as("%s", toPg).isZero();
        assertThat(toPg.out()).contains("Migrated the state of environment \"demo\" to PostgreSQL schema migrated:",
                "lineage " + ref[0], "serial " + ref[1], "Verified");

        Path pgDir = PgBackendCliTest.quickstartOnPg(tmp.resolve("qs-pg"));
        Files.writeString(pgDir.resolve("main.flow.json"), Files.readString(pgDir.resolve("main.flow.json"))
                .replace("team_state", "migrated"));
        // the embedded cluster's data lives beside the state folder: give the pg copy the same cluster
        CliFiles.copy(h2.resolve("demo"), pgDir.resolve("state/demo"));
        Files.deleteIfExists(pgDir.resolve("state/demo/flowform.mv.db"));
        assertThat(cli.run("history", "--dir", pgDir.toString(), "--no-color").out()).isEqualTo(history);
        CliRunner.Result planPg = cli.run("plan", "--dir", pgDir.toString(), "--detailed-exitcode", "--no-color");
        assertThat(planPg.exitCode()).as("%s", planPg).isZero();
        assertThat(planPg.out()).contains("No changes.");

        CliRunner.Result toH2 = cli.run("state", "migrate", "--dir", pgDir.toString(), "--to-backend",
                "{\"local\": {\"path\": \"" + back.toString().replace("\\", "\\\\") + "\"}}", "--no-color");
        assertThat(toH2.exitCode()).as("%s", toH2).isZero();
        assertThat(toH2.out()).contains("Migrated the state of environment \"demo\" to the folder " + back + ":");
        assertThat(cli.run("history", "--dir", dir.toString(), "--state-dir", back.toString(), "--no-color").out())
                .isEqualTo(history);

        CliRunner.Result refused = cli.run("state", "migrate", "--dir", dir.toString(), "--state-dir",
                tmp.resolve("fresh").toString(), "-e", "demo", "--to-backend", TO_PG, "--no-color");
        assertThat(refused.exitCode()).as("a source without state").isEqualTo(1);
        assertThat(refused.err()).contains("No state for environment \"demo\"");
    }

    @Test
    void a_target_holding_another_lineage_is_refused_and_left_unchanged() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("migrate_refused");
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        CliRunner cli = PgBackendCliTest.runner(db, "unused");
        for (String folder : new String[] {"one", "two"}) {
            assertThat(cli.run("apply", "--dir", dir.toString(), "--state-dir", tmp.resolve(folder).toString(),
                    "--auto-approve", "--no-color").exitCode()).isZero();
        }
        assertThat(cli.run("state", "migrate", "--dir", dir.toString(), "--state-dir", tmp.resolve("one").toString(),
                "--to-backend", TO_PG).exitCode()).isZero();

        CliRunner.Result refused = cli.run("state", "migrate", "--dir", dir.toString(), "--state-dir",
                tmp.resolve("two").toString(), "--to-backend", TO_PG, "--no-color");

        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("Failed to migrate the state", "lineage", "Nothing was changed.");
    }

    private static String[] lineageAndSerial(String history) {
        Matcher m = Pattern.compile("lineage ([0-9a-f-]{36}), serial (\\d+)").matcher(history);
        assertThat(m.find()).as(history).isTrue();
        return new String[] {m.group(1), m.group(2)};
    }
}
