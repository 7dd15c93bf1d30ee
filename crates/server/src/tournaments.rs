//! Tournaments run by the server (issue 26; `docs/TOURNAMENTS.md`): creating one, joining and
//! leaving it (a withdrawal once it runs: its games are forfeits), starting it (its creator,
//! or the scheduler at `starts_at`), the list and a tournament's view with its standings, its
//! live socket, and the monthly correspondence tournament of each game.
//!
//! Pairing and standings are `swapboard_league`'s; the rounds are made in the store, in the
//! transaction that starts the tournament or ends a round's last game (`store/tournaments.rs`).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use swapboard_league::tournament::{Entrant, standings};
use swapboard_play::{GameId, TimeControl};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{
    EntrantView, PairingView, TournamentList, TournamentRoundView, TournamentStandingView,
    TournamentSummary, TournamentView,
};
use crate::auth::Caller;
use crate::clock::rfc3339;
use crate::edge::{Body, ClientAddr};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::games::moves::resignation;
use crate::games::view::{after_change, game_ended, limit_account};
use crate::games::{checked_size, proven_board};
use crate::limits::tournaments::{
    MAX_LEAD_MS, MAX_OPEN_PER_ACCOUNT, MAX_PLAYERS, MAX_ROUNDS, TOURNAMENTS_LISTED,
};
use crate::live::{Change, Topic};
use crate::secret::random_secret;
use crate::state::AppState;
use crate::store::Store;
use crate::store::tournaments::{
    Format, NewTournament, Stage, Starter, StoredTournament, TournamentError, TournamentRecord,
    result_word,
};

/// The tournaments' routes, each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(show))
        .routes(routes!(join))
        .routes(routes!(leave))
        .routes(routes!(start))
        .routes(routes!(socket))
}

/// The body of `POST /api/tournaments`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateTournament {
    /// `swaptimum`, `flipstop`, `scware` or `rapid-transit`.
    #[schema(value_type = String, example = "swaptimum")]
    game: GameId,
    /// The board side (default: the game's usual one).
    size: Option<u32>,
    /// `round_robin` (divisions of at most 10, each pair twice) or `swiss`.
    #[schema(example = "swiss")]
    format: String,
    /// A Swiss's rounds (1 to 20; default 5). A round robin's follow from its divisions.
    rounds: Option<u32>,
    /// The games' clock, required: `{"days_per_move": D}` or `{"initial_s": S,
    /// "increment_s": I}`.
    clock: TimeControl,
    /// When it starts (RFC 3339) if `min_players` have joined by then; within a year.
    #[schema(example = "2026-12-01T18:00:00Z")]
    starts_at: String,
    /// The fewest players it starts with (2 to 500; default 4).
    min_players: Option<u32>,
    /// The most it takes (`min_players` to 500; default 100).
    max_players: Option<u32>,
    /// Whether its games count for the ratings (default yes; never on a board the solver has
    /// proved from the start, where asking for it is refused).
    rated: Option<bool>,
    /// Whether a player's vacation bank may carry a clock that ran out in its games, as in
    /// any correspondence game (default yes; no: a clock that runs out loses).
    vacation: Option<bool>,
}

/// A checked RFC 3339 time, in ms since the Unix epoch.
fn parse_time(field: &str, text: &str) -> ApiResult<i64> {
    let at = OffsetDateTime::parse(text, &Rfc3339).map_err(|e| {
        ApiError::BadRequest(format!(
            "{field}: {text:?} is not an RFC 3339 time (like 2026-12-01T18:00:00Z): {e}"
        ))
    })?;
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000)
        .map_err(|_| ApiError::BadRequest(format!("{field}: {text:?} is out of range")))
}

/// Checks a count against its range, naming the field.
fn in_range(field: &str, value: u32, low: u32, high: u32) -> ApiResult<u32> {
    if (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(ApiError::BadRequest(format!(
            "{field}: {value} is not from {low} to {high}"
        )))
    }
}

impl CreateTournament {
    /// The tournament this body asks for, every field checked.
    fn checked(self, now: i64, creator: i64) -> ApiResult<NewTournament> {
        let game = self.game;
        let size = checked_size(game, self.size)?;
        let proven = proven_board(game, size, self.rated)?;
        let format = match self.format.as_str() {
            "round_robin" => Format::RoundRobin,
            "swiss" => Format::Swiss,
            other => {
                return Err(ApiError::BadRequest(format!(
                    "format: {other:?} is neither \"round_robin\" nor \"swiss\""
                )));
            }
        };
        let rounds = in_range("rounds", self.rounds.unwrap_or(5), 1, MAX_ROUNDS)?;
        if self.clock == TimeControl::None {
            return Err(ApiError::BadRequest(
                "clock: a tournament needs a clock, {\"days_per_move\": D} or {\"initial_s\": S, \"increment_s\": I}, so every round ends".to_owned(),
            ));
        }
        let starts_ms = parse_time("starts_at", &self.starts_at)?;
        if starts_ms > now.saturating_add(MAX_LEAD_MS) {
            return Err(ApiError::BadRequest(format!(
                "starts_at: {} is more than a year ahead",
                self.starts_at
            )));
        }
        let most = u32::try_from(MAX_PLAYERS).unwrap_or(u32::MAX);
        let min_players = in_range("min_players", self.min_players.unwrap_or(4), 2, most)?;
        let max_players = in_range(
            "max_players",
            self.max_players.unwrap_or(100),
            min_players,
            most,
        )?;
        Ok(NewTournament {
            id: random_secret()[..16].to_owned(),
            game,
            size: u32::try_from(size).map_err(anyhow::Error::from)?,
            format,
            rounds: if format == Format::Swiss { rounds } else { 0 },
            clock: self.clock,
            starts_ms,
            min_players,
            max_players,
            rated: !proven && self.rated.unwrap_or(true),
            vacation: self.vacation.unwrap_or(true),
            creator_id: Some(creator),
            edition: None,
        })
    }
}

/// Creates a tournament, open for entries until it starts. The creator is not entered: it
/// joins like anyone.
#[utoipa::path(post, path = "/api/tournaments", tag = "tournaments", request_body = CreateTournament,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The tournament is created", body = TournamentView),
        (status = 400, description = "A missing, malformed or out-of-range field, named", body = ErrorBody),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A guest: tournaments need an account", body = ErrorBody),
        (status = 409, description = "The caller has 5 tournaments that have not started", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many challenges from this account", body = ErrorBody),
    ))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<CreateTournament>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    caller.signed_up("making a tournament")?;
    let account = caller.holder.account_id;
    let new = body.checked(state.clock.now_ms(), account)?;
    state.offered.check(new.game)?;
    limit_account(&state.limits.challenges_per_account, &caller, &state.clock)?;
    let open = state.store.open_tournaments_of(account).await?;
    if open >= MAX_OPEN_PER_ACCOUNT {
        return Err(ApiError::Conflict(format!(
            "you have {open} tournaments that have not started, the most one account may have"
        )));
    }
    state.store.create_tournament(&new).await?;
    Ok((
        StatusCode::CREATED,
        Json(shown(&state.store, &new.id).await?),
    ))
}

/// The tournaments: taking entries (soonest first), being played and over (newest first),
/// at most 100 of each.
#[utoipa::path(get, path = "/api/tournaments", tag = "tournaments",
    responses((status = 200, description = "The tournaments by stage", body = TournamentList)))]
pub(crate) async fn list(State(state): State<AppState>) -> ApiResult<Json<TournamentList>> {
    let mut stages = Vec::with_capacity(3);
    for stage in [Stage::Open, Stage::Running, Stage::Finished] {
        let listed = state.store.tournaments(stage, TOURNAMENTS_LISTED).await?;
        stages.push(listed.iter().map(summary).collect::<Vec<_>>());
    }
    let finished = stages.pop().unwrap_or_default();
    let running = stages.pop().unwrap_or_default();
    let upcoming = stages.pop().unwrap_or_default();
    Ok(Json(TournamentList {
        upcoming,
        running,
        finished,
    }))
}

/// A tournament: its entrants, rounds and standings.
#[utoipa::path(get, path = "/api/tournaments/{id}", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 404, description = "No such tournament", body = ErrorBody),
    ))]
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    Ok(Json(shown(&state.store, &id).await?))
}

/// Enters the caller into an open tournament (entering twice changes nothing).
#[utoipa::path(post, path = "/api/tournaments/{id}/join", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller is entered", body = TournamentView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "A guest: tournaments need an account", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "The tournament has started, or is full", body = ErrorBody),
    ))]
pub(crate) async fn join(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    // A guest plays the AI only: a tournament pairs it with people, in rated games.
    caller.signed_up("entering a tournament")?;
    state
        .store
        .join_tournament(&id, caller.holder.account_id)
        .await
        .map_err(refusal)?;
    changed(&state, &id).await
}

/// Takes the caller out of a tournament: before the start, its entry goes; once it runs, the
/// caller withdraws: the game it is playing is forfeited now and its later games are
/// forfeits (a Swiss pairs it no more).
#[utoipa::path(post, path = "/api/tournaments/{id}/leave", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The caller left or withdrew", body = TournamentView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "The caller is not in it, or it is finished", body = ErrorBody),
    ))]
pub(crate) async fn leave(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    let account = caller.holder.account_id;
    let left = state.store.leave_open_tournament(&id, account).await;
    if let Err(TournamentError::Stage(Stage::Running)) = left {
        let forfeited = state
            .store
            .withdraw(&id, account, |game, seat| resignation(seat)(game))
            .await
            .map_err(refusal)?;
        for game in &forfeited {
            after_change(&state, game, Change::State).await;
        }
    } else {
        left.map_err(refusal)?;
    }
    changed(&state, &id).await
}

/// Takes an account out of every tournament it is still in (a ban, a deleted account): its
/// entry in an open one goes, and it withdraws from a running one (its game there forfeited
/// now, its later games forfeits). The games forfeited and the tournaments changed.
pub(crate) async fn withdraw_everywhere(
    store: &Store,
    account: i64,
) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let (mut forfeited, mut changed) = (Vec::new(), Vec::new());
    for (id, stage) in store.tournaments_entered(account).await? {
        let left = match stage {
            Stage::Open => store.leave_open_tournament(&id, account).await,
            _ => store
                .withdraw(&id, account, |game, seat| resignation(seat)(game))
                .await
                .map(|games| forfeited.extend(games)),
        };
        match left {
            Ok(()) => changed.push(id),
            // Started, finished or left meanwhile: a later look finds it as it is now.
            Err(TournamentError::Stage(_) | TournamentError::NotEntered) => {}
            Err(e) => anyhow::bail!("tournament {id}: {e}"),
        }
    }
    Ok((forfeited, changed))
}

/// Starts an open tournament now, by its creator, if it has its fewest players.
#[utoipa::path(post, path = "/api/tournaments/{id}/start", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The tournament runs: round 1's games are made", body = TournamentView),
        (status = 401, description = "No or bad credentials", body = ErrorBody),
        (status = 403, description = "The caller did not make it", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "It has started already, or has too few players", body = ErrorBody),
    ))]
pub(crate) async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    state
        .store
        .start_tournament(&id, Starter::Creator(caller.holder.account_id))
        .await
        .map_err(refusal)?;
    started(&state, &id).await;
    changed(&state, &id).await
}

/// The live messages of a tournament, for anyone to watch.
#[utoipa::path(get, path = "/api/tournaments/{id}/socket", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 101, description = "A WebSocket of JSON text messages, each a `LiveMessage` of type `tournament` (`{\"type\": \"tournament\", \"tournament\": <tournament>}`): on opening, and after each change"),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many live sockets open from this address or for this account", body = ErrorBody),
    ))]
pub(crate) async fn socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    addr: ClientAddr,
    caller: Option<Caller>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    if state.store.tournament(&id).await?.is_none() {
        return Err(ApiError::NotFound(format!("no tournament {id:?}")));
    }
    let viewer = caller.as_ref().map(Caller::viewer);
    let tickets = state.admit_socket(addr, viewer.as_ref().map(|v| v.account))?;
    state
        .live
        .upgrade(Topic::Tournament(id), None, viewer, upgrade, tickets)
}

/// The answer to a refused action.
fn refusal(e: TournamentError) -> ApiError {
    match e {
        TournamentError::NoSuchTournament => ApiError::NotFound(e.to_string()),
        TournamentError::NotCreator => ApiError::Forbidden(e.to_string()),
        TournamentError::Stage(_)
        | TournamentError::Full(_)
        | TournamentError::NotEntered
        | TournamentError::TooFew { .. } => ApiError::Conflict(e.to_string()),
        TournamentError::Storage(e) => ApiError::Internal(e),
    }
}

/// Tells the tournament's watchers, and answers its view.
async fn changed(state: &AppState, id: &str) -> ApiResult<Json<TournamentView>> {
    state
        .live
        .announce(&Topic::Tournament(id.to_owned()), Change::State)
        .await;
    Ok(Json(shown(&state.store, id).await?))
}

/// After a start: the watchers of round 1's games are told they exist (nobody watches a
/// game before it exists, but its players' lists do).
async fn started(state: &AppState, id: &str) {
    if let Ok(Some(record)) = state.store.tournament(id).await {
        for game in record.pairings.iter().filter_map(|p| p.game_id.as_deref()) {
            after_change(state, game, Change::State).await;
        }
    }
}

/// Why a started Swiss plays fewer rounds than asked: with few players, more rounds would
/// pair people again before everyone met (`small_swiss_rounds` at the start).
fn rounds_note(t: &StoredTournament) -> Option<String> {
    let asked = t.rounds_asked?;
    (t.format == Format::Swiss && t.stage != Stage::Open && asked > t.rounds).then(|| {
        format!(
            "{asked} rounds were asked; with {} players a Swiss plays {}: that many find a winner, and more would pair players again",
            t.players, t.rounds
        )
    })
}

/// A tournament as the list shows it.
fn summary(t: &StoredTournament) -> TournamentSummary {
    TournamentSummary {
        id: t.id.clone(),
        game: t.game.clone(),
        size: t.size,
        format: t.format.as_str().to_owned(),
        status: t.stage.as_str().to_owned(),
        clock: t.clock,
        starts_at: rfc3339(t.started_ms.unwrap_or(t.starts_ms)),
        total_rounds: t.rounds,
        rounds_note: rounds_note(t),
        round: t.round,
        player_count: t.players,
        min_players: t.min_players,
        max_players: t.max_players,
        rated: t.rated,
        vacation: t.vacation,
        finished_at: t.finished_ms.map(rfc3339),
        creator: t.creator.clone(),
    }
}

/// The view of the tournament of that id.
pub(crate) async fn shown(store: &Store, id: &str) -> ApiResult<TournamentView> {
    let record = store
        .tournament(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no tournament {id:?}")))?;
    view(&record)
}

/// A tournament's view: entrants, rounds paired (a round robin's whole schedule), and the
/// standings by `league` (a round robin's division by division).
fn view(record: &TournamentRecord) -> ApiResult<TournamentView> {
    let t = &record.tournament;
    let names: BTreeMap<i64, &str> = record
        .entries
        .iter()
        .map(|e| (e.account_id, e.name.as_str()))
        .collect();
    let name = |id: &i64| names.get(id).map_or_else(String::new, |n| (*n).to_owned());
    let division = |d: u32| (t.format == Format::RoundRobin && d > 0).then_some(d);
    let last = record.pairings.iter().map(|p| p.round).max().unwrap_or(0);
    let rounds = (1..=last)
        .map(|number| TournamentRoundView {
            round: number,
            games: record
                .pairings
                .iter()
                .filter(|p| p.round == number)
                .map(|p| PairingView {
                    id: p.game_id.clone(),
                    division: division(p.division),
                    first: name(&p.first),
                    second: name(&p.second),
                    result: p.result.map(|r| result_word(r).to_owned()),
                })
                .collect(),
            bye: record
                .byes
                .iter()
                .find(|(round, _)| *round == number)
                .map(|(_, who)| name(who)),
        })
        .collect();
    let mut lines = Vec::new();
    if t.stage != Stage::Open {
        let groups: Vec<u32> = match t.format {
            Format::Swiss => vec![0],
            Format::RoundRobin => {
                let mut all: Vec<u32> = record.entries.iter().map(|e| e.division).collect();
                all.sort_unstable();
                all.dedup();
                all
            }
        };
        for group in groups {
            let entrants: Vec<Entrant<i64>> = record
                .entries
                .iter()
                .filter(|e| group == 0 || e.division == group)
                .map(|e| Entrant {
                    player: e.account_id,
                    rating: e.rating,
                })
                .collect();
            let table = standings(&entrants, &record.rounds(group))
                .map_err(|e| ApiError::Internal(anyhow::anyhow!("tournament {}: {e}", t.id)))?;
            lines.extend(table.into_iter().map(|s| TournamentStandingView {
                rank: s.rank,
                name: name(&s.player),
                points: s.points,
                sonneborn_berger: s.sonneborn_berger,
                second_player_wins: s.second_player_wins,
                rating: s.rating,
                division: division(group),
            }));
        }
    }
    Ok(TournamentView {
        summary: summary(t),
        entrants: record
            .entries
            .iter()
            .map(|e| EntrantView {
                name: e.name.clone(),
                rating: e.rating,
                division: division(e.division),
                withdrawn: e.withdrawn,
            })
            .collect(),
        rounds,
        standings: lines,
    })
}

/// The scheduler's pass: starts the open tournaments whose time has come and that have
/// their fewest players (each exactly once, whichever instance gets there first: the start
/// locks the tournament and checks it is still open), and, every `editions` passes, makes
/// sure next month's scheduled tournament of each game exists.
pub(crate) async fn start_due(state: &AppState, editions: bool) -> anyhow::Result<()> {
    let now = state.clock.now_ms();
    for id in state.store.tournaments_due(now).await? {
        match state.store.start_tournament(&id, Starter::Schedule).await {
            Ok(()) => {
                started(state, &id).await;
                game_ended(state, Some(&id)).await;
            }
            Err(TournamentError::Stage(_) | TournamentError::TooFew { .. }) => {}
            Err(e) => tracing::warn!(tournament = id, "cannot start: {e}"),
        }
    }
    if editions {
        monthly_editions(&state.store, state.offered.games(), now).await?;
    }
    Ok(())
}

/// The monthly correspondence tournament's days per move.
const MONTHLY_DAYS_PER_MOVE: u32 = 3;
/// The monthly tournament's rounds (a Swiss).
const MONTHLY_ROUNDS: u32 = 7;

/// Makes next month's edition of each offered game's monthly tournament (a 7-round Swiss at 3 days a
/// move, from the 1st at 00:00 UTC), unless it exists: its key (`GAME:YYYY-MM`) is unique, so
/// of several instances one stores it. This month's edition starts on the 1st: the next one
/// is then made on the scheduler's next look.
pub(crate) async fn monthly_editions(
    store: &Store,
    offered: &[GameId],
    now: i64,
) -> anyhow::Result<u32> {
    let today = OffsetDateTime::from_unix_timestamp(now.div_euclid(1000))?.date();
    let (year, month) = match today.month() {
        time::Month::December => (today.year() + 1, time::Month::January),
        month => (today.year(), month.next()),
    };
    let first = time::Date::from_calendar_date(year, month, 1)?
        .midnight()
        .assume_utc();
    let starts_ms = i64::try_from(first.unix_timestamp_nanos() / 1_000_000)?;
    let mut made = 0;
    for &game in offered {
        let new = NewTournament {
            id: random_secret()[..16].to_owned(),
            game,
            size: u32::try_from(game.default_size())?,
            format: Format::Swiss,
            rounds: MONTHLY_ROUNDS,
            clock: TimeControl::correspondence(MONTHLY_DAYS_PER_MOVE.into())?,
            starts_ms,
            min_players: 4,
            max_players: u32::try_from(MAX_PLAYERS)?,
            rated: true,
            vacation: true,
            creator_id: None,
            edition: Some(format!("{}:{year}-{:02}", game.as_str(), u8::from(month))),
        };
        made += u32::from(store.create_tournament(&new).await?);
    }
    Ok(made)
}
