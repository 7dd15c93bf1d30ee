//! What the chats store (`docs/CHAT.md`): their messages, each in one chat named by a key,
//! and the chats each account muted. A seat's thread with the game master is also written to
//! the room's audit log, in the message's transaction, and a seat's message is told to the
//! game master in the inbox (one unread notice per thread), in that transaction too.

use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::outbox::Kind;
use super::pool::Store;
use crate::limits::chat::MAX_CHAT_READ;

/// A chat of a game or a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// A two-player game's chat between its two seated accounts.
    Players,
    /// A two-player game's chat for everyone else (its players only once it ended).
    Spectators,
    /// A Swap 61 room's public table-talk.
    Table,
    /// A Swap 61 room's private thread between this seat and the game master.
    Thread(u8),
}

impl Channel {
    /// The channel's word in a chat's key and a live announcement: `players`, `spectators`,
    /// `table`, `seat:N`.
    pub fn word(self) -> String {
        match self {
            Channel::Players => "players".to_owned(),
            Channel::Spectators => "spectators".to_owned(),
            Channel::Table => "table".to_owned(),
            Channel::Thread(seat) => format!("seat:{seat}"),
        }
    }

    /// Reads a channel's word back.
    pub fn of_word(word: &str) -> Option<Channel> {
        match word {
            "players" => Some(Channel::Players),
            "spectators" => Some(Channel::Spectators),
            "table" => Some(Channel::Table),
            _ => word
                .strip_prefix("seat:")
                .and_then(|seat| seat.parse().ok())
                .filter(|seat| (1..=99).contains(seat))
                .map(Channel::Thread),
        }
    }

    /// Whether the channel belongs to a game (else to a room).
    pub fn of_game(self) -> bool {
        matches!(self, Channel::Players | Channel::Spectators)
    }
}

/// One chat: the game or room it belongs to and its channel. Its key (`game:ID:players`,
/// `room:ID:seat:3`, ...) names it in the database and in the mutes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRef {
    /// The game's or the room's id.
    pub place: String,
    /// Which of its chats.
    pub channel: Channel,
}

impl ChatRef {
    /// The chat's key.
    pub fn key(&self) -> String {
        let kind = if self.channel.of_game() {
            "game"
        } else {
            "room"
        };
        format!("{kind}:{}:{}", self.place, self.channel.word())
    }

    /// Reads a key back; `None` for anything that is no chat's key.
    pub fn of_key(key: &str) -> Option<ChatRef> {
        let (kind, rest) = key.split_once(':')?;
        let (place, word) = rest.split_once(':')?;
        let channel = Channel::of_word(word)?;
        let valid_place = !place.is_empty()
            && place.len() <= 64
            && place
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        (valid_place && (kind == "game") == channel.of_game() && matches!(kind, "game" | "room"))
            .then(|| ChatRef {
                place: place.to_owned(),
                channel,
            })
    }
}

/// A stored message.
#[derive(Clone, Debug)]
pub struct ChatMessage {
    /// Its id, increasing with time.
    pub id: i64,
    /// The key of its chat.
    pub chat: String,
    /// Its author's account id.
    pub author_id: i64,
    /// Its author's name.
    pub author: String,
    /// What it says.
    pub text: String,
    /// When it was written, in ms since the Unix epoch.
    pub at_ms: i64,
    /// Whether a moderator hid it.
    pub hidden: bool,
}

const MESSAGE_COLUMNS: &str = "m.id, m.chat, m.author_id, a.name, m.text, m.at_ms, m.hidden_ms \
     FROM chat_messages m JOIN accounts a ON a.id = m.author_id";

fn message_of_row(row: &AnyRow) -> anyhow::Result<ChatMessage> {
    let hidden: Option<i64> = row.try_get(6)?;
    Ok(ChatMessage {
        id: row.try_get(0)?,
        chat: row.try_get(1)?,
        author_id: row.try_get(2)?,
        author: row.try_get(3)?,
        text: row.try_get(4)?,
        at_ms: row.try_get(5)?,
        hidden: hidden.is_some(),
    })
}

/// What a message in a seat's thread writes in its room's audit log.
#[derive(Clone, Copy, Debug)]
pub struct ThreadAudit<'a> {
    /// The room.
    pub room_id: &'a str,
    /// The author's name, the audit's actor.
    pub actor: &'a str,
    /// The game master, to tell in the inbox when a seat wrote (`None` when the game
    /// master did).
    pub tell: Option<i64>,
}

impl Store {
    /// Stores a message of `author_id` in `chat`; a seat's thread is written to its room's
    /// audit log in the same transaction (`audit`).
    pub async fn post_chat(
        &self,
        chat: &ChatRef,
        author_id: i64,
        text: &str,
        audit: Option<ThreadAudit<'_>>,
    ) -> anyhow::Result<ChatMessage> {
        let mut tx = self.begin_write().await?;
        let at_ms = self.now_ms();
        let id: i64 = sqlx::query(
            "INSERT INTO chat_messages (chat, author_id, text, at_ms) VALUES ($1, $2, $3, $4) \
             RETURNING id",
        )
        .bind(chat.key())
        .bind(author_id)
        .bind(text)
        .bind(at_ms)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        if let Some(audit) = audit {
            let detail = format!("{} message {id}: {text}", chat.channel.word());
            self.audit(&mut tx, audit.room_id, audit.actor, "thread", &detail)
                .await?;
            if let Some(master) = audit.tell {
                // One unread notice per thread: while the game master has not read the
                // last one, a burst of messages adds none. The key names the thread and its
                // latest notice, so two messages racing past the unread check on PostgreSQL
                // write the same key, and the second is dropped.
                let thread = format!("thread:{}:{}:", audit.room_id, chat.channel.word());
                sqlx::query(
                    "INSERT INTO outbox (account_id, kind, room_id, message, dedupe, \
                     created_ms, next_ms) SELECT $1, $2, $3, $4, $5 || CAST(COALESCE(\
                     (SELECT MAX(id) FROM outbox WHERE account_id = $1 AND kind = $2 \
                     AND dedupe LIKE $7), 0) AS TEXT), $6, $6 \
                     WHERE NOT EXISTS (SELECT 1 FROM outbox WHERE account_id = $1 \
                     AND kind = $2 AND read_ms IS NULL AND dedupe LIKE $7) \
                     ON CONFLICT (dedupe) DO NOTHING",
                )
                .bind(master)
                .bind(Kind::ThreadMessage.as_str())
                .bind(audit.room_id)
                .bind(format!(
                    "{} wrote to you in the private thread of {} of your Swap 61 room",
                    audit.actor,
                    chat.channel.word().replace(':', " ")
                ))
                .bind(thread.clone())
                .bind(at_ms)
                .bind(format!("{thread}%"))
                .execute(&mut *tx)
                .await?;
            }
        }
        let row = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} WHERE m.id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        let message = message_of_row(&row)?;
        tx.commit().await?;
        Ok(message)
    }

    /// The messages of a chat after the message `after` (0: from the first), oldest first,
    /// at most 200: the latest of them when there are more.
    pub async fn chat_messages(&self, key: &str, after: i64) -> anyhow::Result<Vec<ChatMessage>> {
        let rows = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} WHERE m.chat = $1 AND m.id > $2 ORDER BY m.id DESC LIMIT $3"
        ))
        .bind(key)
        .bind(after)
        .bind(MAX_CHAT_READ)
        .fetch_all(&self.pool)
        .await?;
        let mut messages = rows
            .iter()
            .map(message_of_row)
            .collect::<anyhow::Result<Vec<_>>>()?;
        messages.reverse();
        Ok(messages)
    }

    /// The messages `author_id` wrote, in every chat, newest first, at most `limit`.
    pub async fn messages_by(
        &self,
        author_id: i64,
        limit: u32,
    ) -> anyhow::Result<Vec<ChatMessage>> {
        let rows = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} WHERE m.author_id = $1 ORDER BY m.id DESC LIMIT $2"
        ))
        .bind(author_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(message_of_row).collect()
    }

    /// The messages of the chat `key` around the message `id`: up to `each_side` before
    /// it, itself, and up to `each_side` after it, oldest first (what a moderator reads
    /// with a report).
    pub async fn messages_around(
        &self,
        key: &str,
        id: i64,
        each_side: i64,
    ) -> anyhow::Result<Vec<ChatMessage>> {
        let before = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} WHERE m.chat = $1 AND m.id < $2 ORDER BY m.id DESC LIMIT $3"
        ))
        .bind(key)
        .bind(id)
        .bind(each_side)
        .fetch_all(&self.pool)
        .await?;
        let after = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} WHERE m.chat = $1 AND m.id >= $2 ORDER BY m.id LIMIT $3"
        ))
        .bind(key)
        .bind(id)
        .bind(each_side + 1)
        .fetch_all(&self.pool)
        .await?;
        before
            .iter()
            .rev()
            .chain(after.iter())
            .map(message_of_row)
            .collect()
    }

    /// One message, by id.
    pub async fn chat_message(&self, id: i64) -> anyhow::Result<Option<ChatMessage>> {
        let row = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} WHERE m.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(message_of_row).transpose()
    }

    /// Hides a message, logged in the admin log as done by `actor` with `reason`: `None` for
    /// no such message, else whether it was shown until now.
    pub async fn hide_message(
        &self,
        id: i64,
        actor: &str,
        reason: &str,
    ) -> anyhow::Result<Option<bool>> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query("SELECT hidden_ms FROM chat_messages WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let was: Option<i64> = row.try_get(0)?;
        if was.is_some() {
            return Ok(Some(false));
        }
        sqlx::query("UPDATE chat_messages SET hidden_ms = $1 WHERE id = $2")
            .bind(self.now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        self.log_in(&mut tx, actor, "hide", &format!("message {id}"), reason)
            .await?;
        tx.commit().await?;
        Ok(Some(true))
    }

    /// Mutes (`muted`) or unmutes the chat `key` for an account; whether anything changed.
    pub async fn set_chat_muted(
        &self,
        account_id: i64,
        key: &str,
        muted: bool,
    ) -> anyhow::Result<bool> {
        let done = if muted {
            sqlx::query(
                "INSERT INTO muted_chats (account_id, chat, at_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (account_id, chat) DO NOTHING",
            )
            .bind(account_id)
            .bind(key)
            .bind(self.now_ms())
            .execute(&self.pool)
            .await?
        } else {
            sqlx::query("DELETE FROM muted_chats WHERE account_id = $1 AND chat = $2")
                .bind(account_id)
                .bind(key)
                .execute(&self.pool)
                .await?
        };
        Ok(done.rows_affected() > 0)
    }

    /// Whether the account muted the chat `key`.
    pub(crate) async fn chat_muted(&self, account_id: i64, key: &str) -> anyhow::Result<bool> {
        let row = sqlx::query("SELECT 1 FROM muted_chats WHERE account_id = $1 AND chat = $2")
            .bind(account_id)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// The keys of the chats the account muted, in order.
    pub async fn muted_chats(&self, account_id: i64) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query("SELECT chat FROM muted_chats WHERE account_id = $1 ORDER BY chat")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| Ok(row.try_get(0)?))
            .collect::<anyhow::Result<_>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_and_strange_ones_are_refused() {
        for (place, channel) in [
            ("abc123", Channel::Players),
            ("abc123", Channel::Spectators),
            ("r00m", Channel::Table),
            ("r00m", Channel::Thread(7)),
        ] {
            let chat = ChatRef {
                place: place.to_owned(),
                channel,
            };
            assert_eq!(ChatRef::of_key(&chat.key()), Some(chat));
        }
        assert_eq!(
            ChatRef::of_key("room:x:seat:3").map(|c| c.channel),
            Some(Channel::Thread(3))
        );
        for bad in [
            "",
            "game",
            "game:x",
            "game::players",
            "room:x:players",
            "game:x:table",
            "game:x:seat:1",
            "room:x:seat:0",
            "room:x:seat:y",
            "room:a b:table",
            "lobby:x:table",
        ] {
            assert_eq!(ChatRef::of_key(bad), None, "{bad:?}");
        }
    }
}
