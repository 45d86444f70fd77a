-- flowform state schema, version 5: every row names its environment, so all environments of a
-- configuration can share one schema (the pg backend), while an H2 file keeps holding one.
--
-- Portable SQL (H2 2.x in its default mode, PostgreSQL 10+), as in V1: only ALTER TABLE forms both accept
-- (ADD COLUMN, ALTER COLUMN ... SET NOT NULL, ADD/DROP CONSTRAINT), DROP INDEX / CREATE INDEX, and an
-- UPDATE with a scalar subquery. Every constraint and index is named, so the two databases agree on names.
--
-- Existing rows: an H2 state file belongs to exactly one environment (its one environment row), so every
-- existing run, snapshot and output is that environment's. A database with rows in these tables but no
-- environment row is damaged; the NOT NULL step then fails and the migration stops (on PostgreSQL without
-- any change, since its DDL is transactional; H2 commits each DDL statement, so there Flyway records the
-- failed migration and the file needs a restore from its backup).
--
-- Not changed: environment (already keyed by name), state_lock (already keyed by environment), run_step
-- (it belongs to a run, whose id stays unique across environments: one identity sequence per table).

-- run: whose run it is. The id stays the key (an identity shared by all environments of a schema, so run
-- ids of one environment may have gaps on PostgreSQL); lookups go by environment first.
ALTER TABLE run ADD COLUMN environment VARCHAR(100);
UPDATE run SET environment = (SELECT name FROM environment);
ALTER TABLE run ALTER COLUMN environment SET NOT NULL;
ALTER TABLE run ADD CONSTRAINT run_environment_fk FOREIGN KEY (environment) REFERENCES environment (name);
DROP INDEX run_by_outcome;
CREATE INDEX run_by_environment_outcome ON run (environment, outcome, id);

-- resource_snapshot: one last-applied body per (environment, address); the same address may be managed
-- by several environments (prod and staging both have replication_flow.orders).
ALTER TABLE resource_snapshot ADD COLUMN environment VARCHAR(100);
UPDATE resource_snapshot SET environment = (SELECT name FROM environment);
ALTER TABLE resource_snapshot ALTER COLUMN environment SET NOT NULL;
ALTER TABLE resource_snapshot DROP CONSTRAINT resource_snapshot_pk;
ALTER TABLE resource_snapshot ADD CONSTRAINT resource_snapshot_pk PRIMARY KEY (environment, address);
ALTER TABLE resource_snapshot ADD CONSTRAINT resource_snapshot_environment_fk
    FOREIGN KEY (environment) REFERENCES environment (name);

-- output_value: one value per (environment, output name).
ALTER TABLE output_value ADD COLUMN environment VARCHAR(100);
UPDATE output_value SET environment = (SELECT name FROM environment);
ALTER TABLE output_value ALTER COLUMN environment SET NOT NULL;
ALTER TABLE output_value DROP CONSTRAINT output_value_pk;
ALTER TABLE output_value ADD CONSTRAINT output_value_pk PRIMARY KEY (environment, name);
ALTER TABLE output_value ADD CONSTRAINT output_value_environment_fk
    FOREIGN KEY (environment) REFERENCES environment (name);

-- state_lock: on PostgreSQL the holder also holds a session advisory lock; holder_session is that
-- session's server process id (pg_backend_pid()), shown in LockInfo. A row whose holder_session no longer
-- holds the advisory lock (pg_locks) was left by a holder whose session ended: the next holder replaces it
-- without a force-unlock. NULL on H2, where holder_process (V3) plays that part on one machine.
ALTER TABLE state_lock ADD COLUMN holder_session INTEGER;
