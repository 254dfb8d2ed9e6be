-- Session 34 (rev34): gc's reading of a session (memlane.store.sql.hygiene, session 33)
-- keeps its answer on each relation whose ends it does not name: ``unread_at`` is the
-- ``summarized_at`` of the relation's session when the offline patterns' reading of its
-- messages named neither end (NULL: not read, or named). While the session's
-- ``summarized_at`` is that value its messages are the ones read (a late message, a merge
-- or an erase clears it), so gc does not read the session again on every run.
ALTER TABLE relations ADD COLUMN unread_at REAL;
