//! What the safety around the chats stores (`docs/CHAT.md`): blocks between accounts, a
//! moderator's mute of an account, and the moderators' queue of reports. Every moderator's
//! act is a line of the admin log, written in its transaction.

use std::collections::HashSet;

use sqlx::Row as _;
use sqlx::any::AnyRow;

use super::outbox::{Kind, Notice};
use super::pool::Store;
use crate::clock::utc_words;

/// What a report names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportTarget {
    /// A chat message, by id.
    Message(i64),
    /// An account, by id.
    Account(i64),
}

/// What kind of abuse a report names (`docs/CHAT.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportCategory {
    /// Insults, harassment, hate.
    Insult,
    /// Spam, advertising, flooding.
    Spam,
    /// Help from an engine or another person, or any other unfair play.
    Cheating,
    /// Anything else (the reporter's words say what).
    Other,
}

impl ReportCategory {
    /// Every category, in the order a form offers them.
    pub const ALL: [ReportCategory; 4] = [
        ReportCategory::Insult,
        ReportCategory::Spam,
        ReportCategory::Cheating,
        ReportCategory::Other,
    ];

    /// The category as stored and as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ReportCategory::Insult => "insult",
            ReportCategory::Spam => "spam",
            ReportCategory::Cheating => "cheating",
            ReportCategory::Other => "other",
        }
    }

    /// The category of a word; `None` for any other word.
    pub fn parse(word: &str) -> Option<ReportCategory> {
        ReportCategory::ALL
            .into_iter()
            .find(|category| category.as_str() == word)
    }
}

/// A moderator's mute of an account, still to run out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatMute {
    /// Until when, in ms since the Unix epoch.
    pub until_ms: i64,
    /// The moderator's reason (`None` for a mute made before reasons were kept).
    pub reason: Option<String>,
}

impl ChatMute {
    /// The mute in words for its account: until when (in words and RFC 3339, UTC) and why.
    pub fn words(&self) -> String {
        let until = utc_words(self.until_ms);
        match &self.reason {
            Some(reason) => format!("you are muted until {until}: {reason}"),
            None => format!("you are muted until {until}"),
        }
    }
}

/// A report in the moderators' queue.
#[derive(Clone, Debug)]
pub struct StoredReport {
    /// Its id.
    pub id: i64,
    /// Who filed it.
    pub reporter: String,
    /// The message it names, if it names one.
    pub message_id: Option<i64>,
    /// The account it names: the one named, or the message's author.
    pub account: String,
    /// Its category, if the reporter chose one.
    pub category: Option<ReportCategory>,
    /// The reporter's words (empty when a category alone says it).
    pub reason: String,
    /// When it was filed, in ms since the Unix epoch.
    pub at_ms: i64,
    /// When a moderator closed it, if one did.
    pub closed_ms: Option<i64>,
    /// Who closed it.
    pub closed_by: Option<String>,
}

/// A report's columns as [`report_of_row`] reads them, and the joins they need (`r` the
/// report, `m` the message it names).
const REPORT_COLUMNS: &str = "SELECT r.id, rep.name, r.message_id, COALESCE(acc.name, author.name), \
     r.reason, r.at_ms, r.closed_ms, r.closed_by, r.category \
     FROM reports r JOIN accounts rep ON rep.id = r.reporter_id \
     LEFT JOIN accounts acc ON acc.id = r.account_id \
     LEFT JOIN chat_messages m ON m.id = r.message_id \
     LEFT JOIN accounts author ON author.id = m.author_id";

fn report_of_row(row: &AnyRow) -> anyhow::Result<StoredReport> {
    let category: Option<String> = row.try_get(8)?;
    let category = match category {
        Some(word) => Some(
            ReportCategory::parse(&word)
                .ok_or_else(|| anyhow::anyhow!("reports.category: unknown {word:?}"))?,
        ),
        None => None,
    };
    Ok(StoredReport {
        id: row.try_get(0)?,
        reporter: row.try_get(1)?,
        message_id: row.try_get(2)?,
        account: row.try_get(3)?,
        category,
        reason: row.try_get(4)?,
        at_ms: row.try_get(5)?,
        closed_ms: row.try_get(6)?,
        closed_by: row.try_get(7)?,
    })
}

impl Store {
    /// Blocks (`blocked`) or unblocks `other` for `account_id`; whether anything changed.
    pub async fn set_blocked(
        &self,
        account_id: i64,
        other: i64,
        blocked: bool,
    ) -> anyhow::Result<bool> {
        let done = if blocked {
            sqlx::query(
                "INSERT INTO blocks (account_id, blocked_id, at_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (account_id, blocked_id) DO NOTHING",
            )
            .bind(account_id)
            .bind(other)
            .bind(self.now_ms())
            .execute(&self.pool)
            .await?
        } else {
            sqlx::query("DELETE FROM blocks WHERE account_id = $1 AND blocked_id = $2")
                .bind(account_id)
                .bind(other)
                .execute(&self.pool)
                .await?
        };
        Ok(done.rows_affected() > 0)
    }

    /// The accounts `account_id` blocked, by name, with when.
    pub async fn blocks_of(&self, account_id: i64) -> anyhow::Result<Vec<(String, i64)>> {
        let rows = sqlx::query(
            "SELECT a.name, b.at_ms FROM blocks b JOIN accounts a ON a.id = b.blocked_id \
             WHERE b.account_id = $1 ORDER BY a.name_key",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect()
    }

    /// Whether either of the two accounts blocked the other.
    pub(crate) async fn blocked_between(&self, one: i64, other: i64) -> anyhow::Result<bool> {
        let row = sqlx::query(
            "SELECT 1 FROM blocks WHERE (account_id = $1 AND blocked_id = $2) \
             OR (account_id = $2 AND blocked_id = $1)",
        )
        .bind(one)
        .bind(other)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Mutes the account `name` in every chat until `until_ms`, logged in the admin log as
    /// done by `actor` with `reason`, and tells the account until when and why in its inbox
    /// (all in one transaction); `None` for no such account, else its name as written.
    pub async fn mute_account(
        &self,
        name: &str,
        until_ms: i64,
        actor: &str,
        reason: &str,
    ) -> anyhow::Result<Option<String>> {
        let mut tx = self.begin_write().await?;
        let Some((id, shown, _)) = Self::named_in(&mut tx, name).await? else {
            return Ok(None);
        };
        sqlx::query(
            "UPDATE accounts SET chat_muted_until_ms = $1, chat_muted_reason = $2 WHERE id = $3",
        )
        .bind(until_ms)
        .bind(reason)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let detail = Self::mute_detail(until_ms, reason);
        self.log_in(&mut tx, actor, "mute", &shown, &detail).await?;
        let notice = Notice {
            account_id: id,
            kind: Kind::ChatMuted,
            game_id: None,
            room_id: None,
            tournament_id: None,
            message: format!(
                "You are muted in every chat until {}: {reason}",
                utc_words(until_ms)
            ),
            dedupe: Some(format!("mute:{id}:{until_ms}")),
        };
        self.notify_in(&mut tx, &notice).await?;
        tx.commit().await?;
        Ok(Some(shown))
    }

    /// A moderator's mute of the account, if it is still to run out.
    pub(crate) async fn chat_mute(&self, account_id: i64) -> anyhow::Result<Option<ChatMute>> {
        let row = sqlx::query(
            "SELECT chat_muted_until_ms, chat_muted_reason FROM accounts WHERE id = $1 \
             AND chat_muted_until_ms > $2",
        )
        .bind(account_id)
        .bind(self.now_ms())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(ChatMute {
                until_ms: row.try_get(0)?,
                reason: row.try_get(1)?,
            })
        })
        .transpose()
    }

    /// Of the messages of the chat `key` after the message `after`, those `reporter_id`
    /// reported: one query for a whole chat's read.
    pub(crate) async fn reported_in(
        &self,
        reporter_id: i64,
        key: &str,
        after: i64,
    ) -> anyhow::Result<HashSet<i64>> {
        let rows = sqlx::query(
            "SELECT DISTINCT r.message_id FROM reports r \
             JOIN chat_messages m ON m.id = r.message_id \
             WHERE r.reporter_id = $1 AND m.chat = $2 AND m.id > $3",
        )
        .bind(reporter_id)
        .bind(key)
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| Ok(row.try_get(0)?)).collect()
    }

    /// Files a report of `reporter_id` into the moderators' queue; its id.
    pub async fn file_report(
        &self,
        reporter_id: i64,
        target: &ReportTarget,
        category: Option<ReportCategory>,
        reason: &str,
    ) -> anyhow::Result<i64> {
        let (message, account) = match *target {
            ReportTarget::Message(id) => (Some(id), None),
            ReportTarget::Account(id) => (None, Some(id)),
        };
        let now = self.now_ms();
        let mut tx = self.begin_write().await?;
        let id: i64 = sqlx::query(
            "INSERT INTO reports (reporter_id, message_id, account_id, reason, at_ms, category) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(reporter_id)
        .bind(message)
        .bind(account)
        .bind(reason)
        .bind(now)
        .bind(category.map(ReportCategory::as_str))
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        // Each moderator and admin is told, in the report's transaction (the reporter
        // too, were they one, is not: they know).
        sqlx::query(
            "INSERT INTO outbox (account_id, kind, message, dedupe, created_ms, next_ms) \
             SELECT DISTINCT account_id, $1, $2, 'report:' || $3 || ':' || account_id, $4, $4 \
             FROM roles WHERE role IN ('moderator', 'admin') AND account_id <> $5 \
             ON CONFLICT (dedupe) DO NOTHING",
        )
        .bind(Kind::Report.as_str())
        .bind(match (category, reason) {
            (Some(category), "") => format!(
                "A report waits in the moderators' queue (report {id}): {}",
                category.as_str()
            ),
            (Some(category), reason) => format!(
                "A report waits in the moderators' queue (report {id}): {}: {reason}",
                category.as_str()
            ),
            (None, reason) => {
                format!("A report waits in the moderators' queue (report {id}): {reason}")
            }
        })
        .bind(id.to_string())
        .bind(now)
        .bind(reporter_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Up to `limit` reports with ids below `before` (all of them when `None`), newest
    /// first: the open ones only, or (`all`) the closed ones too.
    pub async fn reports(
        &self,
        all: bool,
        before: Option<i64>,
        limit: i64,
    ) -> anyhow::Result<Vec<StoredReport>> {
        let open = if all { "" } else { "AND r.closed_ms IS NULL" };
        let rows = sqlx::query(&format!(
            "{REPORT_COLUMNS} WHERE r.id < $1 {open} ORDER BY r.id DESC LIMIT $2"
        ))
        .bind(before.unwrap_or(i64::MAX))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(report_of_row).collect()
    }

    /// The latest `limit` reports about the account `account_id` (naming it, or a message
    /// it wrote), open or closed, newest first.
    pub async fn reports_about(
        &self,
        account_id: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<StoredReport>> {
        let rows = sqlx::query(&format!(
            "{REPORT_COLUMNS} WHERE r.account_id = $1 OR m.author_id = $1 \
             ORDER BY r.id DESC LIMIT $2"
        ))
        .bind(account_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(report_of_row).collect()
    }

    /// Closes a report, logged in the admin log as done by `actor` with `note`, and tells
    /// its reporter it was reviewed (without the note, the moderators' own), all in one
    /// transaction: `None` for no such report, else whether it was open.
    pub async fn close_report(
        &self,
        id: i64,
        actor: &str,
        note: &str,
    ) -> anyhow::Result<Option<bool>> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(&format!("{REPORT_COLUMNS} WHERE r.id = $1"))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let report = report_of_row(&row)?;
        let closed = report.closed_ms;
        if closed.is_some() {
            return Ok(Some(false));
        }
        sqlx::query("UPDATE reports SET closed_ms = $1, closed_by = $2 WHERE id = $3")
            .bind(self.now_ms())
            .bind(actor)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        self.log_in(
            &mut tx,
            actor,
            "close-report",
            &format!("report {id}"),
            note,
        )
        .await?;
        let reporter: i64 = sqlx::query("SELECT reporter_id FROM reports WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
        let what = if report.message_id.is_some() {
            format!("a message of {}", report.account)
        } else {
            report.account.clone()
        };
        let notice = Notice {
            account_id: reporter,
            kind: Kind::ReportClosed,
            game_id: None,
            room_id: None,
            tournament_id: None,
            message: format!(
                "Your report about {what} (report {id}) was reviewed by the moderators, \
                 who took the action they found right. Thank you for telling them."
            ),
            dedupe: Some(format!("report-closed:{id}")),
        };
        self.notify_in(&mut tx, &notice).await?;
        tx.commit().await?;
        Ok(Some(true))
    }
}
