-- A parameter sweep's finished trials, stored as they finish so a restart
-- resumes the sweep (its job) without running them again. Times in Unix ms.
CREATE TABLE sweep_trials (
    sweep_id    TEXT NOT NULL,
    trial       INTEGER NOT NULL,
    vals        TEXT NOT NULL,
    params      TEXT NOT NULL,
    metrics     TEXT NOT NULL,
    score       REAL,
    trades      INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (sweep_id, trial)
);
