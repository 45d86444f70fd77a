package dev.flowform.plan;

/**
 * Which version of an environment's state a plan was made against (Terraform's lineage and serial).
 *
 * @param lineage UUID chosen once when the environment's state was created
 * @param serial  incremented on every change to the state
 */
public record StateRef(String lineage, long serial) {
}
