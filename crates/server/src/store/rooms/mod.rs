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

mod lobby;
mod master;
mod reads;
mod rounds;
mod types;

use sqlx::any::AnyRow;
use sqlx::{Any, Row as _, Transaction};

pub use types::{
    AuditEntry, BotSubmission, ImportedRoom, NewRoom, Occupant, RoomError, RoomSeat, RoomStatus,
    RoundInput, RoundResult, SeatAssignment, Started, StoredRoom, StoredRound, StoredSubmission,
    Trigger,
};

use super::pool::{Backend, Store};

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
                            r.deadline_ms, r.paused_left_ms, r.closed_ms";

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
        closed_ms: row.try_get("closed_ms")?,
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
    pub(super) async fn audit(
        &self,
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
        .bind(self.now_ms())
        .bind(actor)
        .bind(action)
        .bind(detail)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Stores (or replaces) one seat's submission for one round.
    async fn put_submission(
        &self,
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
        .bind(self.now_ms())
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
}
