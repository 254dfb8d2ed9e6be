-- memlane schema 9 for PostgreSQL: a batch of messages in one round trip.
--
-- ``memlane_add_message`` (0007) stores one message per statement, so a batch of 50 took
-- 50 round trips, and each message updated its session (and so wrote a change-log row
-- with the session's whole state). This function takes the batch as arrays, in order, and
-- runs the same steps for each message: lock the scope; refuse an id the scope already
-- holds; close the open session when the message comes more than ``p_gap`` seconds after
-- its last one; open a session when none is open; insert the message. A session's counters,
-- time range and participants are written once per run of its messages (when the batch
-- moves to another session, and at the end), so the live stream shows one
-- ``message.added`` change per session per batch, holding the state after the batch.
--
-- The open session is read ``FOR UPDATE``: nothing (the idle sweeper included) can close
-- it between its messages' inserts and the deferred update. A message whose id the scope
-- already holds (or an earlier message of the batch took) is not stored: its row has NULL
-- ids. The caller decides what that means (``Memory.add_messages`` raises and rolls the
-- whole batch back; an import counts it as a duplicate and goes on).

CREATE FUNCTION memlane_add_messages(
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
                UPDATE sessions SET message_count = s_count, started_at = s_start,
                        ended_at = s_end, participants = s_people::text
                    WHERE id = s_id;
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
        UPDATE sessions SET message_count = s_count, started_at = s_start, ended_at = s_end,
                participants = s_people::text
            WHERE id = s_id;
    END IF;
    IF opened > 0 THEN PERFORM memlane_bump('sessions_opened', opened); END IF;
    IF closed > 0 THEN
        PERFORM memlane_bump('sessions_closed', closed);
        PERFORM memlane_bump('sessions_closed_gap', closed);
    END IF;
    IF redacted > 0 THEN PERFORM memlane_bump('secrets_redacted', redacted); END IF;
END $$;
