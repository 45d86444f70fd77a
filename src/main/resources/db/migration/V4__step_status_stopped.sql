-- flowform state schema, version 4: a step that a stop request ended while it waited has its own status.
--
-- Portable SQL (H2 2.x and PostgreSQL 10+), as in V1.
--
-- STOPPED: Ctrl-C, SIGTERM or a lost state lock ended the step's wait; what the step wrote may have
-- reached the cluster, and the next apply checks it against the live cluster before going on. Until this
-- version such a step was journaled FAILED with a detail starting "stopped while waiting", and was told
-- apart by that text; those rows are converted here, so every reader sees one status.
ALTER TABLE run_step DROP CONSTRAINT run_step_status_known;
ALTER TABLE run_step ADD CONSTRAINT run_step_status_known CHECK (status IN ('STARTED', 'DONE', 'FAILED', 'STOPPED'));
UPDATE run_step SET status = 'STOPPED' WHERE status = 'FAILED' AND detail LIKE 'stopped while waiting%';
