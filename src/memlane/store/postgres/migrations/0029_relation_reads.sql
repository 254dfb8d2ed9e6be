-- Session 34 (rev34): gc's reading of a session (memlane.store.sql.hygiene, session 33)
-- keeps its answer for each relation whose ends it does not name: ``summarized_at`` is the
-- relation's session's when the offline patterns' reading of its messages named neither
-- end. While the session's ``summarized_at`` is that value its messages are the ones read
-- (a late message, a merge or an erase clears it), so gc does not read the session again
-- on every run. A table of its own (not a column of relations): it can be created again
-- (IF NOT EXISTS) by a database set back to before this migration; the row goes with its
-- relation.
CREATE TABLE IF NOT EXISTS relation_reads (
    relation_id    bigint PRIMARY KEY REFERENCES relations (id) ON DELETE CASCADE,
    summarized_at  double precision NOT NULL
);
