//! Live games: the WebSocket of `spec/API.md` and the fan-out that feeds it. Swap 61 rooms
//! share the hub under keys with [`ROOM_KEY`] before the room's id; their messages are the
//! room's public view (`rooms::live_message`).
//!
//! Every committed change of a game is announced once ([`Hub::announce`]). With SQLite (one
//! instance) the announcement goes straight to this process's sockets; with PostgreSQL it
//! goes through `NOTIFY`, and every instance, this one included, hears it on its `LISTEN`
//! connection and feeds its own sockets. An announcement carries only the game and what
//! changed; each instance reads the game once and sends the same message to all its sockets
//! of that game, so the work per change does not grow with the watchers.
//!
//! A socket's messages pass through a bounded broadcast channel: a reader too slow to keep
//! up loses its place, and is sent the whole game again instead (it resyncs by ply), so it
//! never holds up a move or another watcher.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio::time::{Instant, MissedTickBehavior};

use crate::auth::Caller;
use crate::edge::{ClientAddr, Params};
use crate::error::{ApiError, ApiResult};
use crate::games::{GameView, stored, view};
use crate::state::{AppState, SocketTickets};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The live socket's route of a game, with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(socket))
}

/// Messages a socket may fall behind by before it is resynced with the whole game.
const SOCKET_BUFFER: usize = 32;
/// How often the server pings a socket.
const PING_EVERY: Duration = Duration::from_secs(20);
/// A socket silent this long (no pong, no message) is taken for dead and closed.
const SILENT_LIMIT: Duration = Duration::from_secs(60);
/// A socket that cannot take a message in this time is closed.
const SEND_LIMIT: Duration = Duration::from_secs(10);

/// What changed in a game, for its watchers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The move that made this ply was played.
    Move(u32),
    /// Anything else: a join, a resignation, a timeout, an abort.
    State,
}

impl Change {
    /// The change as an announcement's payload: `GAME_ID move PLY` or `GAME_ID state`.
    fn payload(self, game_id: &str) -> String {
        match self {
            Change::Move(ply) => format!("{game_id} move {ply}"),
            Change::State => format!("{game_id} state"),
        }
    }

    /// Reads an announcement's payload back; `None` for one this version does not know.
    fn of_payload(payload: &str) -> Option<(&str, Change)> {
        let mut words = payload.split(' ');
        let id = words.next()?;
        let change = match (words.next()?, words.next()) {
            ("move", Some(ply)) => Change::Move(ply.parse().ok()?),
            ("state", None) => Change::State,
            _ => return None,
        };
        words.next().is_none().then_some((id, change))
    }
}

/// This instance's sockets, by game.
#[derive(Debug, Default)]
pub(crate) struct Hub {
    games: Mutex<HashMap<String, broadcast::Sender<Utf8Bytes>>>,
}

impl Hub {
    /// Tells every watcher of the game, on every instance, what changed. Called after the
    /// change is committed; a failure to announce is logged (the watchers resync on their
    /// next message or reconnect), never the caller's.
    pub(crate) async fn announce(&self, state: &AppState, game_id: &str, change: Change) {
        if state.store.fans_out_through_database() {
            if let Err(e) = state.store.notify(&change.payload(game_id)).await {
                tracing::warn!(
                    game = game_id,
                    "live: cannot notify the other instances: {e:#}"
                );
            }
        } else {
            self.deliver(state, game_id, change).await;
        }
    }

    /// Sends a change to this instance's sockets of the game (none: nothing is read).
    async fn deliver(&self, state: &AppState, game_id: &str, change: Change) {
        let Some(sender) = self.sender(game_id) else {
            return;
        };
        match message(state, game_id, change).await {
            // Nobody listening any more is not an error.
            Ok(text) => drop(sender.send(text)),
            Err(e) => tracing::warn!(game = game_id, "live: cannot read the game: {e:?}"),
        }
    }

    /// The channel of a game's sockets on this instance, if any are open.
    fn sender(&self, game_id: &str) -> Option<broadcast::Sender<Utf8Bytes>> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.get(game_id).cloned()
    }

    /// A receiver of a game's messages for a new socket.
    fn subscribe(&self, game_id: &str) -> broadcast::Receiver<Utf8Bytes> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .entry(game_id.to_owned())
            .or_insert_with(|| broadcast::channel(SOCKET_BUFFER).0)
            .subscribe()
    }

    /// Forgets a game's channel once its last socket has closed.
    fn unsubscribe(&self, game_id: &str, receiver: broadcast::Receiver<Utf8Bytes>) {
        drop(receiver);
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games
            .get(game_id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            games.remove(game_id);
        }
    }
}

/// Listens for other instances' announcements (PostgreSQL) and feeds this instance's sockets,
/// reconnecting after a lost connection, until the server stops.
pub(crate) async fn listen(state: AppState, url: String) {
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                if let Err(e) = listener.listen(crate::store::NOTIFY_CHANNEL).await {
                    tracing::warn!("live: cannot LISTEN: {e}");
                } else {
                    loop {
                        match listener.recv().await {
                            Ok(notification) => {
                                if let Some((id, change)) =
                                    Change::of_payload(notification.payload())
                                {
                                    state.live.deliver(&state, id, change).await;
                                }
                            }
                            Err(e) => {
                                tracing::warn!("live: the LISTEN connection failed: {e}");
                                break;
                            }
                        }
                    }
                }
            }
            Err(e) => tracing::warn!("live: cannot connect to listen: {e}"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// The prefix that marks a Swap 61 room's key on the hub (a game's key is its bare id).
pub(crate) const ROOM_KEY: &str = "room:";

/// A message of the socket, as JSON text.
async fn message(state: &AppState, game_id: &str, change: Change) -> ApiResult<Utf8Bytes> {
    if let Some(room_id) = game_id.strip_prefix(ROOM_KEY) {
        return crate::rooms::live_message(state, room_id).await;
    }
    let game = view(state, stored(state, game_id).await?).await?;
    Ok(match change {
        Change::Move(ply) => move_message(&game, ply),
        Change::State => state_message(&game),
    })
}

fn state_message(game: &GameView) -> Utf8Bytes {
    serde_json::json!({"type": "state", "game": game})
        .to_string()
        .into()
}

/// The message of the move that made `ply`; a move the game no longer shows (it cannot
/// happen: moves are never taken back on the server) is sent as the state.
fn move_message(game: &GameView, ply: u32) -> Utf8Bytes {
    let text = ply
        .checked_sub(1)
        .and_then(|k| game.moves.get(usize::try_from(k).ok()?));
    match text {
        Some(text) => serde_json::json!({"type": "move", "ply": ply, "move": text, "game": game})
            .to_string()
            .into(),
        None => state_message(game),
    }
}

/// The query of a game's socket.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SocketQuery {
    /// The ply the client has seen: the moves after it are sent first.
    since: Option<u32>,
}

/// The live messages of a game, for anyone to watch.
#[utoipa::path(get, path = "/api/games/{id}/socket", tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("since" = Option<u32>, Query, description = "The ply the client has seen: the moves after it are replayed first"),
    ),
    responses(
        (status = 101, description = "A WebSocket of JSON text messages: `{\"type\": \"move\", \"ply\": N, \"move\": \"...\", \"game\": <game>}` and `{\"type\": \"state\", \"game\": <game>}`"),
        (status = 400, description = "A malformed `since`", body = crate::error::ErrorBody),
        (status = 404, description = "No such game", body = crate::error::ErrorBody),
        (status = 429, description = "`rate_limited`: too many live sockets open from this address or for this account", body = crate::error::ErrorBody),
    ))]
pub(crate) async fn socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(query): Params<SocketQuery>,
    addr: ClientAddr,
    caller: Option<Caller>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    // A game that does not exist answers 404 before any upgrade.
    stored(&state, &id).await?;
    let tickets = state.admit_socket(addr, caller.map(|c| c.holder.account_id))?;
    upgrade_socket(state, id, query.since, upgrade, tickets)
}

/// Turns a request into a socket fed by the hub's messages of `key` (a game's id, or a
/// room's with [`ROOM_KEY`] before it), counted in `tickets` while it is open.
pub(crate) fn upgrade_socket(
    state: AppState,
    key: String,
    since: Option<u32>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
    tickets: SocketTickets,
) -> ApiResult<Response> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!("this endpoint is a WebSocket: {}", e.body_text()))
    })?;
    // Small buffers: a socket's messages are a few KiB and go out one at a time, and
    // tungstenite's defaults (128 KiB each way) would cost a quarter of a megabyte per
    // watcher.
    Ok(upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(1024)
        .on_upgrade(move |socket| async move {
            watch(state, key, since, socket).await;
            drop(tickets);
        }))
}

/// Serves one socket until it closes, falls silent or cannot keep up.
async fn watch(state: AppState, game_id: String, since: Option<u32>, mut socket: WebSocket) {
    // Subscribed before the game is read, so no change between the two is missed.
    let mut receiver = state.live.subscribe(&game_id);
    if let Err(e) = greet(&state, &game_id, since, &mut socket).await {
        tracing::debug!(game = game_id, "live: greeting failed: {e:?}");
        state.live.unsubscribe(&game_id, receiver);
        return;
    }
    let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    let mut closing = state.closing.clone();
    loop {
        let outgoing = tokio::select! {
            // The flag only ever turns true (or its sender goes with the server).
            _ = closing.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            received = receiver.recv() => match received {
                Ok(text) => Message::Text(text),
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    match message(&state, &game_id, Change::State).await {
                        Ok(text) => Message::Text(text),
                        Err(_) => break,
                    }
                }
                Err(broadcast::error::RecvError::Closed) => break,
            },
            incoming = socket.recv() => match incoming {
                // The client has nothing to say but pongs; any message proves it alive.
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {
                    heard = Instant::now();
                    continue;
                }
            },
            _ = ping.tick() => {
                if heard.elapsed() > SILENT_LIMIT {
                    break;
                }
                Message::Ping(Default::default())
            }
        };
        match tokio::time::timeout(SEND_LIMIT, socket.send(outgoing)).await {
            Ok(Ok(())) => {}
            _ => break,
        }
    }
    state.live.unsubscribe(&game_id, receiver);
}

/// The first messages of a socket: the moves after `since`, then the state.
async fn greet(
    state: &AppState,
    game_id: &str,
    since: Option<u32>,
    socket: &mut WebSocket,
) -> anyhow::Result<()> {
    if game_id.starts_with(ROOM_KEY) {
        let first = message(state, game_id, Change::State)
            .await
            .map_err(to_anyhow)?;
        socket.send(Message::Text(first)).await?;
        return Ok(());
    }
    let game = view(state, stored(state, game_id).await.map_err(to_anyhow)?)
        .await
        .map_err(to_anyhow)?;
    if let Some(since) = since {
        for ply in since.saturating_add(1)..=game.ply {
            socket.send(Message::Text(move_message(&game, ply))).await?;
        }
    }
    socket.send(Message::Text(state_message(&game))).await?;
    Ok(())
}

fn to_anyhow(e: ApiError) -> anyhow::Error {
    anyhow::anyhow!("{e:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcements_read_back_and_strange_ones_are_ignored() {
        for change in [Change::Move(12), Change::State] {
            let payload = change.payload("abc123");
            assert_eq!(Change::of_payload(&payload), Some(("abc123", change)));
        }
        for bad in [
            "",
            "abc",
            "abc move",
            "abc move x",
            "abc state 3",
            "abc jump 1",
            "a move 1 2",
        ] {
            assert_eq!(Change::of_payload(bad), None, "{bad:?}");
        }
    }
}
