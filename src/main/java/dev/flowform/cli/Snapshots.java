package dev.flowform.cli;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Prepares live objects for the state's resource snapshots: volatile metadata dropped, secret values
 * replaced by the environment's salted hash (so drift stays detectable without storing the secret).
 * The rule lives in {@link dev.flowform.plan.Drift#secretFree}, so drift compares exactly what is stored.
 */
final class Snapshots {
    private Snapshots() {
    }

    /**
     * @param raw  the object as JSON-like maps
     * @param hash the state's secret hasher
     * @return a copy with {@code metadata.managedFields} removed and every sensitive {@code spec.config} value hashed
     */
    static Map<String, Object> secretFree(Map<String, Object> raw, UnaryOperator<String> hash) {
        return dev.flowform.plan.Drift.secretFree(raw, hash);
    }
}
