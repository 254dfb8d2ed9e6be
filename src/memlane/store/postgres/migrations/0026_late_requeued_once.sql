-- memlane schema 26 for PostgreSQL: a late message counts the session it queues again once
-- (session 32).
--
-- sessions_requeued_late counted every late message that joined a closed session, so five
-- late messages to one indexed session said five sessions had been queued again. An
-- import's lines count a session once since session 31 (SessionsMixin.add_to_session): when
-- the line finds it indexed or summarized, i.e. queued again by this line; a session still
-- waiting is not. A late message now counts by the same rule (SQLite's
-- SessionsMixin.add_message and _late_session do the same).
--
-- memlane_add_late is 0020's with this change; memlane_add_message and memlane_add_messages
-- call it, so one message and a batch count alike.

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
    IF joined AND memlane_merge_near(p_scope, s_id, p_at, p_gap, p_now) THEN
        SELECT m.seq INTO q FROM messages m WHERE m.id = m_id;
    END IF;
    RETURN QUERY SELECT m_id, s_id, q;
END $$;
