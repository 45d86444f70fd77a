package dev.flowform.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The PostgreSQL test fixture: one server per JVM, and databases that do not see each other's tables. */
class PgServerTest {

    @Test
    void every_test_database_is_new_and_separate_on_the_one_server() throws Exception {
        PgServer.Database a = PgServer.get().freshDatabase("iso");
        PgServer.Database b = PgServer.get().freshDatabase("iso");

        assertThat(PgServer.get()).isSameAs(PgServer.get());
        assertThat(a.name()).isNotEqualTo(b.name());
        try (Connection ca = a.connect(); Statement sa = ca.createStatement();
             Connection cb = b.connect(); Statement sb = cb.createStatement()) {
            sa.execute("CREATE TABLE only_in_a (x INTEGER)");
            try (ResultSet rs = sb.executeQuery("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'only_in_a'")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
            try (ResultSet rs = sa.executeQuery("SELECT current_setting('server_version_num')::int, "
                    + "current_setting('listen_addresses')")) {
                rs.next();
                assertThat(rs.getInt(1)).as("PostgreSQL 10 or later (identity columns)").isGreaterThanOrEqualTo(100000);
                if (PgServer.get().isEmbedded()) {
                    assertThat(rs.getString(2)).as("the embedded server listens on loopback only").isEqualTo("127.0.0.1");
                }
            }
        }
    }
}
