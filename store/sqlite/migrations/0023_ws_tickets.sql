-- Single-use, short-lived admissions to the realtime socket, so the session
-- token never travels in a URL. A ticket goes with its session.
CREATE TABLE ws_tickets (
    ticket_hash  TEXT PRIMARY KEY,
    session_hash TEXT NOT NULL REFERENCES sessions(token_hash) ON DELETE CASCADE,
    expires_at   INTEGER NOT NULL
);
CREATE INDEX ws_tickets_session ON ws_tickets(session_hash);
