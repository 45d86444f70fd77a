package dev.flowform.state.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.testing.PgServer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;

/**
 * The state schema on PostgreSQL: the released Flyway migrations run there unchanged, in a schema of their own, and
 * give the same tables as on H2; the environment-key migration (V5) runs on both after them, gives both the same
 * tables again, and files an H2 state's existing rows under its one environment.
 */
class PgSchemaTest {

    private static final String SCHEMA = "flowform";
    /** The last version before the environment key. */
    private static final String BEFORE_KEY = "4";
    private static final String INSERT_ENVIRONMENT = "INSERT INTO environment (name, lineage, serial, secret_salt, "
            + "created_at) VALUES ('%s', '%s', 1, '00112233445566778899aabbccddeeff', TIMESTAMP WITH TIME ZONE "
            + "'2026-03-01 10:00:00+00')";
    private static final String INSERT_SNAPSHOT = "INSERT INTO resource_snapshot (%saddress, kind, namespace, name, "
            + "body_json, updated_serial, updated_at) VALUES (%s'replication_flow.orders', 'KafkaConnector', 'kafka', "
            + "'orders', '{}', 1, TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00+00')";

    @Test
    void the_released_migrations_run_unchanged_on_postgresql_and_give_the_same_tables_as_on_h2() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("schema");

        MigrateResult result = pgFlyway(db, BEFORE_KEY).migrate();

        assertThat(result.success).isTrue();
        assertThat(result.migrationsExecuted).isEqualTo(4);
        assertThat(result.schemaName).isEqualTo(SCHEMA);
        try (Connection pg = db.connect(); Connection h2 = h2(false)) {
            List<String> pgShape = SchemaShape.of(pg, SCHEMA, false);
            assertThat(pgShape).contains("table environment", "table run", "table run_step", "table resource_snapshot",
                    "table output_value", "table state_lock", "column state_lock.holder_process character varying"
                    + " nullable=yes identity=no", "index run.run_by_outcome [outcome, id]");
            assertThat(pgShape).isEqualTo(SchemaShape.of(h2, "PUBLIC", true));
        }
    }

    @Test
    void the_environment_key_migration_gives_h2_and_postgresql_the_same_tables() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("proposal");

        MigrateResult result = pgFlyway(db, null).migrate();

        assertThat(result.migrationsExecuted).isEqualTo(released().size());
        try (Connection pg = db.connect(); Connection h2 = h2(true)) {
            List<String> pgShape = SchemaShape.of(pg, SCHEMA, false);
            assertThat(pgShape).contains(
                    "column run.environment character varying(100) nullable=no identity=no",
                    "constraint resource_snapshot.resource_snapshot_pk primary key [environment, address]",
                    "constraint output_value.output_value_pk primary key [environment, name]",
                    "constraint run.run_environment_fk foreign key [environment] -> environment_pk",
                    "index run.run_by_environment_outcome [environment, outcome, id]",
                    "column state_lock.holder_session integer nullable=yes identity=no");
            assertThat(pgShape).noneMatch(l -> l.contains("run_by_outcome"));
            assertThat(pgShape).isEqualTo(SchemaShape.of(h2, "PUBLIC", true));
        }
    }

    @Test
    void the_environment_key_migration_files_an_h2_states_rows_under_its_one_environment_and_then_keys_them_by_environment()
            throws Exception {
        String url = "jdbc:h2:mem:existing;DB_CLOSE_DELAY=-1";
        Flyway.configure(getClass().getClassLoader()).dataSource(url, "sa", "").locations("classpath:db/migration")
                .target(BEFORE_KEY).load().migrate();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.execute(INSERT_ENVIRONMENT.formatted("prod", "11111111-1111-1111-1111-111111111111"));
            s.execute("INSERT INTO run (kind, who, flowform_version, started_at, outcome) VALUES ('apply', 'ci@host', "
                    + "'0.1.0', TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00+00', 'SUCCEEDED')");
            s.execute(INSERT_SNAPSHOT.formatted("", ""));
            s.execute("INSERT INTO output_value (name, value_json, value_type, sensitive, updated_serial, updated_at) "
                    + "VALUES ('topic', '\"orders\"', 'string', FALSE, 1, TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00+00')");

            Flyway.configure(getClass().getClassLoader()).dataSource(url, "sa", "")
                    .locations("classpath:db/migration").load().migrate();

            for (String table : List.of("run", "resource_snapshot", "output_value")) {
                assertThat(single(s, "SELECT environment FROM " + table)).as(table).isEqualTo("prod");
            }
            s.execute(INSERT_ENVIRONMENT.formatted("staging", "22222222-2222-2222-2222-222222222222"));
            s.execute(INSERT_SNAPSHOT.formatted("environment, ", "'staging', "));
            assertThat(single(s, "SELECT COUNT(*) FROM resource_snapshot WHERE address = 'replication_flow.orders'"))
                    .isEqualTo("2");
            assertThatThrownBy(() -> s.execute(INSERT_SNAPSHOT.formatted("environment, ", "'nowhere', ")))
                    .as("a row for an environment that does not exist").isInstanceOf(SQLException.class);
        } finally {
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            }
        }
    }

    @Test
    void on_postgresql_two_environments_share_the_schema_and_keep_their_own_rows() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("shared");
        pgFlyway(db, null).migrate();

        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + SCHEMA);
            s.execute(INSERT_ENVIRONMENT.formatted("prod", "11111111-1111-1111-1111-111111111111"));
            s.execute(INSERT_ENVIRONMENT.formatted("staging", "22222222-2222-2222-2222-222222222222"));
            s.execute(INSERT_SNAPSHOT.formatted("environment, ", "'prod', "));
            s.execute(INSERT_SNAPSHOT.formatted("environment, ", "'staging', "));

            assertThat(single(s, "SELECT COUNT(*) FROM resource_snapshot")).isEqualTo("2");
            assertThatThrownBy(() -> s.execute(INSERT_SNAPSHOT.formatted("environment, ", "'prod', ")))
                    .as("the same address twice in one environment").isInstanceOf(SQLException.class)
                    .hasMessageContaining("resource_snapshot_pk");
        }
    }

    /** Flyway for the database's schema, migrating up to {@code target} (null: every migration). */
    private static Flyway pgFlyway(PgServer.Database db, String target) {
        PgServer server = db.server();
        var config = Flyway.configure(PgSchemaTest.class.getClassLoader())
                .dataSource(db.jdbcUrl(), server.user(), server.password())
                .schemas(SCHEMA).defaultSchema(SCHEMA).createSchemas(true)
                .locations("classpath:db/migration").cleanDisabled(true);
        return (target == null ? config : config.target(target)).load();
    }

    /** An in-memory H2 database in H2's default mode (the mode of the state files), migrated. */
    private Connection h2(boolean withKey) throws SQLException {
        String url = "jdbc:h2:mem:shape" + withKey + System.nanoTime() + ";DB_CLOSE_DELAY=0";
        Connection keepAlive = DriverManager.getConnection(url, "sa", "");
        var config = Flyway.configure(getClass().getClassLoader()).dataSource(url, "sa", "")
                .locations("classpath:db/migration");
        (withKey ? config : config.target(BEFORE_KEY)).load().migrate();
        return keepAlive;
    }

    private static List<String> released() throws IOException, URISyntaxException {
        URL folder = PgSchemaTest.class.getClassLoader().getResource("db/migration");
        assertThat(folder).isNotNull();
        try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql")).sorted().toList();
        }
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (var rs = s.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            return rs.getString(1);
        }
    }
}
