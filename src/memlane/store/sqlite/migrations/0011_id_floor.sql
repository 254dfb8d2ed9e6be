-- memlane schema 11: the id of an erased or forgotten session, fact or item is never given
-- again. SQLite gives a new row the largest id + 1, so deleting the newest row handed its
-- id to the next one (PostgreSQL's sequences never go back): a fact forgotten, the next
-- fact took its id and with it the forgotten one's events (its history said it had been
-- forgotten; forgotten_facts lost the record); an erased session's id went to the next
-- session, whose participants a process that had cached the erased one's left out; a
-- forgotten item's id went to the next item, which a journaled pack then named.
-- ``id_floor`` keeps, per table, the largest id deleted while it was the largest (every id
-- that could come back is at most that); inserts start above it (``SqliteStore._fresh_id``).

CREATE TABLE id_floor (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER sessions_id_floor AFTER DELETE ON sessions
WHEN old.id > coalesce((SELECT max(id) FROM sessions), 0) BEGIN
    INSERT INTO id_floor (name, value) VALUES ('sessions', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;

CREATE TRIGGER facts_id_floor AFTER DELETE ON facts
WHEN old.id > coalesce((SELECT max(id) FROM facts), 0) BEGIN
    INSERT INTO id_floor (name, value) VALUES ('facts', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;

CREATE TRIGGER items_id_floor AFTER DELETE ON items
WHEN old.id > coalesce((SELECT max(id) FROM items), 0) BEGIN
    INSERT INTO id_floor (name, value) VALUES ('items', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;
