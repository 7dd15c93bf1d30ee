//! Flipstop's rule sheet, figure by figure, and the rulings' test case.
//!
//! The sheet's figures are lost; each test rebuilds the situation its figure shows.

use swapboard_core::{Game, Outcome, Player, Rule};
use swapboard_flipstop::Flipstop;

fn pos(text: &str) -> Flipstop {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Flipstop) -> Vec<String> {
    let mut m: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
    m.sort();
    m
}

/// The refusal of `mv` here, which must be under `rule`.
fn refused(p: &Flipstop, mv: &str, rule: Rule) -> String {
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let e = p.check_move(&m).expect_err(mv);
    assert_eq!(e.rule, rule, "{mv}: {e}");
    e.message
}

/// Figure 1: Red has won with a path joining the top and bottom rows.
#[test]
fn figure_1_red_joins_top_and_bottom() {
    let mut p = pos("flipstop .BR../..R../.BRB./..R../..... R");
    p.play_text("c1").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
    assert!(p.legal_moves().is_empty());
    assert!(refused(&p, "a1", Rule::GameOver).contains("the game is over: Red has won"));
}

/// Figures 3a and 3b: Red's placement at c3 forms the crosscut c3-d4 with blue c4 and d3.
/// c4 can be replaced by a red checker without forming a new crosscut, so it is; d3 cannot
/// (it would form the crosscut d2-e3), so it stays blue.
#[test]
fn figure_3_replaces_exactly_the_replaceable_enemy_checkers() {
    let p = pos("flipstop ...../..BR./...BB/...BR/..... R");
    assert_eq!(
        p.replacements("c3".parse().unwrap()),
        Some(vec!["c4".parse().unwrap()])
    );
    let mut after = p.clone();
    after.play_text("c3").unwrap();
    assert_eq!(
        after.to_string(),
        "flipstop ...../..RR./..RBB/...BR/..... B"
    );
    assert!(after.board().find_crosscut().is_none());
}

/// A placement forming two crosscuts at once replaces an enemy checker in each.
#[test]
fn two_crosscuts_formed_at_once_are_both_resolved() {
    // Blue at c3 forms b2-c3 (b2 B, c2 R, b3 R) and c3-d4 (d4 B, c4 R, d3 R).
    let p = pos("flipstop ...../..RB./.R.R./.BR../..... B");
    let mut after = p.clone();
    after.play_text("c3").unwrap();
    assert!(after.board().find_crosscut().is_none());
    let replaced = p.replacements("c3".parse().unwrap()).unwrap();
    assert_eq!(replaced.len(), 4, "{replaced:?}");
    assert_eq!(
        after.to_string(),
        "flipstop ...../..BB./.BBB./.BB../..... R"
    );
}

/// Figures 4a and 4b: Red's placement at c3 forms a crosscut whose blue checkers c4 and d3
/// would each form a new crosscut if replaced, so c3 is not a legal placement for Red; it is
/// for Blue (the sheet's NOTE).
#[test]
fn figure_4_placement_restriction() {
    let p = pos("flipstop .RB../.BBR./...BB/...BR/..... R");
    assert!(!moves(&p).contains(&"c3".to_string()));
    let why = refused(&p, "c3", Rule::PlacementRestriction);
    assert!(why.contains("forms the crosscut c3-d4"), "{why}");
    assert!(
        why.contains("replacing c4 would form the crosscut b4-c5"),
        "{why}"
    );
    assert!(
        why.contains("replacing d3 would form the crosscut d2-e3"),
        "{why}"
    );
    let blue = pos("flipstop .RB../.BBR./...BB/...BR/..... B");
    assert!(moves(&blue).contains(&"c3".to_string()));
}

/// The rulings' test case: c2 is illegal for Blue, so Blue passes; Red's only move is c2.
#[test]
fn rulings_test_case_skipped_turn() {
    let blue = pos("flipstop RRRB/BBRR/RR.R/BRRB B");
    assert_eq!(blue.outcome(), None);
    assert_eq!(moves(&blue), ["pass"]);
    assert!(refused(&blue, "c2", Rule::PlacementRestriction).contains("placement restriction"));
    let red = pos("flipstop RRRB/BBRR/RR.R/BRRB R");
    assert_eq!(moves(&red), ["c2"]);
    assert!(
        refused(&red, "pass", Rule::PassNotAllowed)
            .contains("may pass only when no placement is legal, and c2 is legal")
    );
    let mut after = blue.clone();
    after.play_text("pass").unwrap();
    assert_eq!(after, red);
}

/// docs/RULINGS.md (Flipstop, "when a placement is illegal"): one formed crosscut that keeps
/// every enemy checker makes the placement illegal, even when another crosscut it forms
/// could be cleared. Blue at c2 forms c1-d2, whose red c1 and d2 could both be turned, and
/// b2-c3, whose red b2 and c3 could not.
#[test]
fn one_crosscut_left_standing_makes_the_placement_illegal() {
    let blue = pos("flipstop RRRB/BBRR/RR.R/BRRB B");
    let why = refused(&blue, "c2", Rule::PlacementRestriction);
    assert!(why.contains("forms the crosscut b2-c3"), "{why}");
    assert!(
        why.contains("replacing b2 would form the crosscut a1-b2"),
        "{why}"
    );
    assert!(
        why.contains("replacing c3 would form the crosscut c3-d4"),
        "{why}"
    );
    // With c3 empty there is no b2-c3: the same placement forms c1-d2 alone and turns both
    // of its red checkers.
    let only = pos("flipstop RRRB/BB.R/RR.R/BRRB B");
    let c = |name: &str| name.parse().unwrap();
    assert_eq!(only.replacements(c("c2")), Some(vec![c("c1"), c("d2")]));
    let mut after = only.clone();
    after.play_text("c2").unwrap();
    assert_eq!(after.to_string(), "flipstop RRRB/BB.R/RRBB/BRBB R");
}

/// NOTE: no empty cell is illegal for both players, on every position of many random games
/// of several sizes.
#[test]
fn note_no_cell_is_illegal_for_both_players() {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut checked = 0;
    for size in [3, 4, 5, 6, 9] {
        for _ in 0..40 {
            let mut p = Flipstop::start(size).unwrap();
            while let Some(m) = p.random_move(&mut rng) {
                p.play_unchecked(&m);
                checked += note_holds(&p);
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Checks the NOTE at one position; returns the number of empty cells checked.
fn note_holds(p: &Flipstop) -> usize {
    let mut other = p.clone();
    other.play_unchecked(&swapboard_flipstop::FlipstopMove::Pass);
    let mut n = 0;
    for cell in p.board().square().cells() {
        if p.board().at(cell) == swapboard_core::Stone::Empty {
            assert!(
                p.replacements(cell).is_some() || other.replacements(cell).is_some(),
                "{cell} is illegal for both players in {p}"
            );
            n += 1;
        }
    }
    n
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let err = "flipstop RB./BR./... R"
        .parse::<Flipstop>()
        .unwrap_err()
        .to_string();
    assert!(err.contains("crosscut stands at a2-b3"), "{err}");
    let p = Flipstop::start(4).unwrap();
    assert!(
        p.parse_move("e1")
            .unwrap_err()
            .to_string()
            .contains("off the 4x4 board")
    );
    assert!(p.parse_move("c3:d4-e5").is_err());
    assert!(
        refused(&pos("flipstop .R./.../... B"), "b3", Rule::Occupied)
            .contains("occupied by a Red checker")
    );
}

/// Positions serialise as their contract text (for records, the server and its database).
#[test]
fn positions_serialise_as_their_text() {
    let p = Flipstop::start(4).unwrap();
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(json, format!("\"{p}\""));
    assert_eq!(serde_json::from_str::<Flipstop>(&json).unwrap(), p);
    assert!(serde_json::from_str::<Flipstop>("\"flipstop RB./BR./... R\"").is_err());
}

#[test]
fn the_view_of_a_won_game_shows_the_winning_path() {
    // Blue joins left and right.
    let won = pos("flipstop .../BBB/.R. R");
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::Second)));
    let path: Vec<String> = won.view().winning.iter().map(ToString::to_string).collect();
    assert_eq!(path, ["a2", "b2", "c2"]);
}

/// A move built by a program may name a cell off the board: it is refused, never a panic.
#[test]
fn a_built_move_off_the_board_is_refused() {
    use swapboard_flipstop::FlipstopMove;
    use swapboard_grid::Cell;
    let pos = Flipstop::start(5).expect("5x5");
    for cell in [Cell::new(5, 0), Cell::new(0, 5), Cell::new(25, 25)] {
        let refused = pos.check_move(&FlipstopMove::Place(cell)).unwrap_err();
        assert_eq!(refused.rule, Rule::OffBoard, "{cell}: {refused}");
        assert_eq!(refused.message, format!("{cell} is off the 5x5 board"));
    }
}
