-- memlane schema 14: a turn between two people is keyed by its reply's words too.
--
-- A turn's lexical keys (items.keys) hold, beside its speaker's name and the previous
-- message's words, the first words of the reply when both messages are role user and the
-- reply is another speaker's (indexer.turn_keys; docs/retrieval.md, session 24). The
-- sessions indexed before are queued for indexing again: the next index run computes their
-- turns' keys again and writes those that changed (no turn is embedded again; a session
-- with no speaker keeps its keys).

UPDATE sessions SET indexed_at = NULL
    WHERE indexed_at IS NOT NULL AND status <> 'open'
      AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = sessions.id
                  AND m.speaker IS NOT NULL);
