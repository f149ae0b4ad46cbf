-- Every saved configuration of a strategy instance is an immutable, numbered
-- version (numbers count from 1 per instance; the primary key makes two saves
-- at once get distinct numbers). params is the configuration's JSON; parent
-- is the version it was derived from (0: none).
CREATE TABLE strategy_versions (
    strategy   TEXT COLLATE "C" NOT NULL,
    version    INTEGER NOT NULL CHECK (version > 0),
    params     JSONB NOT NULL,
    parent     INTEGER NOT NULL DEFAULT 0,
    note       TEXT NOT NULL DEFAULT '',
    created_by TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (strategy, version)
);
-- Nothing ever overwrites a version.
CREATE FUNCTION strategy_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'strategy versions are immutable';
END;
$$;
CREATE TRIGGER strategy_versions_immutable BEFORE UPDATE ON strategy_versions
    FOR EACH ROW EXECUTE FUNCTION strategy_versions_immutable();

-- The version an instance runs, and the version each evaluation and order
-- used (0: recorded before versions existed).
ALTER TABLE strategies ADD COLUMN active_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE strategy_evaluations ADD COLUMN strategy_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sandbox_orders ADD COLUMN strategy_version INTEGER NOT NULL DEFAULT 0;

-- Existing configurations become version 1.
INSERT INTO strategy_versions (strategy, version, params, parent, note, created_by, created_at)
    SELECT name, 1, config, 0, 'Configuration before versions', '', updated_at FROM strategies;
UPDATE strategies SET active_version = 1;
