package dev.flowform.plan;

import java.util.Locale;

/** What a plan does to one object, with the symbol the human rendering prints (Terraform's actions). */
public enum Action {
    /** Nothing to do. */
    NO_OP(' '),
    /** The object will be created. */
    CREATE('+'),
    /** The object will be updated in place. */
    UPDATE('~'),
    /** The object will be deleted. */
    DELETE('-');

    private final char symbol;

    Action(char symbol) {
        this.symbol = symbol;
    }

    /** @return the name used in plan JSON, Terraform's: {@code no-op}, {@code create}, {@code update}, {@code delete} */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return {@code +}, {@code ~}, {@code -} or a space */
    public char symbol() {
        return symbol;
    }

    /**
     * @return the action named {@code name} in plan JSON
     * @throws IllegalArgumentException for any other name
     */
    public static Action fromJson(String name) {
        for (Action a : values()) {
            if (a.jsonName().equals(name)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown action " + name);
    }
}
