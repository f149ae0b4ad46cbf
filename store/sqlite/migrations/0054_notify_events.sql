-- Notification events committed in the same transaction as what caused them
-- (a fill), waiting to be routed into notify_outbox; times in Unix milliseconds.
CREATE TABLE notify_events (
    id         TEXT PRIMARY KEY,
    type       TEXT NOT NULL,
    severity   TEXT NOT NULL,
    owner      TEXT NOT NULL,
    order_id   TEXT NOT NULL DEFAULT '',
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX notify_events_created ON notify_events (created_at, id);
