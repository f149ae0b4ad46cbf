-- Operators disable accounts; sessions are looked up and ended by user.
ALTER TABLE users ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX sessions_user ON sessions(user_id);
