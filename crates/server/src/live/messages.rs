//! What the live sockets are sent: [`LiveMessage`], rendered from a game's or a room's view
//! by [`Views`], the hub's [`Render`]. It sits above the hub (it reads the games' and rooms'
//! views, which announce their changes through the hub), so the hub never imports it:
//! `app.rs` hands the hub a [`Views`], and merges [`router`], which lists the message's
//! schema in the OpenAPI document's components (the sockets' routes name it in words: a
//! route naming the type would import this module from below).

use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::{Change, Greeting, Render, Rendering, Topic};
use crate::api::{ChatMessageView, GameView, RoomView, TournamentView};
use crate::chat::{message_view, public_word};
use crate::error::{ApiError, ApiResult};
use crate::games::view::{stored, view};
use crate::notify::views::{NotificationView, inbox_head};
use crate::rooms::public_view;
use crate::store::{Channel, Status, Store};
use crate::tournaments::shown;

/// No route: the schema of [`LiveMessage`], for the OpenAPI document's components.
pub(crate) fn router<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    OpenApiRouter::with_openapi(Schemas::openapi())
}

/// The document part that lists [`LiveMessage`].
#[derive(OpenApi)]
#[openapi(components(schemas(LiveMessage)))]
struct Schemas;

/// A message of a live socket, JSON text tagged by its `type`: a game's socket sends `move`
/// and `state`, a Swap 61 room's sends `room`, a tournament's sends `tournament`, an
/// account's inbox sends `inbox`; a game's and a room's sockets send `chat` too.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum LiveMessage<'a> {
    /// A move was played (a pass the rules forced too): the move that made `ply`, with the
    /// game as it is now.
    Move {
        /// The ply the move made: the game's first move makes ply 1.
        ply: u32,
        /// The move, as docs/CONTRACT.md writes it.
        #[serde(rename = "move")]
        text: &'a str,
        /// The game now, the same for everyone (`your_seat` is `null`).
        game: &'a GameView,
    },
    /// Anything else changed (a join, a resignation, a timeout, an abort), or the socket
    /// caught up with the moves it missed: the whole game.
    State {
        /// The game now, the same for everyone (`your_seat` is `null`).
        game: &'a GameView,
    },
    /// A room changed, or the socket opened: its public view (a client reads its own view
    /// again for its private part).
    Room {
        /// The room now, as anyone may see it.
        room: &'a RoomView,
    },
    /// A tournament changed (an entry, the start, a result, a round paired), or the socket
    /// opened: the whole tournament.
    Tournament {
        /// The tournament now.
        tournament: &'a TournamentView,
    },
    /// A message was written in one of the game's or the room's chats: a public one's
    /// message, or for a private one (the players', a seat's thread with the game master, the
    /// spectators' while the game is played) a nudge without it, to read it again with
    /// credentials (`docs/CHAT.md`).
    Chat {
        /// `players`, `spectators`, `table` or `thread` (no seat is named).
        channel: &'a str,
        /// The message, for a public chat only.
        message: Option<&'a ChatMessageView>,
    },
    /// The account's notifications changed (one came, or some were read), or the socket
    /// opened: the unread count and the newest.
    Inbox {
        /// How many of the account's notifications are unread.
        unread: u64,
        /// The newest (at most 5), newest first.
        latest: &'a [NotificationView],
    },
}

impl LiveMessage<'_> {
    /// The message as the socket's JSON text.
    fn text(&self) -> ApiResult<Utf8Bytes> {
        serde_json::to_string(self)
            .map(Utf8Bytes::from)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("a live message: {e}")))
    }
}

/// Renders the live messages from the games' and rooms' public views.
#[derive(Debug)]
pub(crate) struct Views;

impl Render for Views {
    fn change<'a>(
        &'a self,
        store: &'a Store,
        topic: &'a Topic,
        change: Change,
    ) -> Rendering<'a, Utf8Bytes> {
        Box::pin(async move {
            if let Change::Chat { channel, message } = change {
                return chat_message(store, topic, channel, message).await;
            }
            match topic {
                Topic::Game(id) => {
                    let game = view(store, stored(store, id).await?).await?;
                    match change {
                        Change::Move(ply) => move_message(&game, ply),
                        Change::State | Change::Chat { .. } => {
                            LiveMessage::State { game: &game }.text()
                        }
                    }
                }
                Topic::Room(id) => room_message(store, id).await,
                Topic::Inbox(account) => inbox_message(store, *account).await,
                Topic::Tournament(id) => tournament_message(store, id).await,
            }
        })
    }

    fn greeting<'a>(
        &'a self,
        store: &'a Store,
        topic: &'a Topic,
        since: Option<u32>,
    ) -> Rendering<'a, Greeting> {
        Box::pin(async move {
            let greeting: Greeting = match topic {
                Topic::Game(id) => {
                    let game = view(store, stored(store, id).await?).await?;
                    let ply = game.ply;
                    // The moves after `since`, then the state (`None`).
                    let replay = since
                        .into_iter()
                        .flat_map(move |since| since.saturating_add(1)..=ply);
                    Box::new(replay.map(Some).chain([None]).map(move |ply| match ply {
                        Some(ply) => move_message(&game, ply),
                        None => LiveMessage::State { game: &game }.text(),
                    }))
                }
                Topic::Room(id) => Box::new(std::iter::once(Ok(room_message(store, id).await?))),
                Topic::Inbox(account) => {
                    Box::new(std::iter::once(Ok(inbox_message(store, *account).await?)))
                }
                Topic::Tournament(id) => {
                    Box::new(std::iter::once(Ok(tournament_message(store, id).await?)))
                }
            };
            Ok(greeting)
        })
    }
}

/// The message of the move that made `ply`; a move the game no longer shows (it cannot
/// happen: moves are never taken back on the server) is sent as the state.
fn move_message(game: &GameView, ply: u32) -> ApiResult<Utf8Bytes> {
    let text = ply
        .checked_sub(1)
        .and_then(|k| game.moves.get(usize::try_from(k).ok()?));
    match text {
        Some(text) => LiveMessage::Move { ply, text, game }.text(),
        None => LiveMessage::State { game }.text(),
    }
}

/// The message of a chat's new message: the message itself in a chat anyone reads (a room's
/// table-talk, a finished game's spectators' chat), a nudge naming the channel otherwise.
async fn chat_message(
    store: &Store,
    topic: &Topic,
    channel: Channel,
    id: i64,
) -> ApiResult<Utf8Bytes> {
    let public = match (topic, channel) {
        (Topic::Room(_), Channel::Table) => true,
        (Topic::Game(game), Channel::Spectators) => {
            stored(store, game).await?.status == Status::Finished
        }
        _ => false,
    };
    let word = public_word(channel);
    let shown = if public {
        store
            .chat_message(id)
            .await?
            .map(|m| message_view(m, false, false))
    } else {
        None
    };
    LiveMessage::Chat {
        channel: word,
        message: shown.as_ref(),
    }
    .text()
}

/// The message of a room: its public view.
async fn room_message(store: &Store, id: &str) -> ApiResult<Utf8Bytes> {
    let room = public_view(store, id).await?;
    LiveMessage::Room { room: &room }.text()
}

/// The message of an account's inbox: its head.
async fn inbox_message(store: &Store, account_id: i64) -> ApiResult<Utf8Bytes> {
    let inbox = inbox_head(store, account_id).await?;
    LiveMessage::Inbox {
        unread: inbox.unread,
        latest: &inbox.latest,
    }
    .text()
}

/// The message of a tournament: its whole view.
async fn tournament_message(store: &Store, id: &str) -> ApiResult<Utf8Bytes> {
    let tournament = shown(store, id).await?;
    LiveMessage::Tournament {
        tournament: &tournament,
    }
    .text()
}
