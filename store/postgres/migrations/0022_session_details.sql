-- Users list their own sessions: when each was last used and by what client.
ALTER TABLE sessions ADD COLUMN last_used_at TIMESTAMPTZ;
UPDATE sessions SET last_used_at = created_at;
ALTER TABLE sessions ALTER COLUMN last_used_at SET NOT NULL;
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN remote TEXT NOT NULL DEFAULT '';
