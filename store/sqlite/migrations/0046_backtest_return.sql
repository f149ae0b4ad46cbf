-- A run's total return, kept beside its report so the list of past runs can
-- show it without reading every report; runs stored before have it filled
-- from their report.
ALTER TABLE backtests ADD COLUMN total_return REAL;
UPDATE backtests SET total_return = json_extract(result, '$.total_return') WHERE json_valid(result);
