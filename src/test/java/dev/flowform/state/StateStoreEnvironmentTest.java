package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StateStoreEnvironmentTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @Test
    void firstOpenCreatesTheEnvironmentWithLineageAndSerialZero() {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            EnvironmentRecord env = store.environment();
            assertThat(env.name()).isEqualTo("prod");
            assertThat(env.lineage()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
            assertThat(env.serial()).isZero();
            assertThat(env.kubeServer()).isNull();
            assertThat(env.kubeNamespace()).isNull();
            assertThat(env.createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
            assertThat(store.stateRef().lineage()).isEqualTo(env.lineage());
            assertThat(store.stateRef().serial()).isZero();
        }
        assertThat(StateStore.databaseFile(stateDir, "prod")).isRegularFile()
                .isEqualTo(stateDir.toAbsolutePath().resolve("prod").resolve("flowform.mv.db"));
    }

    @Test
    void lineageIsCreatedOnceAndStableAcrossReopen() {
        String lineage;
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            lineage = store.environment().lineage();
        }
        clock.advance(java.time.Duration.ofDays(3));
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            assertThat(store.environment().lineage()).isEqualTo(lineage);
            assertThat(store.environment().createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
        }
        try (StateStore a = StateStore.open(stateDir, "prod", clock);
             StateStore b = StateStore.open(stateDir, "prod", clock)) {
            assertThat(a.environment().lineage()).isEqualTo(lineage);
            assertThat(b.environment().lineage()).isEqualTo(lineage);
        }
    }

    @Test
    void differentEnvironmentsHaveDifferentFilesLineagesAndLocks() {
        try (StateStore prod = StateStore.open(stateDir, "prod", clock);
             StateStore staging = StateStore.open(stateDir, "staging", clock)) {
            assertThat(StateStore.databaseFile(stateDir, "prod")).isRegularFile();
            assertThat(StateStore.databaseFile(stateDir, "staging")).isRegularFile();
            assertThat(StateStore.databaseFile(stateDir, "prod")).isNotEqualTo(StateStore.databaseFile(stateDir, "staging"));
            assertThat(prod.environment().lineage()).isNotEqualTo(staging.environment().lineage());

            LockInfo prodLock = prod.lockTable().lock("apply", "alice@a", "0.1.0");
            LockInfo stagingLock = staging.lockTable().lock("apply", "bob@b", "0.1.0");
            assertThat(prodLock.environment()).isEqualTo("prod");
            assertThat(stagingLock.environment()).isEqualTo("staging");
            assertThat(prod.lockTable().current()).contains(prodLock);
            assertThat(staging.lockTable().current()).contains(stagingLock);

            prod.journal().startRun("apply", null, "alice@a", "0.1.0");
            assertThat(prod.stateRef().serial()).isEqualTo(1);
            assertThat(staging.stateRef().serial()).isZero();
        }
    }

    @Test
    void inMemoryStoresAreIndependentEvenForTheSameName() {
        try (StateStore a = StateStore.inMemory("prod", clock);
             StateStore b = StateStore.inMemory("prod", clock)) {
            assertThat(a.environment().lineage()).isNotEqualTo(b.environment().lineage());
            a.lockTable().lock("apply", "alice@a", "0.1.0");
            assertThat(b.lockTable().current()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "../prod", "prod env", "prod;AUTO_SERVER=FALSE", "prød", "a\\b", "x:y"})
    void invalidEnvironmentNamesAreRejected(String name) {
        assertThatThrownBy(() -> StateStore.open(stateDir, name, clock))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid environment name \"" + name + "\"")
                .hasMessageContaining("letters, digits");
        assertThatThrownBy(() -> StateStore.inMemory(name, clock)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void missingAndOverlongEnvironmentNamesAreRejected() {
        assertThatThrownBy(() -> StateStore.open(stateDir, null, clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("environment name is missing");
        assertThatThrownBy(() -> StateStore.validateEnvironmentName("a".repeat(101)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 100");
        StateStore.validateEnvironmentName("a".repeat(100));
    }

    @ParameterizedTest
    @ValueSource(strings = {"prod", "eu-west.staging", "team_a-1", "PROD", "-x"})
    void validEnvironmentNamesAreAccepted(String name) {
        try (StateStore store = StateStore.open(stateDir, name, clock)) {
            assertThat(store.environment().name()).isEqualTo(name);
        }
        assertThat(StateStore.databaseFile(stateDir, name).getParent().getParent()).isEqualTo(stateDir.toAbsolutePath());
    }

    @Test
    void aDatabaseCopiedToAnotherEnvironmentIsRefused() throws Exception {
        try (StateStore prod = StateStore.open(stateDir, "prod", clock)) {
            prod.journal().startRun("apply", null, "alice@a", "0.1.0");
        }
        Path staging = StateStore.databaseFile(stateDir, "staging");
        Files.createDirectories(staging.getParent());
        Files.copy(StateStore.databaseFile(stateDir, "prod"), staging);

        assertThatThrownBy(() -> StateStore.open(stateDir, "staging", clock))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("belongs to environment \"prod\", not \"staging\"");
    }

    @Test
    void aDatabaseMigratedByANewerFlowformIsRefused() throws Exception {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            try (Connection c = DriverManager.getConnection(StateStore.jdbcUrl(stateDir, "prod"), "sa", "");
                 Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO \"flyway_schema_history\" (\"installed_rank\", \"version\", \"description\", \"type\","
                        + " \"script\", \"checksum\", \"installed_by\", \"execution_time\", \"success\")"
                        + " VALUES (99, '99', 'from the future', 'SQL', 'V99__from_the_future.sql', 0, 'sa', 1, TRUE)");
            }
        }
        assertThatThrownBy(() -> StateStore.open(stateDir, "prod", clock))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schema version 99")
                .hasMessageContaining("newer flowform");
    }

    @Test
    void commitsAreWrittenToTheFileImmediatelySoKillMinus9KeepsThem() throws Exception {
        // H2's default WRITE_DELAY (500 ms) loses committed rows when the process is killed right after
        // a commit; the store's URL sets it to 0. Guard the setting itself.
        try (StateStore store = StateStore.open(stateDir, "prod", clock);
             Connection c = DriverManager.getConnection(StateStore.jdbcUrl(stateDir, "prod"), "sa", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(
                     "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'WRITE_DELAY'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("0");
        }
    }

    @Test
    void hashSecretIsSaltedPerEnvironmentAndDeterministicWithinOne() throws Exception {
        String prodHash;
        String stagingHash;
        try (StateStore prod = StateStore.open(stateDir, "prod", clock);
             StateStore staging = StateStore.open(stateDir, "staging", clock)) {
            prodHash = prod.cipher().hash("s3cret");
            stagingHash = staging.cipher().hash("s3cret");
            assertThat(prodHash).matches("sha256:[0-9a-f]{64}");
            assertThat(prod.cipher().hash("s3cret")).isEqualTo(prodHash);
            assertThat(prod.cipher().hash("s3cret2")).isNotEqualTo(prodHash);
            assertThat(stagingHash).isNotEqualTo(prodHash);
            assertThat(prodHash).isNotEqualTo("sha256:" + sha256Hex("s3cret".getBytes(StandardCharsets.UTF_8)));

            // the documented rule: sha256(salt bytes || UTF-8 value), salt read from the database
            try (Connection c = DriverManager.getConnection(StateStore.jdbcUrl(stateDir, "prod"), "sa", "");
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT secret_salt FROM environment")) {
                rs.next();
                byte[] salt = HexFormat.of().parseHex(rs.getString(1));
                assertThat(salt).hasSize(16);
                byte[] value = "s3cret".getBytes(StandardCharsets.UTF_8);
                byte[] both = new byte[salt.length + value.length];
                System.arraycopy(salt, 0, both, 0, salt.length);
                System.arraycopy(value, 0, both, salt.length, value.length);
                assertThat(prodHash).isEqualTo("sha256:" + sha256Hex(both));
            }
        }
        try (StateStore prod = StateStore.open(stateDir, "prod", clock)) {
            assertThat(prod.cipher().hash("s3cret")).isEqualTo(prodHash);
        }
    }

    @Test
    void aClosedStoreRefusesCallsAndClosingTwiceIsHarmless() {
        StateStore store = StateStore.inMemory("prod", clock);
        store.close();
        store.close();
        assertThatThrownBy(store::environment).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void kubeServerIsRecorded() {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            store.setKubeServer("https://10.0.0.1:6443", "kafka");
        }
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            assertThat(store.environment().kubeServer()).isEqualTo("https://10.0.0.1:6443");
            assertThat(store.environment().kubeNamespace()).isEqualTo("kafka");
            assertThatThrownBy(() -> store.setKubeServer(" ", "kafka")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static String sha256Hex(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
