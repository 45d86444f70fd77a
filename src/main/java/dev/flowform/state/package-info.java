/**
 * The environment's state database (docs/architecture.md, "State"): one {@link dev.flowform.state.StateStore} per
 * environment with its components (journal, snapshots, outputs, lock table, cipher) in plain SQL, Flyway migrations in
 * {@code src/main/resources/db/migration}, and what differs between H2 and PostgreSQL behind the package-private
 * {@code Backend}. Edge package: JDBC, files, Flyway; clock and sleeper injected.
 */
package dev.flowform.state;
