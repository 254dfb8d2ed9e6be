-- Session 28: what a fact's value is no longer depends on its accents ("São Paulo" and
-- "Sao Paulo" are one value). Every fact's norm_object is written again by this
-- migration's Python step (memlane.store.rekey, run in this migration's transaction after
-- this SQL), which merges the current values that fall together. The schema itself does
-- not change.
SELECT 1;
