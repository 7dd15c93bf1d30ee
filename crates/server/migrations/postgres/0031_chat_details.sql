-- Issue 49, item 7: chat and moderation details. A report's category (`insult`, `spam`,
-- `cheating`, `other`; NULL for a report filed before categories, or without one), and why a
-- moderator muted an account, kept beside `chat_muted_until_ms` so that the muted account is
-- told why when it writes.
ALTER TABLE reports ADD COLUMN category TEXT CHECK (category IN ('insult', 'spam', 'cheating', 'other'));
ALTER TABLE accounts ADD COLUMN chat_muted_reason TEXT;
