-- Notifications: channels, routing per user and the outbox (delivery log);
-- times in Unix milliseconds.
CREATE TABLE notify_channels (
    id         TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL,
    url        TEXT NOT NULL,
    secret     TEXT NOT NULL,
    enabled    INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL
);
CREATE INDEX notify_channels_owner ON notify_channels (owner, created_at);
CREATE TABLE notify_routing (
    owner TEXT PRIMARY KEY,
    body  TEXT NOT NULL
);
CREATE TABLE notify_outbox (
    id            TEXT PRIMARY KEY,
    owner         TEXT NOT NULL,
    channel_id    TEXT NOT NULL,
    type          TEXT NOT NULL,
    severity      TEXT NOT NULL,
    order_id      TEXT NOT NULL DEFAULT '',
    payload       TEXT NOT NULL,
    count         INTEGER NOT NULL DEFAULT 1,
    aggregate_key TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    last_error    TEXT NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL,
    next_at       INTEGER NOT NULL,
    delivered_at  INTEGER
);
CREATE INDEX notify_outbox_due ON notify_outbox (status, next_at);
CREATE INDEX notify_outbox_created ON notify_outbox (created_at DESC, id DESC);
CREATE INDEX notify_outbox_aggregate ON notify_outbox (channel_id, aggregate_key, status);
