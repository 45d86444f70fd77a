-- flowform state schema, version 2: the root module's outputs, written by apply after a
-- successful run and read by "flowform output".
--
-- Portable SQL (H2 2.x and PostgreSQL 10+), as in V1.
--
-- One row per output, replaced as a whole set when the outputs change.
-- value_json:  the value as JSON text; NULL for a sensitive output, whose value is never stored.
-- value_hash:  for a sensitive output, "sha256:" + hex(SHA-256(environment salt || UTF-8(value JSON))),
--              so a changed secret is still noticed; NULL otherwise.
-- value_type:  string, number, bool, list, object or null.
-- updated_serial: the environment serial the write produced.
CREATE TABLE output_value (
    name           VARCHAR      NOT NULL,
    value_json     VARCHAR,
    value_hash     VARCHAR(71),
    value_type     VARCHAR(16)  NOT NULL,
    sensitive      BOOLEAN      NOT NULL,
    description    VARCHAR,
    updated_serial BIGINT       NOT NULL,
    updated_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT output_value_pk PRIMARY KEY (name),
    CONSTRAINT output_value_type_known CHECK (value_type IN ('string', 'number', 'bool', 'list', 'object', 'null')),
    CONSTRAINT output_value_secret_hidden CHECK (
        (sensitive = TRUE AND value_json IS NULL AND value_hash IS NOT NULL)
        OR (sensitive = FALSE AND value_json IS NOT NULL AND value_hash IS NULL))
);
