-- memlane schema 10: a session counts the attempts given back to it. A 429 or 5xx with no
-- sign that the endpoint answers anyone else is an outage, and the attempt is given back
-- (it does not use up indexing.max_attempts); ``deferrals`` counts those, so that their
-- backoff grows and a session the endpoint never answers stops being retried for ever
-- (indexing.max_deferrals; docs/session-intelligence.md).

ALTER TABLE sessions ADD COLUMN deferrals INTEGER NOT NULL DEFAULT 0;
