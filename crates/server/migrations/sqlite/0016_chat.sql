-- Issue 27: chat and the safety around it (docs/CHAT.md). A message belongs to one chat,
-- named by its key: `game:ID:players`, `game:ID:spectators`, `room:ID:table` or
-- `room:ID:seat:N` (a seat's thread with the game master). A moderator hides a message,
-- never deletes it.
CREATE TABLE chat_messages (
    id        INTEGER PRIMARY KEY,
    chat      TEXT    NOT NULL,
    author_id INTEGER NOT NULL REFERENCES accounts (id),
    text      TEXT    NOT NULL,
    at_ms     INTEGER NOT NULL,
    hidden_ms INTEGER
);
CREATE INDEX chat_messages_by_chat ON chat_messages (chat, id);

-- An account's blocks: a pair with a row either way neither challenges nor writes to the
-- other.
CREATE TABLE blocks (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    blocked_id INTEGER NOT NULL REFERENCES accounts (id),
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (account_id, blocked_id)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked_id);

-- The chats an account muted: their messages are not pushed to its sockets.
CREATE TABLE muted_chats (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    chat       TEXT    NOT NULL,
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (account_id, chat)
);

-- The moderators' queue: a report names a message or an account.
CREATE TABLE reports (
    id          INTEGER PRIMARY KEY,
    reporter_id INTEGER NOT NULL REFERENCES accounts (id),
    message_id  INTEGER REFERENCES chat_messages (id),
    account_id  INTEGER REFERENCES accounts (id),
    reason      TEXT    NOT NULL,
    at_ms       INTEGER NOT NULL,
    closed_ms   INTEGER,
    closed_by   TEXT,
    CHECK ((message_id IS NULL) <> (account_id IS NULL))
);
CREATE INDEX reports_by_state ON reports (closed_ms, id);

-- Until when a moderator muted the account: it writes in no chat before then.
ALTER TABLE accounts ADD COLUMN chat_muted_until_ms INTEGER;
