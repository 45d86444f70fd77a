package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    @Test
    void anEarlierTextDiffersOnlyInCommentsAndHasTheRecordedChecksum() throws Exception {
        for (Map.Entry<String, Integer> e : StateDatabase.REWORDED.entrySet()) {
            String script = StateDatabase.MIGRATION_SCRIPTS.get(Integer.parseInt(e.getKey()) - 1);
            assertThat(StateDatabase.flywayChecksum("db/reworded/" + script)).as(script).isEqualTo(e.getValue());
            assertThat(StateDatabase.flywayChecksum("db/migration/" + script)).as(script).isNotEqualTo(e.getValue());
            assertThat(statements("db/reworded/" + script)).as(script).isEqualTo(statements("db/migration/" + script));
        }
    }

    @Test
    void aStateMigratedWithEarlierTextsOpensAndGetsTodaysChecksums() throws Exception {
        StateStore.open(stateDir, "prod", clock).close();
        String url = StateStore.jdbcUrl(stateDir, "prod");
        for (Map.Entry<String, Integer> e : StateDatabase.REWORDED.entrySet()) {
            setChecksum(url, e.getKey(), e.getValue());
        }
        try (StateStore store = StateStore.openReadOnly(stateDir, "prod", clock)) {
            assertThat(store.environment().name()).as("read-only, no migration needed").isEqualTo("prod");
        }
        // Flyway, which runs whenever a migration is pending, validates the history: the earlier checksum passes
        Backend backend = H2Backend.file(stateDir.toAbsolutePath().normalize().resolve("prod"), dev.flowform.locking.Sleeper.SYSTEM);
        StateDatabase.migrate(backend);
        for (String version : StateDatabase.REWORDED.keySet()) {
            String script = StateDatabase.MIGRATION_SCRIPTS.get(Integer.parseInt(version) - 1);
            assertThat(checksum(url, version)).as(script).isEqualTo(StateDatabase.flywayChecksum("db/migration/" + script));
        }
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            assertThat(store.environment().name()).isEqualTo("prod");
        }

        setChecksum(url, "2", 12345);
        assertThatThrownBy(() -> StateDatabase.migrate(backend))
                .hasMessageContaining("checksum mismatch for migration version 2");
    }

    private static void setChecksum(String url, String version, int checksum) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE \"flyway_schema_history\" SET \"checksum\" = " + checksum + " WHERE \"version\" = '"
                    + version + "'");
        }
    }

    private static int checksum(String url, String version) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"checksum\" FROM \"flyway_schema_history\" WHERE \"version\" = '"
                     + version + "'")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    /** The script's lines without comments and blank lines. */
    private static List<String> statements(String resource) throws Exception {
        try (var in = SchemaCurrentTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .map(l -> l.replaceAll("--.*$", "").strip()).filter(l -> !l.isEmpty()).toList();
        }
    }

    private static int version(String script) {
        return Integer.parseInt(script.substring(1, script.indexOf("__")));
    }
}
