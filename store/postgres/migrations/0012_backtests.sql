-- Backtest runs: the request and the report as JSON documents.
CREATE TABLE backtests (
    id         TEXT COLLATE "C" PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL,
    strategy   TEXT NOT NULL,
    symbol     TEXT NOT NULL,
    status     TEXT NOT NULL,
    request    JSONB NOT NULL,
    result     JSONB NOT NULL
);
CREATE INDEX backtests_created ON backtests (created_at DESC, id DESC);
