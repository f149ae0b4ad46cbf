-- Strategy instances and every decision they take. JSON documents are jsonb.
-- indicators is NULL when an evaluation carried no indicator map at all, and
-- '{}' when it carried an empty one.
CREATE TABLE strategies (
    name       TEXT COLLATE "C" PRIMARY KEY, -- listed in byte order, like SQLite
    type       TEXT NOT NULL,
    enabled    BOOLEAN NOT NULL DEFAULT false,
    config     JSONB NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE strategy_evaluations (
    id          TEXT COLLATE "C" PRIMARY KEY, -- byte order, like SQLite, for the tie-break
    at          TIMESTAMPTZ NOT NULL,
    strategy    TEXT NOT NULL,
    symbol      TEXT NOT NULL,
    candle_time TIMESTAMPTZ NOT NULL,
    decision    TEXT NOT NULL,
    confidence  DOUBLE PRECISION NOT NULL DEFAULT 0,
    reasoning   TEXT NOT NULL DEFAULT '',
    indicators  JSONB,
    executed    BOOLEAN NOT NULL DEFAULT false,
    reason      TEXT NOT NULL DEFAULT '',
    order_id    TEXT NOT NULL DEFAULT '',
    provider    TEXT NOT NULL DEFAULT '',
    model       TEXT NOT NULL DEFAULT '',
    latency_ms  BIGINT NOT NULL DEFAULT 0,
    prompt_hash TEXT NOT NULL DEFAULT '',
    prompt      TEXT NOT NULL DEFAULT '',
    raw         TEXT NOT NULL DEFAULT '',
    error       TEXT NOT NULL DEFAULT ''
);
-- Listings are newest first (at DESC, id DESC), optionally narrowed by
-- strategy, symbol, both, or executed; at alone serves the unfiltered listing
-- and pruning.
CREATE INDEX strategy_evaluations_at ON strategy_evaluations(at DESC, id DESC);
CREATE INDEX strategy_evaluations_strategy ON strategy_evaluations(strategy, at DESC, id DESC);
CREATE INDEX strategy_evaluations_symbol ON strategy_evaluations(symbol, at DESC, id DESC);
CREATE INDEX strategy_evaluations_strategy_symbol ON strategy_evaluations(strategy, symbol, at DESC, id DESC);
CREATE INDEX strategy_evaluations_executed ON strategy_evaluations(executed, at DESC, id DESC);
