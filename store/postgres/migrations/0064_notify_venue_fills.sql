-- Fills made at an outside venue (Coinbase) whose notification event was
-- committed, keyed by the venue's fill id, so each is queued once however
-- often it is seen; and each venue's checkpoint: every fill made before it
-- was looked at.
CREATE TABLE notify_venue_fills (
    venue     TEXT COLLATE "C" NOT NULL,
    fill_id   TEXT COLLATE "C" NOT NULL,
    fill_time TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (venue, fill_id)
);
CREATE INDEX notify_venue_fills_time ON notify_venue_fills (venue, fill_time);
CREATE TABLE notify_venue_marks (
    venue TEXT COLLATE "C" PRIMARY KEY,
    mark  TIMESTAMPTZ NOT NULL
);
