//! The texts a game master posts and sends: the round report, the public view and a
//! player's private view. Plain strings; the caller prints them.

use std::fmt::Write as _;

use crate::board::{Seat, TILES, Tile, cell_of};
use crate::game::{Swap61Game, standings};
use crate::round::{LAST_ROUND, RoundOutcome, allowance};
use crate::score::blocking_seats;
use crate::submission::check_submission;

/// `P3 ann`.
fn seat_name(game: &Swap61Game, seat: Seat) -> String {
    format!("{seat} {}", game.setup().name(seat))
}

/// The name of a round: `the pregame` or `round 2 (Corner Connection)`.
pub fn round_title(game: &Swap61Game, round: usize) -> String {
    if round == 0 {
        "the pregame".into()
    } else {
        format!(
            "round {round} ({})",
            game.setup().rounds[round].variation.title()
        )
    }
}

/// What a round scores: its pairs, or the Node Network.
fn round_targets(game: &Swap61Game, round: usize) -> String {
    let spec = &game.setup().rounds[round];
    if round == 0 {
        "no scoring".into()
    } else if spec.variation.network {
        "every node to its nearest node".into()
    } else {
        let pairs: Vec<String> = spec.pairs.iter().map(ToString::to_string).collect();
        format!("pairs {}", pairs.join(", "))
    }
}

/// The grid lines under a `grid` heading.
fn grid_block(out: &mut String, game: &Swap61Game) {
    out.push_str("grid\n");
    for row in game.board().rows() {
        let _ = writeln!(out, "{row}");
    }
}

/// Cumulative standings with shared ranks.
fn standings_block(out: &mut String, game: &Swap61Game) {
    out.push_str("standings\n");
    for (rank, seat, total) in standings(&game.totals()) {
        let _ = writeln!(out, "{rank:>2}. {:<16} {total}", seat_name(game, seat));
    }
}

/// The report after `resolve`: first the game master's record of the resolution (kept
/// private: the rulings publish only the grid and the scores), then the public part to
/// post: the grid, the round's scores and the standings.
pub fn round_report(game: &Swap61Game, outcome: &RoundOutcome) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Swap 61: {} resolved",
        round_title(game, outcome.round)
    );
    out.push_str("\ngame master's record (private: only the grid and the scores are published)\n");
    for (seat, r) in &outcome.rejections {
        let _ = writeln!(out, "reject {seat} line {}: {}", r.line, r.reason);
    }
    if outcome.resolution.edges.is_empty() {
        out.push_str("no tokens were placed\n");
    }
    for e in &outcome.resolution.edges {
        let _ = writeln!(out, "{e}");
    }
    out.push_str("\npublic report\n");
    out.push_str(&public_report(game, outcome));
    out
}

/// The public part of the report after `resolve`, what a game master posts: the grid, the
/// round's scores, the standings and the next round. Nothing of any submission is in it.
pub fn public_report(game: &Swap61Game, outcome: &RoundOutcome) -> String {
    let mut out = String::new();
    grid_block(&mut out, game);
    if let Some(scores) = &outcome.scores {
        let _ = writeln!(out, "scores of round {}", outcome.round);
        for (seat, s) in Seat::all(scores.len()).zip(scores) {
            let _ = writeln!(out, "  {:<16} {s}", seat_name(game, seat));
        }
    } else {
        out.push_str("no scores in the pregame\n");
    }
    standings_block(&mut out, game);
    out.push_str(&next_round_line(game));
    out
}

/// The forum post of a resolved round: its title, then [`public_report`]. `game` is the
/// game just after that round was resolved.
pub fn forum_post(game: &Swap61Game, outcome: &RoundOutcome) -> String {
    format!(
        "Swap 61: {} resolved\n\n{}",
        round_title(game, outcome.round),
        public_report(game, outcome)
    )
}

/// What the next open round is and which pairs are published.
fn next_round_line(game: &Swap61Game) -> String {
    let round = game.round();
    if game.is_over() {
        return "the game is over\n".into();
    }
    let mut s = format!(
        "open: {}, {}",
        round_title(game, round),
        round_targets(game, round)
    );
    if round < LAST_ROUND {
        let _ = write!(
            s,
            "; next: {}, {}",
            round_title(game, round + 1),
            round_targets(game, round + 1)
        );
    }
    s.push('\n');
    s
}

/// The public view: seats, the open round, the grid and the standings.
pub fn public_view(game: &Swap61Game) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Swap 61 by 'pseudonam'");
    let seats: Vec<String> = Seat::all(game.setup().seats())
        .map(|s| seat_name(game, s))
        .collect();
    let _ = writeln!(out, "seats: {}", seats.join(", "));
    out.push_str(&next_round_line(game));
    if !game.is_over() {
        let _ = writeln!(
            out,
            "submissions received: {} of {}",
            game.submitted().count(),
            game.setup().seats()
        );
    }
    grid_block(&mut out, game);
    standings_block(&mut out, game);
    out
}

/// The cells of a seat's walls on the grid now.
fn walls_of(game: &Swap61Game, seat: Seat) -> String {
    let cells: Vec<String> = (0..TILES)
        .filter(|&t| game.board().tile(t) == Tile::Wall(seat))
        .map(|t| cell_of(t).to_string())
        .collect();
    cells.join(" ")
}

/// A player's private view: their seat and walls, the walls they borrow in the open round,
/// and their submission as checked.
pub fn private_view(game: &Swap61Game, seat: Seat) -> String {
    let mut out = String::new();
    let round = game.round();
    let _ = writeln!(out, "{} (private)", seat_name(game, seat));
    let _ = writeln!(out, "your walls: {}", walls_of(game, seat));
    if game.is_over() {
        out.push_str("the game is over\n");
        return out;
    }
    let _ = writeln!(
        out,
        "open: {}, {}",
        round_title(game, round),
        round_targets(game, round)
    );
    let borrowed: Vec<Seat> = blocking_seats(seat, game.setup().seats(), round)
        .into_iter()
        .skip(1)
        .collect();
    if borrowed.is_empty() {
        out.push_str("borrowed walls: none in the pregame\n");
    }
    for b in borrowed {
        let _ = writeln!(
            out,
            "borrowed from {}: {}",
            seat_name(game, b),
            walls_of(game, b)
        );
    }
    match game.submission(seat) {
        None => out.push_str("your submission: none yet\n"),
        Some(text) => {
            let checked = check_submission(text, game.board(), seat, allowance(round));
            let _ = writeln!(
                out,
                "your submission: {} of {} tokens placed",
                checked.spent(),
                allowance(round)
            );
            for b in &checked.bids {
                let _ = writeln!(out, "  line {}: {} {} accepted", b.line, b.edge, b.tokens);
            }
            for r in &checked.rejections {
                let _ = writeln!(out, "  line {}: rejected: {}", r.line, r.reason);
            }
        }
    }
    out
}
