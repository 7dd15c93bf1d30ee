//! The chats (issue 27, `docs/CHAT.md`): per two-player game one for its two players and one
//! for its spectators, per Swap 61 room a public table-talk and a private thread between
//! each seat and the game master. Who reads and writes each is decided here, on every
//! request; a private chat's text is only ever answered to its own readers, and its live
//! announcement is a nudge without it (`crate::live::messages`).

mod access;
pub(crate) mod safety;

use std::collections::HashSet;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::access::{Access, game_access, room_access};

use crate::api::{ChatMessageView, ChatView};
use crate::auth::Caller;
use crate::edge::{Body, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::view::limit_account;
use crate::limits::chat::MAX_MESSAGE;
use crate::live::{Change, Topic};
use crate::state::AppState;
use crate::store::{Channel, ChatMessage, ChatRef, Role, ThreadAudit};

/// The chats' routes, and the safety around them, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(game_chat, write_game_chat))
        .routes(routes!(table_talk, write_table_talk))
        .routes(routes!(thread, write_thread))
        .merge(safety::router())
}

/// A message as a reader sees it: a hidden one's text only for a moderator; `reported`:
/// whether this reader reported it.
pub(crate) fn message_view(
    message: ChatMessage,
    moderator: bool,
    reported: bool,
) -> ChatMessageView {
    let shown = !message.hidden || moderator;
    ChatMessageView {
        id: message.id,
        author: message.author,
        at_ms: message.at_ms,
        text: shown.then_some(message.text),
        hidden: message.hidden,
        reported_by_me: reported,
    }
}

/// The channel's name in a live message: a seat's thread is `thread`, naming no seat.
pub(crate) fn public_word(channel: Channel) -> &'static str {
    match channel {
        Channel::Players => "players",
        Channel::Spectators => "spectators",
        Channel::Table => "table",
        Channel::Thread(_) => "thread",
    }
}

/// A message's text, checked: 1 to 500 characters once trimmed, no control character but
/// the newline.
pub(crate) fn checked_text(text: &str) -> ApiResult<String> {
    let text = text.trim();
    let length = text.chars().count();
    if length == 0 || length > MAX_MESSAGE {
        return Err(ApiError::BadRequest(format!(
            "text: {length} characters, expected 1 to {MAX_MESSAGE}"
        )));
    }
    if let Some(bad) = text.chars().find(|&c| c.is_control() && c != '\n') {
        return Err(ApiError::BadRequest(format!(
            "text: the control character U+{:04X} is not allowed (only a newline is)",
            u32::from(bad)
        )));
    }
    Ok(text.to_owned())
}

/// Whether the caller is an admin or a moderator (who see hidden messages).
async fn moderates(state: &AppState, caller: Option<&Caller>) -> ApiResult<bool> {
    Ok(match caller {
        Some(caller) => {
            state
                .store
                .has_role(caller.holder.account_id, &[Role::Admin, Role::Moderator])
                .await?
        }
        None => false,
    })
}

/// Refuses a write of an account a moderator muted (saying until when and why), or past
/// its chat rate.
async fn may_write(state: &AppState, caller: &Caller) -> ApiResult<()> {
    caller.signed_up("writing in a chat")?;
    if let Some(mute) = state.store.chat_mute(caller.holder.account_id).await? {
        return Err(ApiError::Forbidden(mute.words()));
    }
    limit_account(&state.limits.chat_per_account, caller, &state.clock)
}

/// The query of a chat's read.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChatQuery {
    /// For a game, `players` or `spectators`.
    channel: Option<String>,
    /// Only the messages after this one (by id).
    after: Option<i64>,
}

/// A message to write.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewMessage {
    /// For a game, `players` or `spectators`; absent for a room's chats.
    channel: Option<String>,
    /// 1 to 500 characters; no control character but the newline.
    #[schema(min_length = 1, max_length = 500)]
    text: String,
}

/// A game's channel, named in a query or a body.
fn game_channel(word: Option<&str>) -> ApiResult<Channel> {
    match word {
        Some("players") => Ok(Channel::Players),
        Some("spectators") => Ok(Channel::Spectators),
        Some(other) => Err(ApiError::BadRequest(format!(
            "channel: {other:?} is no game chat: players or spectators"
        ))),
        None => Err(ApiError::BadRequest(
            "channel: missing: players or spectators".to_owned(),
        )),
    }
}

/// A chat's latest messages, as this caller may see them.
async fn chat_view(
    state: &AppState,
    chat: &ChatRef,
    access: &Access,
    caller: Option<&Caller>,
    after: Option<i64>,
) -> ApiResult<ChatView> {
    access.read.clone().map_err(ApiError::Forbidden)?;
    let key = chat.key();
    let moderator = moderates(state, caller).await?;
    let after = after.unwrap_or(0);
    let (muted, reported, mute) = match caller {
        Some(caller) => {
            let me = caller.holder.account_id;
            (
                state.store.chat_muted(me, &key).await?,
                state.store.reported_in(me, &key, after).await?,
                state.store.chat_mute(me).await?,
            )
        }
        None => (false, HashSet::new(), None),
    };
    let messages = state
        .store
        .chat_messages(&key, after)
        .await?
        .into_iter()
        .map(|m| {
            let mine = reported.contains(&m.id);
            message_view(m, moderator, mine)
        })
        .collect();
    // A moderator's mute closes every chat the caller could write in, and says why.
    let refusal = match (&access.write, mute) {
        (Err(why), _) => Some(why.clone()),
        (Ok(()), Some(mute)) => Some(mute.words()),
        (Ok(()), None) => None,
    };
    Ok(ChatView {
        chat: key,
        messages,
        writable: refusal.is_none(),
        refusal,
        muted,
    })
}

/// Writes a message in a chat the caller may write in, and tells the topic's watchers.
async fn post(
    state: &AppState,
    chat: &ChatRef,
    access: Access,
    caller: &Caller,
    text: &str,
    topic: Topic,
) -> ApiResult<(StatusCode, Json<ChatMessageView>)> {
    access.write.map_err(ApiError::Forbidden)?;
    let text = checked_text(text)?;
    may_write(state, caller).await?;
    let audit = matches!(chat.channel, Channel::Thread(_)).then(|| ThreadAudit {
        room_id: &chat.place,
        actor: &caller.holder.name,
        tell: access.tell,
    });
    let message = state
        .store
        .post_chat(chat, caller.holder.account_id, &text, audit)
        .await?;
    let change = Change::Chat {
        channel: chat.channel,
        message: message.id,
    };
    state.live.announce(&topic, change).await;
    Ok((
        StatusCode::CREATED,
        Json(message_view(message, false, false)),
    ))
}

/// A game's chat: `players` (its two seated accounts only) or `spectators` (anyone but its
/// players while it is played; anyone once it ended).
#[utoipa::path(get, path = "/api/games/{id}/chat", tag = "chat",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("channel" = String, Query, description = "`players` or `spectators`"),
        ("after" = Option<i64>, Query, description = "Only the messages after this one"),
    ),
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The chat's latest messages, oldest first", body = ChatView),
        (status = 400, description = "A missing or unknown channel", body = ErrorBody),
        (status = 403, description = "The players' chat of a game the caller does not play in, or the spectators' chat of the caller's game being played", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn game_chat(
    State(state): State<AppState>,
    caller: Option<Caller>,
    Path(id): Path<String>,
    Params(query): Params<ChatQuery>,
) -> ApiResult<Json<ChatView>> {
    let channel = game_channel(query.channel.as_deref())?;
    let access = game_access(&state, &id, channel, caller.as_ref()).await?;
    let chat = ChatRef { place: id, channel };
    let view = chat_view(&state, &chat, &access, caller.as_ref(), query.after).await?;
    Ok(Json(view))
}

/// Writes in a game's chat (`docs/CHAT.md` says who may).
#[utoipa::path(post, path = "/api/games/{id}/chat", tag = "chat", request_body = NewMessage,
    params(("id" = String, Path, description = "The game's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The message is written", body = ChatMessageView),
        (status = 400, description = "A missing or unknown channel, an empty or too long text, or a control character", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller may not write here (not a player, a player while the game is played, a blocked pair, a guest, muted by a moderator)", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many messages from this account", body = ErrorBody),
    ))]
pub(crate) async fn write_game_chat(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<NewMessage>,
) -> ApiResult<(StatusCode, Json<ChatMessageView>)> {
    let channel = game_channel(body.channel.as_deref())?;
    let access = game_access(&state, &id, channel, Some(&caller)).await?;
    let chat = ChatRef {
        place: id.clone(),
        channel,
    };
    post(&state, &chat, access, &caller, &body.text, Topic::Game(id)).await
}

/// The query of a room's chat.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AfterQuery {
    /// Only the messages after this one (by id).
    after: Option<i64>,
}

/// A room's public table-talk.
#[utoipa::path(get, path = "/api/rooms/{id}/chat", tag = "chat",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("after" = Option<i64>, Query, description = "Only the messages after this one"),
    ),
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The table-talk's latest messages, oldest first", body = ChatView),
        (status = 404, description = "No such room", body = ErrorBody),
    ))]
pub(crate) async fn table_talk(
    State(state): State<AppState>,
    caller: Option<Caller>,
    Path(id): Path<String>,
    Params(query): Params<AfterQuery>,
) -> ApiResult<Json<ChatView>> {
    let channel = Channel::Table;
    let access = room_access(&state, &id, channel, caller.as_ref()).await?;
    let chat = ChatRef { place: id, channel };
    let view = chat_view(&state, &chat, &access, caller.as_ref(), query.after).await?;
    Ok(Json(view))
}

/// Writes in a room's table-talk (its game master and seated players).
#[utoipa::path(post, path = "/api/rooms/{id}/chat", tag = "chat", request_body = NewMessage,
    params(("id" = String, Path, description = "The room's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The message is written", body = ChatMessageView),
        (status = 400, description = "An empty or too long text, or a control character", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller neither sits in the room nor runs it, or is muted", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many messages from this account", body = ErrorBody),
    ))]
pub(crate) async fn write_table_talk(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Body(body): Body<NewMessage>,
) -> ApiResult<(StatusCode, Json<ChatMessageView>)> {
    no_channel(body.channel.as_deref())?;
    let channel = Channel::Table;
    let access = room_access(&state, &id, channel, Some(&caller)).await?;
    let chat = ChatRef {
        place: id.clone(),
        channel,
    };
    post(&state, &chat, access, &caller, &body.text, Topic::Room(id)).await
}

/// Refuses a channel named for a room's chat (the path names it).
fn no_channel(channel: Option<&str>) -> ApiResult<()> {
    match channel {
        Some(channel) => Err(ApiError::BadRequest(format!(
            "channel: {channel:?}: a room's chat is named by its path"
        ))),
        None => Ok(()),
    }
}

/// A seat's private thread with the game master (that seat's account and the game master
/// only; every message is also in the room's audit log).
#[utoipa::path(get, path = "/api/rooms/{id}/seats/{seat}/thread", tag = "chat",
    params(
        ("id" = String, Path, description = "The room's id"),
        ("seat" = u8, Path, description = "The seat, from 1"),
        ("after" = Option<i64>, Query, description = "Only the messages after this one"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The thread's latest messages, oldest first", body = ChatView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is neither that seat's player nor the game master", body = ErrorBody),
        (status = 404, description = "No such room or seat", body = ErrorBody),
    ))]
pub(crate) async fn thread(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, seat)): Path<(String, u8)>,
    Params(query): Params<AfterQuery>,
) -> ApiResult<Json<ChatView>> {
    let channel = Channel::Thread(seat);
    let access = room_access(&state, &id, channel, Some(&caller)).await?;
    let chat = ChatRef { place: id, channel };
    let view = chat_view(&state, &chat, &access, Some(&caller), query.after).await?;
    Ok(Json(view))
}

/// Writes in a seat's private thread with the game master.
#[utoipa::path(post, path = "/api/rooms/{id}/seats/{seat}/thread", tag = "chat", request_body = NewMessage,
    params(
        ("id" = String, Path, description = "The room's id"),
        ("seat" = u8, Path, description = "The seat, from 1"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The message is written (and in the room's audit log)", body = ChatMessageView),
        (status = 400, description = "An empty or too long text, or a control character", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is neither that seat's player nor the game master, or is muted", body = ErrorBody),
        (status = 404, description = "No such room or seat", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many messages from this account", body = ErrorBody),
    ))]
pub(crate) async fn write_thread(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, seat)): Path<(String, u8)>,
    Body(body): Body<NewMessage>,
) -> ApiResult<(StatusCode, Json<ChatMessageView>)> {
    no_channel(body.channel.as_deref())?;
    let channel = Channel::Thread(seat);
    let access = room_access(&state, &id, channel, Some(&caller)).await?;
    let chat = ChatRef {
        place: id.clone(),
        channel,
    };
    post(&state, &chat, access, &caller, &body.text, Topic::Room(id)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_counted_in_characters_and_control_characters_refused() {
        assert_eq!(checked_text("  hi\nthere ").unwrap(), "hi\nthere");
        assert!(checked_text(&"é".repeat(500)).is_ok());
        assert!(checked_text(&"é".repeat(501)).is_err());
        assert!(checked_text("   ").is_err());
        assert!(checked_text("a\u{7}b").is_err());
        assert!(checked_text("a\rb").is_err());
        assert!(checked_text("<b>bold</b>").is_ok());
    }
}
