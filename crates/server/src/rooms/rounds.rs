//! A room's rounds by the swap61 crate's rules: the draw that opens the pregame, the
//! bot's bids, a round's resolution, and the scheduler's pass over the rooms whose
//! deadline passed.

use swapboard_swap61::{Board, LAST_ROUND, MIN_SEATS, Seat, Setup, Variation, bot, play_round};

use super::access::{announce, board_of, seat, setup_of};
use crate::secret::{random_secret, secret_hash};
use crate::state::AppState;
use crate::store::{
    BotSubmission, RoomError, RoomSeat, RoundInput, RoundResult, SeatAssignment, Started,
    StoredRoom,
};

/// The most due rooms one pass of the scheduler resolves.
const DUE_BATCH: u32 = 100;

/// The bot's submissions for `round` on `board`, for the bot seats given.
pub(super) fn bot_submissions(
    setup: &Setup,
    board: &Board,
    round: usize,
    bot_seats: impl Iterator<Item = u8>,
) -> Vec<BotSubmission> {
    if round > LAST_ROUND {
        return Vec::new();
    }
    bot_seats
        .filter_map(|number| {
            let seat = Seat::new(usize::from(number))?;
            let text = bot::submission_text(&bot::bids(setup, board, round, seat));
            Some(BotSubmission {
                seat: number,
                receipt: secret_hash(&text),
                text,
            })
        })
        .collect()
}

/// The rules' resolution of a room's open round: the swap61 crate's [`play_round`] on the
/// grid now with the round's submissions (a seat that sent none bids nothing), then the
/// bot's bids for the round that opens.
pub(super) fn resolve_rules(input: RoundInput<'_>) -> anyhow::Result<RoundResult> {
    let room = input.room;
    let setup = setup_of(room)?;
    let board = board_of(room)?;
    let round = usize::from(room.round);
    let texts = input
        .submissions
        .iter()
        .map(|s| Ok((seat(s.seat)?, s.text.as_str())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let outcome = play_round(&board, round, &setup.rounds[round], &texts);
    let next = &outcome.resolution.board;
    let bots = input.seats.iter().filter(|s| s.bot).map(|s| s.seat);
    Ok(RoundResult {
        grid: next.to_string(),
        scores: outcome.scores,
        next_bots: bot_submissions(&setup, next, round + 1, bots),
    })
}

/// The scheduler's pass over the rooms whose deadline passed.
pub(crate) async fn resolve_due(state: &AppState) -> anyhow::Result<usize> {
    let resolved = state
        .store
        .resolve_due_rooms(state.clock.now_ms(), DUE_BATCH, resolve_rules)
        .await?;
    for id in &resolved {
        announce(state, id).await;
    }
    Ok(resolved.len())
}

/// Draws the seat order, grid and pairs as `swapboard swap61 new` does, and opens the
/// pregame.
pub(super) fn draw(
    room: &StoredRoom,
    lobby: &[RoomSeat],
    fill: bool,
) -> Result<Started, RoomError> {
    let joined = lobby.len();
    let players = if fill {
        usize::from(room.seats)
    } else if joined >= MIN_SEATS {
        joined
    } else {
        return Err(RoomError::Conflict(format!(
            "{joined} players joined: Swap 61 needs 9 or 10 (or start with \"fill_with_bots\": true)"
        )));
    };
    let mut names: Vec<String> = lobby.iter().map(|s| s.name.clone()).collect();
    names.extend((1..=players.saturating_sub(joined)).map(|n| format!("bot:{n}")));
    let seed = match room.seed {
        Some(seed) => seed,
        None => u64::from_str_radix(&random_secret()[..16], 16).map_err(anyhow::Error::from)?,
    };
    let round5: Variation = room
        .round5
        .parse()
        .map_err(|e: String| anyhow::anyhow!("room {}: round5: {e}", room.id))?;
    let mut setup = Setup::generate(&names, seed).map_err(anyhow::Error::from)?;
    setup.set_round5(round5);
    setup.check().map_err(anyhow::Error::from)?;
    let seats: Vec<SeatAssignment> = setup
        .players
        .iter()
        .map(|name| {
            let account = lobby
                .iter()
                .find(|s| &s.name == name)
                .and_then(|s| s.account.as_ref().map(|a| a.0));
            SeatAssignment {
                name: name.clone(),
                account_id: account,
                bot: account.is_none(),
            }
        })
        .collect();
    let bots = (1u8..).zip(&seats).filter(|(_, s)| s.bot).map(|(n, _)| n);
    let bots = bot_submissions(&setup, &setup.start, 0, bots);
    Ok(Started {
        setup: serde_json::to_string(&setup).map_err(anyhow::Error::from)?,
        grid: setup.start.to_string(),
        seats,
        bots,
    })
}
