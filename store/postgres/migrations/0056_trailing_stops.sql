-- Trailing stops keep their trail (percent or amount, activation price)
-- and their high-water or low-water mark with the order, as JSON text
-- (exact decimal strings), so a restart or a new leader trails on from the
-- mark instead of from the price it starts at. NULL for every other order.
ALTER TABLE sandbox_orders ADD COLUMN trail TEXT;
