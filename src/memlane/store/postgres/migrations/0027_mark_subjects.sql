-- Session 32: a forgotten fact's marks (the events ``forget_fact`` keeps without the value)
-- keep the fact's subject as written (``written_subject``; NULL on every other event), so
-- that a re-keying of names writes their key again from it (``rekey_names``): the key alone
-- cannot be re-keyed ("C++ team" was ``c team``, which is also "C team"'s and "C# team"'s).
-- The marks an older memlane left (no subject as written) are read back by this
-- migration's Python step (memlane.store.rekey.read_back_marks, run in this migration's
-- transaction after this SQL): docs/facts.md, "Session 32: forgotten stays forgotten".
ALTER TABLE fact_events ADD COLUMN written_subject text;
