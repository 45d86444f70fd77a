package dev.flowform.state.pg;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shape of a schema as one sorted list of lines, read from {@code information_schema} (and, for indexes, each
 * database's catalog), with names lower-cased (H2 folds unquoted names to upper case, PostgreSQL to lower case), so
 * the shapes an H2 and a PostgreSQL database got from the same migrations can be compared with equals.
 *
 * <p>Lines: {@code table T}; {@code column T.C type nullable identity} (an H2 VARCHAR without a length reports H2's
 * maximum, 1000000000, which is written as PostgreSQL reports it: no length); {@code constraint T.NAME TYPE (columns)}
 * for primary keys, unique and foreign keys, with {@code -> referenced constraint} for foreign keys;
 * {@code check T.NAME} for named CHECK constraints (their text is normalised differently by the two databases, so
 * only the name is compared); {@code index T.NAME (columns)} for indexes that no constraint created. PostgreSQL's
 * NOT NULL pseudo-constraints ({@code ..._not_null}) and Flyway's history table are left out.
 */
final class SchemaShape {

    private static final String H2_UNBOUNDED = "1000000000";
    private static final String HISTORY = "flyway_schema_history";

    private SchemaShape() {
    }

    /**
     * @param c      a connection
     * @param schema the schema as the database spells it ({@code PUBLIC} on H2, {@code flowform} on PostgreSQL)
     * @param h2     true for H2 (whose index catalog differs from PostgreSQL's)
     * @return the shape's lines, sorted
     */
    static List<String> of(Connection c, String schema, boolean h2) throws SQLException {
        List<String> lines = new ArrayList<>();
        for (List<String> r : rows(c, "SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                + " AND table_type IN ('BASE TABLE', 'TABLE')", schema)) {
            lines.add("table " + r.get(0));
        }
        for (List<String> r : rows(c, "SELECT table_name, column_name, data_type, character_maximum_length, is_nullable,"
                + " is_identity FROM information_schema.columns WHERE table_schema = ?", schema)) {
            String length = H2_UNBOUNDED.equals(r.get(3)) ? null : r.get(3);
            lines.add("column " + r.get(0) + "." + r.get(1) + " " + r.get(2) + (length == null ? "" : "(" + length + ")")
                    + " nullable=" + r.get(4) + " identity=" + r.get(5));
        }
        constraints(c, schema, lines);
        lines.addAll(h2 ? h2Indexes(c, schema) : pgIndexes(c, schema));
        lines.removeIf(l -> l.contains(" " + HISTORY) || l.contains(" " + HISTORY + "."));
        lines.sort(null);
        return lines;
    }

    private static void constraints(Connection c, String schema, List<String> lines) throws SQLException {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        for (List<String> r : rows(c, "SELECT constraint_name, column_name FROM information_schema.key_column_usage"
                + " WHERE constraint_schema = ? ORDER BY constraint_name, ordinal_position", schema)) {
            columns.computeIfAbsent(r.get(0), k -> new ArrayList<>()).add(r.get(1));
        }
        Map<String, String> references = new LinkedHashMap<>();
        for (List<String> r : rows(c, "SELECT constraint_name, unique_constraint_name FROM"
                + " information_schema.referential_constraints WHERE constraint_schema = ?", schema)) {
            references.put(r.get(0), r.get(1));
        }
        for (List<String> r : rows(c, "SELECT table_name, constraint_name, constraint_type FROM"
                + " information_schema.table_constraints WHERE constraint_schema = ?", schema)) {
            String name = r.get(1);
            if (r.get(2).equals("check")) {
                if (!name.endsWith("_not_null")) {
                    lines.add("check " + r.get(0) + "." + name);
                }
                continue;
            }
            lines.add("constraint " + r.get(0) + "." + name + " " + r.get(2) + " " + columns.getOrDefault(name, List.of())
                    + (references.containsKey(name) ? " -> " + references.get(name) : ""));
        }
    }

    private static List<String> h2Indexes(Connection c, String schema) throws SQLException {
        Map<String, List<String>> indexes = new LinkedHashMap<>();
        for (List<String> r : rows(c, "SELECT ic.table_name, ic.index_name, ic.column_name FROM"
                + " information_schema.index_columns ic JOIN information_schema.indexes i ON i.index_schema ="
                + " ic.index_schema AND i.index_name = ic.index_name WHERE ic.table_schema = ?"
                + " AND i.index_type_name = 'INDEX' AND i.is_generated = FALSE"
                + " ORDER BY ic.index_name, ic.ordinal_position", schema)) {
            indexes.computeIfAbsent(r.get(0) + "." + r.get(1), k -> new ArrayList<>()).add(r.get(2));
        }
        List<String> out = new ArrayList<>();
        indexes.forEach((name, cols) -> out.add("index " + name + " " + cols));
        return out;
    }

    private static List<String> pgIndexes(Connection c, String schema) throws SQLException {
        Map<String, List<String>> indexes = new LinkedHashMap<>();
        for (List<String> r : rows(c, "SELECT t.relname, i.relname, a.attname FROM pg_index x"
                + " JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid"
                + " JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord) ON TRUE"
                + " JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum"
                + " WHERE n.nspname = ? AND NOT EXISTS (SELECT 1 FROM pg_constraint pc WHERE pc.conindid = x.indexrelid)"
                + " ORDER BY i.relname, k.ord", schema)) {
            indexes.computeIfAbsent(r.get(0) + "." + r.get(1), k -> new ArrayList<>()).add(r.get(2));
        }
        List<String> out = new ArrayList<>();
        indexes.forEach((name, cols) -> out.add("index " + name + " " + cols));
        return out;
    }

    /** Runs a query with one string parameter; every value lower-cased, nulls kept. */
    private static List<List<String>> rows(Connection c, String sql, String parameter) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        String v = rs.getString(i);
                        row.add(v == null ? null : v.toLowerCase(Locale.ROOT));
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }
}
