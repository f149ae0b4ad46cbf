CREATE TABLE portfolio_points (
    at    INTEGER NOT NULL,
    value TEXT NOT NULL,
    cash  TEXT NOT NULL
);
CREATE INDEX portfolio_points_at ON portfolio_points(at);
