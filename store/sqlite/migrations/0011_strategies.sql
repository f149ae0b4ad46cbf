-- Strategy instances and every decision they take. Times are Unix
-- milliseconds like the other tables; JSON documents are stored as text.
-- indicators is NULL when an evaluation carried no indicator map at all, and
-- '{}' when it carried an empty one.
CREATE TABLE strategies (
    name       TEXT PRIMARY KEY,
    type       TEXT NOT NULL,
    enabled    INTEGER NOT NULL DEFAULT 0,
    config     TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE strategy_evaluations (
    id          TEXT PRIMARY KEY,
    at          INTEGER NOT NULL,
    strategy    TEXT NOT NULL,
    symbol      TEXT NOT NULL,
    candle_time INTEGER NOT NULL,
    decision    TEXT NOT NULL,
    confidence  REAL NOT NULL DEFAULT 0,
    reasoning   TEXT NOT NULL DEFAULT '',
    indicators  TEXT,
    executed    INTEGER NOT NULL DEFAULT 0,
    reason      TEXT NOT NULL DEFAULT '',
    order_id    TEXT NOT NULL DEFAULT '',
    provider    TEXT NOT NULL DEFAULT '',
    model       TEXT NOT NULL DEFAULT '',
    latency_ms  INTEGER NOT NULL DEFAULT 0,
    prompt_hash TEXT NOT NULL DEFAULT '',
    prompt      TEXT NOT NULL DEFAULT '',
    raw         TEXT NOT NULL DEFAULT '',
    error       TEXT NOT NULL DEFAULT ''
);
-- Listings are newest first (at DESC, id DESC), optionally narrowed by
-- strategy, symbol, both, or executed; at alone serves the unfiltered listing
-- and pruning.
CREATE INDEX strategy_evaluations_at ON strategy_evaluations(at, id);
CREATE INDEX strategy_evaluations_strategy ON strategy_evaluations(strategy, at, id);
CREATE INDEX strategy_evaluations_symbol ON strategy_evaluations(symbol, at, id);
CREATE INDEX strategy_evaluations_strategy_symbol ON strategy_evaluations(strategy, symbol, at, id);
CREATE INDEX strategy_evaluations_executed ON strategy_evaluations(executed, at, id);
