package dev.flowform.state;

import dev.flowform.plan.Drift;
import dev.flowform.plan.Json;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The resource snapshots of an environment (table {@code resource_snapshot}): the last applied body of every object
 * flowform manages, by resource address, with secret values stored only as the environment's salted hash. Plain SQL,
 * shared by every backend.
 */
public final class SnapshotTable {

    /** kubectl's copy of the whole last-applied object, secrets included; never stored. */
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private static final String COLUMNS = "address, kind, namespace, name, body_json, updated_serial, updated_at";

    private final StateStore store;

    SnapshotTable(StateStore store) {
        this.store = store;
    }

    /**
     * Saves (inserts or replaces) the snapshot of one resource. Serial +1; the saved row records the
     * new serial and the current time.
     *
     * @param snapshot the resource; its {@code updatedSerial} and {@code updatedAt} are ignored.
     *                 Secret values in {@code bodyJson} must already be hashed with {@link SecretCipher#hash}.
     * @return the snapshot as saved, with {@code updatedSerial} and {@code updatedAt} filled in
     * @throws StateStoreException when the database fails
     */
    public ResourceSnapshot save(ResourceSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        return store.inTransaction("saveResource(" + snapshot.address() + ")", c -> {
            long serial = store.bumpSerial(c);
            Instant now = store.now();
            if (Sql.update(c, "UPDATE resource_snapshot SET kind = ?, namespace = ?, name = ?, body_json = ?, updated_serial = ?,"
                    + " updated_at = ? WHERE address = ? AND environment = ?", snapshot.kind(), snapshot.namespace(),
                    snapshot.name(), snapshot.bodyJson(), serial, now, snapshot.address(), store.environmentName()) == 0) {
                Sql.update(c, "INSERT INTO resource_snapshot (" + COLUMNS + ", environment) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        snapshot.address(), snapshot.kind(), snapshot.namespace(), snapshot.name(), snapshot.bodyJson(),
                        serial, now, store.environmentName());
            }
            return new ResourceSnapshot(snapshot.address(), snapshot.kind(), snapshot.namespace(), snapshot.name(),
                    snapshot.bodyJson(), serial, now);
        });
    }

    /**
     * Saves a live object as it is now, made safe for storing with {@link #secretFree} (secrets known to the run and
     * secret-looking values hashed, kubectl's last-applied copy dropped). Serial +1.
     *
     * @param address   the resource address, e.g. {@code kafka_connector.orders-source}
     * @param kind      the Kubernetes kind, e.g. {@code KafkaConnector}
     * @param namespace the object's namespace
     * @param name      the object's name
     * @param raw       the live object as JSON-like maps
     * @param secrets   secret strings known to this run (sensitive variables, live and desired secret values)
     * @return the snapshot as saved
     * @throws StateStoreException when the database fails
     */
    public ResourceSnapshot saveLive(String address, String kind, String namespace, String name, Map<String, Object> raw,
                                     Set<String> secrets) {
        String body = Json.render(secretFree(raw, store.cipher()::hash, secrets));
        return save(ResourceSnapshot.of(address, kind, namespace, name, body));
    }

    /**
     * Removes the snapshot of one resource. Serial +1 when a snapshot was removed; nothing changes
     * (and the serial stays) when there was none.
     *
     * @param address resource address
     * @return true when a snapshot was removed
     * @throws StateStoreException when the database fails
     */
    public boolean delete(String address) {
        Objects.requireNonNull(address, "address");
        return store.inTransaction("deleteResource(" + address + ")", c -> {
            if (Sql.update(c, "DELETE FROM resource_snapshot WHERE address = ? AND environment = ?", address,
                    store.environmentName()) == 0) {
                return false;
            }
            store.bumpSerial(c);
            return true;
        });
    }

    /**
     * @return every resource snapshot, by address
     * @throws StateStoreException when the database fails
     */
    public List<ResourceSnapshot> all() {
        return store.inTransaction("resources()", c -> select(c, "TRUE ORDER BY address"));
    }

    /**
     * @param address resource address
     * @return its snapshot, or empty when none is saved
     * @throws StateStoreException when the database fails
     */
    public Optional<ResourceSnapshot> get(String address) {
        Objects.requireNonNull(address, "address");
        return store.inTransaction("resource(" + address + ")",
                c -> select(c, "address = ?", address).stream().findFirst());
    }

    /**
     * Prepares a live object for a snapshot: volatile metadata dropped and secret values replaced by their hash, by
     * {@link Drift#secretFree} (so drift compares exactly what is stored); on top of it, kubectl's last-applied
     * annotation (a full copy of the object, ignored by drift) is dropped, and any other string that contains a
     * secret known to the run (a sensitive variable set in a key that does not look secret, say) is stored as the
     * hash of the whole string, which drift compares by hashing the live value.
     *
     * @param raw     the object as JSON-like maps
     * @param hash    the environment's secret hasher
     * @param secrets secret strings known to this run; those shorter than 4 characters are not looked for
     * @return a copy that is safe to store
     */
    public static Map<String, Object> secretFree(Map<String, Object> raw, UnaryOperator<String> hash, Set<String> secrets) {
        Map<String, Object> copy = scrubMap(Drift.secretFree(raw, hash), hash, secrets);
        if (copy.get("metadata") instanceof Map<?, ?> md && md.get("annotations") instanceof Map<?, ?> a) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) md);
            @SuppressWarnings("unchecked")
            Map<String, Object> annotations = new LinkedHashMap<>((Map<String, Object>) a);
            annotations.remove(LAST_APPLIED);
            m.put("annotations", annotations);
            copy.put("metadata", m);
        }
        return copy;
    }

    private static Map<String, Object> scrubMap(Map<?, ?> m, UnaryOperator<String> hash, Set<String> secrets) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), scrub(v, hash, secrets)));
        return out;
    }

    private static Object scrub(Object v, UnaryOperator<String> hash, Set<String> secrets) {
        if (v instanceof Map<?, ?> m) {
            return scrubMap(m, hash, secrets);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(scrub(x, hash, secrets)));
            return out;
        }
        if (v instanceof String s) {
            for (String secret : secrets) {
                if (secret.length() >= 4 && s.contains(secret)) {
                    return hash.apply(s);
                }
            }
        }
        return v;
    }

    /** Selects this environment's snapshots: {@code condition} follows {@code WHERE environment = ? AND}. */
    private List<ResourceSnapshot> select(Connection c, String condition, Object... params) throws SQLException {
        return Sql.query(c, "SELECT " + COLUMNS + " FROM resource_snapshot WHERE environment = ? AND " + condition,
                rs -> new ResourceSnapshot(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getLong(6), Sql.instant(rs, 7)), Sql.with(store.environmentName(), params));
    }
}
