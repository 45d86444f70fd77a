package dev.flowform.state;

import java.time.Instant;
import java.util.Objects;

/**
 * One output of the root module as the state keeps it; a sensitive output's value is stored only as its hash
 * ({@link OutputTable#replace}).
 *
 * @param name          the output name; the key
 * @param valueJson     the value as JSON text, or null for a sensitive output
 * @param valueHash     {@code sha256:...} of the value's JSON text for a sensitive output, else null
 * @param valueType     {@code string}, {@code number}, {@code bool}, {@code list}, {@code object} or {@code null}
 * @param sensitive     declared {@code sensitive = true}
 * @param description   the output's description, or null
 * @param updatedSerial the environment serial produced by the save that wrote it; 0 before saving
 * @param updatedAt     when it was saved; null before saving
 */
public record OutputRecord(String name, String valueJson, String valueHash, String valueType, boolean sensitive,
                           String description, long updatedSerial, Instant updatedAt) {

    /** @throws NullPointerException when the name or type is null */
    public OutputRecord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(valueType, "valueType");
    }

    /**
     * An output to pass to {@link OutputTable#replace}, which hashes a sensitive value and fills in the
     * serial and time.
     *
     * @param name        the output name
     * @param valueJson   the value as JSON text, in clear (also for a sensitive output: the store hashes it)
     * @param valueType   the kind of the value
     * @param sensitive   declared {@code sensitive = true}
     * @param description the description, or null
     * @return an unsaved record
     * @throws NullPointerException when the name, value or type is null
     */
    public static OutputRecord of(String name, String valueJson, String valueType, boolean sensitive, String description) {
        Objects.requireNonNull(valueJson, "valueJson");
        return new OutputRecord(name, valueJson, null, valueType, sensitive, description, 0, null);
    }
}
