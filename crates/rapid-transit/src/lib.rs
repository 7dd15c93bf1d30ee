//! Rapid Transit by Phil Leduc (2022/2024), played by its rule sheet as read in
//! docs/RULINGS.md ("Rapid Transit").
//!
//! The board starts full in a checkerboard (Red on a1). On a turn a player swaps one of
//! their *terminal* pieces (at most one like-coloured orthogonal neighbour) with any
//! opponent piece of an opponent *network* (orthogonally connected like-coloured pieces)
//! adjacent to the terminal's network; the two pieces need not touch. After the swap no
//! 2 x 2 block may be of one colour, and both moved pieces must have at least two friendly
//! neighbours. A player with no swap passes; two passes in a row end the game. The player
//! with the larger network wins, then the larger second largest, and so on; identical
//! network sizes go to the last player to swap.
//!
//! [`RapidTransit`] is the position. Its networks, terminal pieces and cornered pieces are
//! kept on bitboards up to date swap by swap (only the networks touching the two swapped
//! cells change), and move generation reads them: far pairs are counted by multiplication,
//! near pairs judged bit-parallel, and no candidate swap is ever judged by recomputing
//! anything from scratch (see `kept.rs` and docs/PERFORMANCE.md). 8 x 8 is the game (one
//! `u64` per colour); even sizes 4 to 16 are offered as a variant.
//!
//! The sheet has no repetition rule, and games can revisit positions: record hashes with
//! `swapboard_core::History` to see it. Cornering is shown, never enforced.

mod bits;
mod kept;
mod moves;
mod position;
mod verdict;

pub use moves::RapidTransitMove;
pub use position::RapidTransit;
pub use verdict::{Verdict, decide};

/// Colour names of the first player (Red) and the second (Cyan).
const COLOUR_NAMES: [&str; 2] = ["Red", "Cyan"];
/// Colour letters of the first player (Red) and the second (Cyan).
const LETTERS: [char; 2] = ['R', 'C'];

fn ordinal_word(i: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    if let Some(word) = WORDS.get(i.wrapping_sub(1)) {
        return (*word).to_string();
    }
    let suffix = match (i % 10, i % 100) {
        (1, n) if n != 11 => "st",
        (2, n) if n != 12 => "nd",
        (3, n) if n != 13 => "rd",
        _ => "th",
    };
    format!("{i}{suffix}")
}
