//! What the inbox answers and its socket sends: a notification as a person's client shows
//! it. It reads only the store, so the live messages (`live::messages`) render it without
//! importing the handlers.

use serde::Serialize;
use utoipa::ToSchema;

use crate::limits::notifications::LATEST;
use crate::store::Store;
use crate::store::outbox::StoredNotice;

/// One notification.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct NotificationView {
    /// Its id: the inbox pages and marks by it.
    pub(crate) id: i64,
    /// `your_turn`, `challenge`, `invitation`, `game_ended`, `rematch`, `round_opened`, `round_results`,
    /// `deadline_24h`, `deadline_1h` or `tournament`.
    pub(crate) kind: String,
    /// What it says, for a person.
    pub(crate) message: String,
    /// The game it is about (`/games/{id}`), if any.
    pub(crate) game_id: Option<String>,
    /// The Swap 61 room it is about (`/rooms/{id}`), if any.
    pub(crate) room_id: Option<String>,
    /// The tournament it is about (`/tournaments/{id}`), if any.
    pub(crate) tournament_id: Option<String>,
    /// When it happened (ms since 1970).
    pub(crate) created_ms: i64,
    /// Whether the account has read it.
    pub(crate) read: bool,
    /// Its delivery beyond the inbox: `pending`, `sending`, `digest` (waits for the daily
    /// mail), `done`, `failed` or `lost` (its sender stopped mid-send).
    pub(crate) delivery: String,
}

impl NotificationView {
    /// The view of a stored notification.
    pub(crate) fn of(notice: StoredNotice) -> NotificationView {
        NotificationView {
            id: notice.id,
            kind: notice.kind.as_str().to_owned(),
            message: notice.message,
            game_id: notice.game_id,
            room_id: notice.room_id,
            tournament_id: notice.tournament_id,
            created_ms: notice.created_ms,
            read: notice.read_ms.is_some(),
            delivery: notice.state,
        }
    }
}

/// The inbox's head: the unread count and the newest notifications.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct InboxHead {
    /// How many are unread.
    pub(crate) unread: u64,
    /// The newest, newest first (at most 5).
    pub(crate) latest: Vec<NotificationView>,
}

/// The account's inbox head, read now.
pub(crate) async fn inbox_head(store: &Store, account_id: i64) -> anyhow::Result<InboxHead> {
    let latest = store.inbox(account_id, None, LATEST).await?;
    Ok(InboxHead {
        unread: store.unread(account_id).await?,
        latest: latest.into_iter().map(NotificationView::of).collect(),
    })
}
