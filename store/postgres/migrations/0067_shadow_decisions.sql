-- Shadow models: each model's answer to an AI evaluation's prompt, the
-- shadows' (never traded) and the live model's own answer beside them, for
-- the leaderboard. price is the decision candle's close; cost USD, NULL
-- when the model had no price. Rows go with their evaluation when it is
-- pruned.
CREATE TABLE shadow_decisions (
    id            TEXT COLLATE "C" PRIMARY KEY,
    evaluation_id TEXT COLLATE "C" NOT NULL REFERENCES strategy_evaluations(id) ON DELETE CASCADE,
    at            TIMESTAMPTZ NOT NULL,
    strategy      TEXT NOT NULL,
    symbol        TEXT NOT NULL,
    candle_time   TIMESTAMPTZ NOT NULL,
    price         NUMERIC NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('live', 'shadow')),
    provider      TEXT NOT NULL,
    model         TEXT NOT NULL,
    decision      TEXT NOT NULL DEFAULT '',
    confidence    DOUBLE PRECISION NOT NULL DEFAULT 0,
    reasoning     TEXT NOT NULL DEFAULT '',
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost          NUMERIC,
    latency_ms    BIGINT NOT NULL DEFAULT 0,
    error         TEXT NOT NULL DEFAULT ''
);
-- The leaderboard and the decisions view read a strategy's rows by candle.
CREATE INDEX shadow_decisions_strategy ON shadow_decisions (strategy, candle_time DESC);
CREATE INDEX shadow_decisions_evaluation ON shadow_decisions (evaluation_id);
-- The spend view and the budget read the shadows' calls by time.
CREATE INDEX shadow_decisions_at ON shadow_decisions (at) WHERE role = 'shadow';
