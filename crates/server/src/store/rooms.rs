//! The rooms' storage: Swap 61 rooms, their seats, one submission row per (room, round,
//! seat), the resolved rounds and an append-only audit log.
//!
//! No rule of Swap 61 is here: a round is resolved by a function the caller passes (the
//! swap61 crate's, through `rooms`), called inside the transaction that stores the result.
//! A submission holds the room in share mode and a resolution holds it exclusively (an
//! advisory lock per room on PostgreSQL; SQLite runs one writer at a time), so every
//! submission either commits before the resolution reads the round's submissions, and is
//! resolved with them, or finds the round closed. A due deadline is resolved in the
//! transaction that holds the room and sees it still due, so an instance that dies
//! half-way leaves nothing claimed, and the round is resolved exactly once, by whichever
//! instance gets there next.

use sqlx::any::AnyRow;
use sqlx::{Any, Row as _, Transaction};

use super::{Backend, Store, now_ms};

/// Whether a room waits for players, is being played or is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomStatus {
    /// Players join; nothing is drawn yet.
    Lobby,
    /// Rounds are open, one at a time.
    Playing,
    /// Round 5 is resolved.
    Finished,
}

impl RoomStatus {
    /// The status as stored and as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            RoomStatus::Lobby => "lobby",
            RoomStatus::Playing => "playing",
            RoomStatus::Finished => "finished",
        }
    }

    fn parse(text: &str) -> anyhow::Result<RoomStatus> {
        [RoomStatus::Lobby, RoomStatus::Playing, RoomStatus::Finished]
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| anyhow::anyhow!("rooms.status: unknown {text:?}"))
    }
}

/// A room as stored.
#[derive(Clone, Debug)]
pub struct StoredRoom {
    /// The room's id.
    pub id: String,
    /// The game master's account and name.
    pub master: (i64, String),
    /// Lobby, playing or finished.
    pub status: RoomStatus,
    /// The seats wanted (lobby) or drawn (once started): 9 or 10.
    pub seats: u8,
    /// Round 5's variation, as swap61 writes it.
    pub round5: String,
    /// How long a round is open.
    pub round_ms: i64,
    /// The seed asked for at creation.
    pub seed: Option<u64>,
    /// The swap61 setup (JSON), once started.
    pub setup: Option<String>,
    /// The grid now (the contract's 9 lines), once started.
    pub grid: Option<String>,
    /// The open round, 0-5; 6 once the game is over.
    pub round: u8,
    /// When the open round resolves by itself.
    pub deadline_ms: Option<i64>,
    /// While paused, the time the open round had left.
    pub paused_left_ms: Option<i64>,
}

/// Who sits in a seat of a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomSeat {
    /// The seat, from 1 (in the lobby: the order of joining).
    pub seat: u8,
    /// The seat's name in the game file.
    pub name: String,
    /// The account sitting there, by id and name.
    pub account: Option<(i64, String)>,
    /// Whether the bidding bot plays the seat.
    pub bot: bool,
}

/// One seat's submission for one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSubmission {
    /// The round.
    pub round: u8,
    /// The seat.
    pub seat: u8,
    /// The text exactly as sent.
    pub text: String,
    /// The SHA-256 of the text, in hex.
    pub receipt: String,
    /// Whether the player marked it final.
    pub is_final: bool,
    /// When it was stored.
    pub submitted_ms: i64,
}

/// A resolved round in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRound {
    /// The round.
    pub round: u8,
    /// The grid after it.
    pub grid: String,
    /// The scores in seat order (none for the pregame).
    pub scores: Option<Vec<u32>>,
    /// When it was resolved.
    pub resolved_ms: i64,
}

/// One line of a room's audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    /// When it happened.
    pub at_ms: i64,
    /// Who did it: an account's name, or `server` for a deadline.
    pub actor: String,
    /// What was done (`created`, `joined`, `submitted`, `resolved`, ...).
    pub action: String,
    /// The particulars.
    pub detail: String,
}

/// A room to create.
#[derive(Clone, Debug)]
pub struct NewRoom<'a> {
    /// The id, unique.
    pub id: &'a str,
    /// The game master's account and name.
    pub master: (i64, &'a str),
    /// 9 or 10.
    pub seats: u8,
    /// Round 5's variation.
    pub round5: &'a str,
    /// How long a round is open.
    pub round_ms: i64,
    /// A seed for the draw, if the game master chose one.
    pub seed: Option<u64>,
    /// The SHA-256 of the invite.
    pub invite_hash: &'a str,
}

/// A seat of a room that starts (or is imported): its name in the game file and who plays.
#[derive(Clone, Debug)]
pub struct SeatAssignment {
    /// The seat's name in the game file.
    pub name: String,
    /// The account playing it.
    pub account_id: Option<i64>,
    /// Whether the bot plays it.
    pub bot: bool,
}

/// A submission the server writes itself (the bot's), with its receipt.
#[derive(Clone, Debug)]
pub struct BotSubmission {
    /// The seat.
    pub seat: u8,
    /// The text.
    pub text: String,
    /// Its SHA-256, in hex.
    pub receipt: String,
}

/// Who plays a seat from now on.
#[derive(Clone, Debug)]
pub enum Occupant {
    /// This account, by id and name.
    Account(i64, String),
    /// The bot, with its submission for the open round (none when no round is open).
    Bot(Option<BotSubmission>),
}

/// What the draw made of a room that starts.
#[derive(Clone, Debug)]
pub struct Started {
    /// The setup (JSON).
    pub setup: String,
    /// The starting grid.
    pub grid: String,
    /// The seats in the published order.
    pub seats: Vec<SeatAssignment>,
    /// The bot's submissions for the pregame.
    pub bots: Vec<BotSubmission>,
}

/// The open round as the rules see it when it is resolved.
#[derive(Clone, Copy, Debug)]
pub struct RoundInput<'a> {
    /// The room, at the open round.
    pub room: &'a StoredRoom,
    /// The round's submissions, by seat.
    pub submissions: &'a [StoredSubmission],
    /// The seats.
    pub seats: &'a [RoomSeat],
}

/// What the rules made of a round.
#[derive(Clone, Debug)]
pub struct RoundResult {
    /// The grid after it.
    pub grid: String,
    /// The scores, in seat order (none for the pregame).
    pub scores: Option<Vec<u32>>,
    /// The bot's submissions for the round that opens next.
    pub next_bots: Vec<BotSubmission>,
}

/// Why a room resolves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// Its deadline passed.
    Deadline,
    /// Every player marked their submission final.
    AllFinal,
    /// The game master (by name) resolved it.
    Master(String),
}

/// A room imported from a game file.
#[derive(Clone, Debug)]
pub struct ImportedRoom<'a> {
    /// The room to create (its round length and invite).
    pub room: NewRoom<'a>,
    /// The setup (JSON).
    pub setup: String,
    /// The grid now.
    pub grid: String,
    /// The open round (6 when over).
    pub round: u8,
    /// The seats.
    pub seats: Vec<SeatAssignment>,
    /// The resolved rounds.
    pub rounds: Vec<StoredRound>,
    /// The submissions of every resolved round and of the open one, with their round.
    pub submissions: Vec<(u8, BotSubmission)>,
}

/// Why a room operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum RoomError {
    /// No room of that id.
    #[error("no such room")]
    NoSuchRoom,
    /// The caller may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// The room is not in a state that allows it (a closed round, a full lobby, ...).
    #[error("{0}")]
    Conflict(String),
    /// The database or the rules' function failed.
    #[error("storage: {0:#}")]
    Storage(#[from] anyhow::Error),
}

impl From<sqlx::Error> for RoomError {
    fn from(e: sqlx::Error) -> RoomError {
        RoomError::Storage(e.into())
    }
}

/// How a transaction holds a room's row (PostgreSQL; SQLite's writer holds everything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hold {
    /// Others may hold it in share mode too: submissions of different players.
    Share,
    /// Nobody else: a resolution, a start, the game master's changes.
    Exclusive,
}

const ROOM_COLUMNS: &str = "r.id, r.master_id, m.name AS master_name, r.status, r.seats, \
                            r.round5, r.round_ms, r.seed, r.setup, r.grid, r.round, \
                            r.deadline_ms, r.paused_left_ms";

fn small(row: &AnyRow, column: &str) -> anyhow::Result<u8> {
    let value: i64 = row.try_get(column)?;
    u8::try_from(value).map_err(|_| anyhow::anyhow!("rooms: {column} {value} is out of range"))
}

fn flag(row: &AnyRow, column: &str) -> anyhow::Result<bool> {
    Ok(row.try_get::<i64, _>(column)? != 0)
}

fn room_of_row(row: &AnyRow) -> anyhow::Result<StoredRoom> {
    let seed: Option<String> = row.try_get("seed")?;
    Ok(StoredRoom {
        id: row.try_get("id")?,
        master: (row.try_get("master_id")?, row.try_get("master_name")?),
        status: RoomStatus::parse(&row.try_get::<String, _>("status")?)?,
        seats: small(row, "seats")?,
        round5: row.try_get("round5")?,
        round_ms: row.try_get("round_ms")?,
        seed: seed.map(|s| s.parse()).transpose()?,
        setup: row.try_get("setup")?,
        grid: row.try_get("grid")?,
        round: small(row, "round")?,
        deadline_ms: row.try_get("deadline_ms")?,
        paused_left_ms: row.try_get("paused_left_ms")?,
    })
}

fn submission_of_row(row: &AnyRow) -> anyhow::Result<StoredSubmission> {
    Ok(StoredSubmission {
        round: small(row, "round")?,
        seat: small(row, "seat")?,
        text: row.try_get("text")?,
        receipt: row.try_get("receipt")?,
        is_final: flag(row, "is_final")?,
        submitted_ms: row.try_get("submitted_ms")?,
    })
}

/// Scores as stored: a JSON array, or NULL.
fn scores_text(scores: Option<&Vec<u32>>) -> anyhow::Result<Option<String>> {
    Ok(scores.map(serde_json::to_string).transpose()?)
}

/// The seats of a room, in order, read through any executor (the pool or a transaction).
async fn seats_with<'e>(
    executor: impl sqlx::Executor<'e, Database = Any>,
    id: &str,
) -> anyhow::Result<Vec<RoomSeat>> {
    let rows = sqlx::query(
        "SELECT s.seat, s.name, s.account_id, a.name AS account_name, s.bot \
         FROM room_seats s LEFT JOIN accounts a ON a.id = s.account_id \
         WHERE s.room_id = $1 ORDER BY s.seat",
    )
    .bind(id)
    .fetch_all(executor)
    .await?;
    rows.iter()
        .map(|row| {
            let account: Option<i64> = row.try_get("account_id")?;
            let name: Option<String> = row.try_get("account_name")?;
            Ok(RoomSeat {
                seat: small(row, "seat")?,
                name: row.try_get("name")?,
                account: account.zip(name),
                bot: flag(row, "bot")?,
            })
        })
        .collect()
}

/// The submissions of a room, of one round or of all, by round and seat.
async fn submissions_with<'e>(
    executor: impl sqlx::Executor<'e, Database = Any>,
    id: &str,
    round: Option<u8>,
) -> anyhow::Result<Vec<StoredSubmission>> {
    let rows = sqlx::query(
        "SELECT round, seat, text, receipt, is_final, submitted_ms FROM room_submissions \
         WHERE room_id = $1 AND ($2 IS NULL OR round = $2) ORDER BY round, seat",
    )
    .bind(id)
    .bind(round.map(i64::from))
    .fetch_all(executor)
    .await?;
    rows.iter().map(submission_of_row).collect()
}

impl Store {
    /// Reads a room inside a write transaction, holding its row as `hold` says until the
    /// commit (PostgreSQL; SQLite's `BEGIN IMMEDIATE` already holds the writer).
    async fn held_room(
        &self,
        tx: &mut Transaction<'static, Any>,
        id: &str,
        hold: Hold,
    ) -> Result<StoredRoom, RoomError> {
        if self.backend == Backend::Postgres {
            // An advisory lock, not a row lock: PostgreSQL queues its heavyweight locks
            // fairly, so a resolution waiting for the submissions under way is not starved
            // by the ones that keep coming (shared row locks would let them jump the queue).
            let lock = match hold {
                Hold::Share => "SELECT pg_advisory_xact_lock_shared(hashtext($1))",
                Hold::Exclusive => "SELECT pg_advisory_xact_lock(hashtext($1))",
            };
            sqlx::query(lock)
                .bind(format!("room:{id}"))
                .execute(&mut **tx)
                .await?;
        }
        let lock = match (self.backend, hold) {
            (Backend::Postgres, Hold::Exclusive) => " FOR NO KEY UPDATE OF r",
            _ => "",
        };
        let row = sqlx::query(&format!(
            "SELECT {ROOM_COLUMNS} FROM rooms r JOIN accounts m ON m.id = r.master_id \
             WHERE r.id = $1{lock}"
        ))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
        let row = row.ok_or(RoomError::NoSuchRoom)?;
        Ok(room_of_row(&row)?)
    }

    /// Appends a line to a room's audit log, in the transaction of the change it records.
    async fn audit(
        tx: &mut Transaction<'static, Any>,
        room_id: &str,
        actor: &str,
        action: &str,
        detail: &str,
    ) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO room_audit (room_id, at_ms, actor, action, detail) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(room_id)
        .bind(now_ms())
        .bind(actor)
        .bind(action)
        .bind(detail)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Stores (or replaces) one seat's submission for one round.
    async fn put_submission(
        tx: &mut Transaction<'static, Any>,
        room_id: &str,
        round: u8,
        submission: &BotSubmission,
    ) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO room_submissions \
             (room_id, round, seat, text, receipt, is_final, submitted_ms) \
             VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (room_id, round, seat) DO UPDATE \
             SET text = excluded.text, receipt = excluded.receipt, is_final = 0, \
             submitted_ms = excluded.submitted_ms",
        )
        .bind(room_id)
        .bind(i64::from(round))
        .bind(i64::from(submission.seat))
        .bind(&submission.text)
        .bind(&submission.receipt)
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Inserts the seats of a room that starts or is imported.
    async fn put_seats(
        tx: &mut Transaction<'static, Any>,
        room_id: &str,
        seats: &[SeatAssignment],
    ) -> sqlx::Result<()> {
        for (seat, assignment) in (1i64..).zip(seats) {
            sqlx::query(
                "INSERT INTO room_seats (room_id, seat, name, account_id, bot) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(room_id)
            .bind(seat)
            .bind(&assignment.name)
            .bind(assignment.account_id)
            .bind(i64::from(assignment.bot))
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    /// Creates a room in the lobby.
    pub async fn create_room(&self, new: &NewRoom<'_>) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        Self::insert_room(&mut tx, new, RoomStatus::Lobby).await?;
        let detail = format!(
            "{} seats, round 5 {}, rounds of {} s",
            new.seats,
            new.round5,
            new.round_ms / 1000
        );
        Self::audit(&mut tx, new.id, new.master.1, "created", &detail).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn insert_room(
        tx: &mut Transaction<'static, Any>,
        new: &NewRoom<'_>,
        status: RoomStatus,
    ) -> sqlx::Result<()> {
        let now = now_ms();
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
        Self::insert_room(&mut tx, new, status).await?;
        let deadline = (status == RoomStatus::Playing).then(|| now_ms() + new.round_ms);
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
            Self::put_submission(&mut tx, new.id, *round, submission).await?;
        }
        let detail = format!(
            "a game file at round {} with {} seats",
            imported.round,
            imported.seats.len()
        );
        Self::audit(&mut tx, new.id, new.master.1, "imported", &detail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The room of that id.
    pub async fn room(&self, id: &str) -> anyhow::Result<Option<StoredRoom>> {
        let row = sqlx::query(&format!(
            "SELECT {ROOM_COLUMNS} FROM rooms r JOIN accounts m ON m.id = r.master_id \
             WHERE r.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(room_of_row).transpose()
    }

    /// The rooms an account is the game master of or holds a seat in, newest first (at
    /// most `limit`).
    pub async fn rooms_of(&self, account_id: i64, limit: u32) -> anyhow::Result<Vec<StoredRoom>> {
        let rows = sqlx::query(&format!(
            "SELECT {ROOM_COLUMNS} FROM rooms r JOIN accounts m ON m.id = r.master_id \
             WHERE r.master_id = $1 \
                OR r.id IN (SELECT room_id FROM room_seats WHERE account_id = $1) \
             ORDER BY r.created_ms DESC, r.id DESC LIMIT $2"
        ))
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(room_of_row).collect()
    }

    /// The seats of a room, in order.
    pub async fn room_seats(&self, id: &str) -> anyhow::Result<Vec<RoomSeat>> {
        seats_with(&self.pool, id).await
    }

    /// The submissions of a room, of one round or of all, by round and seat.
    pub async fn room_submissions(
        &self,
        id: &str,
        round: Option<u8>,
    ) -> anyhow::Result<Vec<StoredSubmission>> {
        submissions_with(&self.pool, id, round).await
    }

    /// The resolved rounds of a room, in order.
    pub async fn room_rounds(&self, id: &str) -> anyhow::Result<Vec<StoredRound>> {
        let rows = sqlx::query(
            "SELECT round, grid, scores, resolved_ms FROM room_rounds WHERE room_id = $1 \
             ORDER BY round",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let scores: Option<String> = row.try_get("scores")?;
                Ok(StoredRound {
                    round: small(row, "round")?,
                    grid: row.try_get("grid")?,
                    scores: scores.map(|s| serde_json::from_str(&s)).transpose()?,
                    resolved_ms: row.try_get("resolved_ms")?,
                })
            })
            .collect()
    }

    /// A room's audit log, oldest first.
    pub async fn room_audit(&self, id: &str) -> anyhow::Result<Vec<AuditEntry>> {
        let rows = sqlx::query(
            "SELECT at_ms, actor, action, detail FROM room_audit WHERE room_id = $1 ORDER BY id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(AuditEntry {
                    at_ms: row.try_get("at_ms")?,
                    actor: row.try_get("actor")?,
                    action: row.try_get("action")?,
                    detail: row.try_get("detail")?,
                })
            })
            .collect()
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
        Self::audit(
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
        let now = now_ms();
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
            Self::put_submission(&mut tx, id, 0, bot).await?;
        }
        let order: Vec<String> = started.seats.iter().map(|s| s.name.clone()).collect();
        Self::audit(&mut tx, id, actor, "started", &order.join(", ")).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The open round of a room being played, read in a transaction holding the room.
    fn open_round(room: &StoredRoom, asked: Option<u8>) -> Result<u8, RoomError> {
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
        let round = Self::open_round(&room, asked)?;
        let submission = BotSubmission {
            seat,
            text: text.to_owned(),
            receipt: receipt.to_owned(),
        };
        Self::put_submission(&mut tx, id, round, &submission).await?;
        let detail = format!("P{seat} for round {round}, receipt {receipt}");
        Self::audit(&mut tx, id, account.1, "submitted", &detail).await?;
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
        let round = Self::open_round(&room, asked)?;
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
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        let detail = format!("P{seat} for round {round}");
        Self::audit(&mut tx, id, account.1, "final", &detail).await?;
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
        if *trigger == Trigger::Deadline && room.deadline_ms.is_none_or(|due| due > now_ms()) {
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
        let now = now_ms();
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
        for bot in &result.next_bots {
            Self::put_submission(tx, &room.id, next, bot).await?;
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
        Self::audit(tx, &room.id, actor, "resolved", &detail).await?;
        Ok(Some(round))
    }

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
        let (action, detail) = change.apply(&mut tx, &room).await?;
        sqlx::query("UPDATE rooms SET updated_ms = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        Self::audit(&mut tx, id, actor, action, &detail).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Moves the open round's deadline `by_ms` later (or, while paused, gives it that much
    /// more time when it resumes).
    pub async fn extend_room(&self, id: &str, actor: &str, by_ms: i64) -> Result<(), RoomError> {
        self.master_change(id, actor, RoomChange::Extend(by_ms))
            .await
    }

    /// Stops the open round's clock, or starts it again.
    pub async fn pause_room(&self, id: &str, actor: &str, pause: bool) -> Result<(), RoomError> {
        let change = if pause {
            RoomChange::Pause
        } else {
            RoomChange::Resume
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
        let now = now_ms();
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
        Self::audit(
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

/// The game master's changes that need nothing but the room's row and its seats.
#[derive(Clone, Debug)]
enum RoomChange {
    Extend(i64),
    Pause,
    Resume,
    Seat { seat: u8, occupant: Occupant },
    Invite(String),
}

impl RoomChange {
    /// Applies the change; the audit's action and detail.
    async fn apply(
        self,
        tx: &mut Transaction<'static, Any>,
        room: &StoredRoom,
    ) -> Result<(&'static str, String), RoomError> {
        let playing = || {
            Store::open_round(room, None).map_err(|_| {
                RoomError::Conflict(format!(
                    "the room is {}: no round is open",
                    room.status.as_str()
                ))
            })
        };
        let set = |deadline: Option<i64>, paused: Option<i64>| {
            sqlx::query("UPDATE rooms SET deadline_ms = $1, paused_left_ms = $2 WHERE id = $3")
                .bind(deadline)
                .bind(paused)
                .bind(room.id.clone())
        };
        let now = now_ms();
        match self {
            RoomChange::Extend(by) => {
                let round = playing()?;
                let (deadline, paused) = match (room.deadline_ms, room.paused_left_ms) {
                    (_, Some(left)) => (None, Some(left.saturating_add(by))),
                    (Some(due), None) => (Some(due.max(now).saturating_add(by)), None),
                    (None, None) => (Some(now.saturating_add(by)), None),
                };
                set(deadline, paused).execute(&mut **tx).await?;
                Ok(("extended", format!("round {round} by {} s", by / 1000)))
            }
            RoomChange::Pause => {
                let round = playing()?;
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
            RoomChange::Resume => {
                let round = playing()?;
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
                if let Some(Some(submission)) = bot
                    && room.status == RoomStatus::Playing
                {
                    Store::put_submission(tx, &room.id, room.round, submission).await?;
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
