package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plain-JDBC check that lets a current state open without Flyway agrees with Flyway itself. */
class SchemaCurrentTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @Test
    void theListOfMigrationScriptsIsTheMigrationFolder() throws Exception {
        URL folder = StateDatabase.class.getClassLoader().getResource("db/migration");
        assertThat(folder).isNotNull();
        List<String> names;
        try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
            names = files.map(p -> p.getFileName().toString()).sorted((a, b) -> Integer.compare(version(a), version(b))).toList();
        }
        assertThat(names).as("add every new migration to StateDatabase.MIGRATION_SCRIPTS").isEqualTo(StateDatabase.MIGRATION_SCRIPTS);
    }

    @Test
    void checksumsAreTheOnesFlywayRecords() throws Exception {
        StateStore.open(stateDir, "prod", clock).close();
        List<String> recorded = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(StateStore.jdbcUrl(stateDir, "prod"), "sa", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"script\", \"checksum\" FROM \"flyway_schema_history\""
                     + " WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
            while (rs.next()) {
                recorded.add(rs.getString(1) + "=" + rs.getInt(2));
            }
        }
        List<String> computed = StateDatabase.MIGRATION_SCRIPTS.stream()
                .map(f -> f + "=" + StateDatabase.flywayChecksum("db/migration/" + f)).toList();
        assertThat(computed).isEqualTo(recorded);
    }

    @Test
    void onlyAFullyMigratedUnchangedHistoryCountsAsCurrent() throws Exception {
        String url = StateStore.jdbcUrl(stateDir, "prod");
        Files.createDirectories(StateStore.databaseFile(stateDir, "prod").getParent());
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            c.setAutoCommit(false);
            assertThat(StateDatabase.schemaIsCurrent(c)).as("new database").isFalse();
        }
        StateStore.open(stateDir, "prod", clock).close();
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            c.setAutoCommit(false);
            assertThat(StateDatabase.schemaIsCurrent(c)).as("migrated").isTrue();
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE \"flyway_schema_history\" SET \"checksum\" = 1 WHERE \"version\" = '3'");
                assertThat(StateDatabase.schemaIsCurrent(c)).as("changed script").isFalse();
                s.executeUpdate("UPDATE \"flyway_schema_history\" SET \"checksum\" = "
                        + StateDatabase.flywayChecksum("db/migration/V3__lock_holder_process.sql") + " WHERE \"version\" = '3'");
                c.commit();
                assertThat(StateDatabase.schemaIsCurrent(c)).as("restored").isTrue();
                s.executeUpdate("DELETE FROM \"flyway_schema_history\" WHERE \"version\" = '3'");
                assertThat(StateDatabase.schemaIsCurrent(c)).as("pending migration").isFalse();
                c.rollback();
                s.executeUpdate("UPDATE \"flyway_schema_history\" SET \"success\" = FALSE WHERE \"version\" = '2'");
                assertThat(StateDatabase.schemaIsCurrent(c)).as("failed migration").isFalse();
                c.rollback();
            }
        }
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            assertThat(store.environment().name()).isEqualTo("prod");
        }
    }

    private static int version(String script) {
        return Integer.parseInt(script.substring(1, script.indexOf("__")));
    }
}
