-- The server instances running on this database, each with its version and the schema it
-- expects: a newer one does not migrate the schema under an older one still running.
CREATE TABLE instances (
    id         TEXT    PRIMARY KEY,
    version    TEXT    NOT NULL,
    schema     INTEGER NOT NULL,
    started_ms INTEGER NOT NULL,
    seen_ms    INTEGER NOT NULL,
    -- When it stopped (NULL while it runs): kept, to name the version that migrated last.
    stopped_ms INTEGER
);
