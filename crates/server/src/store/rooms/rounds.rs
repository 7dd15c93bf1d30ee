//! A room's open round: submissions and final marks held in share mode, and its
//! resolution, asked for or at the deadline, holding the room exclusively.

use sqlx::{Any, Row as _, Transaction};

use super::{
    BotSubmission, Hold, RoomError, RoomSeat, RoomStatus, RoundInput, RoundResult, StoredRoom,
    Trigger,
};
use super::{scores_text, seats_with, submissions_with};
use crate::store::outbox::Kind;
use crate::store::pool::Store;
use crate::store::room_skills::on_room_end;

impl Store {
    /// The open round of a room being played, read in a transaction holding the room.
    pub(super) fn open_round(room: &StoredRoom, asked: Option<u8>) -> Result<u8, RoomError> {
        if room.status != RoomStatus::Playing {
            return Err(RoomError::Conflict(format!(
                "the room is {}: no round is open",
                room.status.as_str()
            )));
        }
        match asked {
            Some(round) if round != room.round => Err(RoomError::Conflict(format!(
                "round {round} is not open: round {} is",
                room.round
            ))),
            _ => Ok(room.round),
        }
    }

    /// The open round of a room being played (round `asked`, when given) if it still takes
    /// submissions, final marks and the game master's changes to its clock at `now`: its
    /// deadline is a hard cut-off, whenever the scheduler gets to resolving it.
    pub(super) fn taking(room: &StoredRoom, asked: Option<u8>, now: i64) -> Result<u8, RoomError> {
        let round = Self::open_round(room, asked)?;
        match room.deadline_ms {
            Some(due) if now >= due => Err(RoomError::Conflict(format!(
                "round {round} closed at its deadline, {}: it is being resolved",
                instant_text(due)
            ))),
            _ => Ok(round),
        }
    }

    /// The seat of an account in a started room.
    fn seat_of_account(seats: &[RoomSeat], account_id: i64) -> Result<u8, RoomError> {
        seats
            .iter()
            .find(|s| s.account.as_ref().map(|a| a.0) == Some(account_id))
            .map(|s| s.seat)
            .ok_or_else(|| RoomError::Forbidden("you play no seat in this room".to_owned()))
    }

    /// Stores the caller's submission for the open round (round `asked`, when given),
    /// replacing an earlier one and its final mark. Returns the round and the grid it was
    /// stored for, which its check is made against.
    pub async fn submit_to_room(
        &self,
        id: &str,
        account: (i64, &str),
        asked: Option<u8>,
        text: &str,
        receipt: &str,
    ) -> Result<(u8, u8, String), RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Share).await?;
        let seats = seats_with(&mut *tx, id).await?;
        let seat = Self::seat_of_account(&seats, account.0)?;
        let round = Self::taking(&room, asked, self.now_ms())?;
        let submission = BotSubmission {
            seat,
            text: text.to_owned(),
            receipt: receipt.to_owned(),
        };
        self.put_submission(&mut tx, id, round, &submission).await?;
        let detail = format!("P{seat} for round {round}, receipt {receipt}");
        self.audit(&mut tx, id, account.1, "submitted", &detail)
            .await?;
        tx.commit().await?;
        let grid = room
            .grid
            .ok_or_else(|| anyhow::anyhow!("room {id}: playing without a grid"))?;
        Ok((round, seat, grid))
    }

    /// Marks the caller's submission for the open round final (an empty submission if it
    /// sent none). Returns the round.
    pub async fn mark_final(
        &self,
        id: &str,
        account: (i64, &str),
        asked: Option<u8>,
        empty_receipt: &str,
    ) -> Result<u8, RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Share).await?;
        let seats = seats_with(&mut *tx, id).await?;
        let seat = Self::seat_of_account(&seats, account.0)?;
        let round = Self::taking(&room, asked, self.now_ms())?;
        sqlx::query(
            "INSERT INTO room_submissions \
             (room_id, round, seat, text, receipt, is_final, submitted_ms) \
             VALUES ($1, $2, $3, '', $4, 1, $5) ON CONFLICT (room_id, round, seat) DO UPDATE \
             SET is_final = 1",
        )
        .bind(id)
        .bind(i64::from(round))
        .bind(i64::from(seat))
        .bind(empty_receipt)
        .bind(self.now_ms())
        .execute(&mut *tx)
        .await?;
        let detail = format!("P{seat} for round {round}");
        self.audit(&mut tx, id, account.1, "final", &detail).await?;
        tx.commit().await?;
        Ok(round)
    }

    /// Resolves the open round of a room (round `asked`, when given) with `rules`, if
    /// `trigger` allows: the game master always, every player final only when all are.
    /// Returns the round resolved, `None` when the trigger did not hold.
    pub async fn resolve_room(
        &self,
        id: &str,
        asked: Option<u8>,
        trigger: Trigger,
        rules: impl FnOnce(RoundInput<'_>) -> anyhow::Result<RoundResult>,
    ) -> Result<Option<u8>, RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Exclusive).await?;
        Self::open_round(&room, asked)?;
        let resolved = self.resolve_held(&mut tx, &room, &trigger, rules).await?;
        tx.commit().await?;
        Ok(resolved)
    }

    /// The scheduler's pass: resolves, one transaction each, the rooms whose deadline has
    /// passed at `now_ms` (at most `limit`). Each is resolved in the transaction that holds
    /// it and checks that it is still due, so an instance that dies half-way leaves nothing
    /// behind and two instances resolve a round once. Returns the rooms resolved.
    pub async fn resolve_due_rooms(
        &self,
        now_ms: i64,
        limit: u32,
        rules: impl Fn(RoundInput<'_>) -> anyhow::Result<RoundResult>,
    ) -> anyhow::Result<Vec<String>> {
        let mut resolved = Vec::new();
        for _ in 0..limit {
            let mut tx = self.begin_write().await?;
            let due = sqlx::query(
                "SELECT id FROM rooms WHERE deadline_ms <= $1 AND status = 'playing' \
                 ORDER BY deadline_ms LIMIT 1",
            )
            .bind(now_ms)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(due) = due else {
                break;
            };
            let id: String = due.try_get(0)?;
            let done = match self.held_room(&mut tx, &id, Hold::Exclusive).await {
                Ok(room) => {
                    self.resolve_held(&mut tx, &room, &Trigger::Deadline, &rules)
                        .await
                }
                Err(e) => Err(e),
            };
            let done = match done {
                Ok(done) => done,
                Err(RoomError::Storage(e)) => return Err(e),
                Err(e) => anyhow::bail!("room {id}: {e}"),
            };
            tx.commit().await?;
            match done {
                Some(_) => resolved.push(id),
                // Another instance resolved it first.
                None => break,
            }
        }
        Ok(resolved)
    }

    /// Resolves the open round of a room whose row this transaction holds.
    async fn resolve_held(
        &self,
        tx: &mut Transaction<'static, Any>,
        room: &StoredRoom,
        trigger: &Trigger,
        rules: impl FnOnce(RoundInput<'_>) -> anyhow::Result<RoundResult>,
    ) -> Result<Option<u8>, RoomError> {
        let round = Self::open_round(room, None)?;
        let seats = seats_with(&mut **tx, &room.id).await?;
        let submissions = submissions_with(&mut **tx, &room.id, Some(round)).await?;
        if *trigger == Trigger::Deadline && room.deadline_ms.is_none_or(|due| due > self.now_ms()) {
            return Ok(None);
        }
        if *trigger == Trigger::AllFinal {
            // Only the seats a person plays wait for a final mark.
            let waiting = seats.iter().filter(|s| s.account.is_some()).any(|s| {
                !submissions
                    .iter()
                    .any(|sub| sub.seat == s.seat && sub.is_final)
            });
            if waiting {
                return Ok(None);
            }
        }
        let result = rules(RoundInput {
            room,
            submissions: &submissions,
            seats: &seats,
        })?;
        let now = self.now_ms();
        sqlx::query(
            "INSERT INTO room_rounds (room_id, round, grid, scores, resolved_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&room.id)
        .bind(i64::from(round))
        .bind(&result.grid)
        .bind(scores_text(result.scores.as_ref())?)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        let next = round + 1;
        let over = usize::from(next) > swapboard_swap61::LAST_ROUND;
        let (deadline, paused_left) = match (over, room.paused_left_ms) {
            (true, _) => (None, None),
            // A paused room stays paused, with a whole round ahead.
            (false, Some(_)) => (None, Some(room.round_ms)),
            (false, None) => (Some(now + room.round_ms), None),
        };
        sqlx::query(
            "UPDATE rooms SET grid = $1, round = $2, status = $3, deadline_ms = $4, \
             paused_left_ms = $5, updated_ms = $6 WHERE id = $7",
        )
        .bind(&result.grid)
        .bind(i64::from(next))
        .bind(if over { "finished" } else { "playing" })
        .bind(deadline)
        .bind(paused_left)
        .bind(now)
        .bind(&room.id)
        .execute(&mut **tx)
        .await?;
        if over {
            on_room_end(tx, &room.id, now).await?;
        }
        for bot in &result.next_bots {
            self.put_submission(tx, &room.id, next, bot).await?;
        }
        let results = format!("Swap 61 room {}: round {round} is resolved.", room.id);
        let key = round.to_string();
        self.room_event_in(tx, &room.id, Kind::RoundResults, &key, &results, true)
            .await?;
        if !over {
            let opened = opened_message(&room.id, next, deadline);
            let key = next.to_string();
            self.room_event_in(tx, &room.id, Kind::RoundOpened, &key, &opened, false)
                .await?;
        }
        let (actor, why) = match trigger {
            Trigger::Deadline => ("server", "its deadline passed"),
            Trigger::AllFinal => ("server", "every player marked final"),
            Trigger::Master(name) => (name.as_str(), "the game master resolved it"),
        };
        let detail = format!(
            "round {round} with {} submissions: {why}",
            submissions.len()
        );
        self.audit(tx, &room.id, actor, "resolved", &detail).await?;
        Ok(Some(round))
    }
}

/// The words of a round's opening: until when it is open, or that it is paused.
pub(super) fn opened_message(room_id: &str, round: u8, deadline: Option<i64>) -> String {
    let until = deadline.map_or_else(
        || "its clock is paused".to_owned(),
        |due| format!("it closes at {}", crate::clock::utc_words(due)),
    );
    format!("Swap 61 room {room_id}: round {round} is open; {until}.")
}

/// An instant (ms since 1970) for people and machines alike (a bot reads the refusal):
/// `2026.11.26 13:00:00.250 UTC (1764162000250 ms since 1970)`.
fn instant_text(ms: i64) -> String {
    let of_day = ms.rem_euclid(86_400_000);
    let (h, m) = (of_day / 3_600_000, of_day / 60_000 % 60);
    let (s, milli) = (of_day / 1000 % 60, of_day % 1000);
    format!(
        "{} {h:02}:{m:02}:{s:02}.{milli:03} UTC ({ms} ms since 1970)",
        swapboard_play::record::date_of(ms)
    )
}

#[cfg(test)]
mod tests {
    use super::instant_text;

    #[test]
    fn instants_are_written_in_utc_to_the_millisecond() {
        assert_eq!(
            instant_text(1_764_162_000_250),
            "2025.11.26 13:00:00.250 UTC (1764162000250 ms since 1970)"
        );
        assert_eq!(
            instant_text(0),
            "1970.01.01 00:00:00.000 UTC (0 ms since 1970)"
        );
    }
}
