-- The prompt template each AI decision rendered: v1, v2 or custom:<hash>
-- of the strategy version's own template ('' for technical decisions and
-- for decisions made before templates were recorded).
ALTER TABLE strategy_evaluations ADD COLUMN template_version TEXT NOT NULL DEFAULT '';
