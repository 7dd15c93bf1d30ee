//! What the moderators' page reads and writes beyond the acts themselves (issue 48): an
//! account's file (standing, roles, sign-up address), the lists of the banned and the muted,
//! the moderators' notes on an account, and the roles' holders and their revocation.

use sqlx::Row as _;

use super::admin::{BanTerms, Role};
use super::pool::Store;
use crate::clock::rfc3339;

/// Which accounts a standing list names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The banned ones, latest ban first.
    Banned,
    /// The ones muted in the chats now, latest to speak again first.
    Muted,
}

/// An account as the standing lists show it.
#[derive(Clone, Debug)]
pub struct StandingLine {
    /// The account's name.
    pub name: String,
    /// Its ban, if banned.
    pub ban: Option<BanTerms>,
    /// Until when it is muted in every chat, if it is now.
    pub muted_until_ms: Option<i64>,
}

/// What the moderators know of an account, beyond its public profile.
#[derive(Clone, Debug)]
pub struct AccountFile {
    /// Its id.
    pub id: i64,
    /// Its name as written.
    pub name: String,
    /// When it was made, in ms since the Unix epoch.
    pub created_ms: i64,
    /// The client address it signed up from (`None` for accounts older than the record).
    pub signup_address: Option<String>,
    /// Whether it is a guest's.
    pub guest: bool,
    /// Whether it said it is played by a program.
    pub bot: bool,
    /// Its ban, if banned.
    pub ban: Option<BanTerms>,
    /// Until when it is muted in every chat, if it is now.
    pub muted_until_ms: Option<i64>,
    /// Why, when it is muted now (`None` for mutes of before reasons were kept).
    pub muted_reason: Option<String>,
    /// The roles it holds, with when each was granted.
    pub roles: Vec<(Role, i64)>,
}

/// A moderator's note on an account.
#[derive(Clone, Debug)]
pub struct Note {
    /// Who wrote it.
    pub author: String,
    /// What it says.
    pub text: String,
    /// When, in ms since the Unix epoch.
    pub at_ms: i64,
}

/// A role and its holder.
#[derive(Clone, Debug)]
pub struct RoleHolder {
    /// The account's name.
    pub name: String,
    /// The role.
    pub role: Role,
    /// When it was granted, in ms since the Unix epoch.
    pub granted_ms: i64,
}

impl Store {
    /// Up to `limit` accounts of that standing at `now`.
    pub async fn standing_list(
        &self,
        standing: Standing,
        now: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<StandingLine>> {
        const COLUMNS: &str =
            "SELECT name, banned_ms, ban_until_ms, ban_reason, chat_muted_until_ms FROM accounts";
        let sql = match standing {
            Standing::Banned => format!(
                "{COLUMNS} WHERE banned_ms IS NOT NULL ORDER BY banned_ms DESC, id DESC LIMIT $1"
            ),
            Standing::Muted => format!(
                "{COLUMNS} WHERE chat_muted_until_ms > $2 \
                 ORDER BY chat_muted_until_ms DESC, id DESC LIMIT $1"
            ),
        };
        let mut query = sqlx::query(&sql).bind(limit);
        if standing == Standing::Muted {
            query = query.bind(now);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| {
                Ok(StandingLine {
                    name: row.try_get(0)?,
                    ban: BanTerms::of_columns(row, 1)?,
                    muted_until_ms: row
                        .try_get::<Option<i64>, _>(4)?
                        .filter(|&until| until > now),
                })
            })
            .collect()
    }

    /// The file of the account of that name (in any case), as it stands at `now`.
    pub async fn account_file(&self, name: &str, now: i64) -> anyhow::Result<Option<AccountFile>> {
        let row = sqlx::query(
            "SELECT id, name, created_ms, signup_addr, guest_ms, bot, chat_muted_until_ms, \
             banned_ms, ban_until_ms, ban_reason, chat_muted_reason FROM accounts WHERE name_key = $1",
        )
        .bind(name.to_ascii_lowercase())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let id: i64 = row.try_get(0)?;
        let muted_until_ms = row
            .try_get::<Option<i64>, _>(6)?
            .filter(|&until| until > now);
        let roles =
            sqlx::query("SELECT role, granted_ms FROM roles WHERE account_id = $1 ORDER BY role")
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|role| {
                    Ok((
                        Role::stored(&role.try_get::<String, _>(0)?)?,
                        role.try_get(1)?,
                    ))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Some(AccountFile {
            id,
            name: row.try_get(1)?,
            created_ms: row.try_get(2)?,
            signup_address: row.try_get(3)?,
            guest: row.try_get::<Option<i64>, _>(4)?.is_some(),
            bot: row.try_get::<i64, _>(5)? != 0,
            muted_until_ms,
            muted_reason: muted_until_ms.and(row.try_get::<Option<String>, _>(10)?),
            ban: BanTerms::of_columns(&row, 7)?,
            roles,
        }))
    }

    /// Adds a moderator's note on the account `account_id`.
    pub async fn add_note(&self, account_id: i64, author: &str, text: &str) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO moderator_notes (account_id, author, text, at_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(account_id)
        .bind(author)
        .bind(text)
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The latest `limit` notes on the account `account_id`, newest first.
    pub async fn notes_on(&self, account_id: i64, limit: i64) -> anyhow::Result<Vec<Note>> {
        let rows = sqlx::query(
            "SELECT author, text, at_ms FROM moderator_notes WHERE account_id = $1 \
             ORDER BY id DESC LIMIT $2",
        )
        .bind(account_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Note {
                    author: row.try_get(0)?,
                    text: row.try_get(1)?,
                    at_ms: row.try_get(2)?,
                })
            })
            .collect()
    }

    /// Takes `role` from the account `name`, logged as done by `actor`: `None` for no such
    /// account, else whether it held the role.
    pub async fn revoke_role(
        &self,
        name: &str,
        role: Role,
        actor: &str,
    ) -> anyhow::Result<Option<bool>> {
        let mut tx = self.begin_write().await?;
        let Some((id, shown, _)) = Self::named_in(&mut tx, name).await? else {
            return Ok(None);
        };
        let revoked = sqlx::query("DELETE FROM roles WHERE account_id = $1 AND role = $2")
            .bind(id)
            .bind(role.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if revoked {
            self.log_in(&mut tx, actor, "revoke", &shown, role.as_str())
                .await?;
        }
        tx.commit().await?;
        Ok(Some(revoked))
    }

    /// Every role and its holder, by name.
    pub async fn role_holders(&self) -> anyhow::Result<Vec<RoleHolder>> {
        let rows = sqlx::query(
            "SELECT a.name, r.role, r.granted_ms FROM roles r JOIN accounts a ON a.id = r.account_id \
             ORDER BY a.name_key, r.role",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(RoleHolder {
                    name: row.try_get(0)?,
                    role: Role::stored(&row.try_get::<String, _>(1)?)?,
                    granted_ms: row.try_get(2)?,
                })
            })
            .collect()
    }

    /// Lets the account `name` write in the chats again, logged as done by `actor` with
    /// `reason`: `None` for no such account, else whether it was muted at `now`.
    pub async fn unmute_account(
        &self,
        name: &str,
        now: i64,
        actor: &str,
        reason: &str,
    ) -> anyhow::Result<Option<bool>> {
        let mut tx = self.begin_write().await?;
        let Some((id, shown, _)) = Self::named_in(&mut tx, name).await? else {
            return Ok(None);
        };
        let muted = sqlx::query(
            "UPDATE accounts SET chat_muted_until_ms = NULL, chat_muted_reason = NULL \
             WHERE id = $1 AND chat_muted_until_ms > $2",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if muted {
            self.log_in(&mut tx, actor, "unmute", &shown, reason)
                .await?;
        }
        tx.commit().await?;
        Ok(Some(muted))
    }

    /// The words of a mute's log line: until when, and why.
    pub(super) fn mute_detail(until_ms: i64, reason: &str) -> String {
        format!("until {}: {reason}", rfc3339(until_ms))
    }
}
