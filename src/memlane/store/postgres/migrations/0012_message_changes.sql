-- memlane schema 12 for PostgreSQL: a message's change record, cheaper.
--
-- Every message updates its session, and the session trigger of 0006 wrote a change row
-- holding the session's whole state document for each: a PL/pgSQL trigger call, the
-- document built as jsonb, and the row. Measured on the test server (5,500 add_message
-- calls, the server backend's CPU): 127-142 us a message with it, 87-95 without the
-- trigger; the trigger's call alone was about 20 us, the document 10-20.
--
-- Now the functions that store messages (memlane_add_message, memlane_add_messages) write
-- a message's change record themselves, in the statement that advances the session, and
-- the record carries ids only (topic message.added, no document): the reader fills in the
-- session's current document in its consistent read (PostgresStore.changes_after), so a
-- snapshot plus the changes after it still equals a later snapshot. The update also
-- advances sessions.logged_changes, and the trigger skips an update that does: any other
-- write of a session (and any update that does not advance the column) is still logged by
-- the trigger, in the same transaction, as before; a message's record written by the
-- trigger (append_message) carries no document either. Rows written before this
-- migration keep their documents.

ALTER TABLE sessions ADD COLUMN logged_changes bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION memlane_log_session() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- a message arriving: ids only, the reader fills in the session's document
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
    VALUES (NEW.scope, 'session', NEW.id, lower(TG_OP), topic,
            CASE WHEN topic = 'message.added' THEN NULL ELSE memlane_live_session(NEW) END,
            extract(epoch FROM now()));
    RETURN NULL;
END $$;


DROP TRIGGER live_sessions_au ON sessions;
-- Only columns of the state document (a lease or an attempt counter is not a change), and
-- not an update whose writer logged it itself (it advanced logged_changes).
CREATE TRIGGER live_sessions_au AFTER UPDATE ON sessions FOR EACH ROW
    WHEN (OLD.logged_changes = NEW.logged_changes AND (
          OLD.status IS DISTINCT FROM NEW.status OR OLD.message_count IS DISTINCT FROM NEW.message_count
          OR OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.ended_at IS DISTINCT FROM NEW.ended_at
          OR OLD.participants IS DISTINCT FROM NEW.participants
          OR (OLD.indexed_at IS NULL) IS DISTINCT FROM (NEW.indexed_at IS NULL)
          OR OLD.closed_reason IS DISTINCT FROM NEW.closed_reason
          OR OLD.failed_reason IS DISTINCT FROM NEW.failed_reason
          OR OLD.agent IS DISTINCT FROM NEW.agent OR OLD.project IS DISTINCT FROM NEW.project
          OR OLD.scope IS DISTINCT FROM NEW.scope))
    EXECUTE FUNCTION memlane_log_session();

CREATE OR REPLACE FUNCTION memlane_add_message(
    p_scope text, p_role text, p_text text, p_at double precision, p_gap double precision,
    p_speaker text, p_ext_id text, p_agent text, p_project text, p_redactions integer,
    p_now double precision
) RETURNS TABLE (o_message bigint, o_session bigint, o_seq integer)
LANGUAGE plpgsql AS $$
DECLARE
    s_id    bigint;
    s_end   double precision;
    s_count integer;
    m_id    bigint;
    who     text := coalesce(p_speaker, p_role);
BEGIN
    -- LOCK_SCOPE (0x6D6C0002) of memlane.store.postgres.db, as open_session_for takes it
    PERFORM pg_advisory_xact_lock(1835794434, hashtext(p_scope));
    IF p_ext_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM messages m WHERE m.scope = p_scope AND m.ext_id = p_ext_id
    ) THEN
        RETURN;
    END IF;
    SELECT s.id, s.ended_at, s.message_count INTO s_id, s_end, s_count
        FROM sessions s WHERE s.scope = p_scope AND s.status = 'open';
    IF s_id IS NOT NULL AND p_at - s_end > p_gap THEN
        UPDATE sessions SET status = 'closed', closed_reason = 'gap'
            WHERE id = s_id AND status = 'open';
        PERFORM memlane_bump('sessions_closed', 1);
        PERFORM memlane_bump('sessions_closed_gap', 1);
        s_id := NULL;
    END IF;
    IF s_id IS NULL THEN
        INSERT INTO sessions (scope, agent, project, status, started_at, ended_at, created_at)
            VALUES (p_scope, p_agent, p_project, 'open', p_at, p_at, p_now)
            RETURNING id INTO s_id;
        s_count := 0;
        PERFORM memlane_bump('sessions_opened', 1);
    END IF;
    INSERT INTO messages (session_id, scope, seq, role, speaker, text, at, ext_id, agent,
                          project, redactions)
        VALUES (s_id, p_scope, s_count + 1, p_role, p_speaker, p_text, p_at, p_ext_id, p_agent,
                p_project, p_redactions)
        RETURNING id INTO m_id;
    -- the message's change record, written here (the trigger skips an update that
    -- advances logged_changes): ids only, the reader fills in the session's document
    WITH u AS (
        UPDATE sessions SET message_count = message_count + 1,
                started_at = least(started_at, p_at), ended_at = greatest(ended_at, p_at),
                participants = CASE WHEN participants::jsonb ? who THEN participants
                    ELSE (participants::jsonb || jsonb_build_array(who))::text END,
                logged_changes = logged_changes + 1
            WHERE id = s_id RETURNING id, scope)
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
        SELECT u.scope, 'session', u.id, 'update', 'message.added', NULL, extract(epoch FROM now())
        FROM u;
    IF p_redactions > 0 THEN
        PERFORM memlane_bump('secrets_redacted', p_redactions);
    END IF;
    RETURN QUERY SELECT m_id, s_id, s_count + 1;
END $$;

-- A run of messages of one batch advances its session once: the update and its record.
CREATE FUNCTION memlane_log_messages(p_id bigint, p_count integer, p_start double precision,
                                     p_end double precision, p_people jsonb) RETURNS void
LANGUAGE sql AS $$
    WITH u AS (
        UPDATE sessions SET message_count = p_count, started_at = p_start, ended_at = p_end,
                participants = p_people::text, logged_changes = logged_changes + 1
            WHERE id = p_id RETURNING id, scope)
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
        SELECT u.scope, 'session', u.id, 'update', 'message.added', NULL, extract(epoch FROM now())
        FROM u
$$;

CREATE OR REPLACE FUNCTION memlane_add_messages(
    p_scope text[], p_role text[], p_text text[], p_at double precision[],
    p_gap double precision, p_speaker text[], p_ext_id text[], p_agent text[],
    p_project text[], p_redactions integer[], p_now double precision
) RETURNS TABLE (o_index integer, o_message bigint, o_session bigint, o_seq integer)
LANGUAGE plpgsql AS $$
DECLARE
    i        integer;
    cur_scope text := NULL;   -- the scope whose session s_* describe
    s_id     bigint := NULL;  -- its open session (NULL: none read yet, or none open)
    s_start  double precision;
    s_end    double precision;
    s_count  integer;
    s_people jsonb;
    s_dirty  boolean := false;
    who      text;
    m_id     bigint;
    redacted bigint := 0;
    opened   bigint := 0;
    closed   bigint := 0;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_text, 1), 0) LOOP
        IF cur_scope IS DISTINCT FROM p_scope[i] THEN
            IF s_dirty THEN
                PERFORM memlane_log_messages(s_id, s_count, s_start, s_end, s_people);
            END IF;
            s_dirty := false;
            cur_scope := p_scope[i];
            -- LOCK_SCOPE (0x6D6C0002) of memlane.store.postgres.db, as open_session_for takes it
            PERFORM pg_advisory_xact_lock(1835794434, hashtext(cur_scope));
            SELECT s.id, s.started_at, s.ended_at, s.message_count, s.participants::jsonb
                INTO s_id, s_start, s_end, s_count, s_people
                FROM sessions s WHERE s.scope = cur_scope AND s.status = 'open' FOR UPDATE;
        END IF;
        IF p_ext_id[i] IS NOT NULL AND EXISTS (
            SELECT 1 FROM messages m WHERE m.scope = cur_scope AND m.ext_id = p_ext_id[i]
        ) THEN
            o_index := i - 1;
            o_message := NULL;
            o_session := NULL;
            o_seq := NULL;
            RETURN NEXT;
            CONTINUE;
        END IF;
        IF s_id IS NOT NULL AND p_at[i] - s_end > p_gap THEN
            IF s_dirty THEN
                UPDATE sessions SET message_count = s_count, started_at = s_start,
                        ended_at = s_end, participants = s_people::text,
                        status = 'closed', closed_reason = 'gap'
                    WHERE id = s_id;
            ELSE
                UPDATE sessions SET status = 'closed', closed_reason = 'gap'
                    WHERE id = s_id AND status = 'open';
            END IF;
            s_dirty := false;
            closed := closed + 1;
            s_id := NULL;
        END IF;
        IF s_id IS NULL THEN
            INSERT INTO sessions (scope, agent, project, status, started_at, ended_at, created_at)
                VALUES (cur_scope, p_agent[i], p_project[i], 'open', p_at[i], p_at[i], p_now)
                RETURNING id, participants::jsonb INTO s_id, s_people;
            s_start := p_at[i];
            s_end := p_at[i];
            s_count := 0;
            opened := opened + 1;
        END IF;
        s_count := s_count + 1;
        INSERT INTO messages (session_id, scope, seq, role, speaker, text, at, ext_id, agent,
                              project, redactions)
            VALUES (s_id, cur_scope, s_count, p_role[i], p_speaker[i], p_text[i], p_at[i],
                    p_ext_id[i], p_agent[i], p_project[i], p_redactions[i])
            RETURNING id INTO m_id;
        s_start := least(s_start, p_at[i]);
        s_end := greatest(s_end, p_at[i]);
        who := coalesce(p_speaker[i], p_role[i]);
        IF NOT s_people ? who THEN
            s_people := s_people || jsonb_build_array(who);
        END IF;
        s_dirty := true;
        redacted := redacted + p_redactions[i];
        o_index := i - 1;
        o_message := m_id;
        o_session := s_id;
        o_seq := s_count;
        RETURN NEXT;
    END LOOP;
    IF s_dirty THEN
        PERFORM memlane_log_messages(s_id, s_count, s_start, s_end, s_people);
    END IF;
    IF opened > 0 THEN PERFORM memlane_bump('sessions_opened', opened); END IF;
    IF closed > 0 THEN
        PERFORM memlane_bump('sessions_closed', closed);
        PERFORM memlane_bump('sessions_closed_gap', closed);
    END IF;
    IF redacted > 0 THEN PERFORM memlane_bump('secrets_redacted', redacted); END IF;
END $$;
