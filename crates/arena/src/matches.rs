use std::time::{SystemTime, UNIX_EPOCH};

use rayon::prelude::*;
use swapboard_core::{Outcome, Player, Stepwise};

use crate::record::{GameRecord, RecordResult};
use crate::stats::Tally;
use crate::{Bot, PlayerSpec, Summary};

/// What a match is: the board, the players, how many games, and how they are run.
#[derive(Debug, Clone)]
pub struct MatchSettings {
    /// The board side.
    pub size: usize,
    /// The number of games; the players take the first move in turn, the first-listed
    /// player in the even-numbered games (counting from 0).
    pub games: u64,
    /// The two players.
    pub players: [PlayerSpec; 2],
    /// The seed every game's seeds come from: a match with searches bounded by iterations
    /// is reproducible, whatever the number of threads.
    pub seed: u64,
    /// Games played at once (each on one thread).
    pub threads: usize,
    /// A game still going after this many plies is stopped and reported as capped, never as
    /// a result of the rules (Rapid Transit can cycle).
    pub max_plies: u64,
}

/// One game of a match.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// The game's number in the match, from 0.
    pub index: u64,
    /// The index (in player order) of the player who moved first.
    pub first: usize,
    /// The result of the rules, or `None` for a capped game.
    pub outcome: Option<Outcome>,
    /// The index (in player order) of the winner, if any.
    pub winner: Option<usize>,
    /// The number of plies played (passes included).
    pub plies: u64,
    /// The record of the game.
    pub record: GameRecord,
}

/// A seed derived from the match seed for one use (splitmix64 of the mix).
fn derive(seed: u64, index: u64, player: u64) -> u64 {
    let mut z = seed
        ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ player.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays game number `index` of a match from `start`.
///
/// # Panics
///
/// If a bot returns an illegal move (a bug of the bot, never of the input).
pub fn play_game<G: Stepwise>(
    settings: &MatchSettings,
    start: &G,
    index: u64,
    date: &str,
) -> GameResult {
    let first = (index % 2) as usize;
    let mut bots: [Bot<G>; 2] = [0, 1].map(|p| {
        Bot::new(
            settings.players[p],
            start,
            derive(settings.seed, index, p as u64),
        )
    });
    let bot_of = |player: Player| match player {
        Player::First => first,
        Player::Second => 1 - first,
    };
    let mut pos = start.clone();
    let mut record = GameRecord::new::<G>(start.size());
    let mut plies = 0;
    while !pos.is_over() && plies < settings.max_plies {
        let mover = bot_of(pos.to_move());
        let mv = bots[mover].choose(&pos).unwrap_or_else(|| {
            panic!(
                "{} found no move in unfinished {pos}",
                settings.players[mover]
            )
        });
        if let Err(reason) = pos.check_move(&mv) {
            panic!(
                "{} chose the illegal move {mv} in {pos}: {reason}",
                settings.players[mover]
            );
        }
        for bot in &mut bots {
            bot.observe(&mv).expect("a legal move");
        }
        record.moves.push(mv.to_string());
        pos.play_unchecked(&mv);
        plies += 1;
    }
    let outcome = pos.outcome();
    record.result = RecordResult::of::<G>(outcome);
    if *start != G::start(start.size()).unwrap_or_else(|_| start.clone()) {
        record.set_tag("Start", start.to_string());
    }
    record.set_tag(
        "Players",
        format!(
            "{} vs {}",
            settings.players[first],
            settings.players[1 - first]
        ),
    );
    record.set_tag("Round", (index + 1).to_string());
    record.set_tag("Date", date);
    record.set_tag("Result", record.result.to_string());
    record.set_tag(
        "Termination",
        if outcome.is_some() {
            "rules".to_string()
        } else {
            format!("capped at {} plies", settings.max_plies)
        },
    );
    GameResult {
        index,
        first,
        outcome,
        winner: outcome.and_then(Outcome::winner).map(bot_of),
        plies,
        record,
    }
}

/// Games played at once per worker thread between two hand-overs of finished games: the
/// games of a batch are kept until the batch ends, so memory stays bounded whatever the
/// number of games, and a batch is long enough to keep every thread busy.
const GAMES_PER_THREAD_PER_BATCH: u64 = 32;

/// Plays a match from `start` and returns its summary.
///
/// `on_game` is called as each game ends, from the thread that played it (for progress);
/// `keep` is then given every game in order, from the calling thread, a batch at a time, so
/// a caller can write the records as they come. Memory stays bounded whatever the number
/// of games. An error from `keep` stops the match and is returned.
pub fn run_match<G: Stepwise, E>(
    settings: &MatchSettings,
    start: &G,
    on_game: impl Fn(&GameResult) + Sync + Send,
    mut keep: impl FnMut(GameResult) -> Result<(), E>,
) -> Result<Summary, E> {
    let date = today();
    let play = |index| {
        let result = play_game(settings, start, index, &date);
        on_game(&result);
        result
    };
    // A pool that cannot be made (no threads left) plays the games on this thread.
    let pool = (settings.threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(settings.threads)
                .build()
                .ok()
        })
        .flatten();
    let batch = GAMES_PER_THREAD_PER_BATCH * settings.threads.max(1) as u64;
    let mut tally = Tally::default();
    let mut first = 0;
    while first < settings.games {
        let games = first..settings.games.min(first.saturating_add(batch));
        first = games.end;
        let results: Vec<GameResult> = match &pool {
            Some(pool) => pool.install(|| games.into_par_iter().map(play).collect()),
            None => games.map(play).collect(),
        };
        for result in results {
            tally.add(
                result.winner,
                result.outcome == Some(Outcome::Win(Player::First)),
                result.outcome.is_none(),
                result.plies,
            );
            keep(result)?;
        }
    }
    Ok(Summary::new(
        G::ID,
        start.size(),
        settings.players.map(|p| p.to_string()),
        &tally,
    ))
}

/// Today's date as `YYYY.MM.DD` (UTC), as PGN writes dates.
pub fn today() -> String {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    crate::record::date_of(ms)
}
