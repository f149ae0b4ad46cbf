-- Backtest runs: the request and the report as JSON text; created_at in Unix milliseconds.
CREATE TABLE backtests (
    id         TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    strategy   TEXT NOT NULL,
    symbol     TEXT NOT NULL,
    status     TEXT NOT NULL,
    request    TEXT NOT NULL,
    result     TEXT NOT NULL
);
CREATE INDEX backtests_created ON backtests (created_at DESC, id DESC);
