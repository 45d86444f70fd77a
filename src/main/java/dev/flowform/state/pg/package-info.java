/**
 * The PostgreSQL state backend's building blocks (Terraform's {@code pg} backend is the model): all environments of a
 * configuration in one schema of one database, each with its own lineage, serial, runs, journal, snapshots, outputs
 * and lock.
 *
 * <ul>
 *   <li>{@link dev.flowform.state.pg.PgConnection}: the connection settings, from the backend's {@code conn_str} (either
 *       of libpq's two forms) merged with the environment as libpq does; the password is never shown;</li>
 *   <li>{@link dev.flowform.state.pg.PgAdvisoryLock}: the lock that a dead holder cannot leave behind, a session-level
 *       advisory lock keyed by (schema, environment).</li>
 * </ul>
 *
 * <p>Edge package: JDBC. The process environment is passed in as a map, never read here. The design, with its sources,
 * is in {@code docs/state-backends.md}.
 */
package dev.flowform.state.pg;
