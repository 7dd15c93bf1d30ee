//! The moderators' view of accounts (issue 48): the lists of the banned and the muted, an
//! account's file (standing, roles, sign-up address, notes, reports about it, its latest
//! messages and the admin log's lines about it), moderators' notes, unmuting, and the
//! admins' grant and revocation of roles.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::gate::{MODERATORS, Reason, holding, reason_of, trimmed_words};
use super::log::{LogLine, line_view};
use super::moderation::report_view;
use crate::api::{ChatMessageView, ReportView};
use crate::auth::Caller;
use crate::chat::message_view;
use crate::edge::{Body, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::admin::{FILE_LISTED, MAX_NOTE, MAX_STANDING_LISTED};
use crate::state::AppState;
use crate::store::{BanTerms, LogFilter, Role, Standing};

/// A ban as the moderators read it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct BanTermsView {
    /// Since when, in ms since the Unix epoch.
    since_ms: i64,
    /// When it ends by itself (`null`: for good).
    until_ms: Option<i64>,
    /// The reason given (`null` for bans older than the record of reasons).
    reason: Option<String>,
}

impl From<BanTerms> for BanTermsView {
    fn from(ban: BanTerms) -> BanTermsView {
        BanTermsView {
            since_ms: ban.since_ms,
            until_ms: ban.until_ms,
            reason: ban.reason,
        }
    }
}

/// The query of a standing list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StandingQuery {
    /// `banned` or `muted`.
    standing: String,
}

/// An account in a standing list.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct StandingLineView {
    /// Its name.
    name: String,
    /// Its ban (`null`: not banned).
    ban: Option<BanTermsView>,
    /// Until when it writes in no chat (`null`: not muted now).
    muted_until_ms: Option<i64>,
}

/// The banned or the muted accounts.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct StandingList {
    /// The latest ban first, or the latest mute's end first; at most 500.
    accounts: Vec<StandingLineView>,
}

/// The banned accounts, or those muted now, for admins and moderators.
#[utoipa::path(get, path = "/api/admin/accounts", tag = "admin",
    params(("standing" = String, Query, pattern = "^(banned|muted)$", description = "`banned` or `muted`")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The accounts of that standing", body = StandingList),
        (status = 400, description = "A standing neither `banned` nor `muted`", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
    ))]
pub(crate) async fn standing_list(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<StandingQuery>,
) -> ApiResult<Json<StandingList>> {
    holding(&state, &caller, MODERATORS).await?;
    let standing = match query.standing.as_str() {
        "banned" => Standing::Banned,
        "muted" => Standing::Muted,
        other => {
            return Err(ApiError::BadRequest(format!(
                "standing: {other:?}, expected \"banned\" or \"muted\""
            )));
        }
    };
    let lines = state
        .store
        .standing_list(standing, state.clock.now_ms(), MAX_STANDING_LISTED)
        .await?;
    Ok(Json(StandingList {
        accounts: lines
            .into_iter()
            .map(|line| StandingLineView {
                name: line.name,
                ban: line.ban.map(BanTermsView::from),
                muted_until_ms: line.muted_until_ms,
            })
            .collect(),
    }))
}

/// A role an account holds.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct HeldRole {
    /// `admin` or `moderator`.
    role: String,
    /// Since when, in ms since the Unix epoch.
    granted_ms: i64,
}

/// A moderator's note on an account.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct NoteView {
    /// Who wrote it.
    author: String,
    /// What it says.
    text: String,
    /// When, in ms since the Unix epoch.
    at_ms: i64,
}

/// What the moderators know of an account, beyond its public profile (its games are at
/// `/api/accounts/{name}/games`).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AccountFileView {
    /// Its name as written.
    name: String,
    /// When it was made, in ms since the Unix epoch.
    created_ms: i64,
    /// The client address it signed up from (`null` for accounts older than the record).
    signup_address: Option<String>,
    /// Whether it is a guest's.
    guest: bool,
    /// Whether it said it is played by a program.
    bot: bool,
    /// Its ban (`null`: in good standing).
    ban: Option<BanTermsView>,
    /// Until when it writes in no chat (`null`: not muted now).
    muted_until_ms: Option<i64>,
    /// Why it is muted (`null`: not muted now, or muted before reasons were kept).
    muted_reason: Option<String>,
    /// The roles it holds.
    roles: Vec<HeldRole>,
    /// The moderators' notes on it, newest first (at most 20).
    notes: Vec<NoteView>,
    /// The reports about it or its messages, open or closed, newest first (at most 20).
    reports: Vec<ReportView>,
    /// Its latest messages anywhere, newest first, hidden text included (at most 20).
    messages: Vec<ChatMessageView>,
    /// The admin log's lines about it, newest first (at most 20).
    log: Vec<LogLine>,
}

/// An account's file, for admins and moderators.
#[utoipa::path(get, path = "/api/admin/accounts/{name}", tag = "admin",
    params(("name" = String, Path, description = "The account")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account's file", body = AccountFileView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn account_file(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
) -> ApiResult<Json<AccountFileView>> {
    holding(&state, &caller, MODERATORS).await?;
    let store = &state.store;
    let file = store
        .account_file(&name, state.clock.now_ms())
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    let mut reports = Vec::new();
    for report in store.reports_about(file.id, FILE_LISTED).await? {
        reports.push(report_view(&state, report).await?);
    }
    let notes = store.notes_on(file.id, FILE_LISTED).await?;
    let messages = store
        .messages_by(file.id, u32::try_from(FILE_LISTED).unwrap_or(u32::MAX))
        .await?;
    let about = LogFilter {
        target: Some(file.name.clone()),
        ..LogFilter::default()
    };
    let log = store
        .admin_log(&about, u32::try_from(FILE_LISTED).unwrap_or(u32::MAX))
        .await?;
    Ok(Json(AccountFileView {
        name: file.name,
        created_ms: file.created_ms,
        signup_address: file.signup_address,
        guest: file.guest,
        bot: file.bot,
        ban: file.ban.map(BanTermsView::from),
        muted_until_ms: file.muted_until_ms,
        muted_reason: file.muted_reason,
        roles: file
            .roles
            .into_iter()
            .map(|(role, granted_ms)| HeldRole {
                role: role.as_str().to_owned(),
                granted_ms,
            })
            .collect(),
        notes: notes
            .into_iter()
            .map(|note| NoteView {
                author: note.author,
                text: note.text,
                at_ms: note.at_ms,
            })
            .collect(),
        reports,
        messages: messages
            .into_iter()
            .map(|m| message_view(m, true, false))
            .collect(),
        log: log.into_iter().map(line_view).collect(),
    }))
}

/// A note to keep on an account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewNote {
    /// 1 to 2,000 characters, seen by admins and moderators only.
    #[schema(min_length = 1, max_length = 2000)]
    text: String,
}

/// Keeps a moderator's note on an account: what the next moderator should know.
#[utoipa::path(post, path = "/api/admin/accounts/{name}/notes", tag = "admin", request_body = NewNote,
    params(("name" = String, Path, description = "The account")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The note is kept", body = NoteView),
        (status = 400, description = "An empty or too long note", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn add_note(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(note): Body<NewNote>,
) -> ApiResult<(StatusCode, Json<NoteView>)> {
    holding(&state, &caller, MODERATORS).await?;
    let text = trimmed_words("text", &note.text, MAX_NOTE)?;
    let account = state
        .store
        .login_of(&name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    state
        .store
        .add_note(account.account_id, &caller.holder.name, &text)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(NoteView {
            author: caller.holder.name,
            text,
            at_ms: state.clock.now_ms(),
        }),
    ))
}

/// What an unmute or a change of role did.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Changed {
    /// Whether this request changed anything.
    changed: bool,
}

/// Lets a muted account write in the chats again before its mute ends.
#[utoipa::path(post, path = "/api/admin/accounts/{name}/unmute", tag = "admin", request_body = Reason,
    params(("name" = String, Path, description = "The account")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account may write again", body = Changed),
        (status = 400, description = "A missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn unmute(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(reason): Body<Reason>,
) -> ApiResult<Json<Changed>> {
    holding(&state, &caller, MODERATORS).await?;
    let reason = reason_of(reason)?;
    let changed = state
        .store
        .unmute_account(&name, state.clock.now_ms(), &caller.holder.name, &reason)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    Ok(Json(Changed { changed }))
}

/// The role named in a path, or 400 naming it.
fn role_in_path(word: &str) -> ApiResult<Role> {
    word.parse()
        .map_err(|e: String| ApiError::BadRequest(format!("role: {e}")))
}

/// Grants a role, for admins: `moderator` (bans, mutes, the reports) or `admin`.
#[utoipa::path(put, path = "/api/admin/accounts/{name}/roles/{role}", tag = "admin",
    params(
        ("name" = String, Path, description = "The account"),
        ("role" = String, Path, pattern = "^(admin|moderator)$", description = "`admin` or `moderator`"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account holds the role", body = Changed),
        (status = 400, description = "No such role", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn grant(
    State(state): State<AppState>,
    caller: Caller,
    Path((name, role)): Path<(String, String)>,
) -> ApiResult<Json<Changed>> {
    holding(&state, &caller, &[Role::Admin]).await?;
    let role = role_in_path(&role)?;
    let changed = state
        .store
        .grant_role(&name, role, &caller.holder.name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    Ok(Json(Changed { changed }))
}

/// Takes a role back, for admins; an admin cannot take its own admin role (so that one
/// always remains).
#[utoipa::path(delete, path = "/api/admin/accounts/{name}/roles/{role}", tag = "admin",
    params(
        ("name" = String, Path, description = "The account"),
        ("role" = String, Path, pattern = "^(admin|moderator)$", description = "`admin` or `moderator`"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account no longer holds the role", body = Changed),
        (status = 400, description = "No such role", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin, or takes its own admin role", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path((name, role)): Path<(String, String)>,
) -> ApiResult<Json<Changed>> {
    holding(&state, &caller, &[Role::Admin]).await?;
    let role = role_in_path(&role)?;
    if role == Role::Admin && name.eq_ignore_ascii_case(&caller.holder.name) {
        return Err(ApiError::Forbidden(
            "you cannot take your own admin role; another admin can".to_owned(),
        ));
    }
    let changed = state
        .store
        .revoke_role(&name, role, &caller.holder.name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    Ok(Json(Changed { changed }))
}

/// A role and its holder.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RoleHolderView {
    /// The account.
    name: String,
    /// `admin` or `moderator`.
    role: String,
    /// Since when, in ms since the Unix epoch.
    granted_ms: i64,
}

/// Who holds which role.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RoleHolders {
    /// By name.
    holders: Vec<RoleHolderView>,
}

/// Who holds which role, for admins and moderators.
#[utoipa::path(get, path = "/api/admin/roles", tag = "admin",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Every role and its holder", body = RoleHolders),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
    ))]
pub(crate) async fn roles(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<RoleHolders>> {
    holding(&state, &caller, MODERATORS).await?;
    let holders = state.store.role_holders().await?;
    Ok(Json(RoleHolders {
        holders: holders
            .into_iter()
            .map(|h| RoleHolderView {
                name: h.name,
                role: h.role.as_str().to_owned(),
                granted_ms: h.granted_ms,
            })
            .collect(),
    }))
}
