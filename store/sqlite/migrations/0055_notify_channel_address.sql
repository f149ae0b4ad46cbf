-- A notification channel's address besides its URL: the Telegram chat id
-- (kind telegram) or the recipient's email address (kind email).
ALTER TABLE notify_channels ADD COLUMN address TEXT NOT NULL DEFAULT '';
