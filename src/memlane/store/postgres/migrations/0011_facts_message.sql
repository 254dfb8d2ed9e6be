-- memlane schema 11 for PostgreSQL: facts are looked up by the message they came from.
-- Newest-first search asks, for the turns it ranks, whether each turn's facts were all
-- superseded (``superseded_messages``, and the same check inside the search's item and
-- stage-two statements); without this index each of those scanned the whole facts table,
-- which grows with every indexed session.

CREATE INDEX IF NOT EXISTS facts_message ON facts (message_id);
