//! Challenges that end before their game begins (issue 49): the challenged account declines
//! one kept for it, the challenger cancels one of its own, nobody joins one in time, or a
//! ban calls off the banned account's. The game is then finished as aborted, its `closed`
//! saying which, and the other side is told in the same transaction.

use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::{Any, Row as _, Transaction};

use super::games::{
    Closed, Finish, Status, StoredGame, Termination, game_of_row, prefixed_game_columns,
};
use super::outbox::{Kind, Notice, title_of};
use super::pool::Store;

/// What a person asks of a waiting game of theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing<'a> {
    /// The challenged account says no, with its words if it gives any.
    Decline {
        /// Why, for the challenger.
        reason: Option<&'a str>,
    },
    /// The challenger calls it off.
    Cancel,
}

/// Why a challenge could not be closed.
#[derive(Debug, thiserror::Error)]
pub enum CloseError {
    /// No game of that id.
    #[error("no such game")]
    NoSuchGame,
    /// The game waits for nobody any more (its status word: `playing`, `declined`, ...).
    #[error("the game is {0}: only a waiting challenge can be declined or cancelled")]
    NotWaiting(&'static str),
    /// A decline from anyone but the challenged account, or a cancel from anyone but the
    /// challenger.
    #[error("{0}")]
    NotYours(&'static str),
    /// The database failed.
    #[error(transparent)]
    Storage(#[from] anyhow::Error),
}

impl From<sqlx::Error> for CloseError {
    fn from(e: sqlx::Error) -> CloseError {
        CloseError::Storage(e.into())
    }
}

/// How a closed challenge is written: finished, nobody winning.
const CALLED_OFF: Finish = Finish {
    winner_seat: None,
    termination: Termination::Aborted,
};

/// The one way a challenge's end is written ([`closing`] binds `$1` to `$3`); each
/// statement that closes challenges adds which, from `$4` on.
const CLOSING: &str = "UPDATE games SET status = 'finished', termination = $1, closed = $2, \
                       updated_ms = $3, expires_ms = NULL";

/// A statement of [`CLOSING`]'s, `sql`, with its first parameters bound: the games close
/// as `closed` at `now`.
fn closing(sql: &str, closed: Closed, now: i64) -> Query<'_, Any, AnyArguments<'_>> {
    sqlx::query(sql)
        .bind(CALLED_OFF.termination.as_str())
        .bind(closed.as_str())
        .bind(now)
}

impl Store {
    /// Closes the waiting game `id` as `account_id` asks (`closing`), in one transaction
    /// that locks the game: a decline from the account a seat is kept for, a cancel from an
    /// account seated in it; the other side is told (an inbox notice).
    pub async fn close_challenge(
        &self,
        id: &str,
        account_id: i64,
        closing: Closing<'_>,
    ) -> Result<StoredGame, CloseError> {
        let mut tx = self.begin_write().await?;
        let game = match self
            .locked_game::<std::convert::Infallible>(&mut tx, id)
            .await
        {
            Ok(game) => game,
            Err(super::games::MoveError::NoSuchGame) => return Err(CloseError::NoSuchGame),
            Err(e) => return Err(CloseError::Storage(anyhow::anyhow!("{e}"))),
        };
        let now = self.now_ms();
        if game.status != Status::Waiting || game.closed.is_some() || game.expired_at(now) {
            return Err(CloseError::NotWaiting(game.status_word(now)));
        }
        let rows = sqlx::query(
            "SELECT s.account_id, s.invited_id, a.name FROM seats s \
             LEFT JOIN accounts a ON a.id = COALESCE(s.account_id, s.invited_id) \
             WHERE s.game_id = $1",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let mut seated = Vec::new();
        let mut invited = Vec::new();
        for row in &rows {
            let name: Option<String> = row.try_get("name")?;
            if let Some(account) = row.try_get::<Option<i64>, _>("account_id")? {
                seated.push((account, name.clone().unwrap_or_default()));
            }
            if let Some(account) = row.try_get::<Option<i64>, _>("invited_id")? {
                invited.push((account, name.unwrap_or_default()));
            }
        }
        let is = |accounts: &[(i64, String)]| accounts.iter().any(|(a, _)| *a == account_id);
        let (closed, reason, told, by) = match closing {
            Closing::Decline { reason } => {
                if !is(&invited) {
                    return Err(CloseError::NotYours(
                        "only the account challenged may decline a challenge",
                    ));
                }
                (Closed::Declined, reason, &seated, &invited)
            }
            Closing::Cancel => {
                if !is(&seated) {
                    return Err(CloseError::NotYours(
                        "only the challenger may cancel a challenge",
                    ));
                }
                (Closed::Cancelled, None, &invited, &seated)
            }
        };
        Self::close_in(&mut tx, id, closed, reason, now).await?;
        let name = by
            .iter()
            .find(|(account, _)| *account == account_id)
            .map_or("", |(_, name)| name.as_str());
        let title = title_of(&game.game);
        let message = match (closed, reason) {
            (Closed::Declined, Some(reason)) => {
                format!("{name} declined your challenge to {title}: \u{201c}{reason}\u{201d}")
            }
            (Closed::Declined, None) => format!("{name} declined your challenge to {title}."),
            _ => format!("{name} withdrew their challenge to {title}."),
        };
        for (account, _) in told {
            let notice = Notice {
                account_id: *account,
                kind: Kind::Challenge,
                game_id: Some(id),
                room_id: None,
                tournament_id: None,
                message: message.clone(),
                dedupe: Some(format!("{}:{id}:{account}", closed.as_str())),
            };
            self.notify_in(&mut tx, &notice).await?;
        }
        tx.commit().await?;
        Ok(StoredGame {
            status: Status::Finished,
            finish: Some(CALLED_OFF),
            closed: Some(closed),
            closed_reason: reason.map(str::to_owned),
            expires_ms: None,
            ..game
        })
    }

    /// Writes a challenge's end in `tx`: finished as aborted, `closed` as it ended.
    async fn close_in(
        tx: &mut Transaction<'static, Any>,
        id: &str,
        closed: Closed,
        reason: Option<&str>,
        now: i64,
    ) -> sqlx::Result<()> {
        let sql = format!("{CLOSING}, closed_reason = $4 WHERE id = $5 AND status = 'waiting'");
        closing(&sql, closed, now)
            .bind(reason)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// The waiting games, not expired at `now_ms`, with a seat kept for the account
    /// (`incoming`: true) or in which it sits (false), newest first, at most `limit`.
    pub(crate) async fn challenges_of(
        &self,
        account_id: i64,
        incoming: bool,
        now_ms: i64,
        limit: u32,
    ) -> anyhow::Result<Vec<StoredGame>> {
        let seat = if incoming { "invited_id" } else { "account_id" };
        let columns = prefixed_game_columns();
        let rows = sqlx::query(&format!(
            "SELECT {columns} FROM games g WHERE g.status = 'waiting' \
             AND (g.expires_ms IS NULL OR g.expires_ms > $2) AND EXISTS \
             (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.{seat} = $1) \
             ORDER BY g.updated_ms DESC, g.id LIMIT $3"
        ))
        .bind(account_id)
        .bind(now_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_of_row).collect()
    }

    /// Closes as expired up to `limit` waiting games whose time passed at `now_ms`: their
    /// ids, for their watchers.
    pub(crate) async fn expire_challenges(
        &self,
        now_ms: i64,
        limit: u32,
    ) -> anyhow::Result<Vec<String>> {
        let mut tx = self.begin_write().await?;
        let sql = format!(
            "{CLOSING} WHERE id IN (SELECT id FROM games WHERE status = 'waiting' \
             AND expires_ms <= $3 ORDER BY expires_ms LIMIT $4) RETURNING id"
        );
        let rows = closing(&sql, Closed::Expired, now_ms)
            .bind(i64::from(limit))
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        rows.iter()
            .map(|row| Ok(row.try_get::<String, _>(0)?))
            .collect()
    }

    /// In a ban's transaction: cancels every waiting game the banned account sits in or
    /// has a seat kept for (nobody may join the challenge of an account that cannot play,
    /// and none kept for it can start). The games' ids.
    pub(super) async fn cancel_challenges_of_in(
        tx: &mut Transaction<'static, Any>,
        account_id: i64,
        now: i64,
    ) -> sqlx::Result<Vec<String>> {
        let sql = format!(
            "{CLOSING} WHERE status = 'waiting' AND id IN \
             (SELECT game_id FROM seats WHERE account_id = $4 OR invited_id = $4) RETURNING id"
        );
        let rows = closing(&sql, Closed::Cancelled, now)
            .bind(account_id)
            .fetch_all(&mut **tx)
            .await?;
        rows.iter().map(|row| row.try_get::<String, _>(0)).collect()
    }
}
