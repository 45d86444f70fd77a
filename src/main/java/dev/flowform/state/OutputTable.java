package dev.flowform.state;

import dev.flowform.config.OutputValue;
import dev.flowform.plan.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The root module's outputs (table {@code output_value}), written by apply after a successful run and read by
 * {@code flowform output}. As Terraform replaces a state's outputs on apply, the stored set is replaced as a whole;
 * unlike Terraform, a sensitive output's value is never stored, only {@link SecretCipher#hash} of its JSON text.
 * Plain SQL, shared by every backend.
 */
public final class OutputTable {

    private static final String COLUMNS =
            "name, value_json, value_hash, value_type, sensitive, description, updated_serial, updated_at";

    private final StateStore store;

    OutputTable(StateStore store) {
        this.store = store;
    }

    /**
     * Replaces the stored outputs with {@code outputs}: outputs no longer declared disappear. Serial +1 when anything
     * changed; when the stored outputs already equal {@code outputs}, nothing is written and the serial stays (so an
     * apply with no changes does not make saved plans stale).
     *
     * @param outputs the outputs, made with {@link OutputRecord#of}; names must be unique
     * @return true when the stored outputs changed
     * @throws IllegalArgumentException when two outputs share a name
     * @throws StateStoreException      when the database fails
     */
    public boolean replace(List<OutputRecord> outputs) {
        Objects.requireNonNull(outputs, "outputs");
        TreeMap<String, OutputRecord> wanted = new TreeMap<>();
        for (OutputRecord o : outputs) {
            Objects.requireNonNull(o, "output");
            if (wanted.put(o.name(), stored(o)) != null) {
                throw new IllegalArgumentException("output \"" + o.name() + "\" is given twice");
            }
        }
        return store.inTransaction("replaceOutputs", c -> {
            if (select(c).stream().map(OutputTable::unsaved).toList().equals(List.copyOf(wanted.values()))) {
                return false;
            }
            long serial = store.bumpSerial(c);
            Instant now = store.now();
            Sql.update(c, "DELETE FROM output_value WHERE environment = ?", store.environmentName());
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO output_value (" + COLUMNS
                    + ", environment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (OutputRecord o : wanted.values()) {
                    Sql.bind(ps, o.name(), o.valueJson(), o.valueHash(), o.valueType(), o.sensitive(), o.description(),
                            serial, now, store.environmentName());
                    ps.executeUpdate();
                }
            }
            return true;
        });
    }

    /**
     * Replaces the stored outputs with the configuration's, as {@link #replace} does.
     *
     * @param values the root module's evaluated outputs
     * @return true when the stored outputs changed
     * @throws StateStoreException when the database fails
     */
    public boolean replaceWithConfigured(List<OutputValue> values) {
        return replace(records(values));
    }

    /**
     * @param values the root module's evaluated outputs
     * @return them as the state stores them: values as compact JSON (a sensitive one is hashed by {@link #replace})
     */
    public static List<OutputRecord> records(List<OutputValue> values) {
        List<OutputRecord> out = new ArrayList<>();
        for (OutputValue v : values) {
            out.add(OutputRecord.of(v.name(), Json.render(v.value()), v.type(), v.sensitive(), v.description()));
        }
        return out;
    }

    /**
     * @return the stored outputs, by name; sensitive ones carry a hash instead of their value
     * @throws StateStoreException when the database fails
     */
    public List<OutputRecord> all() {
        return store.inTransaction("outputs()", this::select);
    }

    /** @return the row to store for {@code o}: a sensitive value only as its hash */
    private OutputRecord stored(OutputRecord o) {
        if (o.sensitive()) {
            String hash = o.valueHash() != null ? o.valueHash()
                    : store.cipher().hash(Objects.requireNonNull(o.valueJson(), "valueJson"));
            return new OutputRecord(o.name(), null, hash, o.valueType(), true, o.description(), 0, null);
        }
        return new OutputRecord(o.name(), Objects.requireNonNull(o.valueJson(), "valueJson"), null, o.valueType(), false,
                o.description(), 0, null);
    }

    private List<OutputRecord> select(Connection c) throws SQLException {
        return Sql.query(c, "SELECT " + COLUMNS + " FROM output_value WHERE environment = ? ORDER BY name",
                rs -> new OutputRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getBoolean(5), rs.getString(6), rs.getLong(7), Sql.instant(rs, 8)), store.environmentName());
    }

    /** @return {@code o} without the serial and time of its save, to compare with an unsaved record */
    private static OutputRecord unsaved(OutputRecord o) {
        return new OutputRecord(o.name(), o.valueJson(), o.valueHash(), o.valueType(), o.sensitive(), o.description(), 0,
                null);
    }
}
