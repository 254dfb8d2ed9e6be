-- memlane schema 7 for PostgreSQL: add_message in one round trip.
--
-- Storing a message used to take five round trips (BEGIN, the scope's advisory lock, the
-- open session, the insert, COMMIT) and two or three more when a session opened or closed.
-- This function does all of it in one statement, which an autocommit connection runs as
-- its own transaction (``PostgresSessions.add_message``). The steps are those of the shared
-- ``SessionsMixin.add_message``: lock the scope; refuse an id the scope already holds
-- (no row returned, nothing written); close the open session if the message comes more
-- than ``p_gap`` seconds after its last one; open a session if none is open; insert the
-- message and advance the session; bump the counters.
--
-- Each statement of a VOLATILE PL/pgSQL function takes a fresh snapshot under READ
-- COMMITTED, so the reads after the lock see every writer that held it before.

CREATE FUNCTION memlane_bump(p_name text, p_n bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO counters (name, shard, value) VALUES (p_name, pg_backend_pid(), p_n)
    ON CONFLICT (name, shard) DO UPDATE SET value = counters.value + excluded.value
$$;

CREATE FUNCTION memlane_add_message(
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
    UPDATE sessions SET message_count = message_count + 1,
            started_at = least(started_at, p_at), ended_at = greatest(ended_at, p_at),
            participants = CASE WHEN participants::jsonb ? who THEN participants
                ELSE (participants::jsonb || jsonb_build_array(who))::text END
        WHERE id = s_id;
    IF p_redactions > 0 THEN
        PERFORM memlane_bump('secrets_redacted', p_redactions);
    END IF;
    RETURN QUERY SELECT m_id, s_id, s_count + 1;
END $$;
