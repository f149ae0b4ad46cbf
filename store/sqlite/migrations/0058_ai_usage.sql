-- What each AI decision's model call used: tokens from the provider's usage
-- report and their cost in USD (decimal text) from api.ai.pricing when the
-- decision was made; cost NULL when the model had no price (unknown, not 0).
ALTER TABLE strategy_evaluations ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE strategy_evaluations ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE strategy_evaluations ADD COLUMN cost TEXT;
-- The spend view and the budget read AI decisions by time.
CREATE INDEX strategy_evaluations_ai_at ON strategy_evaluations (at) WHERE provider <> '';
