CREATE TABLE portfolio_points (
    at    TIMESTAMPTZ NOT NULL,
    value NUMERIC NOT NULL,
    cash  NUMERIC NOT NULL
);
CREATE INDEX portfolio_points_at ON portfolio_points(at);
