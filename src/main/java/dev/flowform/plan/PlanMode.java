package dev.flowform.plan;

/** What kind of plan it is (Terraform's plan modes). */
public enum PlanMode {
    /** Converge the cluster to the configuration. */
    NORMAL("normal"),
    /** Only report drift; applying it records the live objects in the state (Terraform's {@code -refresh-only}). */
    REFRESH_ONLY("refresh-only");

    private final String jsonName;

    PlanMode(String jsonName) {
        this.jsonName = jsonName;
    }

    /** @return {@code normal} or {@code refresh-only} */
    public String jsonName() {
        return jsonName;
    }

    /** @return the mode named {@code name} in plan JSON; {@link #NORMAL} for null */
    public static PlanMode fromJson(String name) {
        if (name == null) {
            return NORMAL;
        }
        for (PlanMode m : values()) {
            if (m.jsonName.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown plan mode " + name);
    }
}
