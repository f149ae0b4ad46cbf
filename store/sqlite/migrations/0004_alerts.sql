CREATE TABLE alerts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    key         TEXT NOT NULL,
    severity    TEXT NOT NULL,
    title       TEXT NOT NULL,
    message     TEXT NOT NULL,
    component   TEXT NOT NULL DEFAULT '',
    count       INTEGER NOT NULL DEFAULT 1,
    created_at  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL,
    resolved    INTEGER NOT NULL DEFAULT 0,
    resolved_at INTEGER,
    resolved_by TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX alerts_open_key ON alerts(key) WHERE resolved = 0;
CREATE INDEX alerts_created ON alerts(created_at);
