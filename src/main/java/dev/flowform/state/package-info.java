/**
 * The environment's state database: what flowform knows about an environment between runs.
 *
 * <p>One {@link dev.flowform.state.StateStore} per environment, backed by an H2 file database at
 * {@code <stateDir>/<env>/flowform.mv.db} whose schema comes from the Flyway migrations in
 * {@code src/main/resources/db/migration} (portable to PostgreSQL). It holds:
 * <ul>
 *   <li>the environment row: Terraform's {@code lineage} (a UUID fixed at creation) and
 *       {@code serial} (incremented on every change), plus the Kubernetes API server it was applied
 *       to and the salt for hashing secret values;</li>
 *   <li>runs and their step journal: each step's intent is committed before the step acts and its
 *       outcome after, so a killed process leaves a readable trail (Flyway's schema-history idea,
 *       Pulumi's pending operations);</li>
 *   <li>resource snapshots: the last applied body of every managed object;</li>
 *   <li>the state lock, shaped like Terraform's {@code LockInfo}, with a heartbeat so a crashed
 *       holder can be told apart from a slow one.</li>
 * </ul>
 *
 * <p>Edge package: uses JDBC, the file system and Flyway. Time comes from an injected
 * {@link java.time.Clock}; waiting for a lock sleeps through an injected {@link dev.flowform.apply.Sleeper}.
 */
package dev.flowform.state;
