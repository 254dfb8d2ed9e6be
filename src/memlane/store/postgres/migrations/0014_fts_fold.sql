-- memlane schema 14 for PostgreSQL: full-text words fold as SQLite's FTS5 folds them.
--
-- SQLite's tokenizer (``unicode61 remove_diacritics 2``) removes the diacritics of Latin
-- letters and splits words at invisible format characters; PostgreSQL's english parser did
-- neither. So on PostgreSQL "cafe" did not find "café", a word typed with a combining accent
-- (NFD, as macOS and many keyboards send it) did not find the same word stored precomposed,
-- and "zero" did not find "zero<U+200B>width" (a zero-width space, a soft hyphen, a bidi
-- mark: the word was one token with it inside): the same search found different items on
-- the two stores. Now the text is decomposed (NFD), the combining marks (U+0300-U+036F)
-- after an ASCII letter are dropped, the format characters become spaces, the rest is
-- composed again (NFC) and a final sigma is a sigma (FTS5 folds it so; PostgreSQL
-- lower-cases a capital Σ at a word's end to σ, never to ς). Text of ASCII characters only is not touched (its ``tsv`` stays byte
-- for byte what 0010 gives), so only items holding other characters are written again.
-- Needs a UTF8 database (``normalize``); in any other encoding nothing changes.

DO $migration$
BEGIN
    IF current_setting('server_encoding') <> 'UTF8' THEN
        RETURN;
    END IF;
    EXECUTE $fn$
    CREATE FUNCTION memlane_fts_fold(t text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        RETURN replace(normalize(regexp_replace(regexp_replace(normalize(t, NFD),
            U&'([A-Za-z])[\0300-\036F]+', '\1', 'g'),
            U&'[\00AD\180E\200B-\200F\202A-\202E\2060-\2064\FEFF]', ' ', 'g'), NFC),
            U&'\03C2', U&'\03C3')
    $fn$;
    EXECUTE $fn$
    CREATE OR REPLACE FUNCTION memlane_fts_text(t text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN
        replace(replace(replace(replace(replace(replace(replace(replace(
        replace(replace(replace(replace(replace(replace(replace(replace(
        replace(replace(replace(replace(replace(replace(replace(replace(
        replace(replace(replace(replace(replace(replace(replace(replace(
            (CASE WHEN octet_length(t) = length(t) THEN t ELSE memlane_fts_fold(t) END) COLLATE "C",
            '!', ' '), '"', ' '), '#', ' '), '$', ' '), '%', ' '), '&', ' '), '''', ' '), '(', ' '),
            ')', ' '), '*', ' '), '+', ' '), ',', ' '), '-', ' '), '.', ' '), '/', ' '), ':', ' '),
            ';', ' '), '<', ' '), '=', ' '), '>', ' '), '?', ' '), '@', ' '), '[', ' '), '\', ' '),
            ']', ' '), '^', ' '), '_', ' '), '`', ' '), '{', ' '), '|', ' '), '}', ' '), '~', ' ')
    $fn$;
    -- a stored generated column is computed again when its row is written
    UPDATE items SET text = text
     WHERE octet_length(text) <> length(text) OR octet_length(keys) <> length(keys);
END
$migration$;
