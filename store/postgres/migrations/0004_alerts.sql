CREATE TABLE alerts (
    id          BIGSERIAL PRIMARY KEY,
    key         TEXT NOT NULL,
    severity    TEXT NOT NULL,
    title       TEXT NOT NULL,
    message     TEXT NOT NULL,
    component   TEXT NOT NULL DEFAULT '',
    count       INTEGER NOT NULL DEFAULT 1,
    created_at  TIMESTAMPTZ NOT NULL,
    last_seen   TIMESTAMPTZ NOT NULL,
    resolved    BOOLEAN NOT NULL DEFAULT false,
    resolved_at TIMESTAMPTZ,
    resolved_by TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX alerts_open_key ON alerts(key) WHERE NOT resolved;
CREATE INDEX alerts_created ON alerts(created_at);
