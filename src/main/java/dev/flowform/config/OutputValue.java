package dev.flowform.config;

import dev.flowform.diag.SourceRange;
import java.util.Objects;

/**
 * A root module {@code output} after evaluation, as {@code apply} records it and {@code flowform
 * output} shows it.
 *
 * @param value       the value as plain Java data: String, Long / BigInteger / BigDecimal, Boolean, null,
 *                    List and insertion-ordered Map (see {@code Value.toJava})
 * @param type        the kind of the value: {@code string}, {@code number}, {@code bool}, {@code list},
 *                    {@code object} or {@code null}
 * @param sensitive   declared {@code sensitive = true}: never shown, stored only as a salted hash
 * @param description the {@code description}, or null
 * @param range       where the output block is written
 */
public record OutputValue(String name, Object value, String type, boolean sensitive, String description, SourceRange range) {
    public OutputValue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
