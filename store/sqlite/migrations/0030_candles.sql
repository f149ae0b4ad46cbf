-- Market history by real market dates (package marketdata): open_time in Unix
-- seconds, prices and volume as exact decimal text.
CREATE TABLE candles (
    symbol      TEXT NOT NULL,
    granularity TEXT NOT NULL,
    open_time   INTEGER NOT NULL,
    open        TEXT NOT NULL,
    high        TEXT NOT NULL,
    low         TEXT NOT NULL,
    close       TEXT NOT NULL,
    volume      TEXT NOT NULL,
    source      TEXT NOT NULL,
    PRIMARY KEY (symbol, granularity, open_time)
) WITHOUT ROWID;
