package dev.flowform.state.pg;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Where the PostgreSQL holding flowform's state is and how to log in, resolved as Terraform's {@code pg} backend and
 * libpq do: per setting, the block's {@code conn_str}, else {@value #CONN_STR_VARIABLE}, then libpq's {@code PG*}
 * variables, then defaults (host {@value #DEFAULT_HOST}, port {@value #DEFAULT_PORT}, SSL {@value #DEFAULT_SSL_MODE}).
 * No Unix sockets and no implicit OS user (the JDBC driver cannot follow libpq there). The password goes only to the
 * driver: {@link #toString()} and {@link #display()} never show it (docs/state-backends.md, "Connection settings and their precedence").
 */
public final class PgConnection {

    /** The environment variable read when the configuration gives no {@code conn_str}. */
    public static final String CONN_STR_VARIABLE = "FLOWFORM_PG_CONN_STR";

    /** The host when neither the string nor {@code PGHOST} names one. */
    public static final String DEFAULT_HOST = "localhost";

    /** PostgreSQL's port when none is given. */
    public static final int DEFAULT_PORT = 5432;

    /** libpq's default SSL mode: TLS when the server offers it, plain otherwise. */
    public static final String DEFAULT_SSL_MODE = "prefer";

    /** What the server shows in {@code pg_stat_activity.application_name} when nothing else is set. */
    public static final String DEFAULT_APPLICATION_NAME = "flowform";

    /** libpq's SSL modes (PostgreSQL documentation, libpq, "SSL Support"). */
    public static final List<String> SSL_MODES = List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

    /** libpq's environment variable for each keyword. */
    private static final Map<String, String> ENVIRONMENT = environmentNames();

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final String database;
    private final String sslMode;
    private final String sslRootCert;
    private final Integer connectTimeoutSeconds;
    private final String applicationName;

    private PgConnection(Map<String, String> s) {
        host = s.getOrDefault("host", DEFAULT_HOST);
        port = port(s.get("port"));
        user = s.get("user");
        password = s.get("password");
        database = s.getOrDefault("dbname", user);
        sslMode = s.getOrDefault("sslmode", DEFAULT_SSL_MODE);
        sslRootCert = s.get("sslrootcert");
        connectTimeoutSeconds = s.containsKey("connect_timeout") ? timeout(s.get("connect_timeout")) : null;
        applicationName = s.getOrDefault("application_name", DEFAULT_APPLICATION_NAME);
        check();
    }

    private static Map<String, String> environmentNames() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("host", "PGHOST");
        m.put("port", "PGPORT");
        m.put("user", "PGUSER");
        m.put("password", "PGPASSWORD");
        m.put("dbname", "PGDATABASE");
        m.put("sslmode", "PGSSLMODE");
        m.put("sslrootcert", "PGSSLROOTCERT");
        m.put("connect_timeout", "PGCONNECT_TIMEOUT");
        m.put("application_name", "PGAPPNAME");
        return Map.copyOf(m);
    }

    /**
     * Resolves the settings.
     *
     * @param configured  the {@code conn_str} of the backend block, or null when it has none
     * @param environment the process environment (passed in, so callers and tests choose it)
     * @return the settings
     * @throws InvalidPgSettingsException when the string cannot be read, a value is out of range, or no user is given
     */
    public static PgConnection resolve(String configured, Map<String, String> environment) {
        Objects.requireNonNull(environment, "environment");
        String text = configured != null ? configured : environment.get(CONN_STR_VARIABLE);
        Map<String, String> settings = new LinkedHashMap<>();
        if (text != null && !text.isBlank()) {
            try {
                settings.putAll(ConnStrParser.parse(text));
            } catch (InvalidPgSettingsException e) {
                throw configured != null ? e
                        : new InvalidPgSettingsException(CONN_STR_VARIABLE + ": " + e.getMessage());
            }
        }
        for (String keyword : ConnStrParser.KEYWORDS) {
            String fromEnvironment = environment.get(ENVIRONMENT.get(keyword));
            if (!settings.containsKey(keyword) && fromEnvironment != null && !fromEnvironment.isEmpty()) {
                settings.put(keyword, fromEnvironment);
            }
        }
        return new PgConnection(settings);
    }

    private static int port(String text) {
        if (text == null) {
            return DEFAULT_PORT;
        }
        try {
            int p = Integer.parseInt(text.strip());
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidPgSettingsException("port must be a TCP port number between 1 and 65535, got \""
                + (text.length() <= 10 ? text : text.substring(0, 10) + "...") + "\"");
    }

    private static int timeout(String text) {
        try {
            int t = Integer.parseInt(text.strip());
            if (t >= 0) {
                return t;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidPgSettingsException("connect_timeout must be a whole number of seconds (0 for none)");
    }

    private void check() {
        if (user == null) {
            throw new InvalidPgSettingsException("no database user: give user in the connection string (user=NAME, or "
                    + "postgresql://NAME@host/db) or set PGUSER");
        }
        if (host.startsWith("/") || host.startsWith("@")) {
            throw new InvalidPgSettingsException("host \"" + host + "\" is a Unix-domain socket; flowform connects over "
                    + "TCP only: give a host name or address");
        }
        if (host.contains(",")) {
            throw new InvalidPgSettingsException("host names several hosts; flowform connects to one");
        }
        if (!SSL_MODES.contains(sslMode)) {
            throw new InvalidPgSettingsException("sslmode must be one of " + String.join(", ", SSL_MODES) + ", got \""
                    + (sslMode.length() <= 20 ? sslMode : sslMode.substring(0, 20) + "...") + "\"");
        }
    }

    /** @return the host name or address (an IPv6 address without brackets) */
    public String host() {
        return host;
    }

    /** @return the TCP port */
    public int port() {
        return port;
    }

    /** @return the database user */
    public String user() {
        return user;
    }

    /** @return the database name */
    public String database() {
        return database;
    }

    /** @return libpq's SSL mode, one of {@link #SSL_MODES} */
    public String sslMode() {
        return sslMode;
    }

    /** @return true when a password was given (the string or {@code PGPASSWORD}); never the password itself */
    public boolean hasPassword() {
        return password != null;
    }

    /** @return {@code jdbc:postgresql://host:port/database}, with no user, password or option in it */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + hostForUri() + ":" + port + "/"
                + URLEncoder.encode(database, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * The JDBC driver's connection properties (names from the PostgreSQL JDBC driver's documentation,
     * "Connection Parameters"): {@code user}, {@code password} when given, {@code sslmode}, {@code sslrootcert} when
     * given, {@code connectTimeout} (seconds) when given, {@code ApplicationName}, and {@code tcpKeepAlive=true}, so a
     * connection to a server that vanished without closing it (a host lost, a network cut) is eventually noticed.
     *
     * @return a new Properties object holding the password; hand it to the driver and drop it
     */
    public Properties properties() {
        Properties p = new Properties();
        p.setProperty("user", user);
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("sslmode", sslMode);
        if (sslRootCert != null) {
            p.setProperty("sslrootcert", sslRootCert);
        }
        if (connectTimeoutSeconds != null) {
            p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds));
        }
        p.setProperty("ApplicationName", applicationName);
        p.setProperty("tcpKeepAlive", "true");
        return p;
    }

    /**
     * @return the settings as a URI for messages, e.g. {@code postgresql://ff@db.example:5432/state?sslmode=require};
     *         a password is never shown, not even masked, so its length is not revealed either
     */
    public String display() {
        return "postgresql://" + user + "@" + hostForUri() + ":" + port + "/" + database + "?sslmode=" + sslMode;
    }

    /** @return {@link #display()} */
    @Override
    public String toString() {
        return display();
    }

    private String hostForUri() {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
