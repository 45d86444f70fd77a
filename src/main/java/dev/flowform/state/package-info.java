/**
 * The environment's state database: what flowform knows about an environment between runs.
 *
 * <p>One {@link dev.flowform.state.StateStore} per environment (lineage, serial, transactions), backed by an H2 file
 * database at {@code <stateDir>/<env>/flowform.mv.db} whose schema comes from the Flyway migrations in
 * {@code src/main/resources/db/migration} (portable to PostgreSQL). The store hands out one component per job:
 * <ul>
 *   <li>{@link dev.flowform.state.RunJournal}: runs and their step journal; each step's intent is committed before
 *       the step acts and its outcome after, so a killed process leaves a readable trail (Flyway's schema-history
 *       idea, Pulumi's pending operations);</li>
 *   <li>{@link dev.flowform.state.SnapshotTable}: the last applied body of every managed object;</li>
 *   <li>{@link dev.flowform.state.OutputTable}: the root module's outputs;</li>
 *   <li>{@link dev.flowform.state.StateLockTable}: the state lock, shaped like Terraform's {@code LockInfo}, with a
 *       heartbeat so a crashed holder can be told apart from a slow one;</li>
 *   <li>{@link dev.flowform.state.SecretCipher}: the salted hashes of secret values and the saved-plan key.</li>
 * </ul>
 * The components are plain SQL shared by every database; what differs between databases (opening, reconnecting,
 * error codes, backups, the file check) sits behind the package-private {@code Backend} ({@code H2Backend}).
 *
 * <p>Edge package: uses JDBC, the file system and Flyway. Time comes from an injected
 * {@link java.time.Clock}; waiting for a lock sleeps through an injected {@link dev.flowform.locking.Sleeper}.
 */
package dev.flowform.state;
