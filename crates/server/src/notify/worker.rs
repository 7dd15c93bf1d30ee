//! The delivery worker: claims the outbox's due rows, tells the account's inbox sockets,
//! pushes to the account's browsers and mails what the account asked to have mailed;
//! writes the Swap 61 deadline reminders; sends the daily digests. One runs on every
//! instance: the claims keep them apart (`store::outbox`), and a mail is sent at most once,
//! a push at most once per subscription.

use std::sync::Arc;
use std::time::Duration;

use super::mail::{Mail, MailError, Mailer};
use super::webpush::{PushError, Pusher};
use crate::instruments;
use crate::limits::accounts::RESET_MS;
use crate::limits::notifications::{
    MAX_ATTEMPTS, PAGE_LIMIT, PUSH_TIMEOUT, SMTP_TIMEOUT, YOUR_TURN_THROTTLE_MS,
};
use crate::live::{Change, Hub, Topic};
use crate::secret::{random_secret, secret_hash};
use crate::store::Store;
use crate::store::outbox::{Kind, Mail as MailChoice, MailPlan, Notice, StoredNotice};

/// How often the worker looks for due rows: a notification reaches the inbox's socket at
/// most this late.
const POLL_EVERY: Duration = Duration::from_millis(500);
/// How long a claim is this worker's: longer than one row's delivery may take (its pushes,
/// at once, then one SMTP conversation: [`PUSH_TIMEOUT`] and [`SMTP_TIMEOUT`]).
const LEASE_MS: i64 = 60_000;
const _: () = assert!(LEASE_MS > (PUSH_TIMEOUT.as_millis() + SMTP_TIMEOUT.as_millis()) as i64);
/// The most rows delivered one by one (pushed or mailed) in one pass.
const BATCH: usize = 50;
/// The most rows only the inbox shows settled by one statement.
const INBOX_BATCH: u32 = 500;
/// The most such statements in one pass (a pass settles up to 10,000 inbox rows).
const INBOX_STATEMENTS: u32 = 20;
/// How often the reminders and digests are looked for.
const SLOW_EVERY: u32 = 60;

/// What the worker needs.
#[derive(Debug, Clone)]
pub(crate) struct Deliveries {
    pub(crate) store: Store,
    pub(crate) live: Arc<Hub>,
    pub(crate) mailer: Option<Arc<Mailer>>,
    pub(crate) pusher: Arc<Pusher>,
}

/// Delivers until the server stops.
pub(crate) async fn run(deliveries: Deliveries) {
    let mut tick = deliveries.store.clock().ticker(POLL_EVERY);
    let mut behind = false;
    for pass in 0u32.. {
        // A full pass leaves due rows behind: the next starts at once.
        let moved = if behind {
            tokio::task::yield_now().await;
            false
        } else {
            tick.tick().await
        };
        behind = match deliver_due(&deliveries).await {
            Ok(behind) => behind,
            Err(e) => {
                tracing::warn!("notifications: {e:#}");
                false
            }
        };
        if pass % SLOW_EVERY == 0 || moved {
            if let Err(e) = remind(&deliveries.store).await {
                tracing::warn!("notifications' reminders: {e:#}");
            }
            if let Err(e) = send_digests(&deliveries).await {
                tracing::warn!("notifications' digests: {e:#}");
            }
        }
    }
}

/// One pass over the due rows: first those only the inbox shows, settled hundreds to a
/// statement with their inboxes told in one announcement; then those to push or mail,
/// each claimed on its own. Whether it stopped at one of its bounds (due rows may be
/// left).
///
/// Each row is claimed just before it is delivered, under a lease of its own. A batch
/// claimed at once under one lease would be unsafe with a slow mail server: fifty SMTP
/// conversations of up to 20 s each outlast the lease, and another instance would mark
/// `lost` a row this one is still to send, which it would then send all the same. One
/// row's delivery ends within its lease (the assertion beside [`LEASE_MS`]), so a row is
/// either sent by the worker that claimed it or marked lost because that worker died,
/// never both.
pub(crate) async fn deliver_due(deliveries: &Deliveries) -> anyhow::Result<bool> {
    let store = &deliveries.store;
    store.mark_lost_notices(store.now_ms()).await?;
    let mailing = deliveries.mailer.is_some();
    let mut behind = true;
    for _ in 0..INBOX_STATEMENTS {
        let mut told = store
            .settle_inbox_only(store.now_ms(), mailing, INBOX_BATCH)
            .await?;
        let full = told.len() == INBOX_BATCH as usize;
        told.sort_unstable();
        told.dedup();
        let changes: Vec<(Topic, Change)> = told
            .into_iter()
            .map(|account| (Topic::Inbox(account), Change::State))
            .collect();
        deliveries.live.announce_all(&changes).await;
        if !full {
            behind = false;
            break;
        }
    }
    let mut claimed = 0;
    while claimed < BATCH {
        let now = store.now_ms();
        let Some(notice) = store.claim_notice(now, now + LEASE_MS).await? else {
            break;
        };
        claimed += 1;
        deliveries
            .live
            .announce(&Topic::Inbox(notice.account_id), Change::State)
            .await;
        if let Err(e) = deliver(deliveries, &notice).await {
            tracing::warn!(id = notice.id, "notifications: {e:#}");
        }
    }
    Ok(behind || claimed == BATCH)
}

/// The wait before another try, after `attempts` tries (a claim counts one): 10 s after
/// the first, then 20 s, 40 s, ...
fn backoff(attempts: u32) -> i64 {
    10_000i64 << attempts.saturating_sub(1).min(10)
}

/// Pushes and mails a claimed notification as its account asked, and settles the row.
async fn deliver(deliveries: &Deliveries, notice: &StoredNotice) -> anyhow::Result<()> {
    let store = &deliveries.store;
    let plan = store
        .mail_plan(notice, store.now_ms(), YOUR_TURN_THROTTLE_MS)
        .await?;
    if let Some(why) = push_all(deliveries, notice, &plan).await?
        && notice.attempts < MAX_ATTEMPTS
    {
        // The mail waits until every browser has its push (or the pushes are given up):
        // a retried row is then mailed once.
        return store
            .retry_notice(notice.id, store.now_ms() + backoff(notice.attempts), &why)
            .await;
    }
    let Some(mailer) = &deliveries.mailer else {
        return store.settle_notice(notice.id, "done", "inbox", None).await;
    };
    if notice.kind == Kind::PasswordReset {
        return mail_reset(store, mailer, notice, plan.address.as_deref()).await;
    }
    let (state, outcome) = match (&plan.address, plan.mail) {
        (None, _) | (_, MailChoice::Off) => ("done", "inbox"),
        (Some(_), MailChoice::Digest) => ("digest", "held for the daily digest"),
        _ if plan.watching => ("done", "watching"),
        _ if plan.throttled => ("done", "throttled"),
        (Some(address), MailChoice::Immediate) => {
            let secret = random_secret();
            let (one_click, page) = unsubscribe_links(mailer, &secret);
            let body = mail_body(mailer, std::slice::from_ref(notice), &page);
            let mail = Mail {
                to: address,
                subject: &subject(notice),
                body: &body,
                unsubscribe: Some(&one_click),
            };
            return match mailer.send(&mail).await {
                Ok(()) => {
                    store
                        .settle_notice(notice.id, "done", "mail", Some(&secret_hash(&secret)))
                        .await
                }
                Err(MailError::Transient(why)) if notice.attempts < MAX_ATTEMPTS => {
                    store
                        .retry_notice(notice.id, store.now_ms() + backoff(notice.attempts), &why)
                        .await
                }
                Err(e) => {
                    store
                        .settle_notice(notice.id, "failed", &e.to_string(), None)
                        .await
                }
            };
        }
    };
    store.settle_notice(notice.id, state, outcome, None).await
}

/// Pushes a claimed notification to each browser of its account's not pushed yet, all at
/// once, unless the account turned the kind off or watches the game live (a password
/// reset is never pushed). A subscription whose push service answers 404 or 410 is
/// deleted. Why a push should be tried again, if one should.
async fn push_all(
    deliveries: &Deliveries,
    notice: &StoredNotice,
    plan: &MailPlan,
) -> anyhow::Result<Option<String>> {
    if notice.kind == Kind::PasswordReset || plan.mail == MailChoice::Off || plan.watching {
        return Ok(None);
    }
    let store = &deliveries.store;
    let subscriptions = store.unpushed(notice.id, notice.account_id).await?;
    if subscriptions.is_empty() {
        return Ok(None);
    }
    let url = notice
        .pages()
        .into_iter()
        .next()
        .unwrap_or_else(|| "/notifications".to_owned());
    let payload = Arc::new(serde_json::to_vec(&serde_json::json!({
        "title": subject(notice),
        "body": notice.message,
        "url": url,
    }))?);
    let mut pushes = tokio::task::JoinSet::new();
    for subscription in subscriptions {
        let (pusher, payload) = (Arc::clone(&deliveries.pusher), Arc::clone(&payload));
        pushes.spawn(async move {
            let sent = pusher
                .push(
                    &subscription.endpoint,
                    &subscription.p256dh,
                    &subscription.auth,
                    &payload,
                )
                .await;
            (subscription.id, sent)
        });
    }
    let mut again = None;
    while let Some(done) = pushes.join_next().await {
        match done? {
            (id, Ok(())) => {
                instruments::delivered("push", None);
                store.pushed(notice.id, id).await?;
            }
            (id, Err(PushError::Gone)) => {
                let why = "the push service says the subscription is gone (404 or 410)";
                instruments::delivered("push", Some((false, why)));
                store.drop_subscription(id).await?;
            }
            (_, Err(PushError::Failed(why))) => {
                instruments::delivered("push", Some((true, &why)));
                again = Some(format!("push: {why}"));
            }
        }
    }
    Ok(again)
}

/// Mails a reset's link, whatever the account's choices: a new one-time secret (only its
/// SHA-256 is stored, before the mail leaves), good for [`RESET_MS`]. Tried once: a
/// failure is logged and the person may ask again.
async fn mail_reset(
    store: &Store,
    mailer: &Mailer,
    notice: &StoredNotice,
    address: Option<&str>,
) -> anyhow::Result<()> {
    let Some(address) = address else {
        return store.settle_notice(notice.id, "done", "inbox", None).await;
    };
    let secret = random_secret();
    store
        .insert_reset(
            notice.account_id,
            &secret_hash(&secret),
            store.now_ms() + RESET_MS,
        )
        .await?;
    let link = mailer.link(&format!("/reset-password?token={secret}"));
    let body = format!(
        "Someone (we hope you) asked swapboard for a new password for your account.\n\
         To choose it, open this link within an hour (it works once):\n{link}\n\n\
         If it was not you, ignore this mail: your password stays as it is.\n"
    );
    let mail = Mail {
        to: address,
        subject: &subject(notice),
        body: &body,
        unsubscribe: None,
    };
    let (state, outcome) = match mailer.send(&mail).await {
        Ok(()) => ("done", "mail".to_owned()),
        Err(e) => ("failed", e.to_string()),
    };
    store.settle_notice(notice.id, state, &outcome, None).await
}

/// The longest subject a notification mail takes from its words.
const SUBJECT_CHARS: usize = 100;

/// A notification mail's subject: its own words when it is about a game, a room or a
/// tournament (they name the game and the opponent: "Your turn in Swaptimum against ann
/// (move 2)"), else what kind of news it is.
fn subject(notice: &StoredNotice) -> String {
    if !notice.pages().is_empty() {
        let words = notice.message.trim().trim_end_matches('.');
        let mut short: String = words.chars().take(SUBJECT_CHARS).collect();
        if words.chars().count() > SUBJECT_CHARS {
            short.push('…');
        }
        return format!("swapboard: {short}");
    }
    let what = match notice.kind {
        Kind::YourTurn => "your turn",
        Kind::Challenge => "a challenge",
        Kind::Invitation => "a seat in a Swap 61 room",
        Kind::GameEnded => "a game ended",
        Kind::Rematch => "a rematch",
        Kind::RoundOpened => "a Swap 61 round opened",
        Kind::RoundResults => "Swap 61 results",
        Kind::Deadline24h => "a Swap 61 round closes in 24 hours",
        Kind::Deadline1h => "a Swap 61 round closes in an hour",
        Kind::Tournament => "a tournament",
        Kind::PasswordReset => "choose a new password",
        Kind::Report => "a report for the moderators",
        Kind::ReportClosed => "your report was reviewed",
        Kind::ChatMuted => "you are muted in the chats",
        Kind::ThreadMessage => "a message from a seat of your Swap 61 room",
    };
    format!("swapboard: {what}")
}

/// A mail's two ways to stop every mail, for the token `secret`: the URL a mail client
/// POSTs to (RFC 8058's `List-Unsubscribe` header), and the page a person opens from the
/// body, which asks for the click (a link that acted on a GET would be clicked by the mail
/// scanners that fetch every link).
fn unsubscribe_links(mailer: &Mailer, secret: &str) -> (String, String) {
    (
        mailer.link(&format!("/api/notifications/unsubscribe?token={secret}")),
        mailer.link(&format!("/unsubscribe?token={secret}")),
    )
}

/// The text of a mail of these notifications: each with its link, then how to stop them.
fn mail_body(mailer: &Mailer, notices: &[StoredNotice], unsubscribe: &str) -> String {
    let mut body = String::new();
    for notice in notices {
        body.push_str(&notice.message);
        body.push('\n');
        for page in notice.pages() {
            body.push_str(&mailer.link(&page));
            body.push('\n');
        }
        body.push('\n');
    }
    body.push_str(&format!(
        "You get this mail because you asked for it on swapboard. Your choices: {}\n\
         Stop every mail from swapboard with one click: {unsubscribe}\n",
        mailer.link("/notifications")
    ));
    body
}

/// Writes the Swap 61 reminders due now: 24 hours and an hour before a round closes, for
/// each seat whose player has not marked final (once each: their dedupe keys).
async fn remind(store: &Store) -> anyhow::Result<()> {
    const HOUR: i64 = 3_600_000;
    let now = store.now_ms();
    for (kind, from, to, words) in [
        (Kind::Deadline1h, now, now + HOUR, "an hour"),
        (Kind::Deadline24h, now + HOUR, now + 24 * HOUR, "24 hours"),
    ] {
        let seats = store.unfinal_seats(from, to).await?;
        let notices: Vec<Notice<'_>> = seats
            .iter()
            .map(|(account_id, room, round, _)| Notice {
                account_id: *account_id,
                kind,
                game_id: None,
                room_id: Some(room.as_str()),
                tournament_id: None,
                message: format!(
                    "Swap 61 room {room}: round {round} closes in less than {words}, \
                     and you have not marked your bids final."
                ),
                dedupe: Some(format!("{}:{room}:{round}:{account_id}", kind.as_str())),
            })
            .collect();
        store.notify_all(&notices).await?;
    }
    Ok(())
}

/// Sends the daily digests due now, one mail per address, each claimed just before it is
/// sent under a lease of its own (as [`deliver_due`] claims rows, and for its reason).
async fn send_digests(deliveries: &Deliveries) -> anyhow::Result<()> {
    let Some(mailer) = &deliveries.mailer else {
        return Ok(());
    };
    const DAY: i64 = 86_400_000;
    for _ in 0..PAGE_LIMIT {
        let now = deliveries.store.now_ms();
        let day_start = now - now.rem_euclid(DAY);
        let hour = u8::try_from(now.rem_euclid(DAY) / 3_600_000).unwrap_or(0);
        let Some(digest) = deliveries
            .store
            .claim_digest(now, day_start, hour, now + LEASE_MS)
            .await?
        else {
            break;
        };
        if digest.notices.is_empty() {
            continue;
        }
        let secret = random_secret();
        let (one_click, page) = unsubscribe_links(mailer, &secret);
        let body = mail_body(mailer, &digest.notices, &page);
        let mail = Mail {
            to: &digest.email,
            subject: "swapboard: your daily digest",
            body: &body,
            unsubscribe: Some(&one_click),
        };
        let (state, outcome) = match mailer.send(&mail).await {
            Ok(()) => ("done", "digest".to_owned()),
            Err(e) => ("failed", e.to_string()),
        };
        // The first row carries the digest's unsubscribe secret.
        let hash = secret_hash(&secret);
        for (k, notice) in digest.notices.iter().enumerate() {
            let hash = (k == 0).then_some(hash.as_str());
            deliveries
                .store
                .settle_notice(notice.id, state, &outcome, hash)
                .await?;
        }
        tracing::debug!(account = digest.account_id, "notifications: a digest");
    }
    Ok(())
}
