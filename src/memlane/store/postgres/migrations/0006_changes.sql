-- memlane schema 6 for PostgreSQL: the change log behind the live memory stream (the same
-- log as SQLite's 0006_changes; see memlane.serve.live).
--
-- Triggers on sessions, items, facts and packs write one row per change of a scope's
-- live state, in the same transaction as the change, with the entity's state document
-- after it (NULL after a delete), built by the same functions the snapshot reads.
--
-- Ordering. Many transactions write at once here, and an identity value is drawn when a
-- row is written, not when it commits: a reader that went by it could pass an id whose
-- transaction commits later, and miss it. So rows are written with a NULL ``pos``, and a
-- reader gives committed rows their ``pos`` (the stream's id) under an exclusive lock on
-- change_sequencer, in ``id`` order: every row committed later gets a higher ``pos``. Two
-- changes of one entity keep their order (the second writer waits on the first's row
-- lock, so it draws a later id). Writers never touch change_sequencer, so they never wait
-- for readers.

CREATE TABLE changes (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,   -- write order
    pos        bigint,                                            -- delivery order, once committed
    scope      text    NOT NULL,
    entity     text    NOT NULL,                                  -- session | item | fact | pack
    entity_id  bigint  NOT NULL,
    op         text    NOT NULL,                                  -- insert | update | delete
    topic      text    NOT NULL,
    doc        jsonb,
    at         double precision NOT NULL
);
-- Partial indexes: a writer's insert touches only the primary key and changes_unsequenced.
CREATE UNIQUE INDEX changes_pos ON changes (pos) WHERE pos IS NOT NULL;
CREATE INDEX changes_scope_pos ON changes (scope, pos) WHERE pos IS NOT NULL;
CREATE INDEX changes_unsequenced ON changes (id) WHERE pos IS NULL;

-- head: the last pos given; floor: the highest pos pruning has removed.
CREATE TABLE change_sequencer (
    head   bigint NOT NULL,
    floor  bigint NOT NULL
);
INSERT INTO change_sequencer (head, floor) VALUES (0, 0);

-- The scope's latest journaled pack is part of its live state.
CREATE INDEX packs_scope ON packs (scope, id) WHERE scope IS NOT NULL;

-- State documents. Times are epoch milliseconds (integers, as the overlay spec's "ts"),
-- JSON columns stay JSON.
CREATE FUNCTION memlane_live_ms(t double precision) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN round(t * 1000)::bigint;

CREATE FUNCTION memlane_live_session(s sessions) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN jsonb_build_object(
        'status', s.status,
        'started', memlane_live_ms(s.started_at),
        'ended', memlane_live_ms(s.ended_at),
        'turn_count', s.message_count,
        'participants', s.participants::jsonb,
        'indexed', s.indexed_at IS NOT NULL,
        'closed_reason', s.closed_reason,
        'failed_reason', s.failed_reason,
        'agent', s.agent,
        'project', s.project);

CREATE FUNCTION memlane_live_item(i items) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN jsonb_build_object(
        'kind', i.kind,
        'text', i.text,
        'lane', i.lane,
        'status', i.status,
        'pinned', i.pinned,
        'durability', i.durability,
        'privacy', i.privacy,
        'trust', i.trust,
        'source', i.source,
        'at', memlane_live_ms(i.at),
        'expires', memlane_live_ms(i.expires_at),
        'session_id', i.session_id,
        'keywords', i.keywords::jsonb,
        'parents', i.parents::jsonb,
        'topic', CASE WHEN i.kind = 'summary' THEN i.extra::jsonb #>> '{summary,topic}' END);

CREATE FUNCTION memlane_live_fact(f facts) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN jsonb_build_object(
        'subject', f.subject,
        'predicate', f.predicate,
        'object', f.object,
        'source', f.source,
        'status', f.status,
        'reinforcements', f.reinforcements,
        'superseded_by', f.superseded_by,
        'at', memlane_live_ms(f.at),
        'session_id', f.session_id,
        'item_id', f.item_id);

CREATE FUNCTION memlane_live_pack(p packs) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN jsonb_build_object(
        'id', p.id,
        'query', p.query,
        'budget', p.budget,
        'used', p.used,
        'created', memlane_live_ms(p.created_at));

-- sessions -----------------------------------------------------------------------------
CREATE FUNCTION memlane_log_session() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    topic text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
        VALUES (OLD.scope, 'session', OLD.id, 'delete', 'session.deleted', NULL,
                extract(epoch FROM now()));
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status THEN
        topic := CASE NEW.status WHEN 'open' THEN 'session.opened' ELSE 'session.' || NEW.status END;
    ELSIF NEW.message_count > OLD.message_count THEN
        topic := 'message.added';
    ELSIF OLD.indexed_at IS NULL AND NEW.indexed_at IS NOT NULL THEN
        topic := 'session.indexed';
    ELSE
        topic := 'session.updated';
    END IF;
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (NEW.scope, 'session', NEW.id, lower(TG_OP), topic, memlane_live_session(NEW),
            extract(epoch FROM now()));
    RETURN NULL;
END $$;

CREATE TRIGGER live_sessions_ai AFTER INSERT ON sessions
    FOR EACH ROW EXECUTE FUNCTION memlane_log_session();
-- Only columns of the state document: a lease or an attempt counter is not a change.
CREATE TRIGGER live_sessions_au AFTER UPDATE ON sessions FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.message_count IS DISTINCT FROM NEW.message_count
          OR OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.ended_at IS DISTINCT FROM NEW.ended_at
          OR OLD.participants IS DISTINCT FROM NEW.participants
          OR (OLD.indexed_at IS NULL) IS DISTINCT FROM (NEW.indexed_at IS NULL)
          OR OLD.closed_reason IS DISTINCT FROM NEW.closed_reason
          OR OLD.failed_reason IS DISTINCT FROM NEW.failed_reason
          OR OLD.agent IS DISTINCT FROM NEW.agent OR OLD.project IS DISTINCT FROM NEW.project
          OR OLD.scope IS DISTINCT FROM NEW.scope)
    EXECUTE FUNCTION memlane_log_session();
CREATE TRIGGER live_sessions_ad AFTER DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION memlane_log_session();

-- items (every kind but turns, with a scope) ---------------------------------------------
CREATE FUNCTION memlane_log_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
        VALUES (OLD.scope, 'item', OLD.id, 'delete',
                CASE OLD.status WHEN 'expired' THEN 'memory.item.expired'
                                WHEN 'evicted' THEN 'memory.item.evicted'
                                ELSE 'memory.item.deleted' END,
                NULL, extract(epoch FROM now()));
        RETURN NULL;
    END IF;
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (NEW.scope, 'item', NEW.id, lower(TG_OP), 'memory.item.upserted',
            memlane_live_item(NEW), extract(epoch FROM now()));
    RETURN NULL;
END $$;

CREATE TRIGGER live_items_ai AFTER INSERT ON items FOR EACH ROW
    WHEN (NEW.kind <> 'turn' AND NEW.scope IS NOT NULL)
    EXECUTE FUNCTION memlane_log_item();
-- Hygiene marks an item 'expired' or 'evicted' just before deleting it, so the delete
-- says why; the mark itself is not a change.
CREATE TRIGGER live_items_au AFTER UPDATE ON items FOR EACH ROW
    WHEN (NEW.kind <> 'turn' AND NEW.scope IS NOT NULL AND NEW.status NOT IN ('expired', 'evicted')
          AND (OLD.text IS DISTINCT FROM NEW.text OR OLD.status IS DISTINCT FROM NEW.status
               OR OLD.pinned IS DISTINCT FROM NEW.pinned OR OLD.lane IS DISTINCT FROM NEW.lane
               OR OLD.durability IS DISTINCT FROM NEW.durability
               OR OLD.privacy IS DISTINCT FROM NEW.privacy OR OLD.trust IS DISTINCT FROM NEW.trust
               OR OLD.source IS DISTINCT FROM NEW.source OR OLD.at IS DISTINCT FROM NEW.at
               OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
               OR OLD.session_id IS DISTINCT FROM NEW.session_id
               OR OLD.keywords IS DISTINCT FROM NEW.keywords
               OR OLD.parents IS DISTINCT FROM NEW.parents OR OLD.extra IS DISTINCT FROM NEW.extra
               OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.scope IS DISTINCT FROM NEW.scope))
    EXECUTE FUNCTION memlane_log_item();
CREATE TRIGGER live_items_ad AFTER DELETE ON items FOR EACH ROW
    WHEN (OLD.kind <> 'turn' AND OLD.scope IS NOT NULL)
    EXECUTE FUNCTION memlane_log_item();

-- facts (a search touching a fact's last_accessed is not a change) -----------------------
CREATE FUNCTION memlane_log_fact() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    topic text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
        VALUES (OLD.scope, 'fact', OLD.id, 'delete', 'fact.forgotten', NULL,
                extract(epoch FROM now()));
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        topic := 'fact.added';
    ELSIF OLD.status IS DISTINCT FROM NEW.status THEN
        topic := CASE NEW.status WHEN 'superseded' THEN 'fact.superseded' ELSE 'fact.restored' END;
    ELSIF NEW.reinforcements > OLD.reinforcements THEN
        topic := 'fact.reinforced';
    ELSE
        topic := 'fact.updated';
    END IF;
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (NEW.scope, 'fact', NEW.id, lower(TG_OP), topic, memlane_live_fact(NEW),
            extract(epoch FROM now()));
    RETURN NULL;
END $$;

CREATE TRIGGER live_facts_ai AFTER INSERT ON facts
    FOR EACH ROW EXECUTE FUNCTION memlane_log_fact();
CREATE TRIGGER live_facts_au AFTER UPDATE ON facts FOR EACH ROW
    WHEN (OLD.subject IS DISTINCT FROM NEW.subject OR OLD.predicate IS DISTINCT FROM NEW.predicate
          OR OLD.object IS DISTINCT FROM NEW.object OR OLD.source IS DISTINCT FROM NEW.source
          OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.reinforcements IS DISTINCT FROM NEW.reinforcements
          OR OLD.superseded_by IS DISTINCT FROM NEW.superseded_by OR OLD.at IS DISTINCT FROM NEW.at
          OR OLD.session_id IS DISTINCT FROM NEW.session_id
          OR OLD.item_id IS DISTINCT FROM NEW.item_id OR OLD.scope IS DISTINCT FROM NEW.scope)
    EXECUTE FUNCTION memlane_log_fact();
CREATE TRIGGER live_facts_ad AFTER DELETE ON facts
    FOR EACH ROW EXECUTE FUNCTION memlane_log_fact();

-- packs: the journal only grows; the latest pack of a scope is in its state -------------
-- "Latest" is the highest id, so pack ids must follow commit order: every statement that
-- journals packs first takes this transaction-scoped advisory lock (0x6D6C0006, 0), before
-- its rows draw their ids. A pack's transaction is short (the pack and a counter).
CREATE FUNCTION memlane_lock_packs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(1835794438, 0);
    RETURN NULL;
END $$;
CREATE TRIGGER live_packs_lock BEFORE INSERT ON packs
    FOR EACH STATEMENT EXECUTE FUNCTION memlane_lock_packs();

CREATE FUNCTION memlane_log_pack() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (NEW.scope, 'pack', NEW.id, 'insert', 'memory.pack.journaled', memlane_live_pack(NEW),
            extract(epoch FROM now()));
    RETURN NULL;
END $$;
CREATE TRIGGER live_packs_ai AFTER INSERT ON packs FOR EACH ROW
    WHEN (NEW.scope IS NOT NULL)
    EXECUTE FUNCTION memlane_log_pack();
