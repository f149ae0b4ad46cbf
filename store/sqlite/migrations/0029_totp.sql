-- Two-factor (TOTP) enrolments: secret sealed with the settings key; times in Unix milliseconds.
CREATE TABLE totp (
    user_id      TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    secret       TEXT NOT NULL,
    confirmed_at INTEGER,
    last_step    INTEGER NOT NULL DEFAULT 0
);

-- Single-use recovery codes, stored as SHA-256 of the user id and the code.
CREATE TABLE totp_recovery (
    user_id   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at   INTEGER,
    PRIMARY KEY (user_id, code_hash)
);
