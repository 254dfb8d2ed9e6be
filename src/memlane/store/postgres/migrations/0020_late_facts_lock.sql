-- memlane schema 20 for PostgreSQL: a late message takes the scope's facts lock before the
-- session it joins (session 25).
--
-- A worker summarizing a session again holds the scope's facts lock from the delete of the
-- session's old summary, facts and observations (clear_intelligence) to its commit; its
-- inserts of the new ones reference the session's row (a key-share lock). A late message
-- into that session locked the session's row (FOR UPDATE), then renumbered its items
-- (memlane_place): the items the worker had deleted, so it waited for the worker, whose
-- inserts waited for the session's row: a deadlock, and PostgreSQL failed the user's
-- message (seen in a stress of live messages, index runs and erases). 0019 took the facts
-- lock only when the message would merge sessions; it is now taken for every late
-- message, before any session's row, so the message waits for the worker. Only late
-- messages pay for it (an advisory lock); SQLite has one writer and needs none
-- (SessionsMixin.add_to_session takes the same lock, for an import resuming a label).

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
    -- the caller holds the scope's lock. Then the scope's facts lock (LOCK_FACTS), always,
    -- and the rows of the sessions the message is within the gap of, in id order (the
    -- order an erase, a merge and the indexer's claim take them in)
    PERFORM pg_advisory_xact_lock(1835794436, hashtext(p_scope));
    PERFORM 1 FROM sessions s WHERE s.scope = p_scope AND s.status <> 'open'
        AND s.started_at <= p_at + p_gap AND s.ended_at >= p_at - p_gap
        ORDER BY s.id FOR UPDATE;
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
