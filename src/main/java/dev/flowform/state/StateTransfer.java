package dev.flowform.state;

import dev.flowform.plan.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An environment's whole state as one JSON document, for {@code state pull} and {@code state push} (Terraform's):
 * every row of the environment, secrets as stored (hashes) and the salt they derive from; not the lock. A STOPPED
 * step is written as FAILED (format version 1) and read back as STOPPED. Importing refuses another lineage or a lower
 * serial unless forced, and a forced import moves the serial forward so saved plans go stale
 * (docs/state.md).
 */
public final class StateTransfer {

    /** The {@code format} member of the document. */
    public static final String FORMAT = "flowform-state";

    /** The document's version. */
    public static final int FORMAT_VERSION = 1;

    /** Document member to table, in the order rows are written (parents first). */
    private static final Map<String, String> TABLES = orderedTables();

    private static final List<String> TIME_COLUMNS = List.of("created_at", "started_at", "finished_at", "updated_at");

    private StateTransfer() {
    }

    private static Map<String, String> orderedTables() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("runs", "run");
        m.put("steps", "run_step");
        m.put("resources", "resource_snapshot");
        m.put("outputs", "output_value");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * What an import did.
     *
     * @param lineage the state's lineage now
     * @param serial  the state's serial now
     * @param rows    rows written, by document member ({@code runs}, {@code steps}, {@code resources}, {@code outputs})
     */
    public record Imported(String lineage, long serial, Map<String, Integer> rows) {
    }

    /** An import refused because the document does not follow the environment's state; {@code --force} overrides. */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message why */
        public Refused(String message) {
            super(message);
        }
    }

    /**
     * @param store   the state to export
     * @param version the flowform version, recorded in the document
     * @return the document, pretty-printed JSON
     */
    public static String export(StateStore store, String version) {
        Map<String, Object> doc = store.inTransaction("state pull", c -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("format", FORMAT);
            out.put("format_version", FORMAT_VERSION);
            out.put("flowform_version", version);
            String name = store.environmentName();
            List<Map<String, Object>> env = rows(c, "SELECT * FROM environment WHERE name = ?", name);
            out.put("environment", env.isEmpty() ? null : env.get(0));
            for (Map.Entry<String, String> t : TABLES.entrySet()) {
                List<Map<String, Object>> rows = rows(c, "SELECT * FROM " + t.getValue() + " WHERE "
                        + ownRows(t.getValue()) + " ORDER BY 1", name);
                // the environment is the document's own; rows stay in the shape of format version 1
                rows.forEach(row -> row.remove("environment"));
                if (t.getValue().equals("run_step")) {
                    rows.forEach(row -> row.put("status", StepStatus.valueOf(String.valueOf(row.get("status"))).shown().name()));
                }
                out.put(t.getKey(), rows);
            }
            return out;
        });
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
    }

    /**
     * @param table one of the state's tables
     * @return the condition selecting the rows of one environment in it; binds the environment name once
     */
    static String ownRows(String table) {
        return table.equals("run_step") ? "run_id IN (SELECT id FROM run WHERE environment = ?)" : "environment = ?";
    }

    private static List<Map<String, Object>> rows(Connection c, String sql, String environment) throws SQLException {
        return Sql.query(c, sql, StateTransfer::row, environment);
    }

    /** Reads one row by column name; times (PostgreSQL's driver reports them as TIMESTAMP) become ISO-8601 UTC text. */
    private static Map<String, Object> row(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            String name = md.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT);
            int type = md.getColumnType(i);
            boolean time = type == Types.TIMESTAMP_WITH_TIMEZONE || type == Types.TIMESTAMP;
            Object v = time ? rs.getObject(i, OffsetDateTime.class) : rs.getObject(i);
            row.put(name, v == null ? null : v instanceof OffsetDateTime t ? t.toInstant().atOffset(ZoneOffset.UTC).toString() : v);
        }
        return row;
    }

    /**
     * Replaces the state of {@code store}'s environment with the document, in one transaction.
     *
     * @param store the state to write; hold its lock. Close it afterwards: it keeps the secret salt it opened with
     * @param json  a document {@link #export} wrote
     * @param force import even when the lineage, the serial or the environment name do not follow
     * @return what was written
     * @throws IllegalArgumentException when the document is not a flowform state document
     * @throws Refused                  when the document does not follow the state and {@code force} is false
     * @throws StateStoreException      when the database fails (nothing is changed then)
     */
    public static Imported importInto(StateStore store, String json, boolean force) {
        Document doc = Document.parse(json);
        return store.inTransaction("state push", c -> {
            EnvironmentRecord now = store.selectEnvironment(c);
            String name = store.environmentName();
            boolean empty = now.serial() == 0 && count(c, "run", name) == 0 && count(c, "resource_snapshot", name) == 0;
            if (!force) {
                refuseUnlessFollowing(doc, now, empty);
            }
            long newSerial = force && !empty && doc.serial() <= now.serial()
                    && !(doc.lineage().equals(now.lineage()) && doc.serial() == now.serial()) ? now.serial() + 1 : doc.serial();
            for (String table : List.of("run_step", "run", "resource_snapshot", "output_value")) {
                Sql.update(c, "DELETE FROM " + table + " WHERE " + ownRows(table), name);
            }
            replaceEnvironment(c, doc, newSerial, name);
            Map<String, Integer> written = new LinkedHashMap<>();
            long runShift = idShift(c, "run", doc.rows("runs"));
            long stepShift = idShift(c, "run_step", doc.rows("steps"));
            for (Map.Entry<String, String> t : TABLES.entrySet()) {
                List<Map<String, Object>> rows = doc.rows(t.getKey());
                for (Map<String, Object> row : rows) {
                    insert(c, t.getValue(), owned(t.getValue(), row, name, runShift, stepShift));
                }
                written.put(t.getKey(), rows.size());
            }
            RunJournal.recordStopsAsStopped(c, name);
            restartIds(c);
            return new Imported(doc.lineage(), newSerial, written);
        });
    }

    /** A parsed state document: every member, and its {@code environment} member. */
    private record Document(Map<String, Object> members, Map<String, Object> environment) {

        @SuppressWarnings("unchecked")
        static Document parse(String json) {
            Map<String, Object> doc;
            try {
                doc = Json.MAPPER.readValue(json, LinkedHashMap.class);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("not a JSON document: " + e.getMessage(), e);
            }
            if (!FORMAT.equals(doc.get("format")) || !(doc.get("environment") instanceof Map)) {
                throw new IllegalArgumentException("not a flowform state document (made by \"flowform state pull\")");
            }
            if (!Integer.valueOf(FORMAT_VERSION).equals(doc.get("format_version"))) {
                throw new IllegalArgumentException("format_version " + doc.get("format_version") + " is not supported; this "
                        + "flowform reads version " + FORMAT_VERSION);
            }
            return new Document(doc, (Map<String, Object>) doc.get("environment"));
        }

        String name() {
            return String.valueOf(environment.get("name"));
        }

        String lineage() {
            return String.valueOf(environment.get("lineage"));
        }

        long serial() {
            return ((Number) environment.get("serial")).longValue();
        }

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows(String member) {
            return members.get(member) instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
        }
    }

    /** @throws Refused when the document is another environment's, another lineage's, or older than the state */
    private static void refuseUnlessFollowing(Document doc, EnvironmentRecord now, boolean empty) {
        if (!doc.name().equals(now.name())) {
            throw new Refused("the document is the state of environment \"" + doc.name() + "\", not \"" + now.name() + "\"");
        }
        if (!empty && !doc.lineage().equals(now.lineage())) {
            throw new Refused("the document's lineage " + doc.lineage() + " differs from the state's lineage "
                    + now.lineage() + ": it is the state of another history of this environment");
        }
        if (!empty && doc.serial() < now.serial()) {
            throw new Refused("the document's serial " + doc.serial() + " is lower than the state's serial "
                    + now.serial() + ": the state has changed since the document was pulled");
        }
    }

    private static void replaceEnvironment(Connection c, Document doc, long serial, String environment) throws SQLException {
        Map<String, Object> env = doc.environment();
        Sql.update(c, "UPDATE environment SET lineage = ?, serial = ?, secret_salt = ?, kube_server = ?, kube_namespace = ?,"
                + " created_at = ? WHERE name = ?", doc.lineage(), serial, String.valueOf(env.get("secret_salt")),
                env.get("kube_server"), env.get("kube_namespace"), OffsetDateTime.parse(String.valueOf(env.get("created_at"))),
                environment);
    }

    /**
     * Run and step ids are unique across the environments of a database (one identity per table). A document's ids
     * are kept when no other environment's rows use them (always for an H2 file, which holds one environment), and
     * otherwise all moved past the largest id in the table, keeping their order.
     *
     * @return what to add to each of the document's ids in {@code table}
     */
    private static long idShift(Connection c, String table, List<Map<String, Object>> rows) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (Map<String, Object> row : rows) {
            long id = ((Number) row.get("id")).longValue();
            min = Math.min(min, id);
            max = Math.max(max, id);
        }
        if (Sql.query(c, "SELECT COUNT(*) FROM " + table + " WHERE id BETWEEN ? AND ?", rs -> rs.getLong(1), min, max)
                .get(0) == 0) {
            return 0;
        }
        return Sql.query(c, "SELECT MAX(id) FROM " + table, rs -> rs.getLong(1)).get(0) - min + 1;
    }

    /** @return a copy of a document row filed under {@code environment}, its ids moved by the shifts */
    private static Map<String, Object> owned(String table, Map<String, Object> row, String environment, long runShift,
                                             long stepShift) {
        Map<String, Object> out = new LinkedHashMap<>(row);
        out.remove("environment");
        if (table.equals("run")) {
            out.put("id", ((Number) row.get("id")).longValue() + runShift);
        } else if (table.equals("run_step")) {
            out.put("id", ((Number) row.get("id")).longValue() + stepShift);
            out.put("run_id", ((Number) row.get("run_id")).longValue() + runShift);
        }
        if (!table.equals("run_step")) {
            out.put("environment", environment);
        }
        return out;
    }

    /** Makes the next generated run and step ids follow the imported rows. */
    private static void restartIds(Connection c) throws SQLException {
        for (String table : List.of("run", "run_step")) {
            long next = Sql.query(c, "SELECT COALESCE(MAX(id), 0) + 1 FROM " + table, rs -> rs.getLong(1)).get(0);
            try (Statement st = c.createStatement()) {
                st.executeUpdate("ALTER TABLE " + table + " ALTER COLUMN id RESTART WITH " + next);
            }
        }
    }

    private static void insert(Connection c, String table, Map<String, Object> row) throws SQLException {
        List<String> columns = new ArrayList<>(row.keySet());
        for (String col : columns) {
            if (!col.matches("[a-z_]+")) {
                throw new IllegalArgumentException("the document names an unknown column \"" + col + "\" in " + table);
            }
        }
        String sql = "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(columns.size(), "?")) + ")";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < columns.size(); i++) {
                Object v = row.get(columns.get(i));
                if (v != null && TIME_COLUMNS.contains(columns.get(i))) {
                    v = OffsetDateTime.parse(String.valueOf(v));
                } else if (v instanceof java.math.BigInteger b) {
                    v = b.longValue();
                }
                ps.setObject(i + 1, v);
            }
            ps.executeUpdate();
        }
    }

    private static long count(Connection c, String table, String environment) throws SQLException {
        return Sql.query(c, "SELECT COUNT(*) FROM " + table + " WHERE " + ownRows(table), rs -> rs.getLong(1),
                environment).get(0);
    }
}
