//! The vacation bank (Little Golem's model): every account has `--vacation-days` days a
//! year (20 by default). When a correspondence clock of theirs would run out, a day is
//! spent instead (in the fallen flag's transaction: `games::moves::on_time` and
//! `Store::end_on_time`), until the bank is empty; and a player may take days on purpose,
//! for all their games. These are the owner's routes: the bank, its log, and taking days.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Caller;
use crate::edge::Body;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::vacation::MOST_DAYS;
use crate::state::AppState;
use crate::store::{Spent, TakeError, Vacation};

/// The vacation routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(bank, take))
}

/// An entry of the vacation log.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SpentView {
    /// The game whose clock the days carried on; `null` for days taken on purpose.
    game: Option<String>,
    /// The days spent.
    days: u32,
    /// `clock` (a correspondence clock would have run out) or `taken` (on purpose).
    reason: String,
    /// When, in milliseconds since the Unix epoch.
    at_ms: i64,
}

/// The caller's vacation bank.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct VacationView {
    /// The days every account has a year.
    days_per_year: u32,
    /// The calendar year (UTC) the bank counts.
    year: i64,
    /// The days left this year.
    days_left: u32,
    /// Until when the caller is away on days taken on purpose (no correspondence clock of
    /// theirs runs out before; a turn whose time ran out meanwhile restarts then), in
    /// milliseconds since the Unix epoch; `null` when not away.
    away_until_ms: Option<i64>,
    /// The days spent, the latest first (at most 100 entries).
    log: Vec<SpentView>,
}

impl VacationView {
    pub(crate) fn of(vacation: Vacation, days_per_year: u32) -> VacationView {
        VacationView {
            days_per_year,
            year: vacation.year,
            days_left: vacation.left,
            away_until_ms: vacation.away_until_ms,
            log: vacation
                .log
                .into_iter()
                .map(|spent: Spent| SpentView {
                    game: spent.game_id,
                    days: spent.days,
                    reason: spent.reason,
                    at_ms: spent.at_ms,
                })
                .collect(),
        }
    }
}

/// The body of `POST /api/me/vacation`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TakeDays {
    /// The days to take, 1 to 366 (and no more than are left).
    #[schema(minimum = 1, maximum = 366)]
    days: u32,
}

/// The caller's vacation bank: the days left this year, whether they are away, and what
/// was spent.
#[utoipa::path(get, path = "/api/me/vacation", tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller's vacation bank", body = VacationView),
        (status = 401, description = "No credentials", body = ErrorBody),
    ))]
pub(crate) async fn bank(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<VacationView>> {
    let vacation = state
        .store
        .vacation(caller.holder.account_id, state.vacation_days)
        .await?;
    Ok(Json(VacationView::of(vacation, state.vacation_days)))
}

/// Takes days of the caller's vacation bank on purpose, for all their games: they are away
/// that many days from now (or from the end of days taken before), and no correspondence
/// clock of theirs runs out meanwhile.
#[utoipa::path(post, path = "/api/me/vacation", tag = "accounts", request_body = TakeDays,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The days are taken: the bank now", body = VacationView),
        (status = 400, description = "`days` missing, or not 1 to 366", body = ErrorBody),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 409, description = "Fewer days are left this year", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many requests that change something from this address", body = ErrorBody),
    ))]
pub(crate) async fn take(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<TakeDays>,
) -> ApiResult<Json<VacationView>> {
    if !(1..=MOST_DAYS).contains(&body.days) {
        return Err(ApiError::BadRequest(format!(
            "days: {} is not 1 to {MOST_DAYS}",
            body.days
        )));
    }
    let account = caller.holder.account_id;
    let vacation = state
        .store
        .take_vacation(account, body.days, state.vacation_days)
        .await
        .map_err(|e| match e {
            TakeError::TooFew { left } => {
                ApiError::Conflict(format!("days: {} asked, {left} left this year", body.days))
            }
            TakeError::Storage(e) => ApiError::Internal(e),
        })?;
    tracing::info!(account, days = body.days, "vacation: days taken on purpose");
    Ok(Json(VacationView::of(vacation, state.vacation_days)))
}
