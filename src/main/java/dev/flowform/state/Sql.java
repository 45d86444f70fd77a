package dev.flowform.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * JDBC helpers shared by the state tables: times in and out of {@code TIMESTAMP WITH TIME ZONE} columns, binding
 * parameters, generated ids, argument checks. Plain JDBC that every backend runs.
 */
final class Sql {

    private Sql() {
    }

    /** @return the clock's time truncated to microseconds, the precision the database keeps */
    static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** @return {@code instant} as a UTC value for a {@code TIMESTAMP WITH TIME ZONE} parameter */
    static OffsetDateTime timestamp(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** @return the time in {@code column} of the current row, or null when it is NULL */
    static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    /**
     * Binds {@code params} to the statement's parameters, in order: Long, Integer, Boolean, an Instant as
     * {@link #timestamp}, an OffsetDateTime, or a String (null as a NULL string).
     */
    static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            int index = i + 1;
            if (p instanceof Long l) {
                ps.setLong(index, l);
            } else if (p instanceof Integer n) {
                ps.setInt(index, n);
            } else if (p instanceof Boolean b) {
                ps.setBoolean(index, b);
            } else if (p instanceof Instant t) {
                ps.setObject(index, timestamp(t));
            } else if (p instanceof OffsetDateTime t) {
                ps.setObject(index, t);
            } else {
                ps.setString(index, (String) p);
            }
        }
    }

    /** Reads the row a {@link ResultSet} is on. */
    @FunctionalInterface
    interface Row<T> {
        /** @return the row as a value */
        T read(ResultSet rs) throws SQLException;
    }

    /** @return every row {@code sql} selects with {@code params} bound as {@link #bind} does, read by {@code row} */
    static <T> List<T> query(Connection c, String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.read(rs));
                }
            }
            return out;
        }
    }

    /** @return how many rows {@code sql} changed, run once with {@code params} bound as {@link #bind} does */
    static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            return ps.executeUpdate();
        }
    }

    /** @return {@code first} followed by {@code rest}, as parameters to bind */
    static Object[] with(Object first, Object... rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /** @return the id the database generated for the row {@code ps} inserted */
    static long generatedId(PreparedStatement ps) throws SQLException {
        try (ResultSet keys = ps.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("the database returned no generated id");
            }
            return keys.getLong(1);
        }
    }

    /**
     * True for errors that mean "someone else got there first": unique violation (23505, H2 and
     * PostgreSQL), H2 concurrent update (90131) or lock timeout (HYT00), serialization failure (40001), and
     * PostgreSQL's deadlock detected (40P01) and lock not available (55P03) (PostgreSQL docs, Appendix A "Error Codes").
     */
    static boolean isContention(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "90131".equals(state) || "HYT00".equals(state) || "40001".equals(state)
                || "40P01".equals(state) || "55P03".equals(state);
    }

    /** @throws IllegalArgumentException when {@code value} is null or blank, naming it {@code name} */
    static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
