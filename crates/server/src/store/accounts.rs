//! Accounts and their credentials: sign-up (with the look-alike name check), login,
//! tokens and sessions, a password change.

use std::sync::Arc;
use std::time::Duration;

use sqlx::Row as _;
use swapboard_play::names;
use tokio::sync::broadcast;

use super::admin::BanTerms;
use super::pool::{Backend, Store};
use super::rows::{CredentialKey, CredentialKind, Holder};
use crate::clock::millis;
use crate::limits::accounts::MAX_LISTED_CREDENTIALS;
use crate::limits::instances::CREDENTIAL_TTL;

/// What logging in needs to know of an account.
pub(crate) struct Login {
    pub(crate) account_id: i64,
    pub(crate) name: String,
    pub(crate) password_hash: String,
    /// The account's ban, if it is banned: it may not log in.
    pub(crate) ban: Option<BanTerms>,
    /// Whether the account is a guest's: it has no password and plays only the AI.
    pub(crate) guest: bool,
    /// Whether the account said it is played by a program (`POST /api/me/bot`).
    pub(crate) bot: bool,
}

/// What became of a sign-up.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NewAccount {
    /// Made, with this id.
    Created(i64),
    /// The name is taken, in some case.
    Taken,
    /// The name looks like this account's.
    LooksLike(String),
}

/// A credential as its holder lists it (never its secret).
#[derive(Clone, Debug)]
pub(crate) struct CredentialRow {
    /// The SHA-256 of its secret, in hex.
    pub(crate) secret_hash: String,
    /// A token or a session.
    pub(crate) kind: CredentialKind,
    /// When it was made.
    pub(crate) created_ms: i64,
    /// When it ends by itself, if it does.
    pub(crate) expires_ms: Option<i64>,
}

impl Store {
    /// Creates an account, unless its name is taken (in any case) or looks like one that is
    /// (the same [`names::skeleton`]: "rnike" beside "mike"). The look-alike test is part of
    /// the insert, so two sign-ups of look-alike names cannot both pass it on SQLite (one
    /// writer); on PostgreSQL two such inserts in the same instant may both land. `address`:
    /// the client's, kept for the administrators' list of sign-ups.
    pub(crate) async fn create_account(
        &self,
        name: &str,
        password_hash: &str,
        address: &str,
    ) -> anyhow::Result<NewAccount> {
        let skeleton = names::skeleton(name);
        let inserted = self
            .write_returning(
                sqlx::query(
                    "INSERT INTO accounts (name, name_key, password_hash, created_ms, \
                     name_skeleton, signup_addr) SELECT $1, $2, $3, $4, $5, $6 \
                     WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE name_skeleton = $5) \
                     RETURNING id",
                )
                .bind(name)
                .bind(name.to_ascii_lowercase())
                .bind(password_hash)
                .bind(self.now_ms())
                .bind(&skeleton)
                .bind(address),
            )
            .await;
        match inserted {
            Ok(Some(row)) => Ok(NewAccount::Created(row.try_get(0)?)),
            Ok(None) => match self.account_like(&skeleton).await? {
                Some(other) if other.eq_ignore_ascii_case(name) => Ok(NewAccount::Taken),
                Some(other) => Ok(NewAccount::LooksLike(other)),
                // The look-alike was deleted in between: the name is free, but say so
                // rather than loop.
                None => Ok(NewAccount::Taken),
            },
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(NewAccount::Taken),
            Err(e) => Err(e.into()),
        }
    }

    /// Creates a guest's account of this name (`guest-...`), with no password that can
    /// match. `None` when the name is taken: the caller draws another.
    pub(crate) async fn create_guest(&self, name: &str) -> anyhow::Result<Option<i64>> {
        let now = self.now_ms();
        let inserted = self
            .write_returning(
                sqlx::query(
                    "INSERT INTO accounts (name, name_key, password_hash, created_ms, \
                     name_skeleton, guest_ms) VALUES ($1, $2, '!', $3, $4, $3) RETURNING id",
                )
                .bind(name)
                .bind(name.to_ascii_lowercase())
                .bind(now)
                .bind(names::skeleton(name)),
            )
            .await;
        match inserted {
            Ok(Some(row)) => Ok(Some(row.try_get(0)?)),
            Ok(None) => Err(sqlx::Error::RowNotFound.into()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Turns a guest's account into an account with this name and password, keeping its id
    /// and so its games, lessons and puzzles: a sign-up from a guest session. The same
    /// checks as [`Store::create_account`] (the name taken, or looking like one that is);
    /// `Taken` also when the account is no longer a guest's (claimed in the meantime).
    /// `address`: the client's, for the administrators' list of sign-ups.
    pub(crate) async fn claim_guest(
        &self,
        guest_id: i64,
        name: &str,
        password_hash: &str,
        address: &str,
    ) -> anyhow::Result<NewAccount> {
        let skeleton = names::skeleton(name);
        // Listed among the sign-ups when claimed: made now, from this address.
        let updated = self
            .write_returning(
                sqlx::query(
                    "UPDATE accounts SET name = $1, name_key = $2, password_hash = $3, \
                     name_skeleton = $4, guest_ms = NULL, signup_addr = $6, created_ms = $7 \
                     WHERE id = $5 AND guest_ms IS NOT NULL \
                     AND NOT EXISTS (SELECT 1 FROM accounts WHERE name_skeleton = $4 \
                     AND id <> $5) RETURNING id",
                )
                .bind(name)
                .bind(name.to_ascii_lowercase())
                .bind(password_hash)
                .bind(&skeleton)
                .bind(guest_id)
                .bind(address)
                .bind(self.now_ms()),
            )
            .await;
        let outcome = match updated {
            Ok(Some(row)) => NewAccount::Created(row.try_get(0)?),
            Ok(None) => match self.account_like(&skeleton).await? {
                Some(other) if !other.eq_ignore_ascii_case(name) => NewAccount::LooksLike(other),
                _ => NewAccount::Taken,
            },
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => NewAccount::Taken,
            Err(e) => return Err(e.into()),
        };
        if matches!(outcome, NewAccount::Created(_)) {
            // The credentials and seats cached here name the guest; other instances' expire.
            self.caches.credentials.clear();
            self.caches.seats.clear();
        }
        Ok(outcome)
    }

    /// The name of an account whose name has this [`names::skeleton`], if any.
    pub(crate) async fn account_like(&self, skeleton: &str) -> anyhow::Result<Option<String>> {
        let row = sqlx::query("SELECT name FROM accounts WHERE name_skeleton = $1 LIMIT 1")
            .bind(skeleton)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| row.try_get(0)).transpose()?)
    }

    /// Gives every account made before skeletons were stored its [`names::skeleton`].
    pub(super) async fn fill_name_skeletons(&self) -> anyhow::Result<()> {
        let rows = sqlx::query("SELECT id, name FROM accounts WHERE name_skeleton IS NULL")
            .fetch_all(&self.pool)
            .await?;
        for row in rows {
            let id: i64 = row.try_get(0)?;
            let name: String = row.try_get(1)?;
            sqlx::query("UPDATE accounts SET name_skeleton = $1 WHERE id = $2")
                .bind(names::skeleton(&name))
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// The account of that name (in any case), if any.
    pub(crate) async fn login_of(&self, name: &str) -> anyhow::Result<Option<Login>> {
        let row = sqlx::query(
            "SELECT id, name, password_hash, guest_ms, bot, banned_ms, ban_until_ms, ban_reason \
             FROM accounts WHERE name_key = $1",
        )
        .bind(name.to_ascii_lowercase())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(Login {
                account_id: row.try_get(0)?,
                name: row.try_get(1)?,
                password_hash: row.try_get(2)?,
                guest: row.try_get::<Option<i64>, _>(3)?.is_some(),
                bot: row.try_get::<i64, _>(4)? != 0,
                ban: BanTerms::of_columns(&row, 5)?,
            })
        })
        .transpose()
    }

    /// Marks an account as played by a program, for good (as lichess's bot accounts): its
    /// games stay rated, and every list and page that names it says it is a bot.
    pub(crate) async fn mark_bot(&self, account_id: i64) -> anyhow::Result<()> {
        sqlx::query("UPDATE accounts SET bot = 1 WHERE id = $1")
            .bind(account_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Takes away what identifies an account, in one transaction: its name becomes
    /// `deleted:ID` (a name no sign-up can take), its password can match nothing, and its
    /// credentials, roles, ratings, notifications, mail address (with its confirmation
    /// token), pending password resets, push subscriptions and its choices are deleted. Its
    /// chat messages keep their place in each chat (ids, times, reports) but lose their
    /// text and read as hidden, so they show as removed. Its games and rooms stay, shown
    /// under the new name. The new name.
    pub(crate) async fn anonymise(&self, account_id: i64) -> anyhow::Result<String> {
        let neutral = format!("deleted:{account_id}");
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "UPDATE accounts SET name = $1, name_key = $1, name_skeleton = $1, password_hash = '!', \
             signup_addr = NULL WHERE id = $2",
        )
        .bind(&neutral)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        let ended = Self::end_credentials_in(&mut tx, account_id, "", "").await?;
        // A push already sent names the subscription; it goes before the subscription.
        sqlx::query(
            "DELETE FROM push_sent WHERE subscription_id IN \
             (SELECT id FROM push_subscriptions WHERE account_id = $1)",
        )
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE chat_messages SET text = '', hidden_ms = COALESCE(hidden_ms, $1) \
             WHERE author_id = $2",
        )
        .bind(self.now_ms())
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        let personal = [
            "roles",
            "ratings",
            "room_skills",
            "outbox",
            "email_addresses",
            "notification_prefs",
            "watchers",
            "vacation",
            "vacation_log",
            "blocks",
            "muted_chats",
            "push_subscriptions",
            "password_resets",
        ];
        for table in personal {
            sqlx::query(&format!("DELETE FROM {table} WHERE account_id = $1"))
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.forget_credentials(ended);
        // The seats cached here name the account; other instances' expire (SEATS_TTL).
        self.caches.seats.clear();
        Ok(neutral)
    }

    /// Stores a credential (by the hash of its secret) for an account, unless the account
    /// is banned (or gone): whether it was stored.
    ///
    /// A login reads the account, spends the password hash's time, then comes here: the ban
    /// is read again in the credential's own transaction, with the account's row locked
    /// against a ban on PostgreSQL (a ban's update waits for this insert, then its deletion
    /// of the account's credentials sees it; or this waits for the ban and reads it), and
    /// under SQLite's single writer. No credential outlives a ban, whatever the timing.
    pub(crate) async fn insert_credential(
        &self,
        secret_hash: &str,
        account_id: i64,
        kind: CredentialKind,
        expires_ms: Option<i64>,
    ) -> anyhow::Result<bool> {
        let lock = match self.backend {
            Backend::Postgres => " FOR SHARE",
            Backend::Sqlite => "",
        };
        let mut tx = self.begin_write().await?;
        let banned = sqlx::query(&format!(
            "SELECT banned_ms FROM accounts WHERE id = $1{lock}"
        ))
        .bind(account_id)
        .fetch_optional(&mut *tx)
        .await?
        .map(|row| row.try_get::<Option<i64>, _>(0))
        .transpose()?;
        if !matches!(banned, Some(None)) {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO credentials (secret_hash, account_id, kind, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(secret_hash)
        .bind(account_id)
        .bind(kind.as_str())
        .bind(self.now_ms())
        .bind(expires_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The account an unexpired credential of that kind acts for, unless it is banned.
    pub(crate) async fn holder_of(
        &self,
        secret_hash: &str,
        kind: CredentialKind,
    ) -> anyhow::Result<Option<Holder>> {
        let key = (secret_hash.to_owned(), kind);
        if let Some((holder, until)) = self.caches.credentials.get(&key)
            && self.now_ms() < until
        {
            return Ok(Some(holder));
        }
        let now = self.now_ms();
        let row = sqlx::query(
            "SELECT a.id, a.name, a.guest_ms, c.expires_ms FROM credentials c \
             JOIN accounts a ON a.id = c.account_id WHERE c.secret_hash = $1 AND c.kind = $2 \
             AND (c.expires_ms IS NULL OR c.expires_ms > $3) AND a.banned_ms IS NULL",
        )
        .bind(secret_hash)
        .bind(kind.as_str())
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let found = row
            .map(|row| {
                anyhow::Ok((
                    Holder {
                        account_id: row.try_get(0)?,
                        name: row.try_get(1)?,
                        guest: row.try_get::<Option<i64>, _>(2)?.is_some(),
                    },
                    row.try_get::<Option<i64>, _>(3)?,
                ))
            })
            .transpose()?;
        match found {
            Some((holder, expires_ms)) => {
                // Trusted from the cache no longer than the credential lasts.
                let left = expires_ms.map_or(CREDENTIAL_TTL, |expires| {
                    Duration::from_millis(u64::try_from(expires - now).unwrap_or(0))
                });
                let until = now.saturating_add(millis(left.min(CREDENTIAL_TTL)));
                self.caches.credentials.insert(key, (holder.clone(), until));
                Ok(Some(holder))
            }
            None => {
                self.caches.credentials.remove(&key);
                Ok(None)
            }
        }
    }

    /// The account's unexpired credentials, newest first (at most 500).
    pub(crate) async fn credentials_of(
        &self,
        account_id: i64,
    ) -> anyhow::Result<Vec<CredentialRow>> {
        let rows = sqlx::query(
            "SELECT secret_hash, kind, created_ms, expires_ms FROM credentials \
             WHERE account_id = $1 AND (expires_ms IS NULL OR expires_ms > $2) \
             ORDER BY created_ms DESC, secret_hash LIMIT $3",
        )
        .bind(account_id)
        .bind(self.now_ms())
        .bind(MAX_LISTED_CREDENTIALS)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let kind: String = row.try_get(1)?;
                Ok(CredentialRow {
                    secret_hash: row.try_get(0)?,
                    kind: CredentialKind::of_str(&kind),
                    created_ms: row.try_get(2)?,
                    expires_ms: row.try_get(3)?,
                })
            })
            .collect()
    }

    /// Ends the account's credentials whose hash starts with `prefix` (all of them for an
    /// empty prefix) except the one hashed `keep`; how many ended. Instances other than
    /// this one may trust an ended credential for [`CREDENTIAL_TTL`] more.
    pub(crate) async fn end_credentials(
        &self,
        account_id: i64,
        prefix: &str,
        keep: &str,
    ) -> anyhow::Result<u64> {
        let mut tx = self.begin_write().await?;
        let ended = Self::end_credentials_in(&mut tx, account_id, prefix, keep).await?;
        tx.commit().await?;
        Ok(self.forget_credentials(ended))
    }

    /// Sets the account's password hash and ends every other credential of it, in one
    /// transaction; how many credentials ended.
    pub(crate) async fn change_password(
        &self,
        account_id: i64,
        password_hash: &str,
        keep: &str,
    ) -> anyhow::Result<u64> {
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let ended = Self::end_credentials_in(&mut tx, account_id, "", keep).await?;
        tx.commit().await?;
        Ok(self.forget_credentials(ended))
    }

    pub(super) async fn end_credentials_in(
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        account_id: i64,
        prefix: &str,
        keep: &str,
    ) -> anyhow::Result<Vec<CredentialKey>> {
        let rows = sqlx::query(
            "DELETE FROM credentials WHERE account_id = $1 AND secret_hash <> $2 \
             AND secret_hash LIKE $3 RETURNING secret_hash, kind",
        )
        .bind(account_id)
        .bind(keep)
        // The prefix is hex (checked at the edge), so it holds no wildcard of LIKE.
        .bind(format!("{prefix}%"))
        .fetch_all(&mut **tx)
        .await?;
        rows.iter()
            .map(|row| {
                let kind: String = row.try_get(1)?;
                Ok((row.try_get(0)?, CredentialKind::of_str(&kind)))
            })
            .collect()
    }

    /// Drops ended credentials from this instance's cache and closes this instance's live
    /// sockets opened with them; how many there were.
    pub(super) fn forget_credentials(&self, ended: Vec<CredentialKey>) -> u64 {
        let count = ended.len() as u64;
        for key in &ended {
            self.caches.credentials.remove(key);
        }
        if !ended.is_empty() {
            // No socket listening is not an error.
            drop(self.ended.send(ended.into()));
        }
        count
    }

    /// The credentials this instance ends from now on, in batches: a live socket listens to
    /// close when its own ends ([`Store::holder_of`] tells of those ended elsewhere).
    pub(crate) fn ended_credentials(&self) -> broadcast::Receiver<Arc<[CredentialKey]>> {
        self.ended.subscribe()
    }

    /// Revokes a credential; whether one was there.
    pub(crate) async fn delete_credential(
        &self,
        secret_hash: &str,
        kind: CredentialKind,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query("DELETE FROM credentials WHERE secret_hash = $1 AND kind = $2")
            .bind(secret_hash)
            .bind(kind.as_str())
            .execute(&self.pool)
            .await?;
        // After the delete: a request reading the credential meanwhile may have cached it.
        self.forget_credentials(vec![(secret_hash.to_owned(), kind)]);
        Ok(done.rows_affected() > 0)
    }
}
