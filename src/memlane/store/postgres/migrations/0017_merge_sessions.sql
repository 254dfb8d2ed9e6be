-- memlane schema 17 for PostgreSQL: the same messages give the same sessions, whatever
-- order they arrive in (session 24).
--
-- Sessions are cut by a time gap. Before, a message within the gap of two sessions joined
-- one of them (14:00, then 14:50, a new session, then 14:25: two sessions where the same
-- messages in time order made one), and a message within the gap after a session that
-- idleness had closed (an index run) opened another. Now such a message joins them
-- (memlane_merge_near): the other session's messages, items, facts, fact events and
-- relations move to the one the message went to, its messages take their places in time
-- order (equal times by arrival), its row goes, and the session is queued again for turns
-- and a summary. A session someone closed (close_session, an import's label: reason
-- 'explicit') is a boundary and is never joined so. A message within the gap after the
-- scope's newest session, when no one closed it and none is open, is late and joins it.
-- SQLite does the same in SessionsMixin._merge_near and add_message (store/sql/sessions.py).
-- memlane_add_late, memlane_add_message and memlane_add_messages are 0016's with these
-- changes.

CREATE FUNCTION memlane_merge_near(p_scope text, p_keep bigint, p_at double precision,
                                   p_gap double precision, p_now double precision)
    RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    other  record;
    top    integer;
    merged boolean := false;
BEGIN
    -- an import's labelled lines (no gap: the label makes their session) join none
    IF p_gap = 'Infinity'::double precision OR (SELECT s.closed_reason FROM sessions s
            WHERE s.id = p_keep) IS NOT DISTINCT FROM 'explicit' THEN
        RETURN false;
    END IF;
    FOR other IN SELECT s.id, s.message_count, s.started_at, s.ended_at, s.participants
        FROM sessions s WHERE s.scope = p_scope AND s.id <> p_keep AND s.status <> 'open'
          AND coalesce(s.closed_reason, '') <> 'explicit'
          AND s.started_at <= p_at + p_gap AND s.ended_at >= p_at - p_gap
        ORDER BY s.id FOR UPDATE
    LOOP
        SELECT coalesce(max(m.seq), 0) INTO top FROM messages m WHERE m.session_id = p_keep;
        UPDATE messages SET session_id = p_keep, seq = seq + top WHERE session_id = other.id;
        UPDATE items SET session_id = p_keep WHERE session_id = other.id;
        UPDATE facts SET session_id = p_keep WHERE session_id = other.id;
        UPDATE fact_events SET session_id = p_keep WHERE session_id = other.id;
        UPDATE relations SET session_id = p_keep WHERE session_id = other.id;
        DELETE FROM sessions WHERE id = other.id;
        UPDATE sessions s SET message_count = s.message_count + other.message_count,
                started_at = least(s.started_at, other.started_at),
                ended_at = greatest(s.ended_at, other.ended_at),
                participants = (SELECT coalesce(jsonb_agg(y.p ORDER BY y.o), '[]'::jsonb)::text
                    FROM (SELECT x.p, min(x.o) AS o FROM jsonb_array_elements_text(
                        s.participants::jsonb || other.participants::jsonb)
                        WITH ORDINALITY AS x(p, o) GROUP BY x.p) y)
            WHERE s.id = p_keep;
        PERFORM memlane_bump('sessions_merged', 1);
        merged := true;
    END LOOP;
    IF NOT merged THEN
        RETURN false;
    END IF;
    -- (session_id, seq) is unique and checked row by row: through negatives
    UPDATE messages SET seq = -seq WHERE session_id = p_keep;
    UPDATE messages m SET seq = r.n FROM (
        SELECT x.id, row_number() OVER (ORDER BY x.at, x.id)::integer AS n
        FROM messages x WHERE x.session_id = p_keep) r
        WHERE m.id = r.id;
    UPDATE items i SET seq = m.seq FROM messages m
        WHERE i.session_id = p_keep AND i.message_id = m.id;
    UPDATE sessions SET indexed_at = NULL, summarized_at = NULL, attempts = 0, deferrals = 0,
            next_attempt_at = CASE WHEN status = 'closed' AND summarized_at IS NULL
                AND next_attempt_at > 0 THEN next_attempt_at ELSE p_now END,
            failed_reason = NULL,
            status = CASE WHEN status = 'open' THEN 'open' ELSE 'closed' END
        WHERE id = p_keep;
    RETURN true;
END $$;

CREATE OR REPLACE FUNCTION memlane_add_late(
    p_scope text, p_role text, p_text text, p_at double precision, p_gap double precision,
    p_speaker text, p_ext_id text, p_agent text, p_project text, p_redactions integer,
    p_now double precision
) RETURNS TABLE (o_message bigint, o_session bigint, o_seq integer)
LANGUAGE plpgsql AS $$
DECLARE
    s_id    bigint;
    s_count integer;
    s_end   double precision;
    q       integer;
    joined  boolean;
    m_id    bigint;
    who     text := coalesce(p_speaker, p_role);
BEGIN
    -- the caller holds the scope's lock
    SELECT s.id, s.message_count, s.ended_at INTO s_id, s_count, s_end FROM sessions s
        WHERE s.scope = p_scope AND s.status <> 'open'
          AND s.started_at <= p_at + p_gap AND s.ended_at >= p_at - p_gap
        ORDER BY greatest(s.started_at - p_at, p_at - s.ended_at, 0), s.id DESC LIMIT 1
        FOR UPDATE;
    joined := s_id IS NOT NULL;
    IF s_id IS NULL THEN
        INSERT INTO sessions (scope, agent, project, status, closed_reason, started_at,
                              ended_at, created_at)
            VALUES (p_scope, p_agent, p_project, 'closed', 'late', p_at, p_at, p_now)
            RETURNING id INTO s_id;
        s_count := 0;
        s_end := p_at;
        PERFORM memlane_bump('sessions_opened', 1);
        PERFORM memlane_bump('sessions_closed', 1);
        PERFORM memlane_bump('sessions_closed_late', 1);
    ELSE
        PERFORM memlane_bump('sessions_requeued_late', 1);
    END IF;
    q := memlane_place(s_id, s_count + 1, s_end, p_at);
    INSERT INTO messages (session_id, scope, seq, role, speaker, text, at, ext_id, agent,
                          project, redactions)
        VALUES (s_id, p_scope, q, p_role, p_speaker, p_text, p_at, p_ext_id, p_agent,
                p_project, p_redactions)
        RETURNING id INTO m_id;
    -- queued again whatever its stage (a session of its own is new: nothing to undo)
    WITH u AS (
        UPDATE sessions SET message_count = message_count + 1,
                started_at = least(started_at, p_at), ended_at = greatest(ended_at, p_at),
                participants = CASE WHEN participants::jsonb ? who THEN participants
                    ELSE (participants::jsonb || jsonb_build_array(who))::text END,
                indexed_at = NULL, summarized_at = NULL, attempts = 0, deferrals = 0,
                -- when the first late message of a burst arrived (kept by the later ones
                -- while the session waits): the worker summarizes it
                -- indexing.late_settle_seconds after that; a session of its own is due now
                next_attempt_at = CASE WHEN NOT joined OR (status = 'closed'
                    AND summarized_at IS NULL AND next_attempt_at > 0)
                    THEN next_attempt_at ELSE p_now END,
                failed_reason = NULL, status = 'closed',
                logged_changes = logged_changes + 1
            WHERE id = s_id RETURNING id, scope)
    INSERT INTO changes (scope, entity, entity_id, op, topic, doc, at)
        SELECT u.scope, 'session', u.id, 'update', 'message.added', NULL, extract(epoch FROM now())
        FROM u;
    PERFORM memlane_bump('messages_late', 1);
    IF p_redactions > 0 THEN
        PERFORM memlane_bump('secrets_redacted', p_redactions);
    END IF;
    IF joined AND memlane_merge_near(p_scope, s_id, p_at, p_gap, p_now) THEN
        SELECT m.seq INTO q FROM messages m WHERE m.id = m_id;
    END IF;
    RETURN QUERY SELECT m_id, s_id, q;
END $$;

CREATE OR REPLACE FUNCTION memlane_add_message(
    p_scope text, p_role text, p_text text, p_at double precision, p_gap double precision,
    p_speaker text, p_ext_id text, p_agent text, p_project text, p_redactions integer,
    p_now double precision
) RETURNS TABLE (o_message bigint, o_session bigint, o_seq integer)
LANGUAGE plpgsql AS $$
DECLARE
    s_id    bigint;
    s_start double precision;
    s_end   double precision;
    n_end   double precision;
    n_reason text;
    s_count integer;
    q       integer;
    m_id    bigint;
    bridge  boolean;
    who     text := coalesce(p_speaker, p_role);
BEGIN
    -- LOCK_SCOPE (0x6D6C0002) of memlane.store.postgres.db, as open_session_for takes it
    PERFORM pg_advisory_xact_lock(1835794434, hashtext(p_scope));
    IF p_ext_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM messages m WHERE m.scope = p_scope AND m.ext_id = p_ext_id
    ) THEN
        RETURN;
    END IF;
    SELECT s.id, s.started_at, s.ended_at, s.message_count INTO s_id, s_start, s_end, s_count
        FROM sessions s WHERE s.scope = p_scope AND s.status = 'open';
    IF s_id IS NULL THEN
        SELECT s.ended_at, s.closed_reason INTO n_end, n_reason FROM sessions s
            WHERE s.scope = p_scope ORDER BY s.started_at DESC, s.id DESC LIMIT 1;
    END IF;
    -- within the gap after a session no one closed: that session's (session 24)
    IF (s_id IS NOT NULL AND p_at - s_end <= p_gap AND p_at < s_start - p_gap)
       OR (s_id IS NULL AND n_end IS NOT NULL AND (p_at < n_end OR (p_at - n_end <= p_gap
           AND n_reason IS DISTINCT FROM 'explicit'))) THEN
        RETURN QUERY SELECT * FROM memlane_add_late(p_scope, p_role, p_text, p_at, p_gap,
            p_speaker, p_ext_id, p_agent, p_project, p_redactions, p_now);
        RETURN;
    END IF;
    IF s_id IS NOT NULL AND p_at - s_end > p_gap THEN
        UPDATE sessions SET status = 'closed', closed_reason = 'gap'
            WHERE id = s_id AND status = 'open';
        PERFORM memlane_bump('sessions_closed', 1);
        PERFORM memlane_bump('sessions_closed_gap', 1);
        s_id := NULL;
    END IF;
    -- before the open session's start: it may meet the session before it
    bridge := s_id IS NOT NULL AND p_at < s_start;
    IF s_id IS NULL THEN
        INSERT INTO sessions (scope, agent, project, status, started_at, ended_at, created_at)
            VALUES (p_scope, p_agent, p_project, 'open', p_at, p_at, p_now)
            RETURNING id INTO s_id;
        s_count := 0;
        s_end := p_at;
        PERFORM memlane_bump('sessions_opened', 1);
    END IF;
    q := memlane_place(s_id, s_count + 1, s_end, p_at);
    INSERT INTO messages (session_id, scope, seq, role, speaker, text, at, ext_id, agent,
                          project, redactions)
        VALUES (s_id, p_scope, q, p_role, p_speaker, p_text, p_at, p_ext_id, p_agent,
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
    IF bridge AND memlane_merge_near(p_scope, s_id, p_at, p_gap, p_now) THEN
        SELECT m.seq INTO q FROM messages m WHERE m.id = m_id;
    END IF;
    RETURN QUERY SELECT m_id, s_id, q;
END $$;


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
    n_end    double precision;
    n_reason text;
    q        integer;
    late     record;
    bridge   boolean;
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
        IF s_id IS NULL THEN
            n_end := NULL;
            n_reason := NULL;
            SELECT s.ended_at, s.closed_reason INTO n_end, n_reason FROM sessions s
                WHERE s.scope = cur_scope ORDER BY s.started_at DESC, s.id DESC LIMIT 1;
        END IF;
        IF (s_id IS NOT NULL AND p_at[i] - s_end <= p_gap AND p_at[i] < s_start - p_gap)
           OR (s_id IS NULL AND n_end IS NOT NULL AND (p_at[i] < n_end OR (
               p_at[i] - n_end <= p_gap AND n_reason IS DISTINCT FROM 'explicit'))) THEN
            -- late: another session's (the open one's state stays as it is)
            SELECT * INTO late FROM memlane_add_late(cur_scope, p_role[i], p_text[i], p_at[i],
                p_gap, p_speaker[i], p_ext_id[i], p_agent[i], p_project[i], p_redactions[i], p_now);
            o_index := i - 1;
            o_message := late.o_message;
            o_session := late.o_session;
            o_seq := late.o_seq;
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
        bridge := s_id IS NOT NULL AND p_at[i] < s_start;
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
        q := memlane_place(s_id, s_count, s_end, p_at[i]);
        INSERT INTO messages (session_id, scope, seq, role, speaker, text, at, ext_id, agent,
                              project, redactions)
            VALUES (s_id, cur_scope, q, p_role[i], p_speaker[i], p_text[i], p_at[i],
                    p_ext_id[i], p_agent[i], p_project[i], p_redactions[i])
            RETURNING id INTO m_id;
        s_start := least(s_start, p_at[i]);
        s_end := greatest(s_end, p_at[i]);
        who := coalesce(p_speaker[i], p_role[i]);
        IF NOT s_people ? who THEN
            s_people := s_people || jsonb_build_array(who);
        END IF;
        s_dirty := true;
        IF bridge THEN
            -- the open session's state written first, then read back after the merge
            PERFORM memlane_log_messages(s_id, s_count, s_start, s_end, s_people);
            s_dirty := false;
            IF memlane_merge_near(cur_scope, s_id, p_at[i], p_gap, p_now) THEN
                SELECT m.seq INTO q FROM messages m WHERE m.id = m_id;
                SELECT s.started_at, s.ended_at, s.message_count, s.participants::jsonb
                    INTO s_start, s_end, s_count, s_people FROM sessions s WHERE s.id = s_id;
            END IF;
        END IF;
        redacted := redacted + p_redactions[i];
        o_index := i - 1;
        o_message := m_id;
        o_session := s_id;
        o_seq := q;
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
