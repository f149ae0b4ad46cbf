-- Fills made at an outside venue (Coinbase) whose notification event was
-- committed, keyed by the venue's fill id, so each is queued once however
-- often it is seen; and each venue's checkpoint: every fill made before it
-- was looked at. Times in Unix milliseconds.
CREATE TABLE notify_venue_fills (
    venue     TEXT NOT NULL,
    fill_id   TEXT NOT NULL,
    fill_time INTEGER NOT NULL,
    PRIMARY KEY (venue, fill_id)
);
CREATE INDEX notify_venue_fills_time ON notify_venue_fills (venue, fill_time);
CREATE TABLE notify_venue_marks (
    venue TEXT PRIMARY KEY,
    mark  INTEGER NOT NULL
);
