-- Session 27: who a name is no longer depends on its accents ("José" and "Jose" are one
-- person). The keys of facts' subjects, forgotten facts' marks, entities and relations'
-- ends are written again by this migration's Python step (memlane.store.rekey, run in
-- this migration's transaction after this SQL), which merges what falls together. The
-- schema itself does not change.
SELECT 1;
