CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('trader', 'operator')),
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    last_login    TIMESTAMPTZ
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_expires ON sessions(expires_at);

CREATE TABLE audit_log (
    id         BIGSERIAL PRIMARY KEY,
    at         TIMESTAMPTZ NOT NULL,
    user_id    TEXT NOT NULL DEFAULT '',
    actor      TEXT NOT NULL DEFAULT '',
    action     TEXT NOT NULL,
    status     INTEGER NOT NULL,
    request_id TEXT NOT NULL DEFAULT '',
    remote     TEXT NOT NULL DEFAULT '',
    detail     TEXT NOT NULL DEFAULT ''
);

CREATE TABLE kv (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
