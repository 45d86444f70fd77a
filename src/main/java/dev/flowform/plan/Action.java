package dev.flowform.plan;

/**
 * What a plan does to one object, with the symbol the human rendering prints (Terraform's actions).
 */
public enum Action {
    /** Nothing to do. */
    NO_OP("no-op", ' '),
    /** The object will be created. */
    CREATE("create", '+'),
    /** The object will be updated in place. */
    UPDATE("update", '~'),
    /** The object will be deleted. */
    DELETE("delete", '-');

    private final String jsonName;
    private final char symbol;

    Action(String jsonName, char symbol) {
        this.jsonName = jsonName;
        this.symbol = symbol;
    }

    /** @return the name used in plan JSON: {@code no-op}, {@code create}, {@code update}, {@code delete} */
    public String jsonName() {
        return jsonName;
    }

    /** @return {@code +}, {@code ~}, {@code -} or a space */
    public char symbol() {
        return symbol;
    }

    /** @return the action named {@code name} in plan JSON */
    public static Action fromJson(String name) {
        for (Action a : values()) {
            if (a.jsonName.equals(name)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown action " + name);
    }
}
