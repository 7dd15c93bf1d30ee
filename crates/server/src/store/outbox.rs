//! The notifications' storage (`docs/NOTIFICATIONS.md`): the outbox, written in the
//! transaction of each event and read as the account's inbox; the delivery worker's claims
//! on it. What it reads about a person (mail addresses, their confirmation, the choices per
//! kind, who watches a game live) is in `addresses.rs`.
//!
//! A notification is written by the event's own transaction ([`Store::notify_in`]), so it
//! exists exactly when the event does. Delivery claims rows (`FOR UPDATE SKIP LOCKED` on
//! PostgreSQL; SQLite runs one writer at a time) and marks a row `sending` in a committed
//! transaction before anything leaves the server: a worker that dies mid-send leaves it
//! `sending`, and the next claim finds its lease passed and marks it `lost` instead of
//! sending it again. A mail is thus sent at most once, on any number of instances and
//! restarts; a send that failed (the mail server refused it, or could not be reached) goes
//! back to `pending` with a growing delay.

use sqlx::any::AnyRow;
use sqlx::{Any, Row as _, Transaction};

use super::games::{Finish, StoredGame};
use super::pool::{Backend, Store};
use super::rows::SeatRow;
use crate::limits::notifications::PAGE_LIMIT;
use swapboard_play::{Termination, TimeControl};

/// What a notification is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// The other player moved: it is the account's turn.
    YourTurn,
    /// Someone challenged the account (a game kept for it).
    Challenge,
    /// A game master gave the account a seat of a Swap 61 room.
    Invitation,
    /// A game of the account's ended: the result and the rating change.
    GameEnded,
    /// The opponent of a finished game offers a rematch.
    Rematch,
    /// A Swap 61 round opened.
    RoundOpened,
    /// A Swap 61 round was resolved: the scores.
    RoundResults,
    /// A Swap 61 round closes in 24 hours and the seat has not marked final.
    Deadline24h,
    /// A Swap 61 round closes in an hour and the seat has not marked final.
    Deadline1h,
    /// A tournament the account entered started, or paired it in a new round.
    Tournament,
    /// A new password was asked for ("forgot password"): the link to choose it is mailed
    /// whatever the account's choices (it is no kind they choose for).
    PasswordReset,
    /// A report was filed into the moderators' queue: told to each moderator and admin
    /// (no kind the others choose for).
    Report,
    /// A moderator closed a report: told to its reporter (`docs/CHAT.md`).
    ReportClosed,
    /// A moderator muted the account in every chat: until when, and why.
    ChatMuted,
    /// A seat wrote in its private thread with the game master: told to the game master,
    /// one unread notice per thread however many messages.
    ThreadMessage,
}

impl Kind {
    /// Every kind, in the order the preferences list them.
    pub(crate) const ALL: [Kind; 10] = [
        Kind::YourTurn,
        Kind::Challenge,
        Kind::Invitation,
        Kind::GameEnded,
        Kind::Rematch,
        Kind::RoundOpened,
        Kind::RoundResults,
        Kind::Deadline24h,
        Kind::Deadline1h,
        Kind::Tournament,
    ];

    /// The kind as stored and as the API writes it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::Challenge => "challenge",
            Kind::Invitation => "invitation",
            Kind::GameEnded => "game_ended",
            Kind::Rematch => "rematch",
            Kind::RoundOpened => "round_opened",
            Kind::RoundResults => "round_results",
            Kind::Deadline24h => "deadline_24h",
            Kind::Deadline1h => "deadline_1h",
            Kind::Tournament => "tournament",
            Kind::PasswordReset => "password_reset",
            Kind::Report => "report",
            Kind::ReportClosed => "report_closed",
            Kind::ChatMuted => "chat_muted",
            Kind::ThreadMessage => "thread_message",
        }
    }

    /// The kind of a stored name (any kind).
    pub(crate) fn parse(text: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .chain([
                Kind::PasswordReset,
                Kind::Report,
                Kind::ReportClosed,
                Kind::ChatMuted,
                Kind::ThreadMessage,
            ])
            .find(|kind| kind.as_str() == text)
    }

    /// The kind of a name an account chooses mail for (one of [`Kind::ALL`]).
    pub(crate) fn choosable(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

/// How an account wants a kind of notification mailed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mail {
    /// A mail each time (your turn: at most one per game per 10 minutes).
    Immediate,
    /// Gathered into one mail a day, at the account's hour.
    Digest,
    /// Never mailed (still in the inbox).
    Off,
}

impl Mail {
    /// The choice as stored and as the API writes it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Mail::Immediate => "immediate",
            Mail::Digest => "digest",
            Mail::Off => "off",
        }
    }

    /// The choice of a stored or requested word.
    pub(crate) fn parse(text: &str) -> Option<Mail> {
        [Mail::Immediate, Mail::Digest, Mail::Off]
            .into_iter()
            .find(|mail| mail.as_str() == text)
    }
}

/// A notification to write in the transaction of its event.
#[derive(Clone, Debug)]
pub(crate) struct Notice<'a> {
    /// Whom it tells.
    pub(crate) account_id: i64,
    /// What it is about.
    pub(crate) kind: Kind,
    /// The game it is about, if any.
    pub(crate) game_id: Option<&'a str>,
    /// The Swap 61 room it is about, if any.
    pub(crate) room_id: Option<&'a str>,
    /// The tournament it is about, if any (its page when no game is named).
    pub(crate) tournament_id: Option<&'a str>,
    /// What it says, for a person: never a secret.
    pub(crate) message: String,
    /// A key that makes a second writing of the same event a no-op.
    pub(crate) dedupe: Option<String>,
}

/// A notification as stored.
#[derive(Clone, Debug)]
pub(crate) struct StoredNotice {
    pub(crate) id: i64,
    pub(crate) account_id: i64,
    pub(crate) kind: Kind,
    pub(crate) game_id: Option<String>,
    pub(crate) room_id: Option<String>,
    pub(crate) tournament_id: Option<String>,
    pub(crate) message: String,
    pub(crate) created_ms: i64,
    pub(crate) read_ms: Option<i64>,
    /// Its delivery: `pending`, `sending`, `digest`, `done`, `failed` or `lost`.
    pub(crate) state: String,
    /// Attempts at delivering it so far.
    pub(crate) attempts: u32,
}

impl StoredNotice {
    /// The site's pages it is about, most specific first: its game, its room, its
    /// tournament (a round's notice names the game and the tournament).
    pub(crate) fn pages(&self) -> Vec<String> {
        let game = self.game_id.as_ref().map(|id| format!("/games/{id}"));
        let room = self.room_id.as_ref().map(|id| format!("/rooms/{id}"));
        let tournament = self
            .tournament_id
            .as_ref()
            .map(|id| format!("/tournaments/{id}"));
        [game, room, tournament].into_iter().flatten().collect()
    }
}

/// An account's mail address as stored (never its confirmation secret).
#[derive(Clone, Debug)]
pub(crate) struct StoredAddress {
    pub(crate) email: String,
    pub(crate) confirmed_ms: Option<i64>,
    pub(crate) digest_hour: u8,
    /// When it was given.
    pub(crate) created_ms: i64,
}

/// What the worker needs to decide about mailing a claimed notification.
#[derive(Clone, Debug)]
pub(crate) struct MailPlan {
    /// The confirmed address, if any.
    pub(crate) address: Option<String>,
    /// The account's choice for the kind.
    pub(crate) mail: Mail,
    /// A your-turn mail of the same game went out less than the throttle ago.
    pub(crate) throttled: bool,
    /// The account watches the game live now.
    pub(crate) watching: bool,
}

/// A confirmed address whose daily digest is due, and the notifications it gathers.
#[derive(Clone, Debug)]
pub(crate) struct Digest {
    pub(crate) account_id: i64,
    pub(crate) email: String,
    pub(crate) notices: Vec<StoredNotice>,
}

/// A socket's presence row older than this is its dead instance's: the socket is gone.
pub(crate) const WATCH_STALE_MS: i64 = 60_000;

const NOTICE_COLUMNS: &str = "id, account_id, kind, game_id, room_id, tournament_id, message, created_ms, \
                              read_ms, state, attempts";

fn notice_of_row(row: &AnyRow) -> anyhow::Result<StoredNotice> {
    let kind: String = row.try_get("kind")?;
    let attempts: i64 = row.try_get("attempts")?;
    Ok(StoredNotice {
        id: row.try_get("id")?,
        account_id: row.try_get("account_id")?,
        kind: Kind::parse(&kind).ok_or_else(|| anyhow::anyhow!("outbox.kind: unknown {kind:?}"))?,
        game_id: row.try_get("game_id")?,
        room_id: row.try_get("room_id")?,
        tournament_id: row.try_get("tournament_id")?,
        message: row.try_get("message")?,
        created_ms: row.try_get("created_ms")?,
        read_ms: row.try_get("read_ms")?,
        state: row.try_get("state")?,
        attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
    })
}

impl Store {
    /// Writes a notification in the transaction of its event; a second one with the same
    /// `dedupe` key is dropped.
    pub(crate) async fn notify_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        notice: &Notice<'_>,
    ) -> sqlx::Result<()> {
        let now = self.now_ms();
        sqlx::query(
            "INSERT INTO outbox (account_id, kind, game_id, room_id, tournament_id, message, \
             dedupe, created_ms, next_ms) VALUES ($1, $2, $3, $4, $8, $5, $6, $7, $7) \
             ON CONFLICT (dedupe) DO NOTHING",
        )
        .bind(notice.account_id)
        .bind(notice.kind.as_str())
        .bind(notice.game_id)
        .bind(notice.room_id)
        .bind(&notice.message)
        .bind(notice.dedupe.as_deref())
        .bind(now)
        .bind(notice.tournament_id)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The account's notifications, newest first, older than `before` (an id) when given.
    pub(crate) async fn inbox(
        &self,
        account_id: i64,
        before: Option<i64>,
        limit: u32,
    ) -> anyhow::Result<Vec<StoredNotice>> {
        let rows = sqlx::query(&format!(
            "SELECT {NOTICE_COLUMNS} FROM outbox WHERE account_id = $1 \
             AND ($2 IS NULL OR id < $2) ORDER BY id DESC LIMIT $3"
        ))
        .bind(account_id)
        .bind(before)
        .bind(i64::from(limit.min(PAGE_LIMIT)))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(notice_of_row).collect()
    }

    /// How many of the account's notifications are unread.
    pub(crate) async fn unread(&self, account_id: i64) -> anyhow::Result<u64> {
        let row =
            sqlx::query("SELECT COUNT(*) FROM outbox WHERE account_id = $1 AND read_ms IS NULL")
                .bind(account_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(u64::try_from(row.try_get::<i64, _>(0)?).unwrap_or(0))
    }

    /// Marks the account's notifications read: those of `ids`, or all when `None`. How many
    /// were unread.
    pub(crate) async fn mark_read(
        &self,
        account_id: i64,
        ids: Option<&[i64]>,
    ) -> anyhow::Result<u64> {
        let now = self.now_ms();
        let done = match ids {
            None => sqlx::query(
                "UPDATE outbox SET read_ms = $1 WHERE account_id = $2 AND read_ms IS NULL",
            )
            .bind(now)
            .bind(account_id)
            .execute(&self.pool)
            .await?
            .rows_affected(),
            Some(ids) => {
                let mut tx = self.begin_write().await?;
                let mut done = 0;
                for id in ids {
                    done += sqlx::query(
                        "UPDATE outbox SET read_ms = $1 WHERE account_id = $2 AND id = $3 \
                         AND read_ms IS NULL",
                    )
                    .bind(now)
                    .bind(account_id)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                }
                tx.commit().await?;
                done
            }
        };
        Ok(done)
    }

    /// Deletes the account's notifications (the inbox and what delivery recorded of it).
    pub(crate) async fn delete_notifications(&self, account_id: i64) -> anyhow::Result<u64> {
        let done = sqlx::query("DELETE FROM outbox WHERE account_id = $1")
            .bind(account_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// The notifications waiting to be delivered (a count over the index of due rows).
    pub(crate) async fn outbox_pending(&self) -> anyhow::Result<i64> {
        Ok(
            sqlx::query_scalar("SELECT count(*) FROM outbox WHERE state = 'pending'")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Marks `lost` the rows whose sender's lease passed mid-send (never sent again). How
    /// many.
    pub(crate) async fn mark_lost_notices(&self, now: i64) -> anyhow::Result<u64> {
        let lost = sqlx::query(
            "UPDATE outbox SET state = 'lost', outcome = 'its sender stopped mid-send', \
             done_ms = $1 WHERE state = 'sending' AND claimed_until_ms <= $1",
        )
        .bind(now)
        .execute(&self.pool)
        .await?;
        if lost.rows_affected() > 0 {
            tracing::warn!(
                "notifications: {} deliveries whose sender stopped mid-send are not retried",
                lost.rows_affected()
            );
        }
        Ok(lost.rows_affected())
    }

    /// Settles at once, in one statement, up to `limit` due rows that only the inbox can
    /// show: their account has no browser to push to and no mail is to go (no mailer on
    /// this server (`mailing` false), no confirmed address, or that kind's mail turned off).
    /// The accounts whose inbox gained a row, one per row. A password reset is never
    /// settled so: its mail goes whatever the choices.
    pub(crate) async fn settle_inbox_only(
        &self,
        now: i64,
        mailing: bool,
        limit: u32,
    ) -> anyhow::Result<Vec<i64>> {
        let skip_locked = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE outbox SET state = 'done', outcome = 'inbox', done_ms = $1, \
             attempts = attempts + 1 WHERE id IN (SELECT o.id FROM outbox o \
             WHERE o.state = 'pending' AND o.next_ms <= $1 AND o.kind <> 'password_reset' \
             AND NOT EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.account_id = o.account_id) \
             AND ($2 = 0 OR NOT EXISTS (SELECT 1 FROM email_addresses e \
               WHERE e.account_id = o.account_id AND e.confirmed_ms IS NOT NULL) \
             OR EXISTS (SELECT 1 FROM notification_prefs c WHERE c.account_id = o.account_id \
               AND c.kind = o.kind AND c.mail = 'off')) \
             ORDER BY o.next_ms, o.id LIMIT $3{skip_locked}) RETURNING account_id"
        );
        let mut tx = self.begin_write().await?;
        let rows = sqlx::query(&sql)
            .bind(now)
            .bind(i64::from(mailing))
            .bind(i64::from(limit))
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        rows.iter()
            .map(|row| Ok(row.try_get::<i64, _>(0)?))
            .collect()
    }

    /// The delivery worker's claim: takes the first pending row due at `now` as this
    /// worker's until `lease_until`, marked `sending` and committed before anything is
    /// sent. Claims never overlap, on any number of instances.
    pub(crate) async fn claim_notice(
        &self,
        now: i64,
        lease_until: i64,
    ) -> anyhow::Result<Option<StoredNotice>> {
        let skip_locked = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        // A claim whose commit failed unseen would send a notice whose claim is not held.
        let sql = format!(
            "UPDATE outbox SET state = 'sending', claimed_until_ms = $1, attempts = attempts + 1 \
             WHERE id IN (SELECT id FROM outbox WHERE state = 'pending' AND next_ms <= $2 \
             ORDER BY next_ms, id LIMIT 1{skip_locked}) RETURNING {NOTICE_COLUMNS}"
        );
        let row = self
            .write_returning(sqlx::query(&sql).bind(lease_until).bind(now))
            .await?;
        row.as_ref().map(notice_of_row).transpose()
    }

    /// Ends a claimed row's delivery: `state` `done` (with what was done), `digest` (held
    /// for the daily digest) or `failed` (given up, with why). `unsubscribe_hash`: the hash
    /// of the unsubscribe secret its mail carried.
    pub(crate) async fn settle_notice(
        &self,
        id: i64,
        state: &str,
        outcome: &str,
        unsubscribe_hash: Option<&str>,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE outbox SET state = $1, outcome = $2, done_ms = $3, claimed_until_ms = NULL, \
             unsubscribe_hash = COALESCE($4, unsubscribe_hash) WHERE id = $5",
        )
        .bind(state)
        .bind(outcome)
        .bind(self.now_ms())
        .bind(unsubscribe_hash)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Puts a claimed row back for another try at `next_ms`, with why this one failed.
    pub(crate) async fn retry_notice(
        &self,
        id: i64,
        next_ms: i64,
        why: &str,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE outbox SET state = 'pending', next_ms = $1, outcome = $2, \
             claimed_until_ms = NULL WHERE id = $3",
        )
        .bind(next_ms)
        .bind(why)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// What the worker needs to decide about mailing `notice` at `now`: the confirmed
    /// address, the choice for its kind, whether a your-turn mail of its game went out
    /// within `throttle_ms`, and whether the account watches its game live.
    pub(crate) async fn mail_plan(
        &self,
        notice: &StoredNotice,
        now: i64,
        throttle_ms: i64,
    ) -> anyhow::Result<MailPlan> {
        let address = sqlx::query(
            "SELECT email FROM email_addresses WHERE account_id = $1 AND confirmed_ms IS NOT NULL",
        )
        .bind(notice.account_id)
        .fetch_optional(&self.pool)
        .await?
        .map(|row| row.try_get::<String, _>(0))
        .transpose()?;
        let mail =
            sqlx::query("SELECT mail FROM notification_prefs WHERE account_id = $1 AND kind = $2")
                .bind(notice.account_id)
                .bind(notice.kind.as_str())
                .fetch_optional(&self.pool)
                .await?
                .map(|row| row.try_get::<String, _>(0))
                .transpose()?
                .and_then(|word| Mail::parse(&word))
                .unwrap_or(Mail::Immediate);
        let (mut throttled, mut watching) = (false, false);
        if let (Kind::YourTurn, Some(game)) = (notice.kind, notice.game_id.as_deref()) {
            throttled = sqlx::query(
                "SELECT 1 FROM outbox WHERE account_id = $1 AND game_id = $2 \
                 AND kind = 'your_turn' AND outcome = 'mail' AND done_ms > $3 LIMIT 1",
            )
            .bind(notice.account_id)
            .bind(game)
            .bind(now - throttle_ms)
            .fetch_optional(&self.pool)
            .await?
            .is_some();
            watching = sqlx::query(
                "SELECT 1 FROM watchers WHERE account_id = $1 AND game_id = $2 \
                 AND seen_ms > $3 LIMIT 1",
            )
            .bind(notice.account_id)
            .bind(game)
            .bind(now - WATCH_STALE_MS)
            .fetch_optional(&self.pool)
            .await?
            .is_some();
        }
        Ok(MailPlan {
            address,
            mail,
            throttled,
            watching,
        })
    }

    /// Claims one daily digest due at `now` (the account's hour has come and no digest
    /// went today): the address is stamped sent and its held notifications move to
    /// `sending`, in one committed transaction, so a digest is sent at most once. `None`
    /// when no digest is due; a digest with no notification when the address had none
    /// held. `day_start` is the start of the day now (UTC, ms), `hour` the hour now (UTC).
    pub(crate) async fn claim_digest(
        &self,
        now: i64,
        day_start: i64,
        hour: u8,
        lease_until: i64,
    ) -> anyhow::Result<Option<Digest>> {
        let mut tx = self.begin_write().await?;
        let skip_locked = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let due = sqlx::query(&format!(
            "SELECT account_id, email FROM email_addresses WHERE confirmed_ms IS NOT NULL \
             AND digest_hour <= $1 AND (digest_sent_ms IS NULL OR digest_sent_ms < $2) \
             LIMIT 1{skip_locked}"
        ))
        .bind(i64::from(hour))
        .bind(day_start)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = due else {
            return Ok(None);
        };
        let account_id: i64 = row.try_get("account_id")?;
        sqlx::query("UPDATE email_addresses SET digest_sent_ms = $1 WHERE account_id = $2")
            .bind(now)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let rows = sqlx::query(&format!(
            "UPDATE outbox SET state = 'sending', claimed_until_ms = $1, \
             attempts = attempts + 1 WHERE id IN (SELECT id FROM outbox \
             WHERE account_id = $2 AND state = 'digest' ORDER BY id LIMIT {PAGE_LIMIT}) \
             RETURNING {NOTICE_COLUMNS}"
        ))
        .bind(lease_until)
        .bind(account_id)
        .fetch_all(&mut *tx)
        .await?;
        let mut notices = rows
            .iter()
            .map(notice_of_row)
            .collect::<anyhow::Result<Vec<_>>>()?;
        notices.sort_by_key(|notice| notice.id);
        let digest = Digest {
            account_id,
            email: row.try_get("email")?,
            notices,
        };
        tx.commit().await?;
        Ok(Some(digest))
    }

    /// The seats of the Swap 61 rounds closing between `from` and `to` whose player has not
    /// marked final: (account, room, round, deadline).
    pub(crate) async fn unfinal_seats(
        &self,
        from: i64,
        to: i64,
    ) -> anyhow::Result<Vec<(i64, String, u8, i64)>> {
        let rows = sqlx::query(&format!(
            "SELECT s.account_id, r.id, r.round, r.deadline_ms FROM rooms r \
             JOIN room_seats s ON s.room_id = r.id \
             WHERE r.status = 'playing' AND r.deadline_ms > $1 AND r.deadline_ms <= $2 \
             AND s.account_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM room_submissions u \
             WHERE u.room_id = r.id AND u.round = r.round AND u.seat = s.seat AND u.is_final = 1) \
             ORDER BY r.deadline_ms LIMIT {PAGE_LIMIT}"
        ))
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let round: i64 = row.try_get(2)?;
                Ok((
                    row.try_get(0)?,
                    row.try_get(1)?,
                    u8::try_from(round)?,
                    row.try_get(3)?,
                ))
            })
            .collect()
    }

    /// Writes notifications that need no event of their own (the reminders), each in its
    /// own transaction; the dedupe keys make a second writing a no-op.
    pub(crate) async fn notify_all(&self, notices: &[Notice<'_>]) -> anyhow::Result<()> {
        for notice in notices {
            let mut tx = self.begin_write().await?;
            self.notify_in(&mut tx, notice).await?;
            tx.commit().await?;
        }
        Ok(())
    }
}

/// A game's title, or its stored name for one this version does not know.
pub(super) fn title_of(game: &str) -> String {
    game.parse::<swapboard_play::GameId>()
        .map_or_else(|_| game.to_owned(), |id| id.title().to_owned())
}

/// The events of games and rooms, written by their transactions.
impl Store {
    /// In a move's transaction: tells the player of the seat to move (the other of the
    /// seat that made the last ply: passes the rules force are plies of their own) that it
    /// is their turn, in one statement at most, from the game's seats the caller read. Told
    /// nothing: an AI seat; a player of a live-clock game (they are at the board, and a
    /// notice a move would flood the inbox); a player watching the game live now.
    pub(crate) async fn your_turn_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        game: &StoredGame,
        seats: &[SeatRow],
        to_move: u8,
        ply: u32,
    ) -> anyhow::Result<()> {
        if matches!(game.clock, TimeControl::Live { .. }) {
            return Ok(());
        }
        let seat = |index: u8| seats.iter().find(|row| row.seat == index);
        let Some((account_id, _)) = seat(to_move)
            .filter(|row| row.ai_level.is_none())
            .and_then(|row| row.account.as_ref())
        else {
            return Ok(());
        };
        let against = seat(to_move ^ 1).map_or_else(String::new, |row| {
            name_of_player(
                row.account.as_ref().map(|(_, name)| name.clone()),
                row.ai_level.map(i64::from),
            )
        });
        let message = format!(
            "Your turn in {} against {against} (move {}).",
            title_of(&game.game),
            ply + 1
        );
        let now = self.now_ms();
        sqlx::query(
            "INSERT INTO outbox (account_id, kind, game_id, message, dedupe, created_ms, \
             next_ms) SELECT $1, $2, $3, $4, $5, $6, $6 WHERE NOT EXISTS (SELECT 1 FROM \
             watchers WHERE game_id = $3 AND account_id = $1 AND seen_ms > $7) \
             ON CONFLICT (dedupe) DO NOTHING",
        )
        .bind(*account_id)
        .bind(Kind::YourTurn.as_str())
        .bind(&game.id)
        .bind(message)
        .bind(format!("your_turn:{}:{ply}:{account_id}", game.id))
        .bind(now)
        .bind(now - WATCH_STALE_MS)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// In the transaction that ends a game (`finish_in`, after its ratings): tells each
    /// player the result and their rating change.
    pub(crate) async fn game_ended_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        finish: Finish,
    ) -> anyhow::Result<()> {
        let rows = sqlx::query(
            "SELECT s.seat, s.account_id, a.name, s.ai_level, g.game, \
             c.before_rating, c.rating FROM seats s JOIN games g ON g.id = s.game_id \
             LEFT JOIN accounts a ON a.id = s.account_id \
             LEFT JOIN rating_changes c ON c.game_id = s.game_id AND c.seat = s.seat \
             WHERE s.game_id = $1 ORDER BY s.seat",
        )
        .bind(game_id)
        .fetch_all(&mut **tx)
        .await?;
        for row in &rows {
            let seat: i64 = row.try_get("seat")?;
            let Some(account_id) = row.try_get::<Option<i64>, _>("account_id")? else {
                continue;
            };
            let against = rows
                .iter()
                .filter(|other| other.try_get::<i64, _>("seat").ok() != Some(seat))
                .map(player_name)
                .collect::<Vec<_>>()
                .join(", ");
            // The rules' words need the final position, which a notice goes without.
            let by = finish
                .termination
                .how()
                .map(|how| format!(" {how}"))
                .unwrap_or_default();
            let result = match (finish.termination, finish.winner_seat) {
                (Termination::Aborted, _) => "it was called off".to_owned(),
                (Termination::Adjudicated, None) => format!("a draw{by}"),
                (_, None) => "a draw".to_owned(),
                (_, Some(winner)) => {
                    let won = i64::from(winner) == seat;
                    format!("you {}{by}", if won { "won" } else { "lost" })
                }
            };
            let before: Option<f64> = row.try_get("before_rating")?;
            let after: Option<f64> = row.try_get("rating")?;
            let rating = match before.zip(after) {
                Some((before, after)) => format!(
                    " Rating {:.0} to {:.0} ({:+.0}).",
                    before,
                    after,
                    after - before
                ),
                None => String::new(),
            };
            let game: String = row.try_get("game")?;
            let notice = Notice {
                account_id,
                kind: Kind::GameEnded,
                game_id: Some(game_id),
                room_id: None,
                tournament_id: None,
                message: format!(
                    "Your {} game against {against} is over: {result}.{rating}",
                    title_of(&game)
                ),
                dedupe: Some(format!("game_ended:{game_id}:{account_id}")),
            };
            self.notify_in(tx, &notice).await?;
        }
        Ok(())
    }

    /// In the transaction that creates a game: tells each account a seat is kept for
    /// that it is challenged ([`Kind::Challenge`]) or, for a `rematch`, offered one
    /// ([`Kind::Rematch`]), by the account seated already.
    pub(crate) async fn invited_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        rematch: bool,
    ) -> anyhow::Result<()> {
        let kind = if rematch {
            Kind::Rematch
        } else {
            Kind::Challenge
        };
        let rows = sqlx::query(
            "SELECT s.invited_id, a.name, g.game, g.size FROM seats s \
             JOIN games g ON g.id = s.game_id \
             LEFT JOIN seats o ON o.game_id = s.game_id AND o.account_id IS NOT NULL \
             LEFT JOIN accounts a ON a.id = o.account_id \
             WHERE s.game_id = $1 AND s.invited_id IS NOT NULL",
        )
        .bind(game_id)
        .fetch_all(&mut **tx)
        .await?;
        for row in &rows {
            let account_id: i64 = row.try_get("invited_id")?;
            let from: Option<String> = row.try_get("name")?;
            let from = from.unwrap_or_else(|| "someone".to_owned());
            let game: String = row.try_get("game")?;
            let size: i64 = row.try_get("size")?;
            let message = match kind {
                Kind::Rematch => format!("{from} offers you a rematch of {}.", title_of(&game)),
                _ => format!(
                    "{from} challenges you to {} on size {size}.",
                    title_of(&game)
                ),
            };
            let notice = Notice {
                account_id,
                kind,
                game_id: Some(game_id),
                room_id: None,
                tournament_id: None,
                message,
                dedupe: Some(format!("{}:{game_id}:{account_id}", kind.as_str())),
            };
            self.notify_in(tx, &notice).await?;
        }
        Ok(())
    }

    /// In a room's transaction: tells every player of a seat (and, `with_master`, the game
    /// master) of the room's event, once per `key`.
    pub(crate) async fn room_event_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        room_id: &str,
        kind: Kind,
        key: &str,
        message: &str,
        with_master: bool,
    ) -> anyhow::Result<()> {
        let rows = sqlx::query(
            "SELECT account_id FROM room_seats WHERE room_id = $1 AND account_id IS NOT NULL \
             UNION SELECT master_id FROM rooms WHERE id = $1 AND $2 = 1",
        )
        .bind(room_id)
        .bind(i64::from(with_master))
        .fetch_all(&mut **tx)
        .await?;
        for row in &rows {
            let account_id: i64 = row.try_get(0)?;
            let notice = Notice {
                account_id,
                kind,
                game_id: None,
                room_id: Some(room_id),
                tournament_id: None,
                message: message.to_owned(),
                dedupe: Some(format!("{}:{room_id}:{key}:{account_id}", kind.as_str())),
            };
            self.notify_in(tx, &notice).await?;
        }
        Ok(())
    }
}

/// The name of a game's seat: its account's, or the AI's level.
fn player_name(row: &AnyRow) -> String {
    name_of_player(
        row.try_get("name").ok().flatten(),
        row.try_get("ai_level").ok().flatten(),
    )
}

/// How a notice names a seat's player: its account's name, the AI at its level, or an
/// open seat.
fn name_of_player(name: Option<String>, level: Option<i64>) -> String {
    match (name, level) {
        (Some(name), _) => name,
        (None, Some(level)) => format!("the AI (level {level})"),
        (None, None) => "an open seat".to_owned(),
    }
}
