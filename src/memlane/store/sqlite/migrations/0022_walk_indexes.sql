-- Session 35 (rev35): the meaning tier's backfill walks the items no session holds,
-- highest id first, 50 a page (``Store.loose_items``, session 34). The only index on
-- ``session_id`` is ``items_session`` (session_id, seq): each page read every such item
-- and sorted them (150,000 of them: 190 ms of CPU a page, up to 100 pages a round over a
-- full cache). Keyed (session_id, id), the page is read in id order from its place and
-- stops at 50 (0.4 ms). Partial: only the items no session holds are in it.
CREATE INDEX IF NOT EXISTS items_loose ON items (session_id, id) WHERE session_id IS NULL;
-- And the sessions of every scope newest first, 50 a page from the walk's place
-- (``list_sessions(after=...)``; ``memlane sessions list`` without a scope too): only
-- ``sessions_scope_time`` (scope, started_at) ordered them, so each page read and sorted
-- every session (100,000 of them on SQLite: 54 ms of CPU a page).
CREATE INDEX IF NOT EXISTS sessions_time ON sessions (started_at, id);
