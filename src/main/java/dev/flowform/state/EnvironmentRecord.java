package dev.flowform.state;

import dev.flowform.plan.StateRef;
import java.time.Instant;
import java.util.Objects;

/**
 * The environment row of a state database (without the secret salt); lineage and serial as in Terraform's state file.
 *
 * @param name          the environment name, e.g. {@code prod}
 * @param lineage       UUID chosen when the database was created; never changes
 * @param serial        0 for a new environment, +1 on every change to the state
 * @param kubeServer    Kubernetes API server URL last applied to, or null before the first apply
 * @param kubeNamespace namespace last applied to, or null
 * @param createdAt     when the environment's state was created
 */
public record EnvironmentRecord(String name, String lineage, long serial, String kubeServer,
                                String kubeNamespace, Instant createdAt) {

    /** @throws NullPointerException when a required component is null */
    public EnvironmentRecord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(lineage, "lineage");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** @return lineage and serial, as saved plans record them */
    public StateRef stateRef() {
        return new StateRef(lineage, serial);
    }
}
