-- Session 31: a symbol is part of a name ("C++", "C#" and "C" are three subjects and three
-- graph nodes, "F#" and "F" two; session 27's key made every symbol a space, so each was
-- one), and a space between a number and its unit or currency sign decorates names and
-- values ("5 °C" is "5°C"). The keys of facts' subjects and values, entities and relations'
-- ends are written again by this migration's Python step (memlane.store.rekey.rekey_symbols,
-- run in this migration's transaction after this SQL). What the old key merged (the node
-- "C++" that "C#" was a mention of) stays merged: it cannot be split. The schema itself
-- does not change.
SELECT 1;
