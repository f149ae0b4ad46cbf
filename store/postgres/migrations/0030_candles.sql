-- Market history by real market dates (package marketdata): prices and volume
-- as exact decimal text, as the source published them.
CREATE TABLE candles (
    symbol      TEXT NOT NULL,
    granularity TEXT NOT NULL,
    open_time   TIMESTAMPTZ NOT NULL,
    open        TEXT NOT NULL,
    high        TEXT NOT NULL,
    low         TEXT NOT NULL,
    close       TEXT NOT NULL,
    volume      TEXT NOT NULL,
    source      TEXT NOT NULL,
    PRIMARY KEY (symbol, granularity, open_time)
);
