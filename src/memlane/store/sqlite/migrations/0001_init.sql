-- memlane schema 1: sessions, messages, canonical items, lexical and vector indexes.
-- Times are UTC seconds since the epoch (REAL). JSON columns hold arrays / objects.

CREATE TABLE sessions (
    id              INTEGER PRIMARY KEY,
    scope           TEXT    NOT NULL,
    agent           TEXT,
    project         TEXT,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'closed', 'summarized', 'failed')),
    started_at      REAL    NOT NULL,
    ended_at        REAL    NOT NULL,
    message_count   INTEGER NOT NULL DEFAULT 0,
    participants    TEXT    NOT NULL DEFAULT '[]',
    closed_reason   TEXT,
    failed_reason   TEXT,
    summary_version INTEGER,
    indexed_at      REAL,
    created_at      REAL    NOT NULL
);
-- At most one open session per scope: sessionization relies on it.
CREATE UNIQUE INDEX sessions_open_scope ON sessions (scope) WHERE status = 'open';
CREATE INDEX sessions_scope_time ON sessions (scope, started_at);
CREATE INDEX sessions_open_idle ON sessions (ended_at) WHERE status = 'open';
CREATE INDEX sessions_unindexed ON sessions (id) WHERE indexed_at IS NULL AND status != 'open';

CREATE TABLE messages (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    scope       TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    role        TEXT    NOT NULL,
    speaker     TEXT,
    text        TEXT    NOT NULL,
    at          REAL    NOT NULL,
    ext_id      TEXT,
    agent       TEXT,
    project     TEXT,
    redactions  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (session_id, seq)
);
CREATE UNIQUE INDEX messages_ext_id ON messages (scope, ext_id) WHERE ext_id IS NOT NULL;
CREATE INDEX messages_scope_at ON messages (scope, at);

CREATE TABLE items (
    id           INTEGER PRIMARY KEY,
    kind         TEXT    NOT NULL,
    text         TEXT    NOT NULL,
    keys         TEXT    NOT NULL DEFAULT '',
    at           REAL    NOT NULL,
    scope        TEXT,
    agent        TEXT,
    project      TEXT,
    session_id   INTEGER REFERENCES sessions (id) ON DELETE CASCADE,
    message_id   INTEGER REFERENCES messages (id) ON DELETE CASCADE,
    seq          INTEGER,
    role         TEXT,
    keywords     TEXT    NOT NULL DEFAULT '[]',
    entities     TEXT    NOT NULL DEFAULT '[]',
    source       TEXT    NOT NULL DEFAULT 'observed',
    durability   TEXT    NOT NULL DEFAULT 'long'
                 CHECK (durability IN ('ephemeral', 'short', 'long')),
    lane         TEXT    NOT NULL DEFAULT 'episodic'
                 CHECK (lane IN ('ephemeral', 'episodic', 'semantic', 'profile', 'story_thread')),
    trust        REAL    NOT NULL DEFAULT 1.0,
    privacy      TEXT    NOT NULL DEFAULT 'private'
                 CHECK (privacy IN ('private', 'project', 'shared')),
    ttl_seconds  INTEGER,
    expires_at   REAL,
    parents      TEXT    NOT NULL DEFAULT '[]',
    children     TEXT    NOT NULL DEFAULT '[]',
    status       TEXT    NOT NULL DEFAULT 'active',
    dedupe_hash  TEXT,
    extra        TEXT    NOT NULL DEFAULT '{}',
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);
CREATE INDEX items_scope_kind_at ON items (scope, kind, at);
CREATE INDEX items_session ON items (session_id, seq);
CREATE INDEX items_message ON items (message_id);
CREATE INDEX items_lane ON items (lane, at);
CREATE INDEX items_expires ON items (expires_at) WHERE expires_at IS NOT NULL;
CREATE UNIQUE INDEX items_dedupe ON items (dedupe_hash) WHERE dedupe_hash IS NOT NULL;

-- Lexical index: FTS5 over item text and expansion keys, kept in sync by triggers so
-- that an item and its lexical row always change in the same transaction.
CREATE VIRTUAL TABLE items_fts USING fts5 (
    text, keys,
    content = 'items', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER items_fts_ai AFTER INSERT ON items BEGIN
    INSERT INTO items_fts (rowid, text, keys) VALUES (new.id, new.text, new.keys);
END;
CREATE TRIGGER items_fts_ad AFTER DELETE ON items BEGIN
    INSERT INTO items_fts (items_fts, rowid, text, keys) VALUES ('delete', old.id, old.text, old.keys);
END;
CREATE TRIGGER items_fts_au AFTER UPDATE OF text, keys ON items BEGIN
    INSERT INTO items_fts (items_fts, rowid, text, keys) VALUES ('delete', old.id, old.text, old.keys);
    INSERT INTO items_fts (rowid, text, keys) VALUES (new.id, new.text, new.keys);
END;

-- Document frequency per term, to leave out terms so common that ranking them costs more
-- than they tell (see SqliteStore.lexical_search).
CREATE VIRTUAL TABLE items_fts_vocab USING fts5vocab (items_fts, row);

-- Vectors are the source of truth for the in-memory vector index; every change is
-- logged so an index in any process can catch up incrementally.
CREATE TABLE vectors (
    item_id  INTEGER PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    model    TEXT    NOT NULL,
    dim      INTEGER NOT NULL,
    vec      BLOB    NOT NULL
);
CREATE INDEX vectors_model ON vectors (model);
CREATE TABLE vector_log (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id  INTEGER NOT NULL
);
CREATE TRIGGER vectors_log_ai AFTER INSERT ON vectors BEGIN
    INSERT INTO vector_log (item_id) VALUES (new.item_id);
END;
CREATE TRIGGER vectors_log_au AFTER UPDATE ON vectors BEGIN
    INSERT INTO vector_log (item_id) VALUES (new.item_id);
END;
CREATE TRIGGER vectors_log_ad AFTER DELETE ON vectors BEGIN
    INSERT INTO vector_log (item_id) VALUES (old.item_id);
END;

-- Embeddings by content hash, so no text is embedded twice by the same model.
CREATE TABLE embed_cache (
    model  TEXT NOT NULL,
    hash   BLOB NOT NULL,
    vec    BLOB NOT NULL,
    PRIMARY KEY (model, hash)
) WITHOUT ROWID;

CREATE TABLE counters (
    name   TEXT PRIMARY KEY,
    value  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
