//! Ratings as the API shows them (issue 26): an account's ratings, its history in one game,
//! the leaderboards, a finished rated game's changes in the game view, and `swapboard admin
//! rerate`. The numbers are `swapboard_league`'s; they change in the transaction that ends a
//! game (`store::ratings::on_game_end`).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use swapboard_play::GameId;
use utoipa::ToSchema;

use crate::api::{ChangeView, RecordView};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::ratings::HISTORY_LIMIT;
use crate::limits::ratings::LEADERBOARD_SIZE;
use crate::state::AppState;
use crate::store::ratings::PARAMS;
use crate::store::room_skills::RoomSkill;
use crate::store::{Login, SeatRow, Status, Store, StoredGame};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The ratings' routes: an account's ratings and their history, and the leaderboards, each
/// with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show_account))
        .routes(routes!(history))
        .routes(routes!(leaderboard))
}

/// Each seat's rating in a game's view (see [`ChangeView`]), by seat: for a rated game
/// being played between two accounts (or waiting, its challenger), each one's rating in the game's pool as of now, RD
/// grown as everywhere a rating is shown; for a finished rated game, the rating it was rated
/// from and the change; nothing otherwise. One read of the ratings either way.
pub(crate) async fn seat_ratings(
    store: &Store,
    game: &StoredGame,
    seats: &[SeatRow],
) -> ApiResult<BTreeMap<u8, ChangeView>> {
    if !game.rated {
        return Ok(BTreeMap::new());
    }
    match game.status {
        Status::Finished => Ok(store
            .rating_changes(&game.id)
            .await?
            .into_iter()
            .map(|change| {
                let view = ChangeView {
                    before: change.before.rating,
                    change: Some(change.after.rating - change.before.rating),
                    provisional: change.before.rd >= PARAMS.provisional_rd,
                };
                (change.seat, view)
            })
            .collect()),
        Status::Waiting | Status::Playing => {
            // A game being played shows both players; a challenge, its challenger's (what
            // the lobby shows of it).
            let seated: Vec<(u8, i64)> = seats
                .iter()
                .filter_map(|row| {
                    row.account
                        .as_ref()
                        .map(|(account, _)| (row.seat, *account))
                })
                .collect();
            let (Some(&(_, first)), Some(&(_, last))) = (seated.first(), seated.last()) else {
                return Ok(BTreeMap::new());
            };
            if game.status == Status::Playing && seated.len() != 2 {
                return Ok(BTreeMap::new());
            }
            let records = store
                .pool_records(&game.id, &game.game, [first, last])
                .await?;
            let now = store.now_ms().div_euclid(1000);
            seated
                .iter()
                .map(|(seat, _)| *seat)
                .zip(records)
                .map(|(seat, record)| {
                    let shown = record.shown(now, &PARAMS).map_err(anyhow::Error::from)?;
                    let view = ChangeView {
                        before: shown.rating,
                        change: None,
                        provisional: shown.provisional,
                    };
                    Ok((seat, view))
                })
                .collect()
        }
    }
}

/// A rating as shown now.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RatingView {
    /// Rating.
    rating: f64,
    /// Rating deviation as of now (grown by the days since the last rated game).
    rd: f64,
    /// Volatility.
    volatility: f64,
    /// Rated games played in this game.
    games: u32,
    /// Whether RD is at least 110 ("1612?").
    provisional: bool,
}

/// A Swap 61 skill as shown (Weng-Lin, from the final ranks of rated rooms).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SkillView {
    /// The conservative estimate mu - 3 sigma, what the Swap 61 leaderboard ranks by (a new
    /// player has 0).
    rating: f64,
    /// Weng-Lin's skill estimate (a new player has 25).
    mu: f64,
    /// Its uncertainty (a new player has 25/3).
    sigma: f64,
    /// Rated rooms played.
    rooms: u32,
}

impl From<RoomSkill> for SkillView {
    fn from(record: RoomSkill) -> Self {
        SkillView {
            rating: record.skill.ordinal(),
            mu: record.skill.rating,
            sigma: record.skill.uncertainty,
            rooms: record.rooms,
        }
    }
}

/// An account, for anyone.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AccountView {
    /// The account's name.
    name: String,
    /// Whether a program plays it (`POST /api/me/bot`).
    bot: bool,
    /// Its rating in each game it has played rated, by game name (`swaptimum`, ...).
    ratings: BTreeMap<String, RatingView>,
    /// Its Swap 61 skill, if it finished a room in a seat of its own.
    swap61: Option<SkillView>,
    /// Its finished games played, won, lost and drawn in each two-player game it finished
    /// one of, by game name, rated or not, against people, bots and the AI.
    record: BTreeMap<String, RecordView>,
}

/// The account of `name`, or 404.
async fn account(state: &AppState, name: &str) -> ApiResult<Login> {
    match state.store.login_of(name).await? {
        Some(login) => Ok(login),
        None => Err(ApiError::NotFound(format!("no account named {name:?}"))),
    }
}

/// A two-player game named in a path, or 400.
fn game_named(text: &str) -> ApiResult<GameId> {
    text.parse()
        .map_err(|e| ApiError::BadRequest(format!("game: {e}")))
}

/// An account and its ratings, for anyone.
#[utoipa::path(get, path = "/api/accounts/{name}", tag = "ratings",
    params(("name" = String, Path, description = "The account's name")),
    responses(
        (status = 200, description = "The account and its ratings", body = AccountView),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn show_account(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<AccountView>> {
    let login = account(&state, &name).await?;
    Ok(Json(account_view(&state, login).await?))
}

/// An account as anyone sees it: its ratings, Swap 61 skill and record.
pub(crate) async fn account_view(state: &AppState, login: Login) -> ApiResult<AccountView> {
    let now = state.clock.now_ms().div_euclid(1000);
    let mut ratings = BTreeMap::new();
    for (game, record) in state.store.ratings_of(login.account_id).await? {
        let shown = record.shown(now, &PARAMS).map_err(anyhow::Error::from)?;
        ratings.insert(
            game,
            RatingView {
                rating: shown.rating,
                rd: shown.rd,
                volatility: shown.volatility,
                games: shown.games,
                provisional: shown.provisional,
            },
        );
    }
    let swap61 = state
        .store
        .room_skill(login.account_id)
        .await?
        .map(SkillView::from);
    let record = state.store.record_of(login.account_id, None).await?;
    Ok(AccountView {
        name: login.name,
        bot: login.bot,
        ratings,
        swap61,
        record,
    })
}

/// One point of a rating's history: the rating after a rated game.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct HistoryPointView {
    /// When the game ended, in ms since the Unix epoch.
    at_ms: i64,
    /// The game's id (Swap 61: the room's).
    game_id: String,
    /// The rating after it (Swap 61: the conservative skill mu - 3 sigma).
    rating: f64,
    /// RD after it (Swap 61: sigma).
    rd: f64,
    /// Swap 61 only: the player's final rank among the room's rated seats (1 is first).
    #[serde(skip_serializing_if = "Option::is_none")]
    rank: Option<u32>,
}

/// A player's rating history in one game.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct HistoryView {
    /// The account's name.
    name: String,
    /// The game.
    game: String,
    /// One point per rated game, oldest first (at most the latest 10,000).
    points: Vec<HistoryPointView>,
}

/// An account's rating history in one game, for anyone.
#[utoipa::path(get, path = "/api/accounts/{name}/ratings/{game}", tag = "ratings",
    params(
        ("name" = String, Path, description = "The account's name"),
        ("game" = String, Path, description = "`swaptimum`, `flipstop`, `scware`, `rapid-transit` or `swap61`"),
    ),
    responses(
        (status = 200, description = "One point per rated game, oldest first", body = HistoryView),
        (status = 400, description = "An unknown game", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn history(
    State(state): State<AppState>,
    Path((name, game)): Path<(String, String)>,
) -> ApiResult<Json<HistoryView>> {
    let pool = if game == SWAP61 {
        None
    } else {
        Some(game_named(&game)?)
    };
    let Login {
        account_id, name, ..
    } = account(&state, &name).await?;
    let points = match pool {
        Some(game) => state
            .store
            .rating_history(account_id, game.as_str())
            .await?
            .into_iter()
            .map(|point| HistoryPointView {
                at_ms: point.at_ms,
                game_id: point.game_id,
                rating: point.rating.rating,
                rd: point.rating.rd,
                rank: None,
            })
            .collect(),
        None => state
            .store
            .room_skill_history(account_id, HISTORY_LIMIT)
            .await?
            .into_iter()
            .map(|point| HistoryPointView {
                at_ms: point.at_ms,
                game_id: point.room_id,
                rating: point.after.ordinal(),
                rd: point.after.uncertainty,
                rank: Some(point.rank),
            })
            .collect(),
    };
    Ok(Json(HistoryView { name, game, points }))
}

/// A row of a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LeaderView {
    /// 1 for the best.
    rank: usize,
    /// The account's name.
    name: String,
    /// Whether a program plays it.
    bot: bool,
    /// Rating (Swap 61: the conservative skill mu - 3 sigma).
    rating: f64,
    /// RD as of now (Swap 61: sigma).
    rd: f64,
    /// Rated games played in this game (Swap 61: rated rooms).
    games: u32,
}

/// A game's leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LeaderboardView {
    /// The game.
    game: String,
    /// The best 100 at most, best first.
    players: Vec<LeaderView>,
}

/// The top 100 of a game among players with RD at most 75 now and a rated game in the last
/// 90 days, for anyone; for `swap61`, the top 100 by conservative skill of the players who
/// finished a rated room. Bots are listed and marked; banned accounts are not listed.
#[utoipa::path(get, path = "/api/leaderboards/{game}", tag = "ratings",
    params(("game" = String, Path, description = "`swaptimum`, `flipstop`, `scware`, `rapid-transit` or `swap61`")),
    responses(
        (status = 200, description = "At most 100 players, the best first", body = LeaderboardView),
        (status = 400, description = "An unknown game", body = ErrorBody),
    ))]
pub(crate) async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> ApiResult<Json<LeaderboardView>> {
    if game == SWAP61 {
        return swap61_leaderboard(&state).await;
    }
    let game = game_named(&game)?;
    let now = state.clock.now_ms();
    let listed = state
        .store
        .leaderboard(game.as_str(), now, LEADERBOARD_SIZE)
        .await?;
    let mut players = Vec::with_capacity(listed.len());
    for (rank, (name, bot, record)) in (1..).zip(listed) {
        let shown = record
            .shown(now.div_euclid(1000), &PARAMS)
            .map_err(anyhow::Error::from)?;
        players.push(LeaderView {
            rank,
            name,
            bot,
            rating: shown.rating,
            rd: shown.rd,
            games: shown.games,
        });
    }
    Ok(Json(LeaderboardView {
        game: game.as_str().to_owned(),
        players,
    }))
}

/// The Swap 61 pool's name in paths (the game the rooms play).
const SWAP61: &str = "swap61";

/// The Swap 61 leaderboard: the best by conservative skill.
async fn swap61_leaderboard(state: &AppState) -> ApiResult<Json<LeaderboardView>> {
    let listed = state.store.room_leaderboard(LEADERBOARD_SIZE).await?;
    let players = (1..)
        .zip(listed)
        .map(|(rank, (name, bot, record))| LeaderView {
            rank,
            name,
            bot,
            rating: record.skill.ordinal(),
            rd: record.skill.uncertainty,
            games: record.rooms,
        })
        .collect();
    Ok(Json(LeaderboardView {
        game: SWAP61.to_owned(),
        players,
    }))
}

/// The options of `swapboard admin rerate`.
#[derive(Clone, Debug, clap::Args)]
pub struct RerateOptions {
    /// The database (default: $DATABASE_URL, else swapboard.db here).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
}

/// Runs `swapboard admin rerate` on a runtime of its own: every rated game replayed in the
/// order the games ended, every record and change rewritten in one transaction; then the
/// rated Swap 61 rooms likewise, in the order they finished.
pub fn rerate(options: RerateOptions) -> anyhow::Result<()> {
    let url = crate::backup::database_url(options.database.as_deref());
    crate::backup::runtime()?.block_on(async {
        let store = Store::open_as_is(&url).await?;
        let replayed =
            async { Ok::<_, anyhow::Error>((store.rerate().await?, store.rerate_rooms().await?)) }
                .await;
        store.close().await;
        let (games, rooms) = replayed?;
        eprintln!("rerated {games} games and {rooms} Swap 61 rooms");
        Ok(())
    })
}
