-- memlane schema 23 for PostgreSQL (session 29; SQLite's 0017): a fact event records the
-- message whose statement made it (``message_id``: an ``added`` or ``reinforced`` event
-- the statement's turn, a ``superseded`` event the turn of the statement that replaced
-- the value, a ``forgotten`` mark the forgotten fact's turn; NULL when no one turn made
-- it). An erase of one turn takes the events of facts no longer stored (``forget_fact``'s
-- marks, evicted facts) by it: matched by session and time before, two turns of one
-- session at one time (one batch, a clock gone back) took or kept each other's.
--
-- Old rows: an event of a stored fact, or a mark of a forgotten one, recorded at the time
-- of exactly one message of its session is that message's; an ``added`` event of a stored
-- fact is its fact's message (exact, when messages share the time); a ``forgotten`` mark
-- is its fact's ``added`` mark's. The rest stays NULL: marks of a time several messages
-- share (matched by time, as before), and the other events of facts no longer stored (a
-- turn erase of their session takes them, as before: nothing reads them).

ALTER TABLE fact_events ADD COLUMN message_id bigint;

UPDATE fact_events SET message_id = (
    SELECT min(m.id) FROM messages m WHERE m.session_id = fact_events.session_id
    AND m.at BETWEEN fact_events.at - 0.001 AND fact_events.at + 0.001)
WHERE session_id IS NOT NULL
  AND (object = '' OR EXISTS (SELECT 1 FROM facts f WHERE f.id = fact_events.fact_id))
  AND (SELECT count(*) FROM messages m WHERE m.session_id = fact_events.session_id
       AND m.at BETWEEN fact_events.at - 0.001 AND fact_events.at + 0.001) = 1;

UPDATE fact_events SET message_id = (
    SELECT f.message_id FROM facts f WHERE f.id = fact_events.fact_id)
WHERE kind = 'added' AND EXISTS (
    SELECT 1 FROM facts f WHERE f.id = fact_events.fact_id AND f.message_id IS NOT NULL
    AND f.session_id = fact_events.session_id AND abs(f.at - fact_events.at) < 0.001);

UPDATE fact_events SET message_id = (
    SELECT min(a.message_id) FROM fact_events a WHERE a.fact_id = fact_events.fact_id
    AND a.kind = 'added' AND a.session_id = fact_events.session_id)
WHERE kind = 'forgotten' AND object = '' AND message_id IS NULL AND session_id IS NOT NULL;

CREATE INDEX IF NOT EXISTS fact_events_message ON fact_events (message_id);
