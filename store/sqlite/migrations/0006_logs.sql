CREATE TABLE log_entries (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    time      INTEGER NOT NULL,
    level     TEXT NOT NULL,
    component TEXT NOT NULL,
    message   TEXT NOT NULL,
    attrs     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX log_entries_time ON log_entries(time);
