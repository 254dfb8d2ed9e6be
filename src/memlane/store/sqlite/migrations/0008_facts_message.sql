-- memlane schema 8: facts are looked up by the message they came from. Newest-first search
-- asks, for the turns it ranks, whether each turn's facts were all superseded
-- (``superseded_messages``); without this index every such question read the whole facts
-- table, which grows with every indexed session.

CREATE INDEX IF NOT EXISTS facts_message ON facts (message_id);
