//! The shipped tables of learned priors (`crates/GAME/data/priors.txt`, trained by
//! `swapboard train`) load, and rank moves as the self-play they were learned from played
//! them: a lone checker extended towards the mover's own sides first, beside it less, a
//! remote corner last; for each player in its own frame.

use swapboard_core::Game;
use swapboard_core::pattern::PriorTable;
use swapboard_flipstop::Flipstop;
use swapboard_swaptimum::Swaptimum;

/// The prior of `mv` in the position `text`.
fn prior<G: Game>(text: &str, mv: &str) -> f32 {
    let position: G = text.parse().unwrap();
    let mv = position.parse_move(mv).unwrap();
    assert!(position.is_legal(&mv), "{mv} in {text}");
    position
        .move_prior(&mv)
        .expect("every placement has a prior")
}

/// The checks on the shipped table `text` of game `G`.
fn check_shipped<G: Game>(text: &str) {
    let table = PriorTable::parse(text, G::ID).expect("the shipped table");
    assert!(table.len() > 500, "{} patterns", table.len());
    let header = text.lines().next().unwrap();
    for field in ["size=9", "player=mcts:level=4", "seed=28"] {
        assert!(header.contains(field), "{header}");
    }
    // Red to move, its checker on e5, Blue's far away on a9.
    let rows = "/........./........./........./....R..../........./........./........./.........";
    let red_to_move = format!("{} B........{rows} R", G::ID);
    let above = prior::<G>(&red_to_move, "e6");
    let beside = prior::<G>(&red_to_move, "f5");
    let corner = prior::<G>(&red_to_move, "i1");
    assert!(
        above > beside && beside > corner,
        "{above} {beside} {corner}"
    );
    // Blue to move, its checker on e5: Blue joins left and right, so along its line is
    // beside the checker on the board.
    let blue_to_move = format!("{} RR.......{} B", G::ID, rows.replace('R', "B"));
    let along = prior::<G>(&blue_to_move, "f5");
    let across = prior::<G>(&blue_to_move, "e6");
    let corner = prior::<G>(&blue_to_move, "i1");
    assert!(
        along > across && across > corner,
        "{along} {across} {corner}"
    );
    assert_eq!(along, above);
}

#[test]
fn the_shipped_swaptimum_table_loads_and_ranks_moves_as_self_play_did() {
    check_shipped::<Swaptimum>(include_str!("../../swaptimum/data/priors.txt"));
}

#[test]
fn the_shipped_flipstop_table_loads_and_ranks_moves_as_self_play_did() {
    check_shipped::<Flipstop>(include_str!("../../flipstop/data/priors.txt"));
}
