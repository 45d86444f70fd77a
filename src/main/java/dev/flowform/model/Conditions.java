package dev.flowform.model;

import java.util.List;
import java.util.Optional;

/** Helpers for Strimzi condition lists. */
public final class Conditions {
    private Conditions() {
    }

    /** @return the first condition of {@code type} whose status is True, if any */
    public static Optional<Condition> trueCondition(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.type()) && c.isTrue()).findFirst();
    }

    /** @return true when a condition of {@code type} has status True */
    public static boolean isTrue(List<Condition> conditions, String type) {
        return trueCondition(conditions, type).isPresent();
    }
}
