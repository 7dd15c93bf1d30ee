//! The shipped table of learned priors (`data/priors.txt`, trained by `swapboard train`)
//! loads, and ranks moves as the self-play it was learned from played them: extending a
//! lone checker towards the mover's own sides first, beside it less, a remote corner last;
//! for each player in its own frame.

use swapboard_core::Game;
use swapboard_core::pattern::PriorTable;
use swapboard_flipstop::Flipstop;

/// The prior of `mv` in the position `text`.
fn prior(text: &str, mv: &str) -> f32 {
    let position: Flipstop = text.parse().unwrap();
    let mv = position.parse_move(mv).unwrap();
    assert!(position.is_legal(&mv), "{mv} in {text}");
    position
        .move_prior(&mv)
        .expect("every placement has a prior")
}

#[test]
fn the_shipped_table_loads_with_its_training_recorded() {
    let text = include_str!("../../data/priors.txt");
    let table = PriorTable::parse(text, "flipstop").expect("the shipped table");
    assert!(table.len() > 500, "{} patterns", table.len());
    let header = text.lines().next().unwrap();
    for field in ["size=9", "player=mcts:level=4", "seed=28"] {
        assert!(header.contains(field), "{header}");
    }
}

#[test]
fn moves_towards_the_movers_own_sides_rank_first() {
    // Red to move, its checker on e5, Blue's far away on a9.
    let red_to_move = "flipstop B......../........./........./........./....R..../........./........./........./......... R";
    let above = prior(&red_to_move, "e6");
    let beside = prior(&red_to_move, "f5");
    let corner = prior(&red_to_move, "i1");
    assert!(
        above > beside && beside > corner,
        "{above} {beside} {corner}"
    );
    // Blue to move with its own checker on e5: Blue joins left and right, so beside is its
    // "above".
    let blue_to_move = "flipstop RR......./........./........./........./....B..../........./........./........./......... B";
    let along = prior(&blue_to_move, "f5");
    let across = prior(&blue_to_move, "e6");
    let corner = prior(&blue_to_move, "i1");
    assert!(
        along > across && across > corner,
        "{along} {across} {corner}"
    );
    assert_eq!(along, above);
}
