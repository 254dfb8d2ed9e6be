-- memlane schema 9: a message's change record carries ids only.
--
-- Every message updates its session, so every message wrote a change row holding the
-- session's whole state document (0006). The row now holds no document when the update
-- is a message arriving (topic message.added): the reader fills it in from the session's
-- current state, in the same consistent read (SqliteStore.changes_after joins
-- live_sessions), so a snapshot plus the changes after it still equals a later snapshot.
-- Every other change keeps the document it was written with. Rows written before this
-- migration keep theirs.

DROP TRIGGER live_sessions_au;

CREATE TRIGGER live_sessions_au AFTER UPDATE ON sessions
WHEN old.status IS NOT new.status OR old.message_count IS NOT new.message_count
  OR old.started_at IS NOT new.started_at OR old.ended_at IS NOT new.ended_at
  OR old.participants IS NOT new.participants
  OR (old.indexed_at IS NULL) IS NOT (new.indexed_at IS NULL)
  OR old.closed_reason IS NOT new.closed_reason OR old.failed_reason IS NOT new.failed_reason
  OR old.agent IS NOT new.agent OR old.project IS NOT new.project OR old.scope IS NOT new.scope
BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (new.scope, 'session', new.id, 'update',
            CASE WHEN old.status IS NOT new.status
                      THEN CASE new.status WHEN 'open' THEN 'session.opened'
                                           ELSE 'session.' || new.status END
                 WHEN new.message_count > old.message_count THEN 'message.added'
                 WHEN old.indexed_at IS NULL AND new.indexed_at IS NOT NULL THEN 'session.indexed'
                 ELSE 'session.updated' END,
            -- message.added (the same test as the topic's): no document
            CASE WHEN old.status IS NOT new.status OR new.message_count <= old.message_count
                 THEN json_object(
                'status', new.status,
                'started', CAST(round(new.started_at * 1000) AS INTEGER),
                'ended', CAST(round(new.ended_at * 1000) AS INTEGER),
                'turn_count', new.message_count,
                'participants', json(new.participants),
                'indexed', json(CASE WHEN new.indexed_at IS NULL THEN 'false' ELSE 'true' END),
                'closed_reason', new.closed_reason,
                'failed_reason', new.failed_reason,
                'agent', new.agent,
                'project', new.project) END,
            (julianday('now') - 2440587.5) * 86400.0);
END;
