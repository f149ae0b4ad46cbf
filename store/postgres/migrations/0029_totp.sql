-- Two-factor (TOTP) enrolments: secret sealed with the settings key.
CREATE TABLE totp (
    user_id      TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    secret       TEXT NOT NULL,
    confirmed_at TIMESTAMPTZ,
    last_step    BIGINT NOT NULL DEFAULT 0
);

-- Single-use recovery codes, stored as SHA-256 of the user id and the code.
CREATE TABLE totp_recovery (
    user_id   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at   TIMESTAMPTZ,
    PRIMARY KEY (user_id, code_hash)
);
