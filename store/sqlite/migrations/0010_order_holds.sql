-- Orders keep what they reserve (hold) and their OCO links (group_id,
-- parent_id). hold is exact decimal text like the other amounts; it is NULL
-- only on rows written before this migration (legacy orders read as a zero
-- hold). Client order ids become unique per user instead of globally.
ALTER TABLE sandbox_orders ADD COLUMN hold TEXT;
ALTER TABLE sandbox_orders ADD COLUMN group_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sandbox_orders ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
DROP INDEX sandbox_orders_client;
CREATE UNIQUE INDEX sandbox_orders_user_client ON sandbox_orders(user_id, client_order_id) WHERE client_order_id <> '';
