-- memlane schema 5: API keys for the HTTP service. Only the SHA-256 of a key is kept; the
-- key itself is printed once when it is created. A revoked key stays (revoked_at set) so
-- the service never falls back to open mode because every key was revoked.

CREATE TABLE api_keys (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    key_hash    TEXT    NOT NULL UNIQUE,
    prefix      TEXT    NOT NULL,
    scopes      TEXT    NOT NULL,       -- JSON list of fnmatch patterns
    read_only   INTEGER NOT NULL DEFAULT 0,
    created_at  REAL    NOT NULL,
    revoked_at  REAL,
    last_used   REAL
);
