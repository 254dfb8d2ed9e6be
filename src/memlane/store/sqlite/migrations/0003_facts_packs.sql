-- memlane schema 3: fact history events, pins, and the pack journal.

ALTER TABLE items ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;

-- Every change to a fact, so its history is auditable and never loses a value.
CREATE TABLE fact_events (
    id          INTEGER PRIMARY KEY,
    fact_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('added', 'reinforced', 'superseded', 'accessed', 'forgotten')),
    scope       TEXT    NOT NULL,
    subject     TEXT    NOT NULL,
    predicate   TEXT    NOT NULL,
    object      TEXT    NOT NULL,
    other_id    INTEGER,
    session_id  INTEGER,
    at          REAL    NOT NULL
);
CREATE INDEX fact_events_fact ON fact_events (fact_id, at);
CREATE INDEX fact_events_key ON fact_events (scope, subject, predicate, at);

CREATE TABLE packs (
    id          INTEGER PRIMARY KEY,
    query       TEXT    NOT NULL,
    scope       TEXT,
    budget      INTEGER NOT NULL,
    used        INTEGER NOT NULL,
    counter     TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    entries     TEXT    NOT NULL,
    config      TEXT    NOT NULL DEFAULT '{}',
    created_at  REAL    NOT NULL
);
