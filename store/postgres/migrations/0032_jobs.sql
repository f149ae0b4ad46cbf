-- Long work run outside requests (backtests).
CREATE TABLE jobs (
    id               TEXT COLLATE "C" PRIMARY KEY,
    kind             TEXT NOT NULL,
    owner            TEXT NOT NULL,
    status           TEXT NOT NULL,
    params           JSONB NOT NULL,
    progress         DOUBLE PRECISION NOT NULL DEFAULT 0,
    result_ref       TEXT NOT NULL DEFAULT '',
    error            TEXT NOT NULL DEFAULT '',
    cancel_requested BOOLEAN NOT NULL DEFAULT FALSE,
    created_at       TIMESTAMPTZ NOT NULL,
    started_at       TIMESTAMPTZ,
    finished_at      TIMESTAMPTZ
);
CREATE INDEX jobs_created ON jobs (created_at DESC, id DESC);
CREATE INDEX jobs_status ON jobs (status);
