//! The game master's changes to a room being played: deadline, pause, seats, undo, invite.

use sqlx::{Any, Row as _, Transaction};

use super::{Hold, Occupant, RoomError, RoomStatus, StoredRoom};
use crate::store::outbox::{Kind, Notice};
use crate::store::pool::Store;

impl Store {
    /// A change of the game master's to a room being played, in one transaction holding
    /// it: `change` gets the room and says what to audit, or refuses.
    async fn master_change(
        &self,
        id: &str,
        actor: &str,
        change: RoomChange,
    ) -> Result<(), RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Exclusive).await?;
        let (action, detail) = change.apply(self, &mut tx, &room).await?;
        sqlx::query("UPDATE rooms SET updated_ms = $1 WHERE id = $2")
            .bind(self.now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        self.audit(&mut tx, id, actor, action, &detail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Closes a room before its end, for an administrator `actor` with `reason`: it is
    /// finished as it stands (no round opens again, nothing more is accepted), in the room's
    /// audit and the admin log. Refused (conflict) for a room already finished.
    pub async fn close_room(&self, id: &str, actor: &str, reason: &str) -> Result<(), RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Exclusive).await?;
        if room.status == RoomStatus::Finished {
            return Err(RoomError::Conflict(format!("room {id} is already over")));
        }
        let now = self.now_ms();
        sqlx::query(
            "UPDATE rooms SET status = 'finished', deadline_ms = NULL, paused_left_ms = NULL, \
             closed_ms = $1, updated_ms = $1 WHERE id = $2",
        )
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        self.audit(&mut tx, id, actor, "closed", reason).await?;
        self.log_in(&mut tx, actor, "close", id, reason).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Moves the open round's deadline `by_ms` later (or, while paused, gives it that much
    /// more time when it resumes). `asked`: the round meant, refused once it is not open.
    pub async fn extend_room(
        &self,
        id: &str,
        actor: &str,
        asked: Option<u8>,
        by_ms: i64,
    ) -> Result<(), RoomError> {
        self.master_change(id, actor, RoomChange::Extend { asked, by: by_ms })
            .await
    }

    /// Stops the open round's clock, or starts it again. `asked`: the round meant.
    pub async fn pause_room(
        &self,
        id: &str,
        actor: &str,
        asked: Option<u8>,
        pause: bool,
    ) -> Result<(), RoomError> {
        let change = if pause {
            RoomChange::Pause(asked)
        } else {
            RoomChange::Resume(asked)
        };
        self.master_change(id, actor, change).await
    }

    /// Gives a seat to an account, or to the bot (which submits for the open round).
    pub async fn replace_seat(
        &self,
        id: &str,
        actor: &str,
        seat: u8,
        occupant: Occupant,
    ) -> Result<(), RoomError> {
        self.master_change(id, actor, RoomChange::Seat { seat, occupant })
            .await
    }

    /// Takes back the last resolution, as `swap61 undo` does: the round before opens again
    /// with the submissions it was resolved with (their final marks cleared), and whatever
    /// was sent for the round after is dropped.
    /// `start` is the starting grid, the grid again when the pregame is undone.
    pub async fn undo_resolution(
        &self,
        id: &str,
        actor: &str,
        start: &str,
    ) -> Result<u8, RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Exclusive).await?;
        if room.status == RoomStatus::Lobby || room.round == 0 {
            return Err(RoomError::Conflict(
                "no round has been resolved: nothing to undo".to_owned(),
            ));
        }
        let undone = room.round - 1;
        let exists = sqlx::query("SELECT 1 FROM room_rounds WHERE room_id = $1 AND round = $2")
            .bind(id)
            .bind(i64::from(undone))
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            return Err(RoomError::Conflict(format!(
                "round {undone} came resolved in the imported file: it cannot be undone here"
            )));
        }
        let before = match undone.checked_sub(1) {
            Some(previous) => {
                sqlx::query("SELECT grid FROM room_rounds WHERE room_id = $1 AND round = $2")
                    .bind(id)
                    .bind(i64::from(previous))
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get::<String, _>(0)?
            }
            None => start.to_owned(),
        };
        sqlx::query("DELETE FROM room_rounds WHERE room_id = $1 AND round = $2")
            .bind(id)
            .bind(i64::from(undone))
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM room_submissions WHERE room_id = $1 AND round = $2")
            .bind(id)
            .bind(i64::from(room.round))
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE room_submissions SET is_final = 0 WHERE room_id = $1 AND round = $2")
            .bind(id)
            .bind(i64::from(undone))
            .execute(&mut *tx)
            .await?;
        let now = self.now_ms();
        let (deadline, paused_left) = match room.paused_left_ms {
            Some(_) => (None, Some(room.round_ms)),
            None => (Some(now + room.round_ms), None),
        };
        sqlx::query(
            "UPDATE rooms SET grid = $1, round = $2, status = 'playing', deadline_ms = $3, \
             paused_left_ms = $4, updated_ms = $5 WHERE id = $6",
        )
        .bind(&before)
        .bind(i64::from(undone))
        .bind(deadline)
        .bind(paused_left)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        self.audit(
            &mut tx,
            id,
            actor,
            "undone",
            &format!("the resolution of round {undone}"),
        )
        .await?;
        tx.commit().await?;
        Ok(undone)
    }

    /// Replaces a room's invite (the old one stops working).
    pub async fn new_invite(&self, id: &str, actor: &str, hash: &str) -> Result<(), RoomError> {
        self.master_change(id, actor, RoomChange::Invite(hash.to_owned()))
            .await
    }
}

/// The game master's changes that need nothing but the room's row and its seats. A change
/// to the open round's clock names the round meant (`None`: whichever is open), and is
/// refused once that round's deadline has passed.
#[derive(Clone, Debug)]
enum RoomChange {
    Extend { asked: Option<u8>, by: i64 },
    Pause(Option<u8>),
    Resume(Option<u8>),
    Seat { seat: u8, occupant: Occupant },
    Invite(String),
}

impl RoomChange {
    /// Applies the change; the audit's action and detail.
    async fn apply(
        self,
        store: &Store,
        tx: &mut Transaction<'static, Any>,
        room: &StoredRoom,
    ) -> Result<(&'static str, String), RoomError> {
        let set = |deadline: Option<i64>, paused: Option<i64>| {
            sqlx::query("UPDATE rooms SET deadline_ms = $1, paused_left_ms = $2 WHERE id = $3")
                .bind(deadline)
                .bind(paused)
                .bind(room.id.clone())
        };
        let now = store.now_ms();
        match self {
            RoomChange::Extend { asked, by } => {
                let round = Store::taking(room, asked, now)?;
                let (deadline, paused) = match (room.deadline_ms, room.paused_left_ms) {
                    (_, Some(left)) => (None, Some(left.saturating_add(by))),
                    (Some(due), None) => (Some(due.max(now).saturating_add(by)), None),
                    (None, None) => (Some(now.saturating_add(by)), None),
                };
                set(deadline, paused).execute(&mut **tx).await?;
                Ok(("extended", format!("round {round} by {} s", by / 1000)))
            }
            RoomChange::Pause(asked) => {
                let round = Store::taking(room, asked, now)?;
                if room.paused_left_ms.is_some() {
                    return Err(RoomError::Conflict("the room is paused already".to_owned()));
                }
                let left = room
                    .deadline_ms
                    .map_or(room.round_ms, |due| (due - now).max(0));
                set(None, Some(left)).execute(&mut **tx).await?;
                Ok((
                    "paused",
                    format!("round {round} with {} s left", left / 1000),
                ))
            }
            RoomChange::Resume(asked) => {
                let round = Store::taking(room, asked, now)?;
                let Some(left) = room.paused_left_ms else {
                    return Err(RoomError::Conflict("the room is not paused".to_owned()));
                };
                set(Some(now.saturating_add(left)), None)
                    .execute(&mut **tx)
                    .await?;
                Ok((
                    "resumed",
                    format!("round {round} with {} s left", left / 1000),
                ))
            }
            RoomChange::Seat { seat, occupant } => {
                if room.status == RoomStatus::Lobby {
                    return Err(RoomError::Conflict(
                        "the room has not started: seats are drawn at the start".to_owned(),
                    ));
                }
                let (account, bot) = match &occupant {
                    Occupant::Account(id, name) => (Some((*id, name.as_str())), None),
                    Occupant::Bot(submission) => (None, Some(submission)),
                };
                if account.is_some_and(|a| a.0 == room.master.0) {
                    return Err(RoomError::Conflict(
                        "the game master runs the room and does not play in it".to_owned(),
                    ));
                }
                let updated = sqlx::query(
                    "UPDATE room_seats SET account_id = $1, bot = $2 WHERE room_id = $3 AND seat = $4",
                )
                .bind(account.map(|a| a.0))
                .bind(i64::from(bot.is_some()))
                .bind(&room.id)
                .bind(i64::from(seat))
                .execute(&mut **tx)
                .await;
                match updated {
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                        return Err(RoomError::Conflict(
                            "that account plays another seat of this room".to_owned(),
                        ));
                    }
                    Err(e) => return Err(e.into()),
                    Ok(done) if done.rows_affected() == 0 => {
                        return Err(RoomError::Conflict(format!("the room has no seat {seat}")));
                    }
                    Ok(_) => {}
                }
                // A bot taking a seat after the deadline bids nothing: the round is closed.
                if let Some(Some(submission)) = bot
                    && let Ok(round) = Store::taking(room, None, now)
                {
                    store
                        .put_submission(tx, &room.id, round, submission)
                        .await?;
                }
                if let Some((account_id, _)) = account {
                    let notice = Notice {
                        account_id,
                        kind: Kind::Invitation,
                        game_id: None,
                        room_id: Some(room.id.as_str()),
                        tournament_id: None,
                        message: format!(
                            "{} gives you seat P{seat} of Swap 61 room {} (round {}).",
                            room.master.1, room.id, room.round
                        ),
                        // Each giving is an event of its own, written once by its
                        // transaction.
                        dedupe: None,
                    };
                    store.notify_in(tx, &notice).await?;
                }
                let to = account.map_or("the bot", |a| a.1);
                Ok(("seat", format!("P{seat} to {to}")))
            }
            RoomChange::Invite(hash) => {
                sqlx::query("UPDATE rooms SET invite_hash = $1 WHERE id = $2")
                    .bind(hash)
                    .bind(&room.id)
                    .execute(&mut **tx)
                    .await?;
                Ok((
                    "invite",
                    "a new invite; the old one no longer works".to_owned(),
                ))
            }
        }
    }
}
