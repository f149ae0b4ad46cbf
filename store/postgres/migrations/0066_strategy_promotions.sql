-- Promotion of a strategy version (docs/PROMOTION.md): one row per stage
-- (paper, live), closed once (demoted, or promoted to the next stage) and
-- otherwise never rewritten. A paper stage trades in its own paper account
-- (the ledger's account column, migration 0065), funded with starting_usd.
-- gates is the JSON of the gates checked and the figures seen when the stage
-- began; market is where a paper stage began trading (replay or coinbase).
CREATE TABLE strategy_promotions (
    id           TEXT COLLATE "C" PRIMARY KEY,
    strategy     TEXT COLLATE "C" NOT NULL,
    version      INTEGER NOT NULL CHECK (version > 0),
    stage        TEXT NOT NULL CHECK (stage IN ('paper', 'live')),
    status       TEXT NOT NULL CHECK (status IN ('running', 'demoted', 'promoted')),
    account      TEXT COLLATE "C" NOT NULL DEFAULT '',
    starting_usd NUMERIC NOT NULL DEFAULT 0,
    gates        JSONB NOT NULL DEFAULT '[]',
    started_by   TEXT NOT NULL DEFAULT '',
    approved_by  TEXT NOT NULL DEFAULT '',
    started_at   TIMESTAMPTZ NOT NULL,
    ended_at     TIMESTAMPTZ,
    ended_by     TEXT NOT NULL DEFAULT '',
    reason       TEXT NOT NULL DEFAULT '',
    from_stage   TEXT NOT NULL DEFAULT '',
    market       TEXT NOT NULL DEFAULT ''
);
-- One running stage per version and stage.
CREATE UNIQUE INDEX strategy_promotions_running ON strategy_promotions(strategy, version, stage) WHERE status = 'running';
CREATE INDEX strategy_promotions_strategy ON strategy_promotions(strategy, started_at);
-- A stage is closed once; nothing else about it changes.
CREATE FUNCTION strategy_promotions_closed_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status <> 'running' OR (NEW.id, NEW.strategy, NEW.version, NEW.stage, NEW.account, NEW.starting_usd, NEW.gates,
        NEW.started_at, NEW.started_by, NEW.approved_by, NEW.market)
        IS DISTINCT FROM (OLD.id, OLD.strategy, OLD.version, OLD.stage, OLD.account, OLD.starting_usd, OLD.gates,
        OLD.started_at, OLD.started_by, OLD.approved_by, OLD.market) THEN
        RAISE EXCEPTION 'a promotion stage is closed once and never rewritten';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER strategy_promotions_closed_once BEFORE UPDATE ON strategy_promotions
    FOR EACH ROW EXECUTE FUNCTION strategy_promotions_closed_once();

-- Evaluations made in a paper account of a promoted version carry it
-- ('' for the main instance), so each side reads its own.
ALTER TABLE strategy_evaluations ADD COLUMN account TEXT COLLATE "C" NOT NULL DEFAULT '';
