//! Swap 61 ratings' storage (issue 26): each account's Weng-Lin skill, and each finished
//! room's changes, which are the players' histories.
//!
//! The numbers are `swapboard_league::multiplayer`'s: [`on_room_end`] runs in the transaction
//! that resolves a room's last round, so a room changes its players' skills exactly when,
//! and exactly once, its end is committed. Only the seats accounts sit in are rated (a bot's
//! or a vacant seat is not a player), ranked among themselves by the final totals; a room
//! with fewer than two of them rates nobody. [`Store::rerate_rooms`] replays the rated rooms
//! through the same `rate_room`.

use std::collections::BTreeMap;

use sqlx::{Any, Row as _, Transaction};
use swapboard_league::multiplayer::{Skill, rate_room};
use swapboard_league::rerate::rerate_rooms;

use super::pool::Store;

/// An account's Swap 61 skill after its last rated room.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RoomSkill {
    /// Weng-Lin's rating and uncertainty.
    pub(crate) skill: Skill,
    /// Rated rooms played.
    pub(crate) rooms: u32,
}

/// One point of a player's Swap 61 history: the skill after a rated room.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RoomSkillPoint {
    /// When the room finished, in ms since the Unix epoch.
    pub(crate) at_ms: i64,
    /// The room.
    pub(crate) room_id: String,
    /// The player's rank among the room's rated seats (1 is first).
    pub(crate) rank: u32,
    /// The skill after it.
    pub(crate) after: Skill,
}

/// Ranks among the rated seats: 1 plus the number of rated seats with a higher total, so
/// tied seats share a rank (1, 2, 2, 4), as the room's standings do.
fn ranks_among(totals: &[u32]) -> Vec<usize> {
    totals
        .iter()
        .map(|mine| 1 + totals.iter().filter(|other| *other > mine).count())
        .collect()
}

/// Each seat's total over a room's resolved rounds (seat 1 first), read in `tx`.
async fn totals_in(
    tx: &mut Transaction<'static, Any>,
    room_id: &str,
) -> anyhow::Result<BTreeMap<u8, u32>> {
    let rows = sqlx::query("SELECT scores FROM room_rounds WHERE room_id = $1")
        .bind(room_id)
        .fetch_all(&mut **tx)
        .await?;
    let mut totals = BTreeMap::new();
    for row in rows {
        let Some(text) = row.try_get::<Option<String>, _>("scores")? else {
            continue;
        };
        let scores: Vec<u32> = serde_json::from_str(&text)?;
        for (seat, score) in (1u8..).zip(scores) {
            *totals.entry(seat).or_insert(0) += score;
        }
    }
    Ok(totals)
}

fn skill_of(row: &sqlx::any::AnyRow, mu: &str, sigma: &str) -> sqlx::Result<Skill> {
    Ok(Skill {
        rating: row.try_get(mu)?,
        uncertainty: row.try_get(sigma)?,
    })
}

/// An account's skill as stored, read through `executor` (the pool, or the transaction that
/// rates a room, which must read what it is about to change).
async fn skill_in<'e>(
    executor: impl sqlx::Executor<'e, Database = Any>,
    account_id: i64,
) -> anyhow::Result<Option<RoomSkill>> {
    let row = sqlx::query("SELECT mu, sigma, rooms FROM room_skills WHERE account_id = $1")
        .bind(account_id)
        .fetch_optional(executor)
        .await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(RoomSkill {
        skill: skill_of(&row, "mu", "sigma")?,
        rooms: u32::try_from(row.try_get::<i64, _>("rooms")?)?,
    }))
}

/// The side effect of a room's end on the Swap 61 ratings, in the transaction that resolves
/// its last round (the room's status guard makes this run once per room; the changes'
/// primary key would refuse a second run anyway).
pub(crate) async fn on_room_end(
    tx: &mut Transaction<'static, Any>,
    room_id: &str,
    now_ms: i64,
) -> anyhow::Result<()> {
    let seats = sqlx::query(
        "SELECT seat, account_id FROM room_seats WHERE room_id = $1 \
         AND account_id IS NOT NULL ORDER BY seat",
    )
    .bind(room_id)
    .fetch_all(&mut **tx)
    .await?;
    if seats.len() < 2 {
        return Ok(());
    }
    let totals = totals_in(tx, room_id).await?;
    let mut rated = Vec::with_capacity(seats.len());
    for row in &seats {
        let seat: i64 = row.try_get("seat")?;
        let seat = u8::try_from(seat)?;
        let account: i64 = row.try_get("account_id")?;
        let (before, rooms) = match skill_in(&mut **tx, account).await? {
            Some(known) => (known.skill, i64::from(known.rooms)),
            None => (Skill::default(), 0),
        };
        rated.push((
            seat,
            account,
            before,
            rooms,
            totals.get(&seat).copied().unwrap_or(0),
        ));
    }
    let ranks = ranks_among(&rated.iter().map(|r| r.4).collect::<Vec<_>>());
    let input: Vec<(Skill, usize)> = rated
        .iter()
        .zip(&ranks)
        .map(|(r, rank)| (r.2, *rank))
        .collect();
    let after = rate_room(&input)?;
    for (((seat, account, before, rooms, _), rank), new) in rated.iter().zip(&ranks).zip(&after) {
        sqlx::query(
            "INSERT INTO room_skill_changes (room_id, seat, account_id, rank, before_mu, \
             before_sigma, after_mu, after_sigma, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(room_id)
        .bind(i64::from(*seat))
        .bind(*account)
        .bind(i64::try_from(*rank)?)
        .bind(before.rating)
        .bind(before.uncertainty)
        .bind(new.rating)
        .bind(new.uncertainty)
        .bind(now_ms)
        .execute(&mut **tx)
        .await?;
        write_skill(tx, *account, new, rooms + 1, now_ms).await?;
    }
    Ok(())
}

/// Sets an account's skill (made on its first rated room).
async fn write_skill(
    tx: &mut Transaction<'static, Any>,
    account: i64,
    skill: &Skill,
    rooms: i64,
    at_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO room_skills (account_id, mu, sigma, rooms, last_room_ms) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id) DO UPDATE SET \
         mu = excluded.mu, sigma = excluded.sigma, rooms = excluded.rooms, \
         last_room_ms = excluded.last_room_ms",
    )
    .bind(account)
    .bind(skill.rating)
    .bind(skill.uncertainty)
    .bind(rooms)
    .bind(at_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A rated room as stored: its id, when it finished, its rated seats as (seat, account, rank).
type RatedRoom = (String, i64, Vec<(i64, i64, usize)>);

impl Store {
    /// An account's Swap 61 skill, if it played a rated room.
    pub(crate) async fn room_skill(&self, account_id: i64) -> anyhow::Result<Option<RoomSkill>> {
        skill_in(&self.pool, account_id).await
    }

    /// An account's Swap 61 history, oldest first (the latest `limit` points).
    pub(crate) async fn room_skill_history(
        &self,
        account_id: i64,
        limit: u32,
    ) -> anyhow::Result<Vec<RoomSkillPoint>> {
        let rows = sqlx::query(
            "SELECT room_id, rank, after_mu, after_sigma, at_ms \
             FROM room_skill_changes WHERE account_id = $1 \
             ORDER BY at_ms DESC, room_id DESC LIMIT $2",
        )
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut points = rows
            .iter()
            .map(|row| {
                Ok(RoomSkillPoint {
                    at_ms: row.try_get("at_ms")?,
                    room_id: row.try_get("room_id")?,
                    rank: u32::try_from(row.try_get::<i64, _>("rank")?)?,
                    after: skill_of(row, "after_mu", "after_sigma")?,
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        points.reverse();
        Ok(points)
    }

    /// The best `limit` Swap 61 people (or bots: `bots`) by conservative skill (mu - 3 sigma),
    /// with their names and whether each is a bot.
    pub(crate) async fn room_leaderboard(
        &self,
        bots: bool,
        limit: usize,
    ) -> anyhow::Result<Vec<(String, bool, RoomSkill)>> {
        let rows = sqlx::query(
            "SELECT a.name, a.bot, s.mu, s.sigma, s.rooms FROM room_skills s \
             JOIN accounts a ON a.id = s.account_id WHERE a.banned_ms IS NULL AND a.bot = $1 \
             ORDER BY s.mu - 3 * s.sigma DESC, a.name LIMIT $2",
        )
        .bind(i64::from(bots))
        .bind(i64::try_from(limit)?)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("name")?,
                    row.try_get::<i64, _>("bot")? != 0,
                    RoomSkill {
                        skill: skill_of(row, "mu", "sigma")?,
                        rooms: u32::try_from(row.try_get::<i64, _>("rooms")?)?,
                    },
                ))
            })
            .collect()
    }

    /// Replays every rated room in the order they finished, every player starting new, and
    /// rewrites every skill and change in one transaction (`swapboard admin rerate`): the
    /// numbers come out as the rooms made them, or as today's `rate_room` would have.
    /// Answers how many rooms were replayed.
    pub async fn rerate_rooms(&self) -> anyhow::Result<usize> {
        let mut tx = self.begin_write().await?;
        let rows = sqlx::query(
            "SELECT room_id, seat, account_id, rank, at_ms FROM room_skill_changes \
             ORDER BY at_ms, room_id, seat",
        )
        .fetch_all(&mut *tx)
        .await?;
        let mut rooms: Vec<RatedRoom> = Vec::new();
        for row in &rows {
            let room: String = row.try_get("room_id")?;
            let seat = (
                row.try_get::<i64, _>("seat")?,
                row.try_get::<i64, _>("account_id")?,
                usize::try_from(row.try_get::<i64, _>("rank")?)?,
            );
            match rooms.last_mut() {
                Some((id, _, seats)) if *id == room => seats.push(seat),
                _ => rooms.push((room, row.try_get("at_ms")?, vec![seat])),
            }
        }
        let replay: Vec<Vec<(i64, usize)>> = rooms
            .iter()
            .map(|(_, _, seats)| {
                seats
                    .iter()
                    .map(|&(_, account, rank)| (account, rank))
                    .collect()
            })
            .collect();
        let replayed = rerate_rooms(&replay)?;
        sqlx::query("DELETE FROM room_skills")
            .execute(&mut *tx)
            .await?;
        let mut so_far: BTreeMap<i64, (Skill, i64)> = BTreeMap::new();
        for ((room, at_ms, seats), after) in rooms.iter().zip(&replayed.rooms) {
            for (&(seat, account, _), new) in seats.iter().zip(after) {
                let (before, played) = so_far.get(&account).copied().unwrap_or_default();
                sqlx::query(
                    "UPDATE room_skill_changes SET before_mu = $1, before_sigma = $2, \
                     after_mu = $3, after_sigma = $4 WHERE room_id = $5 AND seat = $6",
                )
                .bind(before.rating)
                .bind(before.uncertainty)
                .bind(new.rating)
                .bind(new.uncertainty)
                .bind(room)
                .bind(seat)
                .execute(&mut *tx)
                .await?;
                so_far.insert(account, (*new, played + 1));
                write_skill(&mut tx, account, new, played + 1, *at_ms).await?;
            }
        }
        tx.commit().await?;
        Ok(rooms.len())
    }
}

#[cfg(test)]
mod tests {
    use super::ranks_among;

    #[test]
    fn tied_totals_share_a_rank_and_the_next_rank_skips() {
        assert_eq!(ranks_among(&[5, 9, 5, 1, 9]), vec![3, 1, 3, 5, 1]);
        assert_eq!(ranks_among(&[0, 0]), vec![1, 1]);
    }
}
