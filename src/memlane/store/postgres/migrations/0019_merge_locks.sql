-- memlane schema 19 for PostgreSQL: a merge of two sessions (0017) takes the scope's facts
-- lock before the sessions' rows (session 24).
--
-- A worker writing a session's intelligence holds the scope's facts lock (LOCK_FACTS, taken
-- by clear_intelligence) from the delete of the session's old summary to its commit. A
-- message within the gap of that session and another one merged them meanwhile: it locked
-- the session's row, then waited for the summary rows the worker had deleted, while the
-- worker's insert of rows naming the session waited for that row: a deadlock, and
-- PostgreSQL failed one of them (the user's message, or the worker's run). The merge now
-- takes the facts lock first, when there is a session to join, as an erase does (the
-- scope's writers lock, the facts lock, then the sessions' rows): it waits for the worker,
-- then moves what the worker wrote with the rest. memlane_merge_near is 0017's with this
-- change; SQLite has one writer and needs none (SessionsMixin._merge_near).

CREATE OR REPLACE FUNCTION memlane_merge_near(p_scope text, p_keep bigint, p_at double precision,
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
    IF NOT EXISTS (SELECT 1 FROM sessions s WHERE s.scope = p_scope AND s.id <> p_keep
            AND s.status <> 'open' AND coalesce(s.closed_reason, '') <> 'explicit'
            AND s.started_at <= p_at + p_gap AND s.ended_at >= p_at - p_gap) THEN
        RETURN false;
    END IF;
    -- LOCK_FACTS (0x6D6C0004) of memlane.store.postgres.db, before the sessions' rows: the
    -- order an erase takes them in, and the summariser holds it while it writes a session
    PERFORM pg_advisory_xact_lock(1835794436, hashtext(p_scope));
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
