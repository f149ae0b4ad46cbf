CREATE TABLE log_entries (
    id        BIGSERIAL PRIMARY KEY,
    time      TIMESTAMPTZ NOT NULL,
    level     TEXT NOT NULL,
    component TEXT NOT NULL,
    message   TEXT NOT NULL,
    attrs     JSONB NOT NULL DEFAULT '{}'
);
CREATE INDEX log_entries_time ON log_entries(time);
