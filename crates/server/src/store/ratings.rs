//! The ratings' storage (issue 26): each account's Glicko-2 record per game, and each rated
//! game's changes, which are the game view's "before and change" and the players' histories.
//!
//! The numbers are `swapboard_league`'s: [`on_game_end`] runs in the transaction that ends a
//! game, so a rating changes exactly when, and exactly once, the game's end is committed.
//! [`Store::rerate`] replays the rated games through the same `rate_game`.

use std::collections::BTreeMap;

use anyhow::Context as _;
use sqlx::any::AnyRow;
use sqlx::{Any, Row as _, Transaction};
use swapboard_league::glicko2::{Change, Glicko2, Outcome, Params, PlayerRating, rate_game};
use swapboard_league::rerate::{RatedGame, rerate};

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

/// An account's record in one pool, by the pool's game name.
pub(crate) type Records = BTreeMap<String, PlayerRating>;

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

/// Writes `rating` as the account's record in `game`'s pool (which exists).
async fn write_record(
    tx: &mut Transaction<'static, Any>,
    account_id: i64,
    game: &str,
    rating: &PlayerRating,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4, \
         last_game_ms = $5 WHERE account_id = $6 AND game = $7",
    )
    .bind(rating.glicko.rating)
    .bind(rating.glicko.rd)
    .bind(rating.glicko.volatility)
    .bind(i64::from(rating.games))
    .bind(rating.last_game_at.map(|at| at * 1000))
    .bind(account_id)
    .bind(game)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The side effect of a game's end on the ratings, in the transaction that ends it: the
/// caller has just changed the game's status to finished (its guard makes this run once per
/// game; the changes' primary key would refuse a second run anyway). A game that is rated,
/// between two accounts and not aborted changes both players' records in its pool, computed
/// by `rate_game` at `now_ms` (the server's clock, its second), and stores both changes.
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
        "SELECT g.game, g.rated, s.seat, s.account_id FROM games g \
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
    let game: String = rows[0].try_get("game")?;
    let [first_record, second_record] = lock_records(tx, backend, &game, [first, second]).await?;
    let at = seconds(now_ms);
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
        write_record(tx, account, &game, &change.after).await?;
        sqlx::query(
            "INSERT INTO rating_changes (game_id, seat, account_id, game, at_ms, \
             before_rating, before_rd, before_volatility, rating, rd, volatility) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(game_id)
        .bind(i64::try_from(seat)?)
        .bind(account)
        .bind(&game)
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

/// The two players' records in `game`'s pool (a new player's if none), each row locked
/// until the commit on PostgreSQL, so that two games ending at once for one player update
/// it one after the other (SQLite's write transaction holds the whole database). Rows are
/// made and locked in account order, so two such games never wait on each other in a cycle.
async fn lock_records(
    tx: &mut Transaction<'static, Any>,
    backend: Backend,
    game: &str,
    accounts: [i64; 2],
) -> anyhow::Result<[PlayerRating; 2]> {
    let lock = match backend {
        Backend::Postgres => " FOR UPDATE",
        Backend::Sqlite => "",
    };
    let new = PlayerRating::new(&PARAMS);
    let mut ordered = accounts;
    ordered.sort_unstable();
    let mut records = [new; 2];
    for account in ordered {
        sqlx::query(
            "INSERT INTO ratings (account_id, game, rating, rd, volatility, games) \
             VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (account_id, game) DO NOTHING",
        )
        .bind(account)
        .bind(game)
        .bind(new.glicko.rating)
        .bind(new.glicko.rd)
        .bind(new.glicko.volatility)
        .execute(&mut **tx)
        .await?;
        let row = sqlx::query(&format!(
            "SELECT rating, rd, volatility, games, last_game_ms FROM ratings \
             WHERE account_id = $1 AND game = $2{lock}"
        ))
        .bind(account)
        .bind(game)
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
    /// The account's records, by game.
    pub(crate) async fn ratings_of(&self, account_id: i64) -> anyhow::Result<Records> {
        let rows = sqlx::query(
            "SELECT game, rating, rd, volatility, games, last_game_ms FROM ratings \
             WHERE account_id = $1 AND games > 0",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("game")?, record_of(row)?)))
            .collect()
    }

    /// The account's history in `game`'s pool, oldest first: at most the latest
    /// [`HISTORY_LIMIT`] points.
    pub(crate) async fn rating_history(
        &self,
        account_id: i64,
        game: &str,
    ) -> anyhow::Result<Vec<HistoryPoint>> {
        let rows = sqlx::query(
            "SELECT at_ms, game_id, rating, rd, volatility FROM rating_changes \
             WHERE account_id = $1 AND game = $2 ORDER BY at_ms DESC, game_id DESC LIMIT $3",
        )
        .bind(account_id)
        .bind(game)
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

    /// Two accounts' records in `game`'s pool, in the order given (a new player's for one
    /// who has not played a rated game there): what the view of the rated game `game_id`
    /// shows while it waits or is played, in one read of the ratings' primary key, then
    /// kept for [`RECORDS_TTL`] (a new game, a rematch too, reads them afresh, and so does a
    /// challenge once its opponent joins).
    pub(crate) async fn pool_records(
        &self,
        game_id: &str,
        game: &str,
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
            "SELECT account_id, rating, rd, volatility, games, last_game_ms FROM ratings \
             WHERE game = $1 AND account_id IN ($2, $3)",
        )
        .bind(game)
        .bind(accounts[0])
        .bind(accounts[1])
        .fetch_all(&self.pool)
        .await?;
        let mut records = [PlayerRating::new(&PARAMS); 2];
        for row in &rows {
            let account: i64 = row.try_get("account_id")?;
            let record = record_of(row)?;
            for (slot, &player) in records.iter_mut().zip(&accounts) {
                if player == account {
                    *slot = record;
                }
            }
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

    /// The top `limit` of `game`'s pool at `now_ms` among the players the leaderboard admits
    /// (`PlayerRating::on_leaderboard`), best first, with their names and whether each is a bot (a banned account is left out). The query walks the
    /// pool's index from the top rating down and reads only the rows whose stored RD and last
    /// game could qualify (RD only grows with time), a page at a time, until `limit` qualify.
    pub(crate) async fn leaderboard(
        &self,
        game: &str,
        now_ms: i64,
        limit: usize,
    ) -> anyhow::Result<Vec<(String, bool, PlayerRating)>> {
        const PAGE: i64 = 200;
        // A second's slack: the league counts whole seconds.
        let window_ms = (PARAMS.leaderboard_days * 86_400_000.0) as i64 + 1000;
        let since_ms = now_ms.saturating_sub(window_ms);
        let mut listed = Vec::new();
        let mut offset = 0;
        loop {
            let rows = sqlx::query(
                "SELECT a.name, a.bot, r.rating, r.rd, r.volatility, r.games, r.last_game_ms \
                 FROM ratings r JOIN accounts a ON a.id = r.account_id \
                 WHERE r.game = $1 AND r.rd <= $2 AND r.last_game_ms >= $3 \
                 AND a.banned_ms IS NULL \
                 ORDER BY r.rating DESC, r.account_id LIMIT $4 OFFSET $5",
            )
            .bind(game)
            .bind(PARAMS.leaderboard_rd)
            .bind(since_ms)
            .bind(PAGE)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?;
            for row in &rows {
                let record = record_of(row)?;
                if record.on_leaderboard(seconds(now_ms), &PARAMS)? {
                    let bot = row.try_get::<i64, _>("bot")? != 0;
                    listed.push((row.try_get("name")?, bot, record));
                    if listed.len() == limit {
                        return Ok(listed);
                    }
                }
            }
            if i64::try_from(rows.len())? < PAGE {
                return Ok(listed);
            }
            offset += PAGE;
        }
    }

    /// `swapboard admin rerate`: replays every rated game in the order the games ended (then
    /// by id), each pool from new players, through the same `rate_game` as the live updates,
    /// and rewrites every record and every game's changes in one transaction. The number of
    /// games replayed.
    pub async fn rerate(&self) -> anyhow::Result<usize> {
        let mut tx = self.begin_write().await?;
        let rows = sqlx::query(
            "SELECT c.game_id, c.game, c.at_ms, c.account_id AS first, d.account_id AS second, \
             g.winner_seat, g.termination FROM rating_changes c \
             JOIN rating_changes d ON d.game_id = c.game_id AND d.seat = 1 \
             JOIN games g ON g.id = c.game_id \
             WHERE c.seat = 0 ORDER BY c.at_ms, c.game_id",
        )
        .fetch_all(&mut *tx)
        .await?;
        let mut pools: BTreeMap<String, (Vec<String>, Vec<RatedGame<i64>>)> = BTreeMap::new();
        for row in &rows {
            let winner: Option<i64> = row.try_get("winner_seat")?;
            let termination: String = row.try_get("termination")?;
            let finish = Finish {
                winner_seat: winner.map(u8::try_from).transpose()?,
                termination: termination
                    .parse()
                    .map_err(|e: String| anyhow::anyhow!("games.termination: {e}"))?,
            };
            let (ids, games) = pools.entry(row.try_get("game")?).or_default();
            ids.push(row.try_get("game_id")?);
            games.push(RatedGame {
                at: seconds(row.try_get("at_ms")?),
                first: row.try_get("first")?,
                second: row.try_get("second")?,
                first_outcome: first_outcome(finish),
            });
        }
        sqlx::query("DELETE FROM ratings").execute(&mut *tx).await?;
        for (game, (ids, games)) in &pools {
            let replayed = rerate(games, &PARAMS).with_context(|| format!("rerating {game}"))?;
            for (account, record) in &replayed.players {
                sqlx::query(
                    "INSERT INTO ratings (account_id, game, rating, rd, volatility, games, \
                     last_game_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(*account)
                .bind(game)
                .bind(record.glicko.rating)
                .bind(record.glicko.rd)
                .bind(record.glicko.volatility)
                .bind(i64::from(record.games))
                .bind(record.last_game_at.map(|at| at * 1000))
                .execute(&mut *tx)
                .await?;
            }
            for (id, (first, second)) in ids.iter().zip(&replayed.games) {
                for (seat, change) in [(0i64, first), (1, second)] {
                    rewrite_change(&mut tx, id, seat, change).await?;
                }
            }
        }
        tx.commit().await?;
        self.caches.records.clear();
        Ok(rows.len())
    }
}

/// Rewrites one player's stored change of a game with a replay's.
async fn rewrite_change(
    tx: &mut Transaction<'static, Any>,
    game_id: &str,
    seat: i64,
    change: &Change,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE rating_changes SET before_rating = $1, before_rd = $2, before_volatility = $3, \
         rating = $4, rd = $5, volatility = $6 WHERE game_id = $7 AND seat = $8",
    )
    .bind(change.before.rating)
    .bind(change.before.rd)
    .bind(change.before.volatility)
    .bind(change.after.glicko.rating)
    .bind(change.after.glicko.rd)
    .bind(change.after.glicko.volatility)
    .bind(game_id)
    .bind(seat)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
