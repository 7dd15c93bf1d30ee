//! The wire types of the chats and the safety around them (`docs/CHAT.md`): a chat and its
//! messages, an account's blocks and muted chats, and the moderators' queue of reports.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A chat's message as the API shows it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatMessageView {
    /// Its id (increasing with time): what a report names.
    pub id: i64,
    /// Its author's name.
    pub author: String,
    /// When it was written, in ms since the Unix epoch.
    pub at_ms: i64,
    /// What it says; `null` when a moderator hid it (moderators still see it).
    pub text: Option<String>,
    /// Whether a moderator hid it.
    pub hidden: bool,
    /// Whether the caller reported it (so a client keeps saying "Reported").
    #[serde(default)]
    pub reported_by_me: bool,
}

/// A chat: its key and its latest messages.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatView {
    /// The chat's key (`game:ID:players`, `game:ID:spectators`, `room:ID:table`,
    /// `room:ID:seat:N`): what a mute names.
    pub chat: String,
    /// The messages after the one asked for, oldest first (at most 200, the latest).
    pub messages: Vec<ChatMessageView>,
    /// Whether the caller may write in it now.
    pub writable: bool,
    /// Why not, when the caller may not write in it: a sentence for the caller (a block,
    /// a moderator's mute until when and why, who writes here); `null` when writable.
    #[serde(default)]
    pub refusal: Option<String>,
    /// Whether the caller muted it.
    pub muted: bool,
}

/// An account one blocked.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BlockView {
    /// Its name.
    pub name: String,
    /// When it was blocked, in ms since the Unix epoch.
    pub at_ms: i64,
}

/// The accounts the caller blocked.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BlocksView {
    /// By name.
    pub blocks: Vec<BlockView>,
}

/// The chats the caller muted.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MutedChatsView {
    /// Their keys, in order.
    pub chats: Vec<String>,
}

/// A report in the moderators' queue.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ReportView {
    /// Its id.
    pub id: i64,
    /// Who filed it.
    pub reporter: String,
    /// The account it is about: the one named, or the message's author.
    pub account: String,
    /// The message it names, with its text even when hidden (`null` for a report of an
    /// account).
    pub message: Option<ChatMessageView>,
    /// The page that holds the reported message's chat (`/games/ID`, `/rooms/ID`; `null` for
    /// a report of an account).
    pub place: Option<String>,
    /// Which of that page's chats: `players`, `spectators`, `table`, `seat:N` (`null` for a
    /// report of an account).
    pub chat: Option<String>,
    /// What the moderator reads around it, oldest first, hidden text included: for a
    /// message, up to five messages of its chat on each side of it (itself included); for
    /// an account, its latest messages anywhere.
    pub context: Vec<ChatMessageView>,
    /// What kind of abuse the reporter says it is: `insult`, `spam`, `cheating` or `other`
    /// (`null` for a report filed without one).
    #[serde(default)]
    pub category: Option<String>,
    /// The reporter's words (empty when the category alone says it).
    pub reason: String,
    /// When it was filed, in ms since the Unix epoch.
    pub at_ms: i64,
    /// When a moderator closed it (`null`: open).
    pub closed_ms: Option<i64>,
    /// Who closed it.
    pub closed_by: Option<String>,
}

/// The moderators' queue.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ReportsView {
    /// Newest first: a page of the queue.
    pub reports: Vec<ReportView>,
    /// When there are older reports: the `before` that reads the next page of them.
    pub older: Option<i64>,
}
