-- memlane schema 13: a message's seq is its turn in time order.
--
-- Before, a message's seq was its arrival order in its session: a late message, or one a
-- little earlier than the open session's last, was listed after turns that happened later
-- (sessions show, a pack's turns, an export, the inspector, the MCP and HTTP message pages
-- all list by seq). Now a message takes its place after every message of its session no
-- later than it, the later ones moving down by one (SessionsMixin._place; PostgreSQL:
-- migration 0016). The sessions written before are put in time order here: their messages
-- renumbered by time, then arrival; each turn follows its message.

CREATE TEMP TABLE memlane_renumber AS
    SELECT id, session_id, seq,
           row_number() OVER (PARTITION BY session_id ORDER BY at, seq) AS new_seq
    FROM messages;
DELETE FROM memlane_renumber WHERE seq = new_seq;
CREATE INDEX temp.memlane_renumber_id ON memlane_renumber (id);
UPDATE messages SET seq = -(SELECT r.new_seq FROM memlane_renumber r WHERE r.id = messages.id)
    WHERE id IN (SELECT id FROM memlane_renumber);
UPDATE messages SET seq = -seq WHERE seq < 0;
UPDATE items SET seq = (SELECT r.new_seq FROM memlane_renumber r WHERE r.id = items.message_id
                        AND r.session_id = items.session_id AND r.seq = items.seq)
    WHERE message_id IN (SELECT id FROM memlane_renumber) AND EXISTS (
        SELECT 1 FROM memlane_renumber r WHERE r.id = items.message_id
        AND r.session_id = items.session_id AND r.seq = items.seq);
DROP TABLE memlane_renumber;
