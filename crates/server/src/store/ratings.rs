//! The ratings' storage (issues 26 and 49): each account's Glicko-2 record per game and size
//! band (`GameId::bands`), and each rated game's changes, which are the game view's "before
//! and change" and the players' histories.
//!
//! The numbers are `swapboard_league`'s: [`on_game_end`] runs in the transaction that ends a
//! game, so a rating changes exactly when, and exactly once, the game's end is committed.
//! [`Store::rerate`] replays the rated games through the same `rate_game`.

use std::collections::BTreeMap;

use anyhow::Context as _;
use sqlx::any::AnyRow;
use sqlx::{Any, Row as _, Transaction};
use swapboard_league::glicko2::{Change, Glicko2, Outcome, Params, PlayerRating, prior, rate_game};
use swapboard_league::rerate::{RatedGame, rerate};
use swapboard_play::{Band, GameId};

use super::games::{Finish, Termination};
use super::pool::{Backend, Store};
use crate::limits::instances::RECORDS_TTL;
use crate::limits::ratings::HISTORY_LIMIT;

/// The pools' constants: lichess's, as issue 26 asks.
pub(crate) const PARAMS: Params = Params::LICHESS;

/// One player's side of a rated game, as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StoredChange {
    /// The seat (0: the first player).
    pub(crate) seat: u8,
    /// The rating going in, RD grown to the game's end.
    pub(crate) before: Glicko2,
    /// The rating after the game.
    pub(crate) after: Glicko2,
}

/// One point of a player's history: the rating after a rated game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HistoryPoint {
    /// When the game ended, in ms since the Unix epoch.
    pub(crate) at_ms: i64,
    /// The game.
    pub(crate) game_id: String,
    /// The rating after it.
    pub(crate) rating: Glicko2,
}

/// An account's records, by game name and band.
pub(crate) type Records = BTreeMap<(String, Band), PlayerRating>;

/// A pool: a game and a band of its sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pool {
    /// The game.
    pub(crate) game: GameId,
    /// The band of its sizes.
    pub(crate) band: Band,
}

impl Pool {
    /// The pool a game of `game` on side `size` is rated in.
    pub(crate) fn of(game: GameId, size: usize) -> Pool {
        Pool {
            game,
            band: game.band_of(size),
        }
    }

    /// The pool of a stored game or tournament: its game name and side, as stored.
    pub(crate) fn of_stored(game: &str, size: i64) -> anyhow::Result<Pool> {
        let id: GameId = game
            .parse()
            .map_err(|e| anyhow::anyhow!("games.game: {e}"))?;
        Ok(Pool::of(id, usize::try_from(size)?))
    }
}

/// A stored band.
fn band_of(row: &AnyRow) -> anyhow::Result<Band> {
    let text: String = row.try_get("band")?;
    text.parse()
        .map_err(|e: String| anyhow::anyhow!("ratings.band: {e}"))
}

/// The record an account starts `pool` with at `at` (Unix seconds), given its rows of the
/// pool's game (`band` and the record's columns): its record there, else the prior of its
/// other bands ([`prior`]).
fn record_in<'a>(
    rows: impl IntoIterator<Item = &'a AnyRow>,
    band: Band,
    at: i64,
) -> anyhow::Result<PlayerRating> {
    let mut others = Vec::new();
    for row in rows {
        let record = record_of(row)?;
        if band_of(row)? == band {
            return Ok(record);
        }
        others.push(record);
    }
    Ok(prior(&others, at, &PARAMS)?)
}

/// A pool's leaderboard as stored ([`Store::leaderboard`]).
#[derive(Clone, Debug)]
pub(crate) struct Leaderboard {
    /// The players of its kind (people or bots) with a rated game in the pool within the
    /// leaderboard's days.
    pub(crate) active: usize,
    /// The widest RD (as of now) it admits, for that many players.
    pub(crate) max_rd: f64,
    /// The admitted, best first: name, whether a bot, record.
    pub(crate) players: Vec<(String, bool, PlayerRating)>,
}

/// Unix seconds of a stored time: the instant the ratings are computed at.
fn seconds(ms: i64) -> i64 {
    ms.div_euclid(1000)
}

fn glicko_of(row: &AnyRow, prefix: &str) -> sqlx::Result<Glicko2> {
    Ok(Glicko2 {
        rating: row.try_get(format!("{prefix}rating").as_str())?,
        rd: row.try_get(format!("{prefix}rd").as_str())?,
        volatility: row.try_get(format!("{prefix}volatility").as_str())?,
    })
}

fn record_of(row: &AnyRow) -> anyhow::Result<PlayerRating> {
    let games: i64 = row.try_get("games")?;
    let last: Option<i64> = row.try_get("last_game_ms")?;
    Ok(PlayerRating {
        glicko: glicko_of(row, "")?,
        games: u32::try_from(games)
            .map_err(|_| anyhow::anyhow!("ratings.games: {games} is out of range"))?,
        last_game_at: last.map(seconds),
    })
}

/// The first player's result, from a finish that is not an abort.
fn first_outcome(finish: Finish) -> Outcome {
    match finish.winner_seat {
        Some(0) => Outcome::Win,
        Some(_) => Outcome::Loss,
        None => Outcome::Draw,
    }
}

/// Writes `rating` as the account's record in `pool` (which exists).
async fn write_record(
    tx: &mut Transaction<'static, Any>,
    account_id: i64,
    pool: Pool,
    rating: &PlayerRating,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4, \
         last_game_ms = $5 WHERE account_id = $6 AND game = $7 AND band = $8",
    )
    .bind(rating.glicko.rating)
    .bind(rating.glicko.rd)
    .bind(rating.glicko.volatility)
    .bind(i64::from(rating.games))
    .bind(rating.last_game_at.map(|at| at * 1000))
    .bind(account_id)
    .bind(pool.game.as_str())
    .bind(pool.band.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The side effect of a game's end on the ratings, in the transaction that ends it: the
/// caller has just changed the game's status to finished (its guard makes this run once per
/// game; the changes' primary key would refuse a second run anyway). A game that is rated,
/// between two accounts and not aborted changes both players' records in its pool (its game
/// and size band), computed by `rate_game` at `now_ms` (the server's clock, its second), and
/// stores both changes.
/// Anything else changes nothing.
pub(crate) async fn on_game_end(
    tx: &mut Transaction<'static, Any>,
    backend: Backend,
    game_id: &str,
    finish: Finish,
    now_ms: i64,
) -> anyhow::Result<()> {
    if finish.termination == Termination::Aborted {
        return Ok(());
    }
    let rows = sqlx::query(
        "SELECT g.game, g.size, g.rated, s.seat, s.account_id FROM games g \
         JOIN seats s ON s.game_id = g.id WHERE g.id = $1 ORDER BY s.seat",
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut accounts = Vec::with_capacity(2);
    for row in &rows {
        if row.try_get::<i64, _>("rated")? == 0 {
            return Ok(());
        }
        match row.try_get::<Option<i64>, _>("account_id")? {
            Some(account) => accounts.push(account),
            // The AI's seat: never rated.
            None => return Ok(()),
        }
    }
    let [first, second] = accounts[..] else {
        return Ok(());
    };
    let pool = Pool::of_stored(
        &rows[0].try_get::<String, _>("game")?,
        rows[0].try_get("size")?,
    )?;
    let at = seconds(now_ms);
    let [first_record, second_record] =
        lock_records(tx, backend, pool, [first, second], at).await?;
    let (first_change, second_change) = rate_game(
        &first_record,
        &second_record,
        first_outcome(finish),
        at,
        &PARAMS,
    )
    .with_context(|| format!("rating game {game_id}"))?;
    for (seat, (account, change)) in [(first, &first_change), (second, &second_change)]
        .into_iter()
        .enumerate()
    {
        write_record(tx, account, pool, &change.after).await?;
        sqlx::query(
            "INSERT INTO rating_changes (game_id, seat, account_id, game, band, at_ms, \
             before_rating, before_rd, before_volatility, rating, rd, volatility) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(game_id)
        .bind(i64::try_from(seat)?)
        .bind(account)
        .bind(pool.game.as_str())
        .bind(pool.band.as_str())
        .bind(now_ms)
        .bind(change.before.rating)
        .bind(change.before.rd)
        .bind(change.before.volatility)
        .bind(change.after.glicko.rating)
        .bind(change.after.glicko.rd)
        .bind(change.after.glicko.volatility)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// The two players' records in `pool` at `at` (for one new to the pool, the prior of their
/// other bands, [`prior`], written as their record), each row locked until the commit on
/// PostgreSQL, so that two games ending at once for one player update it one after the
/// other (SQLite's write transaction holds the whole database). Rows are made and locked in
/// account order, so two such games never wait on each other in a cycle.
async fn lock_records(
    tx: &mut Transaction<'static, Any>,
    backend: Backend,
    pool: Pool,
    accounts: [i64; 2],
    at: i64,
) -> anyhow::Result<[PlayerRating; 2]> {
    let lock = match backend {
        Backend::Postgres => " FOR UPDATE",
        Backend::Sqlite => "",
    };
    let mut ordered = accounts;
    ordered.sort_unstable();
    let mut records = [PlayerRating::new(&PARAMS); 2];
    for account in ordered {
        let others = sqlx::query(
            "SELECT band, rating, rd, volatility, games, last_game_ms FROM ratings \
             WHERE account_id = $1 AND game = $2",
        )
        .bind(account)
        .bind(pool.game.as_str())
        .fetch_all(&mut **tx)
        .await?;
        let start = record_in(&others, pool.band, at)?;
        sqlx::query(
            "INSERT INTO ratings (account_id, game, band, rating, rd, volatility, games) \
             VALUES ($1, $2, $3, $4, $5, $6, 0) ON CONFLICT (account_id, game, band) DO NOTHING",
        )
        .bind(account)
        .bind(pool.game.as_str())
        .bind(pool.band.as_str())
        .bind(start.glicko.rating)
        .bind(start.glicko.rd)
        .bind(start.glicko.volatility)
        .execute(&mut **tx)
        .await?;
        let row = sqlx::query(&format!(
            "SELECT rating, rd, volatility, games, last_game_ms FROM ratings \
             WHERE account_id = $1 AND game = $2 AND band = $3{lock}"
        ))
        .bind(account)
        .bind(pool.game.as_str())
        .bind(pool.band.as_str())
        .fetch_one(&mut **tx)
        .await?;
        let record = record_of(&row)?;
        for (slot, &player) in records.iter_mut().zip(&accounts) {
            if player == account {
                *slot = record;
            }
        }
    }
    Ok(records)
}

impl Store {
    /// The account's records, by game and band.
    pub(crate) async fn ratings_of(&self, account_id: i64) -> anyhow::Result<Records> {
        let rows = sqlx::query(
            "SELECT game, band, rating, rd, volatility, games, last_game_ms FROM ratings \
             WHERE account_id = $1 AND games > 0",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok(((row.try_get("game")?, band_of(row)?), record_of(row)?)))
            .collect()
    }

    /// The players a club's list shows: accounts that are neither guests nor banned and have
    /// finished a game, the most recently active first (then by name), at most `limit`:
    /// name, whether a bot, finished games, and when the last one changed.
    pub(crate) async fn players(
        &self,
        limit: i64,
    ) -> anyhow::Result<Vec<(String, bool, i64, i64)>> {
        let rows = sqlx::query(
            "SELECT a.name, a.bot, COUNT(*) AS games, MAX(g.updated_ms) AS last_ms \
             FROM accounts a JOIN seats s ON s.account_id = a.id \
             JOIN games g ON g.id = s.game_id AND g.status = 'finished' \
             WHERE a.guest_ms IS NULL AND a.banned_ms IS NULL \
             GROUP BY a.id, a.name, a.bot ORDER BY last_ms DESC, a.name LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("name")?,
                    row.try_get::<i64, _>("bot")? != 0,
                    row.try_get("games")?,
                    row.try_get("last_ms")?,
                ))
            })
            .collect()
    }

    /// The account's history in `pool`, oldest first: at most the latest [`HISTORY_LIMIT`]
    /// points.
    pub(crate) async fn rating_history(
        &self,
        account_id: i64,
        pool: Pool,
    ) -> anyhow::Result<Vec<HistoryPoint>> {
        let rows = sqlx::query(
            "SELECT at_ms, game_id, rating, rd, volatility FROM rating_changes \
             WHERE account_id = $1 AND game = $2 AND band = $3 \
             ORDER BY at_ms DESC, game_id DESC LIMIT $4",
        )
        .bind(account_id)
        .bind(pool.game.as_str())
        .bind(pool.band.as_str())
        .bind(i64::from(HISTORY_LIMIT))
        .fetch_all(&self.pool)
        .await?;
        let mut points = rows
            .iter()
            .map(|row| {
                Ok(HistoryPoint {
                    at_ms: row.try_get("at_ms")?,
                    game_id: row.try_get("game_id")?,
                    rating: glicko_of(row, "")?,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        points.reverse();
        Ok(points)
    }

    /// Two accounts' records in `pool` now, in the order given (for one who has not played a
    /// rated game there, the prior of their other bands, [`prior`]): what the view of the
    /// rated game `game_id` shows while it waits or is played, in one read of the ratings'
    /// primary key, then
    /// kept for [`RECORDS_TTL`] (a new game, a rematch too, reads them afresh, and so does a
    /// challenge once its opponent joins).
    pub(crate) async fn pool_records(
        &self,
        game_id: &str,
        pool: Pool,
        accounts: [i64; 2],
    ) -> anyhow::Result<[PlayerRating; 2]> {
        let now = self.now_ms();
        let key = (game_id.to_owned(), accounts);
        if let Some((records, until)) = self.caches.records.get(&key)
            && now < until
        {
            return Ok(records);
        }
        let rows = sqlx::query(
            "SELECT account_id, band, rating, rd, volatility, games, last_game_ms FROM ratings \
             WHERE game = $1 AND account_id IN ($2, $3)",
        )
        .bind(pool.game.as_str())
        .bind(accounts[0])
        .bind(accounts[1])
        .fetch_all(&self.pool)
        .await?;
        let mut records = [PlayerRating::new(&PARAMS); 2];
        for (slot, &player) in records.iter_mut().zip(&accounts) {
            let mine = rows
                .iter()
                .filter(|row| row.try_get::<i64, _>("account_id").ok() == Some(player));
            *slot = record_in(mine, pool.band, seconds(now))?;
        }
        let until = now.saturating_add(i64::try_from(RECORDS_TTL.as_millis()).unwrap_or(i64::MAX));
        self.caches.records.insert(key, (records, until));
        Ok(records)
    }

    /// The changes a rated game made, by seat (none for a game not rated).
    pub(crate) async fn rating_changes(&self, game_id: &str) -> anyhow::Result<Vec<StoredChange>> {
        let rows = sqlx::query(
            "SELECT seat, before_rating, before_rd, before_volatility, rating, rd, volatility \
             FROM rating_changes WHERE game_id = $1 ORDER BY seat",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let seat: i64 = row.try_get("seat")?;
                Ok(StoredChange {
                    seat: u8::try_from(seat)?,
                    before: glicko_of(row, "before_")?,
                    after: glicko_of(row, "")?,
                })
            })
            .collect()
    }

    /// The leaderboard of `pool` at `now_ms`, of bots (`bots`) or of people: the widest RD it
    /// admits (`Params::leaderboard_rd_for` the players of that kind with a rated game in the
    /// pool within the leaderboard's days, the second number given back) and its top `limit`
    /// among the players it admits (`PlayerRating::on_leaderboard`), best first, with their
    /// names and whether each is a bot (a banned account is neither counted nor listed). The
    /// query walks the pool's index from the top rating down and reads only the rows whose
    /// stored RD and last game could qualify (RD only grows with time), a page at a time,
    /// until `limit` qualify.
    pub(crate) async fn leaderboard(
        &self,
        pool: Pool,
        bots: bool,
        now_ms: i64,
        limit: usize,
    ) -> anyhow::Result<Leaderboard> {
        const PAGE: i64 = 200;
        // A second's slack: the league counts whole seconds.
        let window_ms = (PARAMS.leaderboard_days * 86_400_000.0) as i64 + 1000;
        let since_ms = now_ms.saturating_sub(window_ms);
        let active: i64 = sqlx::query(
            "SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.game = $1 AND r.band = $2 AND r.last_game_ms >= $3 AND a.bot = $4 \
             AND a.banned_ms IS NULL",
        )
        .bind(pool.game.as_str())
        .bind(pool.band.as_str())
        .bind(since_ms)
        .bind(i64::from(bots))
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?;
        let active = usize::try_from(active)?;
        let params = Params {
            leaderboard_rd: PARAMS.leaderboard_rd_for(active),
            ..PARAMS
        };
        let mut listed = Vec::new();
        let mut offset = 0;
        loop {
            let rows = sqlx::query(
                "SELECT a.name, a.bot, r.rating, r.rd, r.volatility, r.games, r.last_game_ms \
                 FROM ratings r JOIN accounts a ON a.id = r.account_id \
                 WHERE r.game = $1 AND r.band = $2 AND r.rd <= $3 AND r.last_game_ms >= $4 \
                 AND a.bot = $5 AND a.banned_ms IS NULL \
                 ORDER BY r.rating DESC, r.account_id LIMIT $6 OFFSET $7",
            )
            .bind(pool.game.as_str())
            .bind(pool.band.as_str())
            .bind(params.leaderboard_rd)
            .bind(since_ms)
            .bind(i64::from(bots))
            .bind(PAGE)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?;
            for row in &rows {
                let record = record_of(row)?;
                if record.on_leaderboard(seconds(now_ms), &params)? {
                    let bot = row.try_get::<i64, _>("bot")? != 0;
                    listed.push((row.try_get("name")?, bot, record));
                    if listed.len() == limit {
                        break;
                    }
                }
            }
            if listed.len() == limit || i64::try_from(rows.len())? < PAGE {
                return Ok(Leaderboard {
                    active,
                    max_rd: params.leaderboard_rd,
                    players: listed,
                });
            }
            offset += PAGE;
        }
    }

    /// `swapboard admin rerate`: replays every rated game in the order the games ended (then
    /// by id), each game's bands from new players (a player's first game in a band from the
    /// prior of their other bands, as live), through the same `rate_game` as the live
    /// updates, and rewrites every record and every game's changes (with its band) in one
    /// transaction. A game on a board proved from the start (`GameId::proven`; rated before
    /// issue 49) is unrated instead: its changes are deleted. The number of games replayed.
    pub async fn rerate(&self) -> anyhow::Result<usize> {
        let mut tx = self.begin_write().await?;
        let rows = sqlx::query(
            "SELECT c.game_id, c.game, g.size, c.at_ms, c.account_id AS first, \
             d.account_id AS second, g.winner_seat, g.termination FROM rating_changes c \
             JOIN rating_changes d ON d.game_id = c.game_id AND d.seat = 1 \
             JOIN games g ON g.id = c.game_id \
             WHERE c.seat = 0 ORDER BY c.at_ms, c.game_id",
        )
        .fetch_all(&mut *tx)
        .await?;
        type Family = (Vec<String>, Vec<RatedGame<i64, Band>>);
        let mut families: BTreeMap<GameId, Family> = BTreeMap::new();
        let mut proven: Vec<String> = Vec::new();
        for row in &rows {
            let id: String = row.try_get("game_id")?;
            let size: i64 = row.try_get("size")?;
            let pool = Pool::of_stored(&row.try_get::<String, _>("game")?, size)?;
            if pool.game.proven(usize::try_from(size)?) {
                proven.push(id);
                continue;
            }
            let winner: Option<i64> = row.try_get("winner_seat")?;
            let termination: String = row.try_get("termination")?;
            let finish = Finish {
                winner_seat: winner.map(u8::try_from).transpose()?,
                termination: termination
                    .parse()
                    .map_err(|e: String| anyhow::anyhow!("games.termination: {e}"))?,
            };
            let (ids, games) = families.entry(pool.game).or_default();
            ids.push(id);
            games.push(RatedGame {
                band: pool.band,
                at: seconds(row.try_get("at_ms")?),
                first: row.try_get("first")?,
                second: row.try_get("second")?,
                first_outcome: first_outcome(finish),
            });
        }
        for id in &proven {
            sqlx::query("UPDATE games SET rated = 0 WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM rating_changes WHERE game_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("DELETE FROM ratings").execute(&mut *tx).await?;
        for (game, (ids, games)) in &families {
            let replayed = rerate(games, &PARAMS).with_context(|| format!("rerating {game}"))?;
            for (account, bands) in &replayed.players {
                for (band, record) in bands {
                    sqlx::query(
                        "INSERT INTO ratings (account_id, game, band, rating, rd, volatility, \
                         games, last_game_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    )
                    .bind(*account)
                    .bind(game.as_str())
                    .bind(band.as_str())
                    .bind(record.glicko.rating)
                    .bind(record.glicko.rd)
                    .bind(record.glicko.volatility)
                    .bind(i64::from(record.games))
                    .bind(record.last_game_at.map(|at| at * 1000))
                    .execute(&mut *tx)
                    .await?;
                }
            }
            for ((id, game), (first, second)) in ids.iter().zip(games).zip(&replayed.games) {
                for (seat, change) in [(0i64, first), (1, second)] {
                    rewrite_change(&mut tx, id, seat, game.band, change).await?;
                }
            }
        }
        tx.commit().await?;
        self.caches.records.clear();
        Ok(rows.len() - proven.len())
    }

    /// After migration 0029 (rating pools by size band), when a rated game's change has no
    /// band yet: [`Store::rerate`], which places every rated game in its band (and unrates
    /// those on proven boards). Nothing otherwise: one look in a partial index (of the
    /// changes without a band, empty once placed) when the server opens.
    pub(super) async fn place_in_bands(&self) -> anyhow::Result<()> {
        let unplaced = sqlx::query("SELECT 1 FROM rating_changes WHERE band IS NULL LIMIT 1")
            .fetch_optional(&self.pool)
            .await?
            .is_some();
        if unplaced {
            let games = self.rerate().await?;
            tracing::info!(games, "the rated games were placed in their size bands");
        }
        Ok(())
    }
}

/// Rewrites one player's stored change of a game with a replay's, in its band.
async fn rewrite_change(
    tx: &mut Transaction<'static, Any>,
    game_id: &str,
    seat: i64,
    band: Band,
    change: &Change,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE rating_changes SET before_rating = $1, before_rd = $2, before_volatility = $3, \
         rating = $4, rd = $5, volatility = $6, band = $7 WHERE game_id = $8 AND seat = $9",
    )
    .bind(change.before.rating)
    .bind(change.before.rd)
    .bind(change.before.volatility)
    .bind(change.after.glicko.rating)
    .bind(change.after.glicko.rd)
    .bind(change.after.glicko.volatility)
    .bind(band.as_str())
    .bind(game_id)
    .bind(seat)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
