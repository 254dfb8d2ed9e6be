-- memlane schema 2: the session-intelligence queue, entities, facts and relations.

ALTER TABLE sessions ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN next_attempt_at REAL NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN lease_until REAL;
ALTER TABLE sessions ADD COLUMN summarized_at REAL;
ALTER TABLE sessions ADD COLUMN summary_model TEXT;
CREATE INDEX sessions_summary_queue ON sessions (next_attempt_at, id)
    WHERE summarized_at IS NULL AND status IN ('closed', 'failed');

CREATE TABLE entities (
    id          INTEGER PRIMARY KEY,
    scope       TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    norm_name   TEXT    NOT NULL,
    type        TEXT    NOT NULL DEFAULT 'thing',
    context     TEXT    NOT NULL DEFAULT '',
    mentions    INTEGER NOT NULL DEFAULT 1,
    first_seen  REAL    NOT NULL,
    last_seen   REAL    NOT NULL,
    UNIQUE (scope, norm_name)
);

CREATE TABLE facts (
    id              INTEGER PRIMARY KEY,
    item_id         INTEGER REFERENCES items (id) ON DELETE CASCADE,
    scope           TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    predicate       TEXT    NOT NULL,
    object          TEXT    NOT NULL,
    norm_subject    TEXT    NOT NULL,
    norm_predicate  TEXT    NOT NULL,
    norm_object     TEXT    NOT NULL,
    source          TEXT    NOT NULL DEFAULT 'stated'
                    CHECK (source IN ('stated', 'observed', 'inferred', 'system')),
    session_id      INTEGER REFERENCES sessions (id) ON DELETE CASCADE,
    message_id      INTEGER REFERENCES messages (id) ON DELETE SET NULL,
    at              REAL    NOT NULL,
    reinforcements  INTEGER NOT NULL DEFAULT 0,
    last_accessed   REAL    NOT NULL,
    superseded_by   INTEGER REFERENCES facts (id) ON DELETE SET NULL,
    status          TEXT    NOT NULL DEFAULT 'current',
    created_at      REAL    NOT NULL
);
CREATE INDEX facts_key ON facts (scope, norm_subject, norm_predicate, at);
CREATE INDEX facts_session ON facts (session_id);
CREATE INDEX facts_item ON facts (item_id);

CREATE TABLE relations (
    id             INTEGER PRIMARY KEY,
    scope          TEXT    NOT NULL,
    source_entity  TEXT    NOT NULL,
    relation       TEXT    NOT NULL,
    target_entity  TEXT    NOT NULL,
    session_id     INTEGER REFERENCES sessions (id) ON DELETE CASCADE,
    message_id     INTEGER REFERENCES messages (id) ON DELETE SET NULL,
    at             REAL    NOT NULL
);
CREATE INDEX relations_source ON relations (scope, source_entity);
CREATE INDEX relations_target ON relations (scope, target_entity);
CREATE INDEX relations_session ON relations (session_id);
