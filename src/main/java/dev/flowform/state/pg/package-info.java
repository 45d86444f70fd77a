/**
 * The PostgreSQL state backend's parts, after Terraform's {@code pg} backend: {@link dev.flowform.state.pg.PgConnection}
 * (settings from {@code conn_str} and libpq's environment, password never shown) and
 * {@link dev.flowform.state.pg.PgAdvisoryLock} (a lock a dead holder cannot leave behind). Edge package: JDBC; the
 * environment comes in as a map (docs/state-backends.md).
 */
package dev.flowform.state.pg;
