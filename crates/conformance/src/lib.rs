//! The conformance suite run for every swapboard game (in the spirit of board-game-rs's
//! shared board checks).
//!
//! A game's test calls [`Suite::run`] with some seed positions, a generator of *candidate*
//! moves (a superset of the legal moves, so that the legality check can be compared with the
//! move list on moves the list leaves out) and the game's invariant. The suite then walks
//! random playouts from every seed position and checks, at every position it meets:
//!
//! - the move list has no duplicates, and every listed move is accepted by `check_move`,
//!   plays with `play`, and round-trips through its text;
//! - a candidate move is accepted by `check_move` exactly when it is listed;
//! - `move_count`, `has_legal_move` and `random_move` agree with the list, and
//!   `best_playout_move` chooses what the default best of drawn moves chooses from the same
//!   random numbers;
//! - `fill_moves_with_priors` lists the same moves in the same order, each with its
//!   `move_prior`, bit for bit, and every move but `pass` has a prior exactly when the
//!   game declares `MOVE_PRIORS`;
//! - every move's `playout_score` is a number, and `amaf_cells` names distinct cells on the
//!   board exactly when it says it names any, never for `pass`;
//! - a finished game has no moves, an unfinished one has at least one (`pass` counts);
//! - `pass` is listed only as the sole move;
//! - every refused candidate carries a code documented for the game: `game_over` exactly
//!   when the game is over, `pass_not_allowed` only for `pass`, and the same code again
//!   from an equal position;
//! - the position text round-trips, with the same Zobrist hash (incremental = recomputed);
//! - the game's invariant holds.
//!
//! [`check_perft_file`] checks a perft table kept as a data file.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::{Game, IllegalMove, Rule, best_of_drawn_moves, perft};

/// What the suite needs to know about one game.
pub struct Suite<G: Game> {
    /// Positions to start random playouts from (start positions of several sizes, positions
    /// from the rule sheets, awkward corners).
    pub positions: Vec<G>,
    /// A superset of the legal moves of a position, used to check that the legality check
    /// refuses exactly the moves the list leaves out.
    pub candidates: fn(&G) -> Vec<G::Move>,
    /// The game's invariant (e.g. "no crosscut on the board"), with the reason it fails.
    pub invariant: fn(&G) -> Result<(), String>,
    /// Random playouts per seed position.
    pub playouts: usize,
    /// A playout stops after this many plies (games that can cycle need a cap).
    pub max_plies: usize,
    /// Whether a playout reaching `max_plies` is a failure (it is for games that must end).
    pub must_end: bool,
    /// The seed of the random playouts.
    pub seed: u64,
}

impl<G: Game> Suite<G> {
    /// Runs every check; panics with the position and the broken promise on failure.
    pub fn run(&self) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(self.seed);
        for start in &self.positions {
            for _ in 0..self.playouts {
                let mut pos = start.clone();
                let mut plies = 0;
                loop {
                    self.check_position(&pos);
                    if pos.is_over() {
                        break;
                    }
                    if plies == self.max_plies {
                        assert!(
                            !self.must_end,
                            "{}: a random game from {start} did not end in {plies} plies",
                            G::ID
                        );
                        break;
                    }
                    let mv = pos
                        .random_move(&mut rng)
                        .unwrap_or_else(|| panic!("no random move in unfinished {pos}"));
                    pos = pos
                        .play(&mv)
                        .unwrap_or_else(|e| panic!("random move refused: {e}"));
                    plies += 1;
                }
            }
        }
    }

    /// All checks at one position.
    pub fn check_position(&self, pos: &G) {
        let fail = |what: String| -> ! { panic!("{} at `{pos}`: {what}", G::ID) };

        if let Err(why) = (self.invariant)(pos) {
            fail(format!("invariant broken: {why}"));
        }

        // Position text round trip, and the incremental hash against a fresh one.
        let text = pos.to_string();
        match text.parse::<G>() {
            Ok(back) => {
                if &back != pos {
                    fail(format!(
                        "text round trip gave a different position `{back}`"
                    ));
                }
                if back.zobrist() != pos.zobrist() {
                    fail("incremental hash differs from the hash of the reparsed position".into());
                }
            }
            Err(e) => fail(format!("own text refused: {e}")),
        }

        let moves = pos.legal_moves();
        let set: HashSet<&G::Move> = moves.iter().collect();
        if set.len() != moves.len() {
            fail("the move list has duplicates".into());
        }
        if pos.move_count() != moves.len() as u64 {
            fail(format!(
                "move_count {} != list length {}",
                pos.move_count(),
                moves.len()
            ));
        }
        let (mut listed, mut priors) = (Vec::new(), Vec::new());
        pos.fill_moves_with_priors(&mut listed, &mut priors);
        if listed != moves {
            fail(format!(
                "fill_moves_with_priors lists {listed:?}, not {moves:?}"
            ));
        }
        if priors.len() != moves.len() {
            fail(format!("{} priors for {} moves", priors.len(), moves.len()));
        }
        for (mv, prior) in moves.iter().zip(&priors) {
            let alone = pos.move_prior(mv);
            if prior.map(f32::to_bits) != alone.map(f32::to_bits) {
                fail(format!(
                    "fill_moves_with_priors gives {mv} the prior {prior:?}, move_prior {alone:?}"
                ));
            }
            if prior.is_some() != (G::MOVE_PRIORS && !G::is_pass(mv)) {
                fail(format!(
                    "MOVE_PRIORS is {} but {mv} has the prior {prior:?}",
                    G::MOVE_PRIORS
                ));
            }
            if !pos.playout_score(mv).is_finite() {
                fail(format!(
                    "the playout score of {mv} is {}",
                    pos.playout_score(mv)
                ));
            }
            let (mut named, mut faults) = (HashSet::new(), Vec::new());
            let any = G::amaf_cells(mv, |cell| {
                let on_board = usize::from(cell.col().max(cell.row())) < pos.size();
                if !on_board || !named.insert(cell) {
                    faults.push(cell.to_string());
                }
            });
            if !faults.is_empty() || any == named.is_empty() || (any && G::is_pass(mv)) {
                fail(format!(
                    "amaf_cells of {mv} says {any}, names {} distinct cells; off the board or twice: {}",
                    named.len(),
                    faults.join(" ")
                ));
            }
        }
        if pos.has_legal_move() == moves.is_empty() {
            fail("has_legal_move disagrees with the list".into());
        }
        match (pos.outcome(), moves.is_empty()) {
            (Some(o), false) => fail(format!("the game is over ({o:?}) but moves are listed")),
            (None, true) => fail("the game goes on but no move (not even pass) is listed".into()),
            _ => {}
        }
        if moves.len() > 1 && moves.iter().any(G::is_pass) {
            fail("pass is listed beside other moves".into());
        }

        for mv in &moves {
            if let Err(e) = pos.check_move(mv) {
                fail(format!("listed move {mv} refused: {e}"));
            }
            let text = mv.to_string();
            match pos.parse_move(&text) {
                Ok(back) if &back == mv => {}
                Ok(back) => fail(format!("move text {text} reads back as {back}")),
                Err(e) => fail(format!("move text {text} refused: {e}")),
            }
            if let Err(e) = pos.clone().play(mv) {
                fail(format!("listed move {mv} does not play: {e}"));
            }
        }

        for cand in (self.candidates)(pos) {
            let listed = set.contains(&cand);
            match (pos.check_move(&cand), listed) {
                (Ok(()), false) => fail(format!("{cand} is accepted but not listed")),
                (Err(e), true) => fail(format!("{cand} is listed but refused: {e}")),
                (Err(e), false) => {
                    if let Err(why) = check_refusal(pos, &cand, &e) {
                        fail(format!("refusal of {cand} ({}: {e}): {why}", e.rule));
                    }
                }
                (Ok(()), true) => {}
            }
        }

        let mut rng = Xoshiro256PlusPlus::seed_from_u64(pos.zobrist());
        match pos.random_move(&mut rng) {
            Some(m) if !set.contains(&m) => fail(format!("random_move drew {m}, not listed")),
            None if !moves.is_empty() => fail("random_move found nothing".into()),
            _ => {}
        }

        // A game's faster best-of-draws must choose as the default does, from the same
        // random numbers, and use as many.
        for draws in [0, 1, G::PLAYOUT_DRAWS.max(3)] {
            let mut twin = rng.clone();
            let best = pos.best_playout_move(&mut rng, draws);
            let oracle = best_of_drawn_moves(pos, &mut twin, draws);
            if best != oracle {
                fail(format!(
                    "best_playout_move of {draws} draws chose {best:?}, the default {oracle:?}"
                ));
            }
            if best.as_ref().is_some_and(|m| !set.contains(m)) || best.is_some() == moves.is_empty()
            {
                fail(format!("best_playout_move of {draws} draws chose {best:?}"));
            }
            if rng.random::<u64>() != twin.random::<u64>() {
                fail(format!(
                    "best_playout_move of {draws} draws drew a different count of random numbers"
                ));
            }
        }
    }
}

/// Whether the code of a refusal fits the situation: documented for the game, `game_over`
/// exactly when the game is over, `pass_not_allowed` only for `pass`, and the same code from
/// an equal position (reread from its text).
fn check_refusal<G: Game>(pos: &G, mv: &G::Move, refusal: &IllegalMove) -> Result<(), String> {
    let rule = refusal.rule;
    // A step view of a game (`scware-steps`) shares its game's codes.
    let game = G::ID.strip_suffix("-steps").unwrap_or(G::ID);
    if !rule.games().contains(&game) {
        return Err(format!("the code is not documented for {game}"));
    }
    if pos.is_over() != (rule == Rule::GameOver) {
        return Err(format!(
            "game_over goes with a finished game ({:?})",
            pos.outcome()
        ));
    }
    if rule == Rule::PassNotAllowed && !G::is_pass(mv) {
        return Err("pass_not_allowed refuses only pass".into());
    }
    let twin: G = pos.to_string().parse().map_err(|e| format!("{e}"))?;
    match twin.check_move(mv) {
        Err(again) if again.rule == rule => Ok(()),
        Err(again) => Err(format!("the equal position gives {}", again.rule)),
        Ok(()) => Err("the equal position accepts it".into()),
    }
}

/// The position `plies` random plies (fewer if the game ends) into a game from `start`,
/// reproducible from `seed`: mid-game positions for tests and benchmarks.
pub fn random_position<G: Game>(start: &G, plies: usize, seed: u64) -> G {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = start.clone();
    for _ in 0..plies {
        match pos.random_move(&mut rng) {
            Some(m) => pos.play_unchecked(&m),
            None => break,
        }
    }
    pos
}

/// Plays random moves from `pos` to the end of the game; returns the number of plies. The
/// playout of the AI, and the unit of the engines' benchmarks.
pub fn play_out<G: Game, R: rand::Rng + ?Sized>(pos: &mut G, rng: &mut R) -> u32 {
    let mut plies = 0;
    while let Some(m) = pos.random_move(rng) {
        pos.play_unchecked(&m);
        plies += 1;
    }
    plies
}

/// One entry of a perft data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftEntry {
    /// The entry's name.
    pub id: String,
    /// The position text.
    pub position: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft data file: blocks of `id NAME`, `position TEXT` and `perft DEPTH NODES`
/// lines; `#` starts a comment line.
pub fn read_perft_file(text: &str) -> Result<Vec<PerftEntry>, String> {
    let mut entries: Vec<PerftEntry> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let bad = |why: &str| format!("line {}: {why}: {line}", n + 1);
        match key {
            "id" => entries.push(PerftEntry {
                id: rest.trim().to_string(),
                position: String::new(),
                counts: Vec::new(),
            }),
            "position" => {
                entries
                    .last_mut()
                    .ok_or_else(|| bad("position before id"))?
                    .position = rest.trim().to_string();
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let depth = it
                    .next()
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| bad("bad depth"))?;
                let nodes = it
                    .next()
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| bad("bad count"))?;
                entries
                    .last_mut()
                    .ok_or_else(|| bad("perft before id"))?
                    .counts
                    .push((depth, nodes));
            }
            _ => return Err(bad("unknown key")),
        }
    }
    Ok(entries)
}

/// Checks every count of a perft data file, skipping counts above `max_nodes` (deep counts
/// belong in release runs). Returns how many counts were checked; panics listing every
/// mismatch.
pub fn check_perft_file<G: Game>(path: &Path, max_nodes: u64) -> usize {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let entries = read_perft_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut checked = 0;
    let mut failures = String::new();
    for entry in entries {
        let pos: G = entry
            .position
            .parse()
            .unwrap_or_else(|e| panic!("{}: entry {}: {e}", path.display(), entry.id));
        for (depth, nodes) in entry.counts {
            if nodes > max_nodes {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != nodes {
                let _ = writeln!(
                    failures,
                    "{} perft {depth}: expected {nodes}, got {got}",
                    entry.id
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}:\n{failures}", path.display());
    checked
}

/// The largest perft count worth checking in this build: deep counts only with optimisation.
pub fn perft_budget() -> u64 {
    if cfg!(debug_assertions) {
        2_000_000
    } else {
        u64::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_files_are_read() {
        let text = "# c\nid a\nposition x y\nperft 1 3\nperft 2 9\nid b\nposition z\n";
        let e = read_perft_file(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].counts, [(1, 3), (2, 9)]);
        assert_eq!(e[1].position, "z");
        assert!(read_perft_file("perft 1 2\n").is_err());
        assert!(read_perft_file("id a\nperft x 2\n").is_err());
        assert!(read_perft_file("bogus\n").is_err());
    }
}
