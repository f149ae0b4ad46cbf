-- A parameter sweep's finished trials, stored as they finish so a restart
-- resumes the sweep (its job) without running them again.
CREATE TABLE sweep_trials (
    sweep_id    TEXT COLLATE "C" NOT NULL,
    trial       INTEGER NOT NULL,
    vals        JSONB NOT NULL,
    params      JSONB NOT NULL,
    metrics     JSONB NOT NULL,
    score       DOUBLE PRECISION,
    trades      INTEGER NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (sweep_id, trial)
);
