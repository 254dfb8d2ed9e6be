-- memlane schema 11: an erased session's id is never given to another session. SQLite
-- gives a new row the largest id + 1, so erasing the newest session handed its id to the
-- next one (PostgreSQL's sequences never go back): every process that had cached the
-- erased session's participants left them out of the new one's, and an id a client held
-- for the erased conversation named someone else's. ``id_floor`` keeps the largest id
-- ever deleted; ``create_session`` starts above it.

CREATE TABLE id_floor (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER sessions_id_floor AFTER DELETE ON sessions BEGIN
    INSERT INTO id_floor (name, value) VALUES ('sessions', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;
