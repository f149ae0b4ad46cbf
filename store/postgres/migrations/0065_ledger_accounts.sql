-- Accounts in the sandbox's books (docs/PROMOTION.md): '' is the main paper
-- account, so every existing row stays where it was; a promoted strategy
-- version trades in a paper account of its own. Balances and positions are
-- keyed per account, client order ids are unique per account and user.
ALTER TABLE sandbox_orders ADD COLUMN account TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE sandbox_fills ADD COLUMN account TEXT COLLATE "C" NOT NULL DEFAULT '';

DROP INDEX sandbox_orders_user_client;
CREATE UNIQUE INDEX sandbox_orders_user_client ON sandbox_orders(account, user_id, client_order_id) WHERE client_order_id <> '';
DROP INDEX sandbox_orders_status;
CREATE INDEX sandbox_orders_status ON sandbox_orders(account, status);
DROP INDEX sandbox_orders_created;
CREATE INDEX sandbox_orders_created ON sandbox_orders(account, created_at);
DROP INDEX sandbox_fills_at;
CREATE INDEX sandbox_fills_at ON sandbox_fills(account, at);

ALTER TABLE sandbox_balances ADD COLUMN account TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE sandbox_balances DROP CONSTRAINT sandbox_balances_pkey;
ALTER TABLE sandbox_balances ADD PRIMARY KEY (account, currency);

ALTER TABLE sandbox_positions ADD COLUMN account TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE sandbox_positions DROP CONSTRAINT sandbox_positions_pkey;
ALTER TABLE sandbox_positions ADD PRIMARY KEY (account, symbol);
