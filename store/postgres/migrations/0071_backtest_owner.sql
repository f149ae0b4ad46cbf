-- Who ran a stored backtest and how (a job, or the spec's GET form run in
-- the request, whose history is kept short), for the per-user quotas;
-- reports stored before take their job's owner, and a report without a job
-- was run in a request.
ALTER TABLE backtests ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE backtests ADD COLUMN source TEXT NOT NULL DEFAULT 'job';
UPDATE backtests SET owner = j.owner FROM jobs j WHERE j.id = backtests.id;
UPDATE backtests SET source = 'request' WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = backtests.id);
CREATE INDEX backtests_owner ON backtests (owner, source, created_at DESC, id DESC);
CREATE INDEX jobs_owner_active ON jobs (owner, kind, status);
CREATE INDEX jobs_finished ON jobs (kind, finished_at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX notify_outbox_prune ON notify_outbox (status, created_at);
