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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An environment's whole state as one JSON document, for {@code flowform state pull} and {@code state push}
 * (Terraform's): the environment row (lineage, serial, the secret salt, the recorded cluster), every run with its
 * plan, the step journal, the resource snapshots and the outputs, each row with all its columns. Secrets stay as the
 * state stores them (salted hashes, no clear text); the salt is part of the document because the hashes and the
 * saved-plan key derive from it, so a pushed state still recognises its secrets. The state lock is not part of it.
 * The document keeps the shape of format version 1: a {@link StepStatus#STOPPED} step is written as FAILED (its detail
 * says it was stopped), and importing turns such rows back into STOPPED.
 *
 * <p>Importing follows Terraform's {@code state push}: a document of another lineage, or with a lower serial than
 * the environment's state, is refused unless forced; an environment whose state is still empty (serial 0, no runs,
 * no resources) takes any lineage. A forced import that does not move the serial forward gets the current serial
 * plus one, so every plan saved against the replaced state is stale.
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
            List<Map<String, Object>> env = rows(c, "SELECT * FROM environment");
            out.put("environment", env.isEmpty() ? null : env.get(0));
            for (Map.Entry<String, String> t : TABLES.entrySet()) {
                List<Map<String, Object>> rows = rows(c, "SELECT * FROM " + t.getValue() + " ORDER BY 1");
                if (t.getValue().equals("run_step")) {
                    rows.forEach(row -> row.put("status", StepStatus.valueOf(String.valueOf(row.get("status"))).shown().name()));
                }
                out.put(t.getKey(), rows);
            }
            return out;
        });
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
    }

    private static List<Map<String, Object>> rows(Connection c, String sql) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    String name = md.getColumnLabel(i).toLowerCase(java.util.Locale.ROOT);
                    int type = md.getColumnType(i);
                    Object v = type == Types.TIMESTAMP_WITH_TIMEZONE ? rs.getObject(i, OffsetDateTime.class) : rs.getObject(i);
                    row.put(name, v == null ? null : v instanceof OffsetDateTime t ? t.toString() : v);
                }
                out.add(row);
            }
        }
        return out;
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
            boolean empty = now.serial() == 0 && count(c, "run") == 0 && count(c, "resource_snapshot") == 0;
            if (!force) {
                refuseUnlessFollowing(doc, now, empty);
            }
            long newSerial = force && !empty && doc.serial() <= now.serial()
                    && !(doc.lineage().equals(now.lineage()) && doc.serial() == now.serial()) ? now.serial() + 1 : doc.serial();
            for (String table : List.of("run_step", "run", "resource_snapshot", "output_value")) {
                try (Statement st = c.createStatement()) {
                    st.executeUpdate("DELETE FROM " + table);
                }
            }
            replaceEnvironment(c, doc, newSerial, store.environmentName());
            Map<String, Integer> written = new LinkedHashMap<>();
            for (Map.Entry<String, String> t : TABLES.entrySet()) {
                List<Map<String, Object>> rows = doc.rows(t.getKey());
                for (Map<String, Object> row : rows) {
                    insert(c, t.getValue(), row);
                }
                written.put(t.getKey(), rows.size());
            }
            RunJournal.recordStopsAsStopped(c);
            restartIds(c);
            return new Imported(doc.lineage(), newSerial, written);
        });
    }

    /**
     * A parsed state document.
     *
     * @param members     the whole document, by member
     * @param environment its {@code environment} member
     */
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
        try (PreparedStatement ps = c.prepareStatement("UPDATE environment SET lineage = ?, serial = ?, "
                + "secret_salt = ?, kube_server = ?, kube_namespace = ?, created_at = ? WHERE name = ?")) {
            ps.setString(1, doc.lineage());
            ps.setLong(2, serial);
            ps.setString(3, String.valueOf(env.get("secret_salt")));
            ps.setString(4, (String) env.get("kube_server"));
            ps.setString(5, (String) env.get("kube_namespace"));
            ps.setObject(6, OffsetDateTime.parse(String.valueOf(env.get("created_at"))));
            ps.setString(7, environment);
            ps.executeUpdate();
        }
    }

    /** Makes the next generated run and step ids follow the imported rows. */
    private static void restartIds(Connection c) throws SQLException {
        for (String table : List.of("run", "run_step")) {
            long next = 1;
            try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(MAX(id), 0) + 1 FROM " + table);
                 ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    next = rs.getLong(1);
                }
            }
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

    private static long count(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
