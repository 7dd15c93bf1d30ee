//! The clocks' scheduler: ends games whose player to move has run out of time, whether or
//! not anyone is connected, resolves Swap 61 rounds whose deadline has passed, starts the
//! tournaments whose time has come, and removes the guests that never came back.
//!
//! Deadlines live in the database, set in the transaction of each move. Every instance
//! polls for due ones and claims them for a lease ([`crate::store::Store::claim_due_deadlines`]:
//! `FOR UPDATE SKIP LOCKED` on PostgreSQL), so each is acted on by one instance; a claim
//! whose instance died is due again when its lease passes, and a restarted server finds
//! the deadlines that passed while it was down.

use std::time::Duration;

use crate::clock::DAY_MS;
use crate::games::moves::end_on_time;
use crate::live::{Change, Topic};
use crate::state::AppState;
use crate::store::OnTime;

/// How often the scheduler looks for due deadlines: a timeout is declared at most this late.
pub(crate) const POLL_EVERY: Duration = Duration::from_millis(500);
/// How long a claim is this instance's before another may take it.
const LEASE: Duration = Duration::from_secs(30);
/// The most deadlines claimed at once.
const BATCH: u32 = 100;

/// How many passes go between two looks at the monthly tournaments' next editions, at the
/// guests to remove and at the challenges to close as expired (a minute).
const EDITIONS_EVERY: u32 = 120;
/// The most guests removed in one look (the rest wait a minute).
const GUESTS_BATCH: u32 = 200;

/// Claims and acts on due deadlines until the server stops.
pub(crate) async fn run(state: AppState) {
    let mut tick = state.clock.ticker(POLL_EVERY);
    let mut passes = 0u32;
    loop {
        let moved = tick.tick().await;
        let editions = passes.is_multiple_of(EDITIONS_EVERY) || moved;
        passes = passes.wrapping_add(1);
        if let Err(e) = crate::tournaments::start_due(&state, editions).await {
            tracing::warn!("tournaments' starts: {e:#}");
        }
        if let Err(e) = claim_and_end(&state).await {
            tracing::warn!("clocks: {e:#}");
        }
        if let Err(e) = crate::rooms::resolve_due(&state).await {
            tracing::warn!("rooms' deadlines: {e:#}");
        }
        if editions {
            remove_old_guests(&state).await;
            // Every read of a challenge treats one past its time as expired already: the
            // stored state may follow a minute later, without a write every pass.
            if let Err(e) = expire_challenges(&state).await {
                tracing::warn!("challenges' expiry: {e:#}");
            }
            match state
                .store
                .lift_ended_bans(state.clock.now_ms(), i64::from(BATCH))
                .await
            {
                Ok(lifted) if !lifted.is_empty() => {
                    tracing::info!(accounts = ?lifted, "bans whose term ended lifted");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("bans' ends: {e:#}"),
            }
        }
    }
}

/// Closes the challenges nobody joined in time, and tells their watchers.
async fn expire_challenges(state: &AppState) -> anyhow::Result<()> {
    let expired = state
        .store
        .expire_challenges(state.clock.now_ms(), BATCH)
        .await?;
    let changes: Vec<(Topic, Change)> = expired
        .into_iter()
        .map(|id| (Topic::Game(id), Change::State))
        .collect();
    state.live.announce_all(&changes).await;
    Ok(())
}

/// One pass: claims the due deadlines and ends their games on time.
pub(crate) async fn claim_and_end(state: &AppState) -> anyhow::Result<usize> {
    let now = state.clock.now_ms();
    let lease = i64::try_from(LEASE.as_millis()).unwrap_or(i64::MAX);
    let claims = state
        .store
        .claim_due_deadlines(now, now.saturating_add(lease), BATCH)
        .await?;
    let mut ended = 0;
    for claim in &claims {
        match end_on_time(state, claim).await {
            Ok(OnTime::Ended { .. }) => ended += 1,
            Ok(OnTime::Nothing | OnTime::Saved { .. }) => {}
            Err(e) => tracing::warn!(game = claim.game_id, "clocks: {e:?}"),
        }
    }
    Ok(ended)
}

/// Removes the guests that never came back (`--guest-days` after their session expired and
/// their last game moved), logging how many.
async fn remove_old_guests(state: &AppState) {
    let now = state.clock.now_ms();
    let cutoff = now.saturating_sub(i64::from(state.guest_days) * DAY_MS);
    match state
        .store
        .remove_old_guests(now, cutoff, GUESTS_BATCH)
        .await
    {
        Ok(0) => {}
        Ok(removed) => tracing::info!(removed, "guests that never came back removed"),
        Err(e) => tracing::warn!("guests' removal: {e:#}"),
    }
}
