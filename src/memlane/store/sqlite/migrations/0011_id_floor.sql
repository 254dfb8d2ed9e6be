-- memlane schema 11: the id of an erased session or a forgotten fact is never given again.
-- SQLite gives a new row the largest id + 1, so deleting the newest row handed its id to
-- the next one (PostgreSQL's sequences never go back): a fact forgotten, the next fact
-- took its id and with it the forgotten one's events (its history said it had been
-- forgotten; forgotten_facts lost the record), and an erased session's id went to the next
-- session, whose participants a process that had cached the erased one's left out.
-- ``id_floor`` keeps the largest id ever deleted per table; inserts start above it
-- (``SqliteStore._fresh_id``).

CREATE TABLE id_floor (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER sessions_id_floor AFTER DELETE ON sessions BEGIN
    INSERT INTO id_floor (name, value) VALUES ('sessions', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;

CREATE TRIGGER facts_id_floor AFTER DELETE ON facts BEGIN
    INSERT INTO id_floor (name, value) VALUES ('facts', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;
