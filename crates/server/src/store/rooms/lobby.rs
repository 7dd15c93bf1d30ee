//! A room's beginning: created in its lobby or imported from a game file, joined, started.

use sqlx::{Any, Row as _, Transaction};

use super::{Hold, RoomError, RoomSeat, RoomStatus, Started, StoredRoom};
use super::{ImportedRoom, NewRoom, scores_text, seats_with};
use crate::store::outbox::Kind;
use crate::store::pool::Store;

impl Store {
    /// Creates a room in the lobby.
    pub async fn create_room(&self, new: &NewRoom<'_>) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        self.insert_room(&mut tx, new, RoomStatus::Lobby).await?;
        let detail = format!(
            "{} seats, round 5 {}, rounds of {} s",
            new.seats,
            new.round5,
            new.round_ms / 1000
        );
        self.audit(&mut tx, new.id, new.master.1, "created", &detail)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn insert_room(
        &self,
        tx: &mut Transaction<'static, Any>,
        new: &NewRoom<'_>,
        status: RoomStatus,
    ) -> sqlx::Result<()> {
        let now = self.now_ms();
        sqlx::query(
            "INSERT INTO rooms (id, master_id, status, seats, round5, round_ms, seed, \
             invite_hash, created_ms, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
        )
        .bind(new.id)
        .bind(new.master.0)
        .bind(status.as_str())
        .bind(i64::from(new.seats))
        .bind(new.round5)
        .bind(new.round_ms)
        .bind(new.seed.map(|s| s.to_string()))
        .bind(new.invite_hash)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Creates a room from a game file: started (or over) at the round the file is at.
    pub async fn import_room(&self, imported: &ImportedRoom<'_>) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        let new = &imported.room;
        let status = if imported.round > 5 {
            RoomStatus::Finished
        } else {
            RoomStatus::Playing
        };
        self.insert_room(&mut tx, new, status).await?;
        let deadline = (status == RoomStatus::Playing).then(|| self.now_ms() + new.round_ms);
        sqlx::query(
            "UPDATE rooms SET setup = $1, grid = $2, round = $3, deadline_ms = $4 WHERE id = $5",
        )
        .bind(&imported.setup)
        .bind(&imported.grid)
        .bind(i64::from(imported.round))
        .bind(deadline)
        .bind(new.id)
        .execute(&mut *tx)
        .await?;
        Self::put_seats(&mut tx, new.id, &imported.seats).await?;
        for round in &imported.rounds {
            sqlx::query(
                "INSERT INTO room_rounds (room_id, round, grid, scores, resolved_ms) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(new.id)
            .bind(i64::from(round.round))
            .bind(&round.grid)
            .bind(scores_text(round.scores.as_ref())?)
            .bind(round.resolved_ms)
            .execute(&mut *tx)
            .await?;
        }
        for (round, submission) in &imported.submissions {
            self.put_submission(&mut tx, new.id, *round, submission)
                .await?;
        }
        let detail = format!(
            "a game file at round {} with {} seats",
            imported.round,
            imported.seats.len()
        );
        self.audit(&mut tx, new.id, new.master.1, "imported", &detail)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// How many rooms not yet over an account is the game master of.
    pub async fn count_open_rooms(&self, master_id: i64) -> anyhow::Result<u32> {
        let row =
            sqlx::query("SELECT COUNT(*) FROM rooms WHERE master_id = $1 AND status <> 'finished'")
                .bind(master_id)
                .fetch_one(&self.pool)
                .await?;
        let count: i64 = row.try_get(0)?;
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    /// Seats an account in a room's lobby with the invite's hash. Two joiners racing for the
    /// last seat: the seat's key lets exactly one in.
    pub async fn join_room(
        &self,
        id: &str,
        account: (i64, &str),
        invite_hash: &str,
    ) -> Result<(), RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Exclusive).await?;
        let invite = sqlx::query("SELECT 1 FROM rooms WHERE id = $1 AND invite_hash = $2")
            .bind(id)
            .bind(invite_hash)
            .fetch_optional(&mut *tx)
            .await?;
        if invite.is_none() {
            return Err(RoomError::Forbidden(
                "this invite is not the room's (ask the game master for a new one)".to_owned(),
            ));
        }
        if room.master.0 == account.0 {
            return Err(RoomError::Conflict(
                "the game master runs the room and does not play in it".to_owned(),
            ));
        }
        if room.status != RoomStatus::Lobby {
            return Err(RoomError::Conflict(format!(
                "the room is {}: players join in the lobby",
                room.status.as_str()
            )));
        }
        let seats = seats_with(&mut *tx, id).await?;
        if seats
            .iter()
            .any(|s| s.account.as_ref().map(|a| a.0) == Some(account.0))
        {
            return Err(RoomError::Conflict(
                "you sit in this room already".to_owned(),
            ));
        }
        if seats.len() >= usize::from(room.seats) {
            return Err(RoomError::Conflict(format!(
                "the room is full: {} seats",
                room.seats
            )));
        }
        let seat = i64::try_from(seats.len() + 1).unwrap_or(i64::MAX);
        sqlx::query(
            "INSERT INTO room_seats (room_id, seat, name, account_id, bot) VALUES ($1, $2, $3, $4, 0)",
        )
        .bind(id)
        .bind(seat)
        .bind(account.1)
        .bind(account.0)
        .execute(&mut *tx)
        .await?;
        self.audit(
            &mut tx,
            id,
            account.1,
            "joined",
            &format!("seat {seat} in the lobby"),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Starts a room in the lobby: `draw` makes the setup from the room and the players
    /// who joined; the seats are published in its order and the pregame opens.
    pub async fn start_room(
        &self,
        id: &str,
        actor: &str,
        draw: impl FnOnce(&StoredRoom, &[RoomSeat]) -> Result<Started, RoomError>,
    ) -> Result<(), RoomError> {
        let mut tx = self.begin_write().await?;
        let room = self.held_room(&mut tx, id, Hold::Exclusive).await?;
        if room.status != RoomStatus::Lobby {
            return Err(RoomError::Conflict(format!(
                "the room is {}: it has started already",
                room.status.as_str()
            )));
        }
        let lobby = seats_with(&mut *tx, id).await?;
        let started = draw(&room, &lobby)?;
        sqlx::query("DELETE FROM room_seats WHERE room_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        Self::put_seats(&mut tx, id, &started.seats).await?;
        let now = self.now_ms();
        sqlx::query(
            "UPDATE rooms SET status = 'playing', seats = $1, setup = $2, grid = $3, round = 0, \
             deadline_ms = $4, updated_ms = $5 WHERE id = $6",
        )
        .bind(i64::try_from(started.seats.len()).unwrap_or(0))
        .bind(&started.setup)
        .bind(&started.grid)
        .bind(now + room.round_ms)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        for bot in &started.bots {
            self.put_submission(&mut tx, id, 0, bot).await?;
        }
        let order: Vec<String> = started.seats.iter().map(|s| s.name.clone()).collect();
        self.audit(&mut tx, id, actor, "started", &order.join(", "))
            .await?;
        let opened = super::rounds::opened_message(id, 0, Some(now + room.round_ms));
        self.room_event_in(&mut tx, id, Kind::RoundOpened, "0", &opened, false)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
