-- Long work run outside requests (backtests); times in Unix milliseconds.
CREATE TABLE jobs (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL,
    owner            TEXT NOT NULL,
    status           TEXT NOT NULL,
    params           TEXT NOT NULL,
    progress         REAL NOT NULL DEFAULT 0,
    result_ref       TEXT NOT NULL DEFAULT '',
    error            TEXT NOT NULL DEFAULT '',
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at       INTEGER NOT NULL,
    started_at       INTEGER,
    finished_at      INTEGER
);
CREATE INDEX jobs_created ON jobs (created_at DESC, id DESC);
CREATE INDEX jobs_status ON jobs (status);
