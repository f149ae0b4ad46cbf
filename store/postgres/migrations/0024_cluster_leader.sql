-- The cluster's leader lease: the instance that leads renews expires_at
-- (the database's clock) every third of the lease; another instance takes
-- the lease, with the next term, only once it has expired. A leader that
-- cannot renew (frozen, cut off, its host lost) stops leading on its own
-- clock before the row expires. One row, inserted by the first campaign.
-- SQLite (one process) has no 0024.
CREATE TABLE cluster_leader (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    holder     TEXT NOT NULL,        -- the holding process's random claim
    instance   TEXT NOT NULL,        -- its instance id, for people reading the table
    term       BIGINT NOT NULL,      -- one more at every change of holder
    expires_at TIMESTAMPTZ NOT NULL
);
