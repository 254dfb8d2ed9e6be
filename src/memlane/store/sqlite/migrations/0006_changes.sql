-- memlane schema 6: the change log behind the live memory stream (memlane.serve.live).
--
-- Triggers on sessions, items, facts and packs write one row per change of a scope's
-- live state, in the same transaction as the change, so every write path (add_message,
-- the index worker, hygiene, compaction, copy, forgetting a fact) is logged and a
-- rolled-back transaction leaves no row. Each row carries the entity's state document
-- after the change (NULL after a delete), built by the same view the snapshot reads, so
-- a snapshot plus the changes after it equals a later snapshot. Turn items and messages
-- are not logged one by one: a message shows as its session's turn_count.
-- SQLite has one writer at a time, so ids increase in commit order.

CREATE TABLE changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused, even after pruning
    scope      TEXT    NOT NULL,
    entity     TEXT    NOT NULL,                    -- session | item | fact | pack
    entity_id  INTEGER NOT NULL,
    op         TEXT    NOT NULL,                    -- insert | update | delete
    topic      TEXT    NOT NULL,
    doc        TEXT,
    at         REAL    NOT NULL
);
CREATE INDEX changes_scope ON changes (scope, id);

-- The highest id pruning has removed: a reader resuming from below it must re-snapshot.
CREATE TABLE change_log_floor (floor INTEGER NOT NULL);
INSERT INTO change_log_floor (floor) VALUES (0);

-- The scope's latest journaled pack is part of its live state.
CREATE INDEX packs_scope ON packs (scope, id) WHERE scope IS NOT NULL;

-- State documents. Times are ISO-8601 UTC text (milliseconds), JSON columns stay JSON.
CREATE VIEW live_sessions AS SELECT id, scope, json_object(
    'status', status,
    'started', strftime('%Y-%m-%dT%H:%M:%fZ', started_at, 'unixepoch'),
    'ended', strftime('%Y-%m-%dT%H:%M:%fZ', ended_at, 'unixepoch'),
    'turn_count', message_count,
    'participants', json(participants),
    'indexed', json(CASE WHEN indexed_at IS NULL THEN 'false' ELSE 'true' END),
    'closed_reason', closed_reason,
    'failed_reason', failed_reason,
    'agent', agent,
    'project', project
) AS doc FROM sessions;

CREATE VIEW live_items AS SELECT id, scope, json_object(
    'kind', kind,
    'text', text,
    'lane', lane,
    'status', status,
    'pinned', json(CASE WHEN pinned THEN 'true' ELSE 'false' END),
    'durability', durability,
    'privacy', privacy,
    'trust', trust,
    'source', source,
    'at', strftime('%Y-%m-%dT%H:%M:%fZ', at, 'unixepoch'),
    'expires', strftime('%Y-%m-%dT%H:%M:%fZ', expires_at, 'unixepoch'),
    'session_id', session_id,
    'keywords', json(keywords),
    'parents', json(parents),
    'topic', CASE WHEN kind = 'summary' THEN json_extract(extra, '$.summary.topic') END
) AS doc FROM items WHERE kind <> 'turn' AND scope IS NOT NULL;

CREATE VIEW live_facts AS SELECT id, scope, json_object(
    'subject', subject,
    'predicate', predicate,
    'object', object,
    'source', source,
    'status', status,
    'reinforcements', reinforcements,
    'superseded_by', superseded_by,
    'at', strftime('%Y-%m-%dT%H:%M:%fZ', at, 'unixepoch'),
    'session_id', session_id,
    'item_id', item_id
) AS doc FROM facts;

CREATE VIEW live_packs AS SELECT id, scope, json_object(
    'id', id,
    'query', query,
    'budget', budget,
    'used', used,
    'created', strftime('%Y-%m-%dT%H:%M:%fZ', created_at, 'unixepoch')
) AS doc FROM packs WHERE scope IS NOT NULL;

-- sessions -----------------------------------------------------------------------------
CREATE TRIGGER live_sessions_ai AFTER INSERT ON sessions BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    SELECT scope, 'session', id, 'insert',
           CASE new.status WHEN 'open' THEN 'session.opened' ELSE 'session.' || new.status END,
           doc, (julianday('now') - 2440587.5) * 86400.0
    FROM live_sessions WHERE id = new.id;
END;

-- Only columns of the state document: a lease or an attempt counter is not a change.
CREATE TRIGGER live_sessions_au AFTER UPDATE ON sessions
WHEN old.status IS NOT new.status OR old.message_count IS NOT new.message_count
  OR old.started_at IS NOT new.started_at OR old.ended_at IS NOT new.ended_at
  OR old.participants IS NOT new.participants
  OR (old.indexed_at IS NULL) IS NOT (new.indexed_at IS NULL)
  OR old.closed_reason IS NOT new.closed_reason OR old.failed_reason IS NOT new.failed_reason
  OR old.agent IS NOT new.agent OR old.project IS NOT new.project OR old.scope IS NOT new.scope
BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    SELECT scope, 'session', id, 'update',
           CASE WHEN old.status IS NOT new.status
                     THEN CASE new.status WHEN 'open' THEN 'session.opened'
                                          ELSE 'session.' || new.status END
                WHEN new.message_count > old.message_count THEN 'message.added'
                WHEN old.indexed_at IS NULL AND new.indexed_at IS NOT NULL THEN 'session.indexed'
                ELSE 'session.updated' END,
           doc, (julianday('now') - 2440587.5) * 86400.0
    FROM live_sessions WHERE id = new.id;
END;

CREATE TRIGGER live_sessions_ad AFTER DELETE ON sessions BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (old.scope, 'session', old.id, 'delete', 'session.deleted', NULL,
            (julianday('now') - 2440587.5) * 86400.0);
END;

-- items (every kind but turns, with a scope) ---------------------------------------------
CREATE TRIGGER live_items_ai AFTER INSERT ON items
WHEN new.kind <> 'turn' AND new.scope IS NOT NULL BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    SELECT scope, 'item', id, 'insert', 'memory.item.upserted', doc,
           (julianday('now') - 2440587.5) * 86400.0
    FROM live_items WHERE id = new.id;
END;

-- Hygiene marks an item 'expired' or 'evicted' just before deleting it, so the delete
-- says why; the mark itself is not a change.
CREATE TRIGGER live_items_au AFTER UPDATE ON items
WHEN new.kind <> 'turn' AND new.scope IS NOT NULL AND new.status NOT IN ('expired', 'evicted')
 AND (old.text IS NOT new.text OR old.status IS NOT new.status OR old.pinned IS NOT new.pinned
  OR old.lane IS NOT new.lane OR old.durability IS NOT new.durability
  OR old.privacy IS NOT new.privacy OR old.trust IS NOT new.trust OR old.source IS NOT new.source
  OR old.at IS NOT new.at OR old.expires_at IS NOT new.expires_at
  OR old.session_id IS NOT new.session_id OR old.keywords IS NOT new.keywords
  OR old.parents IS NOT new.parents OR old.extra IS NOT new.extra OR old.kind IS NOT new.kind
  OR old.scope IS NOT new.scope)
BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    SELECT scope, 'item', id, 'update', 'memory.item.upserted', doc,
           (julianday('now') - 2440587.5) * 86400.0
    FROM live_items WHERE id = new.id;
END;

CREATE TRIGGER live_items_ad AFTER DELETE ON items
WHEN old.kind <> 'turn' AND old.scope IS NOT NULL BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (old.scope, 'item', old.id, 'delete',
            CASE old.status WHEN 'expired' THEN 'memory.item.expired'
                            WHEN 'evicted' THEN 'memory.item.evicted'
                            ELSE 'memory.item.deleted' END,
            NULL, (julianday('now') - 2440587.5) * 86400.0);
END;

-- facts (a search touching a fact's last_accessed is not a change) -----------------------
CREATE TRIGGER live_facts_ai AFTER INSERT ON facts BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    SELECT scope, 'fact', id, 'insert', 'fact.added', doc,
           (julianday('now') - 2440587.5) * 86400.0
    FROM live_facts WHERE id = new.id;
END;

CREATE TRIGGER live_facts_au AFTER UPDATE ON facts
WHEN old.subject IS NOT new.subject OR old.predicate IS NOT new.predicate
  OR old.object IS NOT new.object OR old.source IS NOT new.source
  OR old.status IS NOT new.status OR old.reinforcements IS NOT new.reinforcements
  OR old.superseded_by IS NOT new.superseded_by OR old.at IS NOT new.at
  OR old.session_id IS NOT new.session_id OR old.item_id IS NOT new.item_id
  OR old.scope IS NOT new.scope
BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    SELECT scope, 'fact', id, 'update',
           CASE WHEN old.status IS NOT new.status
                     THEN CASE new.status WHEN 'superseded' THEN 'fact.superseded'
                                          ELSE 'fact.restored' END
                WHEN new.reinforcements > old.reinforcements THEN 'fact.reinforced'
                ELSE 'fact.updated' END,
           doc, (julianday('now') - 2440587.5) * 86400.0
    FROM live_facts WHERE id = new.id;
END;

CREATE TRIGGER live_facts_ad AFTER DELETE ON facts BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (old.scope, 'fact', old.id, 'delete', 'fact.forgotten', NULL,
            (julianday('now') - 2440587.5) * 86400.0);
END;

-- packs: the journal only grows; the latest pack of a scope is in its state -------------
CREATE TRIGGER live_packs_ai AFTER INSERT ON packs
WHEN new.scope IS NOT NULL BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    SELECT scope, 'pack', id, 'insert', 'memory.pack.journaled', doc,
           (julianday('now') - 2440587.5) * 86400.0
    FROM live_packs WHERE id = new.id;
END;
