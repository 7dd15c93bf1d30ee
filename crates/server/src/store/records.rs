//! A player's record (issue 26): games played, won, lost and drawn in each game, against
//! everyone or one opponent (head-to-head); a player's games filtered by status, game,
//! result, rating and opponent; and the Swap 61 rooms a player sat in. Each is one query that
//! starts from the seats' index on the account (`seats_by_account`, `room_seats_by_account`).
//!
//! A game counts in a record once it is finished and was not called off (an aborted or
//! annulled game has no result); a draw is a finished game with no winner.

use std::collections::BTreeMap;

use sqlx::Row as _;

use crate::api::RecordView;

use super::games::{Status, StoredGame, game_of_row, prefixed_game_columns};
use super::pool::Store;

/// What a finished game was for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The player won.
    Won,
    /// The other player won.
    Lost,
    /// Nobody won (the game was not called off).
    Drawn,
}

/// Which of a player's games a list shows; `None` lets every game through.
#[derive(Clone, Debug, Default)]
pub(crate) struct GameFilter {
    /// Waiting, playing or finished.
    pub(crate) status: Option<Status>,
    /// The game's name (`swaptimum`, ...).
    pub(crate) game: Option<String>,
    /// What the game was for the player (finished games only).
    pub(crate) outcome: Option<Outcome>,
    /// Rated or not.
    pub(crate) rated: Option<bool>,
    /// The account in the other seat.
    pub(crate) opponent: Option<i64>,
}

/// A Swap 61 room a player sat in.
#[derive(Clone, Debug)]
pub(crate) struct RoomPlayed {
    /// The room's id.
    pub(crate) id: String,
    /// `lobby`, `playing` or `finished`.
    pub(crate) status: String,
    /// Its seats (9 or 10).
    pub(crate) seats: u8,
    /// The open round (6 once over).
    pub(crate) round: u8,
    /// Its game master's name.
    pub(crate) master: String,
    /// The player's seat.
    pub(crate) seat: u8,
    /// When it was made, in ms since the Unix epoch.
    pub(crate) created_ms: i64,
    /// When an administrator closed it, if one did.
    pub(crate) closed_ms: Option<i64>,
    /// The player's final rank among the rated seats, once the room rated them.
    pub(crate) rank: Option<u32>,
}

/// The condition on a seat `s` of a game `g` for each outcome, from that seat's side.
fn outcome_condition(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Won => "g.status = 'finished' AND g.winner_seat = s.seat",
        Outcome::Lost => "g.status = 'finished' AND g.winner_seat <> s.seat",
        Outcome::Drawn => {
            "g.status = 'finished' AND g.winner_seat IS NULL AND g.termination <> 'aborted'"
        }
    }
}

/// A game's other seat held by the account bound as `$n`.
fn opponent_condition(n: usize) -> String {
    format!(
        "EXISTS (SELECT 1 FROM seats o WHERE o.game_id = g.id AND o.seat <> s.seat \
         AND o.account_id = ${n})"
    )
}

impl Store {
    /// The account's record in each game it finished one in, by game name; against
    /// `opponent` only when given (head-to-head).
    pub(crate) async fn record_of(
        &self,
        account_id: i64,
        opponent: Option<i64>,
    ) -> anyhow::Result<BTreeMap<String, RecordView>> {
        let against = match opponent {
            Some(_) => format!(" AND {}", opponent_condition(2)),
            None => String::new(),
        };
        let sql = format!(
            "SELECT g.game, \
               SUM(CASE WHEN g.winner_seat = s.seat THEN 1 ELSE 0 END) AS won, \
               SUM(CASE WHEN g.winner_seat <> s.seat THEN 1 ELSE 0 END) AS lost, \
               SUM(CASE WHEN g.winner_seat IS NULL THEN 1 ELSE 0 END) AS drawn \
             FROM seats s JOIN games g ON g.id = s.game_id \
             WHERE s.account_id = $1 AND g.status = 'finished' \
               AND g.termination <> 'aborted'{against} \
             GROUP BY g.game"
        );
        let mut query = sqlx::query(&sql).bind(account_id);
        if let Some(opponent) = opponent {
            query = query.bind(opponent);
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut records = BTreeMap::new();
        for row in rows {
            let count = |column: &str| -> anyhow::Result<u32> {
                Ok(u32::try_from(row.try_get::<i64, _>(column)?)?)
            };
            let (won, lost, drawn) = (count("won")?, count("lost")?, count("drawn")?);
            records.insert(
                row.try_get("game")?,
                RecordView {
                    played: won + lost + drawn,
                    won,
                    lost,
                    drawn,
                },
            );
        }
        Ok(records)
    }

    /// The account's games that pass `filter`, the most recently changed first, at most
    /// `limit`.
    pub(crate) async fn filtered_games(
        &self,
        account_id: i64,
        filter: &GameFilter,
        limit: u32,
    ) -> anyhow::Result<Vec<StoredGame>> {
        // Each present filter adds its clause and takes the next placeholder.
        let mut clauses = vec!["s.account_id = $1".to_owned()];
        let mut next = 2;
        let mut placeholder = || {
            let n = next;
            next += 1;
            n
        };
        if filter.status.is_some() {
            clauses.push(format!("g.status = ${}", placeholder()));
        }
        if filter.game.is_some() {
            clauses.push(format!("g.game = ${}", placeholder()));
        }
        if filter.rated.is_some() {
            clauses.push(format!("g.rated = ${}", placeholder()));
        }
        if filter.opponent.is_some() {
            clauses.push(opponent_condition(placeholder()));
        }
        if let Some(outcome) = filter.outcome {
            clauses.push(outcome_condition(outcome).to_owned());
        }
        let limit_at = placeholder();
        let sql = format!(
            "SELECT {} FROM games g JOIN seats s ON s.game_id = g.id WHERE {} \
             ORDER BY g.updated_ms DESC, g.id LIMIT ${limit_at}",
            prefixed_game_columns(),
            clauses.join(" AND "),
        );
        let mut query = sqlx::query(&sql).bind(account_id);
        if let Some(status) = filter.status {
            query = query.bind(status.as_str());
        }
        if let Some(game) = &filter.game {
            query = query.bind(game.as_str());
        }
        if let Some(rated) = filter.rated {
            query = query.bind(i64::from(rated));
        }
        if let Some(opponent) = filter.opponent {
            query = query.bind(opponent);
        }
        let rows = query.bind(i64::from(limit)).fetch_all(&self.pool).await?;
        rows.iter().map(game_of_row).collect()
    }

    /// The Swap 61 rooms the account sat in (not those it only ran), the newest first, at
    /// most `limit`, each with its rank among the rated seats once it rated them.
    pub(crate) async fn rooms_played(
        &self,
        account_id: i64,
        limit: u32,
    ) -> anyhow::Result<Vec<RoomPlayed>> {
        let rows = sqlx::query(
            "SELECT r.id, r.status, r.seats, r.round, r.created_ms, r.closed_ms, \
                    m.name AS master, rs.seat, c.rank \
             FROM room_seats rs JOIN rooms r ON r.id = rs.room_id \
             JOIN accounts m ON m.id = r.master_id \
             LEFT JOIN room_skill_changes c \
               ON c.room_id = rs.room_id AND c.account_id = rs.account_id \
             WHERE rs.account_id = $1 \
             ORDER BY r.created_ms DESC, r.id DESC LIMIT $2",
        )
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(RoomPlayed {
                    id: row.try_get("id")?,
                    status: row.try_get("status")?,
                    seats: u8::try_from(row.try_get::<i64, _>("seats")?)?,
                    round: u8::try_from(row.try_get::<i64, _>("round")?)?,
                    master: row.try_get("master")?,
                    seat: u8::try_from(row.try_get::<i64, _>("seat")?)?,
                    created_ms: row.try_get("created_ms")?,
                    closed_ms: row.try_get("closed_ms")?,
                    rank: row
                        .try_get::<Option<i64>, _>("rank")?
                        .map(u32::try_from)
                        .transpose()?,
                })
            })
            .collect()
    }
}
