//! What a person does to their own account: change the password (which ends every other
//! token and session), list their tokens and sessions, end one of them or all the others
//! ("log out everywhere else"), and take away everything stored of them (the export).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::{AccountName, Credentials, Password, log_in};
use crate::admin::{announce_forfeits, forfeit_all};
use crate::auth::{Caller, Proof};
use crate::chat::safety::blocks_view;
use crate::edge::{Body, ClientAddr};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::accounts::EXPORT_LIMIT;
use crate::notify::{Settings, settings_of};
use crate::ratings::{AccountView, account_view};
use crate::review::record_text;
use crate::state::AppState;
use crate::store::records::GameFilter;
use crate::vacation::VacationView;

/// How many hex digits of a credential's hash name it in the API: enough to tell an
/// account's credentials apart, too few to look one up by (the hash is of 32 random bytes).
const ID_DIGITS: usize = 16;

/// The body of a password change.
#[derive(Debug, Deserialize, ToSchema)]
pub(crate) struct PasswordChange {
    /// The password now, 8 to 128 characters.
    #[schema(value_type = String, min_length = 8, max_length = 128)]
    password: Password,
    /// The new password, 8 to 128 characters.
    #[schema(value_type = String, min_length = 8, max_length = 128)]
    new_password: Password,
}

/// How many credentials a change ended.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Ended {
    /// Tokens and sessions ended (the one the request was made with is kept).
    ended: u64,
}

/// One of the caller's tokens or sessions (never its secret).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CredentialView {
    /// The first 16 hex digits of the SHA-256 of its secret: what `DELETE` takes.
    id: String,
    /// `token` (scripts and bots) or `session` (a browser).
    kind: String,
    /// When it was made, in milliseconds since the Unix epoch.
    created_ms: i64,
    /// When it ends by itself (sessions), if it does.
    expires_ms: Option<i64>,
    /// Whether this request was made with it.
    current: bool,
}

/// The caller's tokens and sessions.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CredentialList {
    /// Newest first, at most 500.
    credentials: Vec<CredentialView>,
}

/// One of the caller's games in an export.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ExportedGame {
    /// The game's id.
    id: String,
    /// `waiting`, `playing` or `finished`.
    status: String,
    /// Its record (`docs/RECORDS.md`): the game, the players, every move and the result.
    record: String,
}

/// One of the caller's Swap 61 rooms in an export.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ExportedRoom {
    /// The room's id.
    id: String,
    /// `lobby`, `playing` or `finished`.
    status: String,
    /// Whether the caller runs it as game master (else they sit in it).
    master: bool,
}

/// One chat message the caller wrote, in an export.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ExportedMessage {
    /// The message's id.
    id: i64,
    /// The key of its chat (`game:ID:players`, `room:ID:seat:N`, ...).
    chat: String,
    /// When it was written, in ms since the Unix epoch.
    at_ms: i64,
    /// What it says (also when a moderator hid it: the caller wrote it).
    text: String,
    /// Whether a moderator hid it from the others.
    hidden: bool,
}

/// Everything stored of the caller, in one document.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Export {
    /// The account's name.
    name: String,
    /// The caller's tokens and sessions (never a secret).
    credentials: Vec<CredentialView>,
    /// Every game the caller sits in, most recently changed first, with its record.
    games: Vec<ExportedGame>,
    /// Every room the caller runs or sits in, newest first.
    rooms: Vec<ExportedRoom>,
    /// The account as anyone sees it: its ratings, Swap 61 skill and record.
    profile: AccountView,
    /// The notification settings: the mail address (whether confirmed), the mail choice
    /// per kind and the browsers pushed to (never a link's token or a browser's keys).
    notifications: Settings,
    /// The vacation bank: the days left this year and what was spent.
    vacation: VacationView,
    /// The accounts the caller blocked.
    blocks: Vec<crate::api::BlockView>,
    /// The chat messages the caller wrote (never another's), newest first.
    chat_messages: Vec<ExportedMessage>,
    /// Whether games, rooms or chat messages were left out past 10,000 of each.
    truncated: bool,
}

/// Cuts rows read with one more than [`EXPORT_LIMIT`] down to the limit; whether any was cut.
fn cut_to_the_limit<T>(rows: &mut Vec<T>) -> bool {
    let over = rows.len() > EXPORT_LIMIT as usize;
    rows.truncate(EXPORT_LIMIT as usize);
    over
}

/// Everything stored of the caller: the account, its credentials (listed, never a secret),
/// every game with its record, every room, its settings, ratings, blocks and chat messages.
#[utoipa::path(get, path = "/api/me/export", tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller's data, as one JSON document", body = Export),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 429, description = "Too many exports or analyses from this address", body = ErrorBody),
    ))]
pub(crate) async fn export(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    caller: Caller,
) -> ApiResult<Json<Export>> {
    // An export replays every game: as costly as an analysis, limited like one.
    state
        .limits
        .analyses_per_address
        .check(&addr.to_string(), state.clock.now_ms())
        .map_err(ApiError::RateLimited)?;
    let account = caller.holder.account_id;
    // One more than is kept tells whether any was left out.
    let mut stored = state
        .store
        .filtered_games(account, &GameFilter::default(), EXPORT_LIMIT + 1)
        .await?;
    let mut truncated = cut_to_the_limit(&mut stored);
    let mut games = Vec::with_capacity(stored.len());
    for game in stored {
        games.push(ExportedGame {
            record: record_text(&state, &game.id).await?,
            status: game.status.as_str().to_owned(),
            id: game.id,
        });
    }
    let mut rooms = state.store.rooms_of(account, EXPORT_LIMIT + 1).await?;
    truncated |= cut_to_the_limit(&mut rooms);
    let rooms = rooms
        .into_iter()
        .map(|room| ExportedRoom {
            status: room.status.as_str().to_owned(),
            master: room.master.0 == account,
            id: room.id,
        })
        .collect();
    let mut messages = state.store.messages_by(account, EXPORT_LIMIT + 1).await?;
    truncated |= cut_to_the_limit(&mut messages);
    let chat_messages = messages
        .into_iter()
        .map(|message| ExportedMessage {
            id: message.id,
            chat: message.chat,
            at_ms: message.at_ms,
            text: message.text,
            hidden: message.hidden,
        })
        .collect();
    let login = state
        .store
        .login_of(&caller.holder.name)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("the caller's account is gone")))?;
    let vacation = state.store.vacation(account, state.vacation_days).await?;
    Ok(Json(Export {
        credentials: listed(&state, &caller).await?,
        profile: account_view(&state, login).await?,
        notifications: settings_of(&state, account).await?,
        vacation: VacationView::of(vacation, state.vacation_days),
        blocks: blocks_view(&state, &caller).await?.blocks,
        chat_messages,
        name: caller.holder.name,
        games,
        rooms,
        truncated,
    }))
}

/// Checks the caller's password once more, like a login and under the same limits, before
/// an act that needs it (a new password, the account's deletion).
async fn confirm_password(
    state: &AppState,
    addr: ClientAddr,
    caller: &Caller,
    password: Password,
) -> ApiResult<()> {
    let name = AccountName::try_from(caller.holder.name.clone())
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("a stored name is refused: {e}")))?;
    log_in(state, addr, Credentials { name, password }).await?;
    Ok(())
}

/// The hash of the credential the caller proved itself with.
fn current_hash(caller: &Caller) -> &str {
    match &caller.proof {
        Proof::Token(hash) | Proof::Session(hash) => hash,
    }
}

/// Changes the caller's password and ends every other token and session of the account.
#[utoipa::path(put, path = "/api/me/password", tag = "accounts", request_body = PasswordChange,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The password is changed; every other token and session has ended", body = Ended),
        (status = 400, description = "A missing or malformed password", body = ErrorBody),
        (status = 401, description = "No credentials, or the password given is not the account's", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords", body = ErrorBody),
    ))]
pub(crate) async fn change_password(
    State(state): State<AppState>,
    addr: ClientAddr,
    caller: Caller,
    Body(change): Body<PasswordChange>,
) -> ApiResult<Json<Ended>> {
    confirm_password(&state, addr, &caller, change.password).await?;
    let hash = state.passwords.hash(change.new_password.0).await?;
    let ended = state
        .store
        .change_password(caller.holder.account_id, &hash, current_hash(&caller))
        .await?;
    Ok(Json(Ended { ended }))
}

/// The body of an account's deletion: its password, once more.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Deletion {
    /// The password now.
    #[schema(value_type = String, min_length = 8, max_length = 128)]
    password: Password,
}

/// What a deletion left.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Deleted {
    /// The neutral name the account's games and rooms are shown under now (`deleted:ID`).
    shown_as: String,
    /// The games the account was playing, forfeited.
    forfeited: Vec<String>,
}

/// Deletes the caller's account: every game it was playing is forfeited, then in one
/// transaction its name becomes a neutral one, its password, tokens, sessions, roles and
/// ratings go. Finished games and rooms stay, under the neutral name.
#[utoipa::path(delete, path = "/api/me", tag = "accounts", request_body = Deletion,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account is anonymised; no credential of it works any more", body = Deleted),
        (status = 400, description = "A missing or malformed password", body = ErrorBody),
        (status = 401, description = "No credentials, or the password given is not the account's", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords", body = ErrorBody),
    ))]
pub(crate) async fn delete_account(
    State(state): State<AppState>,
    addr: ClientAddr,
    caller: Caller,
    Body(deletion): Body<Deletion>,
) -> ApiResult<Json<Deleted>> {
    confirm_password(&state, addr, &caller, deletion.password).await?;
    let account = caller.holder.account_id;
    let forfeited = forfeit_all(&state.store, account).await?;
    announce_forfeits(&state, &forfeited).await;
    let shown_as = state.store.anonymise(account).await?;
    Ok(Json(Deleted {
        shown_as,
        forfeited: forfeited.games,
    }))
}

/// The caller's tokens and sessions.
#[utoipa::path(get, path = "/api/me/credentials", tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account's unexpired tokens and sessions, newest first", body = CredentialList),
        (status = 401, description = "No credentials", body = ErrorBody),
    ))]
pub(crate) async fn credentials(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<CredentialList>> {
    Ok(Json(CredentialList {
        credentials: listed(&state, &caller).await?,
    }))
}

/// The caller's unexpired tokens and sessions, as listed, newest first.
async fn listed(state: &AppState, caller: &Caller) -> ApiResult<Vec<CredentialView>> {
    let current = current_hash(caller);
    let rows = state.store.credentials_of(caller.holder.account_id).await?;
    Ok(rows
        .into_iter()
        .map(|row| CredentialView {
            id: row.secret_hash[..ID_DIGITS.min(row.secret_hash.len())].to_owned(),
            kind: row.kind.as_str().to_owned(),
            created_ms: row.created_ms,
            expires_ms: row.expires_ms,
            current: row.secret_hash == current,
        })
        .collect())
}

/// Ends one of the caller's tokens or sessions (not the one the request is made with: use
/// `DELETE /api/tokens/current` or `DELETE /api/session` for that).
#[utoipa::path(delete, path = "/api/me/credentials/{id}", tag = "accounts",
    params(("id" = String, Path, description = "The credential's `id` from `GET /api/me/credentials`")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 204, description = "It has ended"),
        (status = 400, description = "Not 16 hex digits", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 404, description = "No other credential of the caller's has that id", body = ErrorBody),
    ))]
pub(crate) async fn end_credential(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if id.len() != ID_DIGITS || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::BadRequest(format!(
            "id: must be {ID_DIGITS} hex digits, as GET /api/me/credentials lists them"
        )));
    }
    let ended = state
        .store
        .end_credentials(
            caller.holder.account_id,
            &id.to_ascii_lowercase(),
            current_hash(&caller),
        )
        .await?;
    if ended == 0 {
        return Err(ApiError::NotFound(format!(
            "id: no other token or session of yours is {id}"
        )));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Ends every token and session of the caller's but the one the request is made with.
#[utoipa::path(delete, path = "/api/me/credentials", tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Every other token and session has ended", body = Ended),
        (status = 401, description = "No credentials", body = ErrorBody),
    ))]
pub(crate) async fn end_other_credentials(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<Ended>> {
    let ended = state
        .store
        .end_credentials(caller.holder.account_id, "", current_hash(&caller))
        .await?;
    Ok(Json(Ended { ended }))
}

/// Marks the caller's account as played by a program, for good (`swapboard bot` does it when
/// it starts): it plays and is rated as before, and its profile and the leaderboards say it
/// is a bot, so nobody takes it for a person. A guest cannot (it has no account to keep).
#[utoipa::path(post, path = "/api/me/bot", tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 204, description = "The account is a bot's (it already was: the same answer)"),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 403, description = "A guest", body = ErrorBody),
    ))]
pub(crate) async fn mark_bot(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<StatusCode> {
    caller.signed_up("a bot account")?;
    state.store.mark_bot(caller.holder.account_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
