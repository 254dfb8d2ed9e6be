-- memlane schema 12: the id of an erased message or journaled pack is never given again
-- either (0011 did it for sessions, facts and items). A message's id names its text in a
-- summary written on demand (``extra.message_ids``) and in a draft a chat app holds until
-- the user confirms it: erased, the next message took its id and a draft of the erased
-- messages passed the check that they still exist. A pack's id is what a client keeps to
-- replay it (``memlane packs show``): erased with its scope, the next pack of any scope
-- took it. PostgreSQL's sequences never go back.

CREATE TRIGGER messages_id_floor AFTER DELETE ON messages
WHEN old.id > coalesce((SELECT max(id) FROM messages), 0) BEGIN
    INSERT INTO id_floor (name, value) VALUES ('messages', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;

CREATE TRIGGER packs_id_floor AFTER DELETE ON packs
WHEN old.id > coalesce((SELECT max(id) FROM packs), 0) BEGIN
    INSERT INTO id_floor (name, value) VALUES ('packs', old.id)
    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
END;
