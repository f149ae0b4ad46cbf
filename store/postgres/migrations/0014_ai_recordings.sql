-- AI answers given outside strategy evaluations (live-model backtests), replayed by prompt hash.
CREATE TABLE ai_recordings (
    prompt_hash TEXT NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    source      TEXT NOT NULL,
    provider    TEXT NOT NULL,
    model       TEXT NOT NULL,
    decision    TEXT NOT NULL,
    confidence  DOUBLE PRECISION NOT NULL,
    reasoning   TEXT NOT NULL,
    prompt      TEXT NOT NULL,
    raw         TEXT NOT NULL
);
CREATE INDEX ai_recordings_prompt_hash ON ai_recordings (prompt_hash, at DESC);
