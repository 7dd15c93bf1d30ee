//! The moderators' side of the chats (`docs/CHAT.md`), for the roles admin and moderator:
//! the queue of reports, hiding a message, muting an account for a time. Every act is a
//! line of the admin log, written in its transaction.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::gate::{MODERATORS, Reason, holding, reason_of};
use crate::api::{ReportView, ReportsView};
use crate::auth::Caller;
use crate::chat::message_view;
use crate::edge::{Body, Params};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::admin::REPORT_CONTEXT;
use crate::limits::chat::{MAX_MUTE_HOURS, MAX_REPORTS_READ, REPORTS_PAGE};
use crate::state::AppState;
use crate::store::{ChatRef, StoredReport};

/// The latest messages of a reported account a report shows: as many as on both sides of a
/// reported message.
const REPORT_CONTEXT_OF_ACCOUNT: u32 = 2 * REPORT_CONTEXT as u32;

/// The moderation routes, each with its OpenAPI entry.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(reports))
        .routes(routes!(close_report))
        .routes(routes!(hide))
        .routes(routes!(mute))
}

/// The query of the reports' queue.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReportsQuery {
    /// The closed reports too (default: the open ones only).
    all: Option<bool>,
    /// Only the reports older than this one (by id): the next page.
    before: Option<i64>,
    /// The most reports on the page, 1 to 500 (default 50).
    limit: Option<i64>,
}

/// The moderators' queue of reports, newest first, a page at a time, each with the message
/// it names shown in full, hidden or not. A flood of reports never hides the latest one.
#[utoipa::path(get, path = "/api/admin/reports", tag = "admin",
    params(
        ("all" = Option<bool>, Query, description = "The closed reports too"),
        ("before" = Option<i64>, Query, description = "Only the reports older than this one (the `older` of the page before)"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 500, description = "The most reports on the page (default 50)"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "A page of the reports, newest first", body = ReportsView),
        (status = 400, description = "A limit out of 1 to 500", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
    ))]
pub(crate) async fn reports(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<ReportsQuery>,
) -> ApiResult<Json<ReportsView>> {
    holding(&state, &caller, MODERATORS).await?;
    let limit = query.limit.unwrap_or(REPORTS_PAGE);
    if !(1..=MAX_REPORTS_READ).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit: {limit}, expected 1 to {MAX_REPORTS_READ}"
        )));
    }
    // One more than the page: whether there are older ones.
    let mut stored = state
        .store
        .reports(query.all.unwrap_or(false), query.before, limit + 1)
        .await?;
    let older = (stored.len() > usize::try_from(limit).unwrap_or(usize::MAX)).then(|| {
        stored.pop();
        stored.last().map_or(0, |last| last.id)
    });
    let mut reports = Vec::with_capacity(stored.len());
    for report in stored {
        reports.push(report_view(&state, report).await?);
    }
    Ok(Json(ReportsView { reports, older }))
}

/// A report as the moderators read it, with what surrounds it: the messages around the
/// reported one and the page that holds them, or the reported account's latest messages.
pub(crate) async fn report_view(state: &AppState, report: StoredReport) -> ApiResult<ReportView> {
    let message = match report.message_id {
        Some(id) => state.store.chat_message(id).await?,
        None => None,
    };
    let (place, chat, context) = match &message {
        Some(message) => {
            let around = state
                .store
                .messages_around(&message.chat, message.id, REPORT_CONTEXT)
                .await?;
            let chat = ChatRef::of_key(&message.chat);
            let place = chat.as_ref().map(|chat| {
                let page = if chat.channel.of_game() {
                    "games"
                } else {
                    "rooms"
                };
                format!("/{page}/{}", chat.place)
            });
            (place, chat.map(|chat| chat.channel.word()), around)
        }
        None => {
            let latest = match state.store.login_of(&report.account).await? {
                Some(login) => {
                    let mut latest = state
                        .store
                        .messages_by(login.account_id, REPORT_CONTEXT_OF_ACCOUNT)
                        .await?;
                    latest.reverse();
                    latest
                }
                None => Vec::new(),
            };
            (None, None, latest)
        }
    };
    Ok(ReportView {
        id: report.id,
        reporter: report.reporter,
        account: report.account,
        message: message.map(|m| message_view(m, true, false)),
        place,
        chat,
        context: context
            .into_iter()
            .map(|m| message_view(m, true, false))
            .collect(),
        category: report.category.map(|c| c.as_str().to_owned()),
        reason: report.reason,
        at_ms: report.at_ms,
        closed_ms: report.closed_ms,
        closed_by: report.closed_by,
    })
}

/// What a moderator's act did.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Done {
    /// Whether this request changed anything (a second close or hide does not).
    changed: bool,
}

/// Closes a report (the reason goes to the admin log) and tells its reporter, in the inbox,
/// that the moderators reviewed it (not the reason: that is the moderators' own).
#[utoipa::path(post, path = "/api/admin/reports/{id}/close", tag = "admin", request_body = Reason,
    params(("id" = i64, Path, description = "The report's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The report is closed", body = Done),
        (status = 400, description = "A missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
        (status = 404, description = "No such report", body = ErrorBody),
    ))]
pub(crate) async fn close_report(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<i64>,
    Body(reason): Body<Reason>,
) -> ApiResult<Json<Done>> {
    holding(&state, &caller, MODERATORS).await?;
    let reason = reason_of(reason)?;
    let changed = state
        .store
        .close_report(id, &caller.holder.name, &reason)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no report {id}")))?;
    Ok(Json(Done { changed }))
}

/// Hides a chat message: it is shown as hidden, without its text, to everyone but the
/// moderators.
#[utoipa::path(post, path = "/api/admin/messages/{id}/hide", tag = "admin", request_body = Reason,
    params(("id" = i64, Path, description = "The message's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The message is hidden", body = Done),
        (status = 400, description = "A missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
        (status = 404, description = "No such message", body = ErrorBody),
    ))]
pub(crate) async fn hide(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<i64>,
    Body(reason): Body<Reason>,
) -> ApiResult<Json<Done>> {
    holding(&state, &caller, MODERATORS).await?;
    let reason = reason_of(reason)?;
    let changed = state
        .store
        .hide_message(id, &caller.holder.name, &reason)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no message {id}")))?;
    Ok(Json(Done { changed }))
}

/// The body of a mute.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MuteBody {
    /// For how long, 1 to 720 hours (a later mute replaces it).
    #[schema(minimum = 1, maximum = 720)]
    hours: u32,
    /// Words for the admin log, 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    reason: String,
}

/// A mute as it stands.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MuteView {
    /// The account.
    name: String,
    /// Until when it writes in no chat, in ms since the Unix epoch.
    until_ms: i64,
}

/// Mutes an account for a time: until then it writes in no chat (it still reads, and plays).
#[utoipa::path(post, path = "/api/admin/accounts/{name}/mute", tag = "admin", request_body = MuteBody,
    params(("name" = String, Path, description = "The account to mute")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account is muted", body = MuteView),
        (status = 400, description = "Hours not 1 to 720, or a missing or too long reason", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn mute(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(body): Body<MuteBody>,
) -> ApiResult<Json<MuteView>> {
    holding(&state, &caller, MODERATORS).await?;
    if !(1..=MAX_MUTE_HOURS).contains(&body.hours) {
        return Err(ApiError::BadRequest(format!(
            "hours: {} is not 1 to {MAX_MUTE_HOURS}",
            body.hours
        )));
    }
    let reason = reason_of(Reason {
        reason: body.reason,
    })?;
    let until_ms = state.clock.now_ms() + i64::from(body.hours) * 3_600_000;
    let name = state
        .store
        .mute_account(&name, until_ms, &caller.holder.name, &reason)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account {name:?}")))?;
    Ok(Json(MuteView { name, until_ms }))
}
