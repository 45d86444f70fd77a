package dev.flowform.state.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.testing.PgServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The pg backend's connection settings: both libpq string forms, the environment filling the gaps as libpq's
 * does, the JDBC URL and properties (checked by connecting to a real server), and a password that never shows.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PgConnectionTest {

    private static final String SECRET = "s3cr3t-pa55";

    @Test
    void the_keyword_form_with_quotes_escapes_and_spaces_around_equals() {
        PgConnection c = PgConnection.resolve("host=db.example port = 6543 user=ff password='a \\'quoted\\' \\\\ value' "
                + "dbname='state store' sslmode=verify-full", Map.of());

        assertThat(c.host()).isEqualTo("db.example");
        assertThat(c.port()).isEqualTo(6543);
        assertThat(c.user()).isEqualTo("ff");
        assertThat(c.database()).isEqualTo("state store");
        assertThat(c.sslMode()).isEqualTo("verify-full");
        assertThat(c.properties().getProperty("password")).isEqualTo("a 'quoted' \\ value");
        assertThat(PgConnection.resolve("user=ff password=back\\ slash", Map.of()).properties().getProperty("password"))
                .isEqualTo("back slash");
        assertThat(PgConnection.resolve("user=a user=b", Map.of()).user()).as("the last of a repeated keyword").isEqualTo("b");
    }

    @Test
    void the_uri_form_is_percent_decoded_and_keeps_a_plus() {
        PgConnection c = PgConnection.resolve("postgres://ff%40corp:p%2Fss+w@db.example:6543/state%20db?sslmode=require"
                + "&application_name=ci", Map.of());

        assertThat(c.user()).isEqualTo("ff@corp");
        assertThat(c.properties().getProperty("password")).isEqualTo("p/ss+w");
        assertThat(c.host()).isEqualTo("db.example");
        assertThat(c.port()).isEqualTo(6543);
        assertThat(c.database()).isEqualTo("state db");
        assertThat(c.sslMode()).isEqualTo("require");
        assertThat(c.properties().getProperty("ApplicationName")).isEqualTo("ci");
        assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/state%20db");
    }

    @Test
    void the_uri_form_takes_ipv6_hosts_the_postgresql_scheme_and_ssl_true() {
        PgConnection c = PgConnection.resolve("PostgreSQL://ff@[::1]:5433?ssl=true", Map.of());

        assertThat(c.host()).isEqualTo("::1");
        assertThat(c.port()).isEqualTo(5433);
        assertThat(c.database()).as("the database defaults to the user").isEqualTo("ff");
        assertThat(c.sslMode()).isEqualTo("require");
        assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:5433/ff");
        assertThat(c.display()).isEqualTo("postgresql://ff@[::1]:5433/ff?sslmode=require");
    }

    @Test
    void the_libpq_environment_fills_only_what_the_string_leaves_out() {
        Map<String, String> env = Map.of("PGHOST", "env-host", "PGPORT", "7000", "PGUSER", "env-user",
                "PGPASSWORD", SECRET, "PGDATABASE", "env-db", "PGSSLMODE", "disable", "PGAPPNAME", "env-app");

        PgConnection c = PgConnection.resolve("host=conf-host dbname=conf-db", env);

        assertThat(c.host()).isEqualTo("conf-host");
        assertThat(c.database()).isEqualTo("conf-db");
        assertThat(c.port()).isEqualTo(7000);
        assertThat(c.user()).isEqualTo("env-user");
        assertThat(c.sslMode()).isEqualTo("disable");
        assertThat(c.properties()).containsEntry("password", SECRET).containsEntry("ApplicationName", "env-app");
    }

    @Test
    void flowform_pg_conn_str_is_read_only_when_the_configuration_gives_no_conn_str() {
        Map<String, String> env = Map.of(PgConnection.CONN_STR_VARIABLE, "postgresql://from-env@envhost/envdb");

        assertThat(PgConnection.resolve(null, env).display()).isEqualTo("postgresql://from-env@envhost:5432/envdb?sslmode=prefer");
        assertThat(PgConnection.resolve("user=conf host=confhost", env).display())
                .isEqualTo("postgresql://conf@confhost:5432/conf?sslmode=prefer");
        assertThatThrownBy(() -> PgConnection.resolve(null, Map.of(PgConnection.CONN_STR_VARIABLE, "host=x port=abc user=u")))
                .isInstanceOf(InvalidPgSettingsException.class).hasMessageStartingWith("port must be");
        assertThatThrownBy(() -> PgConnection.resolve(null, Map.of(PgConnection.CONN_STR_VARIABLE, "host")))
                .hasMessageStartingWith(PgConnection.CONN_STR_VARIABLE + ": missing \"=\"");
    }

    @Test
    void without_any_string_the_environment_and_the_defaults_decide() {
        PgConnection c = PgConnection.resolve(null, Map.of("PGUSER", "ci"));

        assertThat(c.display()).isEqualTo("postgresql://ci@localhost:5432/ci?sslmode=prefer");
        assertThat(c.hasPassword()).isFalse();
        assertThat(c.properties()).doesNotContainKey("password").containsEntry("sslmode", "prefer")
                .containsEntry("ApplicationName", "flowform").containsEntry("tcpKeepAlive", "true")
                .doesNotContainKey("connectTimeout");
        assertThat(PgConnection.resolve("user=ci connect_timeout=7", Map.of()).properties())
                .containsEntry("connectTimeout", "7");
    }

    @Test
    void an_empty_value_counts_as_not_given() {
        PgConnection c = PgConnection.resolve("host='' user=ci port=''", Map.of("PGHOST", "env-host", "PGPORT", ""));

        assertThat(c.host()).isEqualTo("env-host");
        assertThat(c.port()).isEqualTo(5432);
    }

    @Test
    void the_password_never_shows_in_the_display_form_or_in_errors() {
        PgConnection uri = PgConnection.resolve("postgresql://ff:" + SECRET + "@db/state", Map.of());
        PgConnection keywords = PgConnection.resolve("user=ff password=" + SECRET + " host=db", Map.of());
        PgConnection env = PgConnection.resolve("user=ff", Map.of("PGPASSWORD", SECRET));

        for (PgConnection c : new PgConnection[] {uri, keywords, env}) {
            assertThat(c.hasPassword()).isTrue();
            assertThat(c.toString()).isEqualTo(c.display()).doesNotContain(SECRET).doesNotContain("****");
            assertThat(c.jdbcUrl()).doesNotContain(SECRET);
        }
        for (String broken : new String[] {"user=ff password=" + SECRET + " port=x", "user=ff password='" + SECRET,
                "user=ff " + SECRET, "postgresql://ff:" + SECRET + "@db:notaport/state",
                "postgresql://ff:" + SECRET + "%zz@db/state", "password=" + SECRET + " sslmode=sometimes",
                "mysql://ff:" + SECRET + "@db/state", "password=" + SECRET}) {
            assertThatThrownBy(() -> PgConnection.resolve(broken, Map.of())).as(broken)
                    .isInstanceOf(InvalidPgSettingsException.class).message().doesNotContain(SECRET);
        }
    }

    @Test
    void malformed_strings_and_out_of_range_values_are_refused_with_what_to_fix() {
        assertRefused("user=ff port=70000", "port must be a TCP port number between 1 and 65535, got \"70000\"");
        assertRefused("user=ff sslmode=on", "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full");
        assertRefused("user=ff host", "missing \"=\" after the word at character 9 of the connection string");
        assertRefused("user=ff password='open", "the quoted value of \"password\" in the connection string has no closing quote");
        assertRefused("user=ff sslcert=x", "the connection string uses \"sslcert\", which flowform does not know; it knows host,");
        assertRefused("postgresql://ff@a:5432,b:5433/db", "the connection string names several hosts");
        assertRefused("user=ff host=a,b", "host names several hosts");
        assertRefused("user=ff host=/run/postgresql", "is a Unix-domain socket");
        assertRefused("postgresql://ff@[::1/db", "the IPv6 host in the connection string has no closing \"]\"");
        assertRefused("postgresql://ff@db/db?ssl=false", "the query parameter ssl takes only the value true");
        assertRefused("postgresql://ff@db/db?sslmode", "a query parameter of the connection string has no \"=\"");
        assertRefused("postgresql://ff@db/d%4", "invalid percent-encoding in the dbname of the connection string");
        assertRefused("jdbc:postgresql://db/state", "a URI with a scheme other than postgresql:// or postgres://");
        assertRefused("host=db", "no database user: give user in the connection string");
        assertRefused("user=ff connect_timeout=-1", "connect_timeout must be a whole number of seconds");
    }

    private static void assertRefused(String connStr, String message) {
        assertThatThrownBy(() -> PgConnection.resolve(connStr, Map.of())).as(connStr)
                .isInstanceOf(InvalidPgSettingsException.class).hasMessageContaining(message);
    }

    @Test
    void the_jdbc_url_and_properties_connect_to_a_real_server_in_both_string_forms() throws Exception {
        PgServer server = PgServer.get();
        PgServer.Database db = server.freshDatabase("conn");
        try (Connection admin = db.connect(); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE \"" + db.name() + " two\"");
        }
        String uri = "postgresql://" + server.user() + (server.password() == null ? "" : ":" + server.password()) + "@"
                + server.host() + ":" + server.port() + "/" + db.name() + "%20two?sslmode=disable";

        for (PgConnection c : new PgConnection[] {PgConnection.resolve(db.keywordConnStr(), Map.of()),
                PgConnection.resolve(uri, Map.of()), PgConnection.resolve(null, Map.of(PgConnection.CONN_STR_VARIABLE,
                "host=" + server.host() + " dbname=" + db.name(), "PGPORT", Integer.toString(server.port()),
                "PGUSER", server.user(), "PGSSLMODE", "disable"))}) {
            Properties p = c.properties();
            if (server.password() != null) {
                p.setProperty("password", server.password());
            }
            try (Connection conn = DriverManager.getConnection(c.jdbcUrl(), p); Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT current_database(), current_user,"
                         + " current_setting('application_name')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).as(c.display()).isEqualTo(c.database());
                assertThat(rs.getString(2)).isEqualTo(server.user());
                assertThat(rs.getString(3)).isEqualTo(PgConnection.DEFAULT_APPLICATION_NAME);
            }
        }
    }
}
