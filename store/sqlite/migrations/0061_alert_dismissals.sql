-- Who put an alert out of sight, and when. Dismissing is per user and is not
-- resolving: the alert stays open for everyone else, and a repeat of it
-- after dismissed_at (last_seen moves on) shows it again.
CREATE TABLE alert_dismissals (
    alert_id     INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    dismissed_at INTEGER NOT NULL,
    PRIMARY KEY (alert_id, user_id)
);
CREATE INDEX alert_dismissals_user ON alert_dismissals(user_id);
