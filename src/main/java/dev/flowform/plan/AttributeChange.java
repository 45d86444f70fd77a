package dev.flowform.plan;

/**
 * One attribute that differs between the live object and the desired one, as the user reads it.
 *
 * @param path      display path, e.g. {@code spec.config."exactly.once.source.support"}
 * @param before    the live value rendered as JSON text, or null when absent
 * @param after     the desired value rendered as JSON text, or null when it will be removed
 * @param sensitive true when both values must render as {@code (sensitive value)}
 */
public record AttributeChange(String path, String before, String after, boolean sensitive) {
}
