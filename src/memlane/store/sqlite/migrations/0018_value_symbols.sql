-- Session 30: a symbol is part of a fact's value ("C++" and "C#", "A+" and "A", "-5 °C" and
-- "5 °C", "🍕" and "🍣" are two values; session 28's key dropped every symbol, so each pair
-- was one value and an emoji's key was ''). Every fact's norm_object is written again by
-- this migration's Python step (memlane.store.rekey.rekey_values, run in this migration's
-- transaction after this SQL), which settles the current values that now share a key. A
-- value merged into another before (the second statement taken for a restatement) was
-- never stored and cannot be split. The schema itself does not change.
SELECT 1;
