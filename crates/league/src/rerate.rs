//! Rerating from scratch (`swapboard admin rerate`): every rated game of a family of pools
//! (the size bands of one game) replayed in the order given, through the same [`rate_game`]
//! and [`prior`] the server calls when a game ends (and
//! every Swap 61 room through [`rate_room`]), so a replay gives exactly the stored numbers
//! and the same numbers on every run (the arithmetic is sequential and the players are kept
//! in a `BTreeMap`, so nothing depends on hashing or threads).

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::{Deserialize, Serialize};

use crate::glicko2::{Change, Outcome, Params, PlayerRating, prior, rate_game};
use crate::multiplayer::{Skill, rate_room};
use crate::{Error, UnixSeconds};

/// A finished rated game, as the replay needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatedGame<P, B = ()> {
    /// The pool of its family it was rated in (a size band; `()` for a family of one pool).
    pub band: B,
    /// When it ended.
    pub at: UnixSeconds,
    /// The first player.
    pub first: P,
    /// The second player.
    pub second: P,
    /// The first player's result.
    pub first_outcome: Outcome,
}

/// What a replay gives: every player's final record in each pool they played, and each
/// game's two changes (the history points and the game view's before/after), in the games'
/// order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rerated<P: Ord, B: Ord = ()> {
    /// Each player's record after their last game, by pool.
    pub players: BTreeMap<P, BTreeMap<B, PlayerRating>>,
    /// For each game, the first player's change then the second's.
    pub games: Vec<(Change, Change)>,
}

/// Replays `games` in their order (times must not decrease; games ending at the same second
/// keep the order given, which the caller makes unique, e.g. by game id), every player
/// starting new: a player's first game in a pool starts from their records in the family's
/// other pools as they stand then ([`prior`]), as the server does live.
pub fn rerate<P: Ord + Clone + Debug, B: Ord + Clone>(
    games: &[RatedGame<P, B>],
    params: &Params,
) -> Result<Rerated<P, B>, Error> {
    let mut players: BTreeMap<P, BTreeMap<B, PlayerRating>> = BTreeMap::new();
    let mut changes = Vec::with_capacity(games.len());
    for (index, game) in games.iter().enumerate() {
        if index > 0 && game.at < games[index - 1].at {
            return Err(Error::OutOfOrder {
                index,
                at: game.at,
                previous: index - 1,
                previous_at: games[index - 1].at,
            });
        }
        if game.first == game.second {
            return Err(Error::SamePlayer(format!(
                "game {index} ({:?})",
                game.first
            )));
        }
        let record = |p: &P| match players.get(p) {
            None => Ok(PlayerRating::new(params)),
            Some(pools) => match pools.get(&game.band) {
                Some(record) => Ok(*record),
                None => prior(pools.values(), game.at, params),
            },
        };
        let (first, second) = rate_game(
            &record(&game.first)?,
            &record(&game.second)?,
            game.first_outcome,
            game.at,
            params,
        )?;
        for (player, change) in [(&game.first, &first), (&game.second, &second)] {
            players
                .entry(player.clone())
                .or_default()
                .insert(game.band.clone(), change.after);
        }
        changes.push((first, second));
    }
    Ok(Rerated {
        players,
        games: changes,
    })
}

/// What a replay of rooms gives: every player's final skill, and each room's new skills in
/// seat order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomsRerated<P: Ord> {
    /// Each player's skill after the last room.
    pub players: BTreeMap<P, Skill>,
    /// For each room, its seats' new skills.
    pub rooms: Vec<Vec<Skill>>,
}

/// Replays finished Swap 61 rooms in the order given, every player starting new: each room
/// is its seats' players with their final ranks (1 is first, ties share a rank).
pub fn rerate_rooms<P: Ord + Clone + Debug>(
    rooms: &[Vec<(P, usize)>],
) -> Result<RoomsRerated<P>, Error> {
    let mut skills: BTreeMap<P, Skill> = BTreeMap::new();
    let mut history = Vec::with_capacity(rooms.len());
    for (index, room) in rooms.iter().enumerate() {
        let mut seen = std::collections::BTreeSet::new();
        if let Some((twice, _)) = room.iter().find(|(p, _)| !seen.insert(p)) {
            return Err(Error::SamePlayer(format!(
                "room {index} seats {twice:?} twice"
            )));
        }
        let seats: Vec<(Skill, usize)> = room
            .iter()
            .map(|(p, rank)| (skills.get(p).copied().unwrap_or_default(), *rank))
            .collect();
        let after = rate_room(&seats)?;
        for ((player, _), skill) in room.iter().zip(&after) {
            skills.insert(player.clone(), *skill);
        }
        history.push(after);
    }
    Ok(RoomsRerated {
        players: skills,
        rooms: history,
    })
}
