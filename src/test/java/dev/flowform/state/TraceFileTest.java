package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2 writes no {@code flowform.trace.db} beside the state: not when Flyway creates the schema (its first look at a
 * new file fails on purpose), not for a failed statement, not when the file is opened read-only. The same steps on
 * the same URL without {@code TRACE_LEVEL_FILE=0} do leave one, so the check can fail.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class TraceFileTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @Test
    void creating_using_and_reading_a_state_leaves_no_trace_file() throws Exception {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            store.lockTable().lock("apply", "me@here", "test");
            failOneStatement(StateStore.jdbcUrl(stateDir, "prod"));
        }
        StateStore.openReadOnly(stateDir, "prod", clock).close();

        assertThat(traceFiles(stateDir)).isEmpty();
    }

    @Test
    void without_the_option_h2_leaves_one() throws Exception {
        String url = StateStore.jdbcUrl(stateDir, "dev");
        assertThat(url).contains(";TRACE_LEVEL_FILE=0");
        Files.createDirectories(StateStore.databaseFile(stateDir, "dev").getParent());

        failOneStatement(url.replace(";TRACE_LEVEL_FILE=0", ""));

        assertThat(traceFiles(stateDir)).extracting(p -> p.getFileName().toString()).containsExactly("flowform.trace.db");
    }

    private static void failOneStatement(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT * FROM no_such_table")).isInstanceOf(SQLException.class);
        }
    }

    private static List<Path> traceFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".trace.db")).toList();
        }
    }
}
