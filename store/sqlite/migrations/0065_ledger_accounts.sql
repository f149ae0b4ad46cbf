-- Accounts in the sandbox's books (docs/PROMOTION.md): '' is the main paper
-- account, so every existing row stays where it was; a promoted strategy
-- version trades in a paper account of its own. Balances and positions are
-- keyed per account (SQLite cannot change a primary key: the tables are
-- rebuilt), client order ids are unique per account and user.
ALTER TABLE sandbox_orders ADD COLUMN account TEXT NOT NULL DEFAULT '';
ALTER TABLE sandbox_fills ADD COLUMN account TEXT NOT NULL DEFAULT '';

DROP INDEX sandbox_orders_user_client;
CREATE UNIQUE INDEX sandbox_orders_user_client ON sandbox_orders(account, user_id, client_order_id) WHERE client_order_id <> '';
DROP INDEX sandbox_orders_status;
CREATE INDEX sandbox_orders_status ON sandbox_orders(account, status);
DROP INDEX sandbox_orders_created;
CREATE INDEX sandbox_orders_created ON sandbox_orders(account, created_at);
DROP INDEX sandbox_fills_at;
CREATE INDEX sandbox_fills_at ON sandbox_fills(account, at);

CREATE TABLE sandbox_balances_accounts (
    account   TEXT NOT NULL DEFAULT '',
    currency  TEXT NOT NULL,
    available TEXT NOT NULL,
    hold      TEXT NOT NULL,
    PRIMARY KEY (account, currency)
);
INSERT INTO sandbox_balances_accounts (account, currency, available, hold)
    SELECT '', currency, available, hold FROM sandbox_balances;
DROP TABLE sandbox_balances;
ALTER TABLE sandbox_balances_accounts RENAME TO sandbox_balances;

CREATE TABLE sandbox_positions_accounts (
    account  TEXT NOT NULL DEFAULT '',
    symbol   TEXT NOT NULL,
    quantity TEXT NOT NULL,
    cost     TEXT NOT NULL,
    realized TEXT NOT NULL,
    PRIMARY KEY (account, symbol)
);
INSERT INTO sandbox_positions_accounts (account, symbol, quantity, cost, realized)
    SELECT '', symbol, quantity, cost, realized FROM sandbox_positions;
DROP TABLE sandbox_positions;
ALTER TABLE sandbox_positions_accounts RENAME TO sandbox_positions;
