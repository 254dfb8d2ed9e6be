-- memlane schema 28 for PostgreSQL: a merge that queues an indexed session again counts it
-- (session 33).
--
-- A late message within the gap of two sessions joins the nearer and merges the other into
-- it (memlane_merge_near, 0017). sessions_requeued_late counted the joined session when it
-- had been indexed or summarized (0026), and nothing for the merged one: a message joining a
-- session still waiting and merging an indexed one queued the indexed one's messages again
-- and counted no session queued again (sessions_merged only). Now a merge counts one when a
-- session it joins had been indexed or summarized, unless the message counted keep already
-- (p_counted): one count for the one session the message queued. A message before the open
-- session's start that merges an indexed session counts the same way.
--
-- memlane_merge_near is 0019's with this change and a last parameter, p_counted (default
-- false, so memlane_add_message's and memlane_add_messages' calls are unchanged); the old
-- function is dropped first, as a call with five arguments would otherwise match both.
-- memlane_add_late is 0026's, passing whether it counted. SQLite does the same in
-- SessionsMixin._merge_near (store/sql/sessions.py).

DROP FUNCTION IF EXISTS memlane_merge_near(text, bigint, double precision, double precision,
                                 double precision);

CREATE OR REPLACE FUNCTION memlane_merge_near(p_scope text, p_keep bigint, p_at double precision,
                                   p_gap double precision, p_now double precision,
                                   p_counted boolean DEFAULT false)
    RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    other  record;
    top    integer;
    merged boolean := false;
    requeue boolean := false;
BEGIN
    -- an import's labelled lines (no gap: the label makes their session) join none
    IF p_gap = 'Infinity'::double precision OR (SELECT s.closed_reason FROM sessions s
            WHERE s.id = p_keep) IS NOT DISTINCT FROM 'explicit' THEN
        RETURN false;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM sessions s WHERE s.scope = p_scope AND s.id <> p_keep
            AND s.status <> 'open' AND coalesce(s.closed_reason, '') <> 'explicit'
            AND s.started_at <= p_at + p_gap AND s.ended_at >= p_at - p_gap) THEN
        RETURN false;
    END IF;
    -- LOCK_FACTS (0x6D6C0004) of memlane.store.postgres.db, before the sessions' rows: the
    -- order an erase takes them in, and the summariser holds it while it writes a session
    PERFORM pg_advisory_xact_lock(1835794436, hashtext(p_scope));
    FOR other IN SELECT s.id, s.message_count, s.started_at, s.ended_at, s.participants,
                        s.indexed_at IS NOT NULL OR s.summarized_at IS NOT NULL AS done
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
        requeue := requeue OR other.done;
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
    -- a session that had been indexed or summarized, queued again: counted once, unless the
    -- message counted keep already (p_counted)
    IF requeue AND NOT p_counted THEN
        PERFORM memlane_bump('sessions_requeued_late', 1);
    END IF;
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
    done    boolean;
    m_id    bigint;
    who     text := coalesce(p_speaker, p_role);
BEGIN
    -- the caller holds the scope's lock. Then the scope's facts lock (LOCK_FACTS), always,
    -- and the rows of the sessions the message is within the gap of, in id order (the
    -- order an erase, a merge and the indexer's claim take them in)
    PERFORM pg_advisory_xact_lock(1835794436, hashtext(p_scope));
    PERFORM 1 FROM sessions s WHERE s.scope = p_scope AND s.status <> 'open'
        AND s.started_at <= p_at + p_gap AND s.ended_at >= p_at - p_gap
        ORDER BY s.id FOR UPDATE;
    SELECT s.id, s.message_count, s.ended_at,
           s.indexed_at IS NOT NULL OR s.summarized_at IS NOT NULL
        INTO s_id, s_count, s_end, done FROM sessions s
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
    ELSIF done THEN
        -- queued again by this message: counted once (the later ones find it queued)
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
    IF joined AND memlane_merge_near(p_scope, s_id, p_at, p_gap, p_now, done) THEN
        SELECT m.seq INTO q FROM messages m WHERE m.id = m_id;
    END IF;
    RETURN QUERY SELECT m_id, s_id, q;
END $$;
