-- The cluster's fencing epoch: a new leader moves it on before it matches,
-- and every ledger commit of a fenced store checks it (FOR SHARE) in its own
-- transaction, so no commit of an earlier leader lands after the takeover.
-- One row; a database that never ran a cluster has none until a leader
-- inserts it. SQLite (one process) has no 0015.
CREATE TABLE cluster_fence (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    epoch BIGINT NOT NULL
);
