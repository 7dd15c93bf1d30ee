//! The admin log as the admins and moderators read it (`GET /api/admin/log`): a page at a
//! time, by actor, action or target.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::gate::{MODERATORS, holding, limit_of};
use crate::auth::Caller;
use crate::edge::Params;
use crate::error::{ApiResult, ErrorBody};
use crate::state::AppState;
use crate::store::{AdminEntry, LogFilter};

/// The query of the admin log.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LogQuery {
    /// How many lines, newest first: 1 to 1,000 (default 100).
    limit: Option<u32>,
    /// Only the lines older than this one (the `older` of the page before).
    before: Option<i64>,
    /// Only this actor's lines.
    actor: Option<String>,
    /// Only this action's lines.
    action: Option<String>,
    /// Only the lines about this account, game, room or report.
    target: Option<String>,
}

/// One line of the admin log.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LogLine {
    /// Its place in the log (a page's `before`).
    id: i64,
    /// When, in ms since the Unix epoch.
    at_ms: i64,
    /// Who: an account, `operator:USER` for the command line run by that Unix user, or
    /// `system` (a ban's term that ended).
    actor: String,
    /// `grant`, `revoke`, `ban`, `unban`, `mute`, `unmute`, `hide`, `close-report`, `note`,
    /// `annul`, `adjudicate`, `close`, `reset-link`.
    action: String,
    /// The account or game acted on.
    target: String,
    /// The reason given, or the role granted.
    detail: String,
}

/// The admin log.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AdminLog {
    /// Newest first.
    lines: Vec<LogLine>,
    /// When older lines pass the filter: the `before` that reads the next page of them.
    older: Option<i64>,
}

/// The admin log, for admins and moderators: newest first, a page at a time, by actor,
/// action or target when asked.
#[utoipa::path(get, path = "/api/admin/log", tag = "admin",
    params(
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 1000, description = "How many lines, newest first (default 100)"),
        ("before" = Option<i64>, Query, description = "Only the lines older than this one (the `older` of the page before)"),
        ("actor" = Option<String>, Query, description = "Only this actor's lines"),
        ("action" = Option<String>, Query, description = "Only this action's lines (`ban`, `mute`, ...)"),
        ("target" = Option<String>, Query, description = "Only the lines about this account, game, room or report"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The latest lines that pass, newest first", body = AdminLog),
        (status = 400, description = "A limit not 1 to 1,000", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller is no admin or moderator", body = ErrorBody),
    ))]
pub(crate) async fn log(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<LogQuery>,
) -> ApiResult<Json<AdminLog>> {
    holding(&state, &caller, MODERATORS).await?;
    let limit = limit_of(query.limit)?;
    let filter = LogFilter {
        before: query.before,
        actor: query.actor,
        action: query.action,
        target: query.target,
    };
    // One more than the page: whether there are older ones.
    let mut lines = state.store.admin_log(&filter, limit + 1).await?;
    let older = (lines.len() > usize::try_from(limit).unwrap_or(usize::MAX)).then(|| {
        lines.pop();
        lines.last().map_or(0, |last| last.id)
    });
    Ok(Json(AdminLog {
        lines: lines.into_iter().map(line_view).collect(),
        older,
    }))
}

pub(crate) fn line_view(entry: AdminEntry) -> LogLine {
    LogLine {
        id: entry.id,
        at_ms: entry.at_ms,
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        detail: entry.detail,
    }
}
