-- A run's total return, kept beside its report so the list of past runs can
-- show it without reading every report; runs stored before have it filled
-- from their report.
ALTER TABLE backtests ADD COLUMN total_return DOUBLE PRECISION;
UPDATE backtests SET total_return = (result->>'total_return')::double precision WHERE jsonb_typeof(result->'total_return') = 'number';
