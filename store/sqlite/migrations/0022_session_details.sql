-- Users list their own sessions: when each was last used and by what client.
ALTER TABLE sessions ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN remote TEXT NOT NULL DEFAULT '';
UPDATE sessions SET last_used_at = created_at;
