-- Backtests replay recorded AI decisions by the hash of their prompt.
CREATE INDEX strategy_evaluations_prompt_hash ON strategy_evaluations (prompt_hash, at DESC) WHERE prompt_hash <> '';
