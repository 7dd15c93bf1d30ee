//! What the operators' tools store: roles, bans and the append-only admin log. A ban and its
//! log line are written in one transaction, and the account's credentials end in it.

use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::games::{Finish, MoveError, Status, StoredGame, Termination};
use super::pool::Store;
use crate::clock::{rfc3339, utc_words};
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

impl Role {
    /// A stored role's word read back; a word no role has is a corrupt row.
    pub(super) fn stored(word: &str) -> anyhow::Result<Role> {
        word.parse().map_err(|e: String| anyhow::anyhow!(e))
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

/// What a moderator orders of an account's standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BanOrder {
    /// Banned until a time (ms since the Unix epoch), or for good (`None`).
    Ban {
        /// When the ban ends by itself; `None`: only when lifted.
        until_ms: Option<i64>,
    },
    /// The ban lifted.
    Lift,
}

/// A ban as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BanTerms {
    /// Since when, in ms since the Unix epoch.
    pub since_ms: i64,
    /// Until when (`None`: until lifted).
    pub until_ms: Option<i64>,
    /// The moderator's reason (`None` for the bans of before reasons were kept).
    pub reason: Option<String>,
}

impl BanTerms {
    /// Reads the ban from the columns `banned_ms, ban_until_ms, ban_reason` starting at
    /// `first`; `None` for an account in good standing.
    pub(super) fn of_columns(row: &AnyRow, first: usize) -> anyhow::Result<Option<BanTerms>> {
        let since: Option<i64> = row.try_get(first)?;
        since
            .map(|since_ms| {
                Ok(BanTerms {
                    since_ms,
                    until_ms: row.try_get(first + 1)?,
                    reason: row.try_get(first + 2)?,
                })
            })
            .transpose()
    }

    /// The ban in words for its owner: "this account is banned until 8 December 2026 at
    /// 10:00 UTC (2026-12-08T10:00:00Z): spam".
    pub fn words(&self) -> String {
        let term = self
            .until_ms
            .map_or_else(String::new, |until| format!(" until {}", utc_words(until)));
        let reason = self
            .reason
            .as_deref()
            .map_or_else(String::new, |reason| format!(": {reason}"));
        format!("this account is banned{term}{reason}")
    }
}

/// One line of the admin log.
#[derive(Clone, Debug)]
pub struct AdminEntry {
    /// Its place in the log, increasing with time.
    pub id: i64,
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

/// Which lines of the admin log to read; every part left `None` lets all through.
#[derive(Clone, Debug, Default)]
pub struct LogFilter {
    /// Only the lines before this one (by id): the next page.
    pub before: Option<i64>,
    /// Only this actor's lines (an account's name, `operator:USER`, `system`).
    pub actor: Option<String>,
    /// Only this action's lines (`ban`, `mute`, ...).
    pub action: Option<String>,
    /// Only the lines about this account, game, room or report.
    pub target: Option<String>,
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
        let held = self.roles_of(account_id).await?;
        Ok(held.iter().any(|role| roles.contains(role)))
    }

    /// The roles the account holds.
    pub(crate) async fn roles_of(&self, account_id: i64) -> anyhow::Result<Vec<Role>> {
        let rows = sqlx::query("SELECT role FROM roles WHERE account_id = $1 ORDER BY role")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| Role::stored(&row.try_get::<String, _>(0)?))
            .collect()
    }

    /// Bans or unbans the account `name` as `order` says, logged as done by `actor` with
    /// `reason`; a ban ends every credential of the account and cancels its waiting
    /// challenges in the same transaction, and a second ban replaces the first's term and
    /// reason. `None` for no such account, else its id and whether anything changed (the
    /// same ban again, or lifting no ban, changes nothing and logs nothing).
    pub async fn set_banned(
        &self,
        name: &str,
        order: BanOrder,
        actor: &str,
        reason: &str,
    ) -> anyhow::Result<Option<(i64, bool)>> {
        let mut tx = self.begin_write().await?;
        let Some((id, shown, was)) = Self::named_in(&mut tx, name).await? else {
            return Ok(None);
        };
        let now = self.now_ms();
        let (until_ms, stays) = match order {
            BanOrder::Ban { until_ms } => (
                until_ms,
                was.as_ref().is_some_and(|was| {
                    was.until_ms == until_ms && was.reason.as_deref() == Some(reason)
                }),
            ),
            BanOrder::Lift => (None, was.is_none()),
        };
        if stays {
            return Ok(Some((id, false)));
        }
        let banning = matches!(order, BanOrder::Ban { .. });
        let since = banning.then(|| was.as_ref().map_or(now, |was| was.since_ms));
        sqlx::query(
            "UPDATE accounts SET banned_ms = $1, ban_until_ms = $2, ban_reason = $3 WHERE id = $4",
        )
        .bind(since)
        .bind(until_ms)
        .bind(banning.then_some(reason))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let ended = if banning && was.is_none() {
            let called_off = Self::cancel_challenges_of_in(&mut tx, id, now).await?;
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
        let (action, detail) = match order {
            BanOrder::Ban {
                until_ms: Some(until),
            } => ("ban", format!("until {}: {reason}", rfc3339(until))),
            BanOrder::Ban { until_ms: None } => ("ban", format!("for good: {reason}")),
            BanOrder::Lift => ("unban", reason.to_owned()),
        };
        self.log_in(&mut tx, actor, action, &shown, &detail).await?;
        tx.commit().await?;
        self.forget_credentials(ended);
        Ok(Some((id, true)))
    }

    /// Lifts the bans whose term ended by `now`, at most `limit` of them, each logged as
    /// done by `system`: the names of the accounts set free.
    pub async fn lift_ended_bans(&self, now: i64, limit: i64) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT name FROM accounts WHERE ban_until_ms <= $1 ORDER BY ban_until_ms LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut lifted = Vec::with_capacity(rows.len());
        for row in rows {
            let name: String = row.try_get(0)?;
            // Lifted or replaced meanwhile by a moderator: their word stands.
            let mut tx = self.begin_write().await?;
            let ended = sqlx::query(
                "UPDATE accounts SET banned_ms = NULL, ban_until_ms = NULL, ban_reason = NULL \
                 WHERE name = $1 AND ban_until_ms <= $2",
            )
            .bind(&name)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if ended {
                self.log_in(&mut tx, "system", "unban", &name, "the ban's term ended")
                    .await?;
                lifted.push(name);
            }
            tx.commit().await?;
        }
        Ok(lifted)
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
    /// its ban if it has one.
    pub(super) async fn named_in(
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        name: &str,
    ) -> anyhow::Result<Option<(i64, String, Option<BanTerms>)>> {
        let row = sqlx::query(
            "SELECT id, name, banned_ms, ban_until_ms, ban_reason FROM accounts WHERE name_key = $1",
        )
        .bind(name.to_ascii_lowercase())
        .fetch_optional(&mut **tx)
        .await?;
        row.map(|row| {
            Ok((
                row.try_get(0)?,
                row.try_get(1)?,
                BanTerms::of_columns(&row, 2)?,
            ))
        })
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

    /// The latest `limit` lines of the admin log that `filter` lets through, newest first.
    pub async fn admin_log(
        &self,
        filter: &LogFilter,
        limit: u32,
    ) -> anyhow::Result<Vec<AdminEntry>> {
        // Each filter is bound, or NULL and then true: one statement whatever is asked.
        let rows = sqlx::query(
            "SELECT id, at_ms, actor, action, target, detail FROM admin_log \
             WHERE id < $1 AND ($2 IS NULL OR actor = $2) AND ($3 IS NULL OR action = $3) \
             AND ($4 IS NULL OR target = $4) ORDER BY id DESC LIMIT $5",
        )
        .bind(filter.before.unwrap_or(i64::MAX))
        .bind(filter.actor.as_deref())
        .bind(filter.action.as_deref())
        .bind(filter.target.as_deref())
        // One past the most a page holds: the caller's look ahead for an older page.
        .bind(i64::from(limit.min(MAX_LOG_LINES + 1)))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|row| {
                Ok(AdminEntry {
                    id: row.try_get(0)?,
                    at_ms: row.try_get(1)?,
                    actor: row.try_get(2)?,
                    action: row.try_get(3)?,
                    target: row.try_get(4)?,
                    detail: row.try_get(5)?,
                })
            })
            .collect()
    }
}
