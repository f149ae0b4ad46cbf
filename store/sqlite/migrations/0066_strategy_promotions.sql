-- Promotion of a strategy version (docs/PROMOTION.md): one row per stage
-- (paper, live), closed once (demoted, or promoted to the next stage) and
-- otherwise never rewritten. A paper stage trades in its own paper account
-- (the ledger's account column, migration 0065), funded with starting_usd.
-- gates is the JSON of the gates checked and the figures seen when the stage
-- began; market is where a paper stage began trading (replay or coinbase).
-- Times in Unix ms.
CREATE TABLE strategy_promotions (
    id           TEXT PRIMARY KEY,
    strategy     TEXT NOT NULL,
    version      INTEGER NOT NULL CHECK (version > 0),
    stage        TEXT NOT NULL CHECK (stage IN ('paper', 'live')),
    status       TEXT NOT NULL CHECK (status IN ('running', 'demoted', 'promoted')),
    account      TEXT NOT NULL DEFAULT '',
    starting_usd TEXT NOT NULL DEFAULT '0',
    gates        TEXT NOT NULL DEFAULT '[]',
    started_by   TEXT NOT NULL DEFAULT '',
    approved_by  TEXT NOT NULL DEFAULT '',
    started_at   INTEGER NOT NULL,
    ended_at     INTEGER,
    ended_by     TEXT NOT NULL DEFAULT '',
    reason       TEXT NOT NULL DEFAULT '',
    from_stage   TEXT NOT NULL DEFAULT '',
    market       TEXT NOT NULL DEFAULT ''
);
-- One running stage per version and stage.
CREATE UNIQUE INDEX strategy_promotions_running ON strategy_promotions(strategy, version, stage) WHERE status = 'running';
CREATE INDEX strategy_promotions_strategy ON strategy_promotions(strategy, started_at);
-- A stage is closed once; nothing else about it changes.
CREATE TRIGGER strategy_promotions_closed_once BEFORE UPDATE ON strategy_promotions
WHEN OLD.status <> 'running' OR NEW.id <> OLD.id OR NEW.strategy <> OLD.strategy OR NEW.version <> OLD.version
    OR NEW.stage <> OLD.stage OR NEW.account <> OLD.account OR NEW.starting_usd <> OLD.starting_usd OR NEW.gates <> OLD.gates
    OR NEW.started_at <> OLD.started_at OR NEW.started_by <> OLD.started_by OR NEW.approved_by <> OLD.approved_by
    OR NEW.market <> OLD.market
BEGIN
    SELECT RAISE(ABORT, 'a promotion stage is closed once and never rewritten');
END;

-- Evaluations made in a paper account of a promoted version carry it
-- ('' for the main instance), so each side reads its own.
ALTER TABLE strategy_evaluations ADD COLUMN account TEXT NOT NULL DEFAULT '';
