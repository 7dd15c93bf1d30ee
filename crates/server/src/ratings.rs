//! Ratings as the API shows them (issues 26 and 49): an account's ratings in each pool (a
//! game and a band of its sizes), its history in one pool, the leaderboards of people and of
//! bots, a finished rated game's changes in the game view, and `swapboard admin rerate`. The numbers are `swapboard_league`'s; they change in the transaction that ends a
//! game (`store::ratings::on_game_end`).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use swapboard_league::glicko2::PlayerRating;
use swapboard_play::{Band, GameId};
use utoipa::ToSchema;

use crate::api::{ChangeView, RecordView};
use crate::edge::Params;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::limits::ratings::HISTORY_LIMIT;
use crate::limits::ratings::{LEADERBOARD_SIZE, PLAYERS_LISTED};
use crate::state::AppState;
use crate::store::ratings::{PARAMS, Pool};
use crate::store::room_skills::RoomSkill;
use crate::store::{Login, SeatRow, Status, Store, StoredGame};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The ratings' routes: an account's ratings and their history, and the leaderboards, each
/// with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(players))
        .routes(routes!(show_account))
        .routes(routes!(history))
        .routes(routes!(leaderboard))
}

/// Each seat's rating in a game's view (see [`ChangeView`]), by seat: for a rated game
/// being played between two accounts (or waiting, its challenger), each one's rating in the
/// game's pool (its game and size band) as of now, RD
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
            let pool = Pool::of_stored(&game.game, i64::from(game.size))?;
            let records = store.pool_records(&game.id, pool, [first, last]).await?;
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
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct RatingView {
    /// Rating.
    rating: f64,
    /// Rating deviation as of now (grown by the days since the last rated game).
    rd: f64,
    /// Volatility.
    volatility: f64,
    /// Rated games played in this pool.
    games: u32,
    /// Whether RD is at least 110 ("1612?").
    provisional: bool,
}

impl RatingView {
    /// `record` as shown at `now` (Unix seconds).
    fn shown(record: &PlayerRating, now: i64) -> anyhow::Result<RatingView> {
        let shown = record.shown(now, &PARAMS)?;
        Ok(RatingView {
            rating: shown.rating,
            rd: shown.rd,
            volatility: shown.volatility,
            games: shown.games,
            provisional: shown.provisional,
        })
    }
}

/// An account's rating in one pool: a game and a band of its board sizes.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PoolView {
    /// The game (`swaptimum`, ...).
    game: String,
    /// The band of sizes (`small`, `standard` or `large`).
    #[schema(value_type = String)]
    band: Band,
    /// The band's smallest and largest board side.
    sizes: [usize; 2],
    /// The rating there.
    #[serde(flatten)]
    rating: RatingView,
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
    /// Its rating in each game, by game name (`swaptimum`, ...): the pool of the game's
    /// usual board size (its standard band), once it played a rated game there.
    ratings: BTreeMap<String, RatingView>,
    /// Its rating in every pool (a game and a band of sizes) it has played rated, by game
    /// then from the smallest boards.
    pools: Vec<PoolView>,
    /// Its Swap 61 skill, if it finished a room in a seat of its own.
    swap61: Option<SkillView>,
    /// Its finished games played, won, lost and drawn in each two-player game it finished
    /// one of, by game name, rated or not, against people, bots and the AI.
    record: BTreeMap<String, RecordView>,
}

/// A player in the list of players.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlayerItemView {
    /// The account's name.
    name: String,
    /// Whether a program plays it.
    bot: bool,
    /// Its finished games, rated or not.
    games: i64,
    /// When the last of them ended (or last changed), in ms since the Unix epoch.
    last_game_ms: i64,
}

/// The list of players.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlayersView {
    /// At most 200, the most recently active first.
    players: Vec<PlayerItemView>,
}

/// The players who have finished a game (not guests, not banned), the most recently active
/// first, at most 200, for anyone: a club's members in one list, with or without ratings.
#[utoipa::path(get, path = "/api/players", tag = "ratings",
    responses((status = 200, description = "At most 200 players, the most recently active first", body = PlayersView)))]
pub(crate) async fn players(State(state): State<AppState>) -> ApiResult<Json<PlayersView>> {
    let players = state
        .store
        .players(PLAYERS_LISTED)
        .await?
        .into_iter()
        .map(|(name, bot, games, last_game_ms)| PlayerItemView {
            name,
            bot,
            games,
            last_game_ms,
        })
        .collect();
    Ok(Json(PlayersView { players }))
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
    let mut pools = Vec::new();
    for ((game, band), record) in state.store.ratings_of(login.account_id).await? {
        let id = game_named(&game)?;
        let rating = RatingView::shown(&record, now)?;
        if id.band_of(id.default_size()) == band {
            ratings.insert(game.clone(), rating.clone());
        }
        pools.push(PoolView {
            game,
            band,
            sizes: id.band_sizes(band),
            rating,
        });
    }
    // By the catalogue's order of games (not by name), then from the smallest boards.
    pools.sort_by_key(|pool| {
        (
            GameId::ALL.iter().position(|g| g.as_str() == pool.game),
            pool.band,
        )
    });
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
        pools,
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

/// A player's rating history in one pool.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct HistoryView {
    /// The account's name.
    name: String,
    /// The game.
    game: String,
    /// The band of sizes (absent for `swap61`, whose rooms are one pool).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    band: Option<Band>,
    /// One point per rated game, oldest first (at most the latest 10,000).
    points: Vec<HistoryPointView>,
}

/// The query naming a band of sizes (default: the band of the game's usual size).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BandQuery {
    /// `small`, `standard` or `large`.
    band: Option<String>,
    /// Leaderboards only: `true` for the bots' leaderboard.
    bots: Option<String>,
}

impl BandQuery {
    /// The pool of `game` the query names, the band checked and named when it is wrong.
    fn pool(&self, game: GameId) -> ApiResult<Pool> {
        let band = match self.band.as_deref() {
            None => game.band_of(game.default_size()),
            Some(text) => text
                .parse()
                .map_err(|e| ApiError::BadRequest(format!("band: {e}")))?,
        };
        Ok(Pool { game, band })
    }

    /// Whether the bots' leaderboard is asked for.
    fn bots(&self) -> ApiResult<bool> {
        match self.bots.as_deref() {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(_) => Err(ApiError::BadRequest(
                "bots: expected \"true\" or \"false\"".to_owned(),
            )),
        }
    }
}

/// An account's rating history in one pool, for anyone.
#[utoipa::path(get, path = "/api/accounts/{name}/ratings/{game}", tag = "ratings",
    params(
        ("name" = String, Path, description = "The account's name"),
        ("game" = String, Path, description = "`swaptimum`, `flipstop`, `scware`, `rapid-transit` or `swap61`"),
        ("band" = Option<String>, Query, pattern = "^(small|standard|large)$", description = "The band of board sizes (default: the band of the game's usual size; not for `swap61`)"),
    ),
    responses(
        (status = 200, description = "One point per rated game, oldest first", body = HistoryView),
        (status = 400, description = "An unknown game or band", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ))]
pub(crate) async fn history(
    State(state): State<AppState>,
    Path((name, game)): Path<(String, String)>,
    Params(query): Params<BandQuery>,
) -> ApiResult<Json<HistoryView>> {
    if query.bots.is_some() {
        return Err(ApiError::BadRequest(
            "bots: a history has no bots' side".to_owned(),
        ));
    }
    let pool = if game == SWAP61 {
        None
    } else {
        Some(query.pool(game_named(&game)?)?)
    };
    let Login {
        account_id, name, ..
    } = account(&state, &name).await?;
    let band = pool.map(|pool| pool.band);
    let points = match pool {
        Some(pool) => state
            .store
            .rating_history(account_id, pool)
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
    Ok(Json(HistoryView {
        name,
        game,
        band,
        points,
    }))
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
    /// Rated games played in this pool (Swap 61: rated rooms).
    games: u32,
    /// Whether RD is at least 110 ("1612?"; never for Swap 61).
    provisional: bool,
}

/// A pool's leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LeaderboardView {
    /// The game.
    game: String,
    /// The band of sizes (absent for `swap61`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    band: Option<Band>,
    /// Its band's smallest and largest board side (absent for `swap61`).
    #[serde(skip_serializing_if = "Option::is_none")]
    sizes: Option<[usize; 2]>,
    /// Whether it lists bots (`?bots=true`) rather than people.
    bots: bool,
    /// The widest RD it admits now: 75 in a pool of 30 active players or more, 300 below
    /// (absent for `swap61`, which lists every rated player).
    #[serde(skip_serializing_if = "Option::is_none")]
    max_rd: Option<f64>,
    /// The players of its kind with a rated game in the pool in the last 90 days (absent
    /// for `swap61`).
    #[serde(skip_serializing_if = "Option::is_none")]
    active: Option<usize>,
    /// The best 100 at most, best first.
    players: Vec<LeaderView>,
}

/// The top 100 of a pool (a game and a band of its sizes) among the people (or, with
/// `?bots=true`, the bots) with a rated game there in the last 90 days and RD now at most 75,
/// or at most 300 while fewer than 30 of them are active, for anyone; for `swap61`, the top
/// 100 by conservative skill of the people (or bots) who finished a rated room. Banned
/// accounts are not listed.
#[utoipa::path(get, path = "/api/leaderboards/{game}", tag = "ratings",
    params(
        ("game" = String, Path, description = "`swaptimum`, `flipstop`, `scware`, `rapid-transit` or `swap61`"),
        ("band" = Option<String>, Query, pattern = "^(small|standard|large)$", description = "The band of board sizes (default: the band of the game's usual size; not for `swap61`)"),
        ("bots" = Option<String>, Query, pattern = "^(true|false)$", description = "`true`: the bots' leaderboard; people's by default"),
    ),
    responses(
        (status = 200, description = "At most 100 players, the best first", body = LeaderboardView),
        (status = 400, description = "An unknown game or band, or a `bots` that is not a boolean", body = ErrorBody),
    ))]
pub(crate) async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Params(query): Params<BandQuery>,
) -> ApiResult<Json<LeaderboardView>> {
    let bots = query.bots()?;
    if game == SWAP61 {
        if query.band.is_some() {
            return Err(ApiError::BadRequest(
                "band: Swap 61's rooms are one pool".to_owned(),
            ));
        }
        return swap61_leaderboard(&state, bots).await;
    }
    let pool = query.pool(game_named(&game)?)?;
    let now = state.clock.now_ms();
    let board = state
        .store
        .leaderboard(pool, bots, now, LEADERBOARD_SIZE)
        .await?;
    let mut players = Vec::with_capacity(board.players.len());
    for (rank, (name, bot, record)) in (1..).zip(board.players) {
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
            provisional: shown.provisional,
        });
    }
    Ok(Json(LeaderboardView {
        game: pool.game.as_str().to_owned(),
        band: Some(pool.band),
        sizes: Some(pool.game.band_sizes(pool.band)),
        bots,
        max_rd: Some(board.max_rd),
        active: Some(board.active),
        players,
    }))
}

/// The Swap 61 pool's name in paths (the game the rooms play).
const SWAP61: &str = "swap61";

/// The Swap 61 leaderboard of people or of bots (`bots`): the best by conservative skill.
async fn swap61_leaderboard(state: &AppState, bots: bool) -> ApiResult<Json<LeaderboardView>> {
    let listed = state.store.room_leaderboard(bots, LEADERBOARD_SIZE).await?;
    let players = (1..)
        .zip(listed)
        .map(|(rank, (name, bot, record))| LeaderView {
            rank,
            name,
            bot,
            rating: record.skill.ordinal(),
            rd: record.skill.uncertainty,
            games: record.rooms,
            provisional: false,
        })
        .collect();
    Ok(Json(LeaderboardView {
        game: SWAP61.to_owned(),
        band: None,
        sizes: None,
        bots,
        max_rd: None,
        active: None,
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
