-- Operators disable accounts; sessions are looked up and ended by user.
ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
CREATE INDEX sessions_user ON sessions(user_id);
