//! What the operators' tools store: roles, bans and the append-only admin log. A ban and its
//! log line are written in one transaction, and the account's credentials end in it.

use sqlx::Row as _;

use super::games::{Finish, MoveError, Status, StoredGame, Termination};
use super::pool::Store;
use crate::limits::admin::MAX_LOG_LINES;

/// A role beyond playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// May do everything the admin tools offer.
    Admin,
    /// May ban and unban accounts, and moderate the chats (reports, hiding, mutes).
    Moderator,
}

impl Role {
    /// The word stored and typed (`admin`, `moderator`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Moderator => "moderator",
        }
    }
}

impl std::str::FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Role, String> {
        match text {
            "admin" => Ok(Role::Admin),
            "moderator" => Ok(Role::Moderator),
            other => Err(format!("{other:?} is no role: admin or moderator")),
        }
    }
}

/// One line of the admin log.
#[derive(Clone, Debug)]
pub struct AdminEntry {
    /// When, in ms since the Unix epoch.
    pub at_ms: i64,
    /// Who: an account's name, or `operator` for the command line.
    pub actor: String,
    /// What: `grant`, `ban`, `unban`, `annul`, `adjudicate`, `close`.
    pub action: String,
    /// On whom or what: an account's name, a game's or a room's id.
    pub target: String,
    /// Why, or what else: the reason given, the role granted.
    pub detail: String,
}

/// An account as the list of recent sign-ups shows it.
#[derive(Clone, Debug)]
pub struct Signup {
    /// The account's name.
    pub name: String,
    /// When it was made, in ms since the Unix epoch.
    pub created_ms: i64,
    /// The client address it was made from; `None` for accounts older than the record.
    pub address: Option<String>,
}

impl Store {
    /// Grants `role` to the account `name`, logged as done by `actor`: `None` for no such
    /// account, else whether it is new.
    pub async fn grant_role(
        &self,
        name: &str,
        role: Role,
        actor: &str,
    ) -> anyhow::Result<Option<bool>> {
        let mut tx = self.begin_write().await?;
        let Some((id, shown, _)) = Self::named_in(&mut tx, name).await? else {
            return Ok(None);
        };
        let granted = sqlx::query(
            "INSERT INTO roles (account_id, role, granted_ms) VALUES ($1, $2, $3)
             ON CONFLICT (account_id, role) DO NOTHING",
        )
        .bind(id)
        .bind(role.as_str())
        .bind(self.now_ms())
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if granted {
            self.log_in(&mut tx, actor, "grant", &shown, role.as_str())
                .await?;
        }
        tx.commit().await?;
        Ok(Some(granted))
    }

    /// Whether the account holds one of `roles`.
    pub(crate) async fn has_role(&self, account_id: i64, roles: &[Role]) -> anyhow::Result<bool> {
        let rows = sqlx::query("SELECT role FROM roles WHERE account_id = $1")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        for row in rows {
            let held: String = row.try_get(0)?;
            if roles.iter().any(|role| role.as_str() == held) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Bans (`banned`) or unbans the account `name`, logged as done by `actor` with
    /// `reason`; a ban ends every credential of the account in the same transaction. `None`
    /// for no such account, else its id and whether anything changed (a second ban changes
    /// nothing and logs nothing).
    pub async fn set_banned(
        &self,
        name: &str,
        banned: bool,
        actor: &str,
        reason: &str,
    ) -> anyhow::Result<Option<(i64, bool)>> {
        let mut tx = self.begin_write().await?;
        let Some((id, shown, was)) = Self::named_in(&mut tx, name).await? else {
            return Ok(None);
        };
        if was.is_some() == banned {
            return Ok(Some((id, false)));
        }
        sqlx::query("UPDATE accounts SET banned_ms = $1 WHERE id = $2")
            .bind(banned.then(|| self.now_ms()))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let ended = if banned {
            let called_off = Self::cancel_challenges_of_in(&mut tx, id, self.now_ms()).await?;
            if !called_off.is_empty() {
                tracing::info!(
                    account = id,
                    challenges = called_off.len(),
                    "a ban cancelled the account's waiting challenges"
                );
            }
            Self::end_credentials_in(&mut tx, id, "", "").await?
        } else {
            Vec::new()
        };
        let action = if banned { "ban" } else { "unban" };
        self.log_in(&mut tx, actor, action, &shown, reason).await?;
        tx.commit().await?;
        self.forget_credentials(ended);
        Ok(Some((id, true)))
    }

    /// Annuls a game, logged as done by `actor` with `reason`: one being played ends
    /// aborted (nobody wins), and the game no longer counts for the ratings; when it had
    /// counted, every rating is recomputed from scratch ([`Store::rerate`]). `None` for no
    /// such game, else whether the ratings were recomputed.
    pub async fn annul(&self, id: &str, actor: &str, reason: &str) -> anyhow::Result<Option<bool>> {
        let Some(game) = self.game(id).await? else {
            return Ok(None);
        };
        if game.status == Status::Playing {
            let aborted = |_: &StoredGame| Finish {
                winner_seat: None,
                termination: Termination::Aborted,
            };
            match self.resign(id, aborted).await {
                // Ended meanwhile: annulled all the same.
                Ok(_) | Err(MoveError::NotPlaying(_)) => {}
                Err(e) => return Err(anyhow::anyhow!("annul {id}: {e}")),
            }
        }
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE games SET rated = 0 WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        // The rerating replays the stored changes: without its own, the game is left out.
        let counted = sqlx::query("DELETE FROM rating_changes WHERE game_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        self.log_in(&mut tx, actor, "annul", id, reason).await?;
        tx.commit().await?;
        if counted {
            self.rerate().await?;
        }
        Ok(Some(counted))
    }

    /// Decides the result of a game being played, logged as done by `actor` with `reason`:
    /// the game ends as `finish` says (the play layer's adjudication), through
    /// `Store::finish_in` like any end, so its rating, tournament standing and
    /// notifications are written with it, and the admin log's line (`adjudicate`, the game,
    /// `first|second|draw: reason`) too, all in one transaction. Refused as
    /// [`MoveError::NoSuchGame`] or [`MoveError::NotPlaying`] (waiting or finished).
    pub async fn adjudicate(
        &self,
        id: &str,
        finish: Finish,
        actor: &str,
        reason: &str,
    ) -> Result<StoredGame, MoveError<std::convert::Infallible>> {
        let mut tx = self.begin_write().await?;
        let game = self.locked_game(&mut tx, id).await?;
        if game.status != Status::Playing {
            return Err(MoveError::NotPlaying(game.status));
        }
        self.finish_in(&mut tx, id, game.ply, finish).await?;
        let result = match finish.winner_seat {
            Some(0) => "first",
            Some(_) => "second",
            None => "draw",
        };
        self.log_in(
            &mut tx,
            actor,
            "adjudicate",
            id,
            &format!("{result}: {reason}"),
        )
        .await?;
        tx.commit().await?;
        Ok(StoredGame {
            status: Status::Finished,
            finish: Some(finish),
            ..game
        })
    }

    /// The account of that name (in any case) within `tx`: its id, its name as written, and
    /// when it was banned.
    async fn named_in(
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        name: &str,
    ) -> anyhow::Result<Option<(i64, String, Option<i64>)>> {
        let row = sqlx::query("SELECT id, name, banned_ms FROM accounts WHERE name_key = $1")
            .bind(name.to_ascii_lowercase())
            .fetch_optional(&mut **tx)
            .await?;
        row.map(|row| Ok((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?)))
            .transpose()
    }

    /// Adds a line to the admin log within `tx`.
    pub(super) async fn log_in(
        &self,
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        actor: &str,
        action: &str,
        target: &str,
        detail: &str,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO admin_log (at_ms, actor, action, target, detail) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(self.now_ms())
        .bind(actor)
        .bind(action)
        .bind(target)
        .bind(detail)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The latest `limit` sign-ups (at most 1,000), newest first, only those
    /// from `address` when given.
    pub async fn recent_signups(
        &self,
        limit: u32,
        address: Option<&str>,
    ) -> anyhow::Result<Vec<Signup>> {
        let limit = i64::from(limit.min(MAX_LOG_LINES));
        let query = match address {
            Some(address) => sqlx::query(
                "SELECT name, created_ms, signup_addr FROM accounts WHERE signup_addr = $1 \
                 ORDER BY created_ms DESC, id DESC LIMIT $2",
            )
            .bind(address),
            None => sqlx::query(
                "SELECT name, created_ms, signup_addr FROM accounts \
                 ORDER BY created_ms DESC, id DESC LIMIT $1",
            ),
        };
        let rows = query.bind(limit).fetch_all(&self.pool).await?;
        rows.into_iter()
            .map(|row| {
                Ok(Signup {
                    name: row.try_get(0)?,
                    created_ms: row.try_get(1)?,
                    address: row.try_get(2)?,
                })
            })
            .collect()
    }

    /// The latest `limit` lines of the admin log, newest first.
    pub async fn admin_log(&self, limit: u32) -> anyhow::Result<Vec<AdminEntry>> {
        let rows = sqlx::query(
            "SELECT at_ms, actor, action, target, detail FROM admin_log ORDER BY id DESC LIMIT $1",
        )
        .bind(i64::from(limit.min(MAX_LOG_LINES)))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|row| {
                Ok(AdminEntry {
                    at_ms: row.try_get(0)?,
                    actor: row.try_get(1)?,
                    action: row.try_get(2)?,
                    target: row.try_get(3)?,
                    detail: row.try_get(4)?,
                })
            })
            .collect()
    }
}
