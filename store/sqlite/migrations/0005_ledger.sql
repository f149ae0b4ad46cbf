-- The sandbox exchange's books. Decimals are stored as exact text.
CREATE TABLE sandbox_orders (
    id              TEXT PRIMARY KEY,
    client_order_id TEXT NOT NULL DEFAULT '',
    symbol          TEXT NOT NULL,
    side            TEXT NOT NULL,
    type            TEXT NOT NULL,
    quantity        TEXT NOT NULL,
    price           TEXT,
    stop_price      TEXT,
    filled_quantity TEXT NOT NULL,
    avg_fill_price  TEXT,
    fee             TEXT NOT NULL,
    status          TEXT NOT NULL,
    reject_reason   TEXT NOT NULL DEFAULT '',
    strategy        TEXT NOT NULL DEFAULT '',
    user_id         TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX sandbox_orders_client ON sandbox_orders(client_order_id) WHERE client_order_id <> '';
CREATE INDEX sandbox_orders_status ON sandbox_orders(status);
CREATE INDEX sandbox_orders_created ON sandbox_orders(created_at);

CREATE TABLE sandbox_fills (
    id        TEXT PRIMARY KEY,
    order_id  TEXT NOT NULL REFERENCES sandbox_orders(id),
    symbol    TEXT NOT NULL,
    side      TEXT NOT NULL,
    quantity  TEXT NOT NULL,
    price     TEXT NOT NULL,
    fee       TEXT NOT NULL,
    liquidity TEXT NOT NULL,
    strategy  TEXT NOT NULL DEFAULT '',
    at        INTEGER NOT NULL
);
CREATE INDEX sandbox_fills_at ON sandbox_fills(at);

CREATE TABLE sandbox_balances (
    currency  TEXT PRIMARY KEY,
    available TEXT NOT NULL,
    hold      TEXT NOT NULL
);

CREATE TABLE sandbox_positions (
    symbol   TEXT PRIMARY KEY,
    quantity TEXT NOT NULL,
    cost     TEXT NOT NULL,
    realized TEXT NOT NULL
);
