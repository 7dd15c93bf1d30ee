//! Swaptimum's rule sheet, figure by figure, and the rulings' test case.
//!
//! The sheet's figures are lost; each test rebuilds the situation its figure shows.

use swapboard_core::{Game, Outcome, Player, PositionErrorKind, Rule};
use swapboard_swaptimum::{Swaptimum, SwaptimumMove};

fn pos(text: &str) -> Swaptimum {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Swaptimum) -> Vec<String> {
    let mut m: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
    m.sort();
    m
}

/// The refusal of `mv` here, which must be under `rule`.
fn refused(p: &Swaptimum, mv: &str, rule: Rule) -> String {
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let e = p.check_move(&m).expect_err(mv);
    assert_eq!(e.rule, rule, "{mv}: {e}");
    e.message
}

/// Figure 1: Red has won with a path of red checkers joining the top and bottom rows.
#[test]
fn figure_1_red_joins_top_and_bottom() {
    let mut p = pos("swaptimum .BR../..R../.BRB./..R../..... R");
    assert_eq!(p.outcome(), None);
    p.play_text("c1").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
    assert!(p.legal_moves().is_empty(), "a finished game has no moves");
    assert!(refused(&p, "a1", Rule::GameOver).contains("the game is over: Red has won"));
    // Blue joins left and right, not top and bottom.
    let blue = pos("swaptimum ...../BBBB./...../...../..... B");
    let mut b = blue.clone();
    b.play_text("e4").unwrap();
    assert_eq!(b.outcome(), Some(Outcome::Win(Player::Second)));
    let mut b = blue;
    b.play_text("e1").unwrap();
    assert_eq!(b.outcome(), None);
}

/// Figures 3a and 3b: Red's placement forms a crosscut; Red swaps a blue crosscut checker
/// with a red checker diagonally adjacent to it, killing the crosscut without forming a new
/// one.
#[test]
fn figure_3_placement_forms_a_crosscut_and_a_swap_kills_it() {
    // c3 (placed) and d4 are red, c4 and d3 blue: the crosscut c3-d4.
    let p = pos("swaptimum ...../..BRR/...B./...../..... R");
    assert!(
        refused(&p, "c3", Rule::SwapRequired)
            .contains("forms a crosscut (c3-d4), so a swap must follow")
    );
    let mut after = p.clone();
    after.play_text("c3:d3-e4").unwrap();
    assert_eq!(
        after.to_string(),
        "swaptimum ...../..BRB/..RR./...../..... B"
    );
    // Every listed move at c3 swaps, and the one of the figure is among them.
    let at_c3: Vec<String> = moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("c3"))
        .collect();
    assert!(at_c3.iter().all(|m| m.starts_with("c3:")));
    assert!(at_c3.contains(&"c3:d3-e4".to_string()));
    // Swaps the sheet does not allow are refused with the reason.
    assert!(refused(&p, "c3:a1-b2", Rule::SwapPieces).contains("a1 is empty"));
    assert!(refused(&p, "c3:d4-e4", Rule::SwapPieces).contains("same colour"));
    assert!(refused(&p, "c3:c4-e4", Rule::SwapNotAdjacent).contains("not adjacent"));
    // A swap between a crosscut checker and an 8-adjacent checker outside it is allowed
    // (the sheet's second case) ...
    assert!(at_c3.contains(&"c3:d3-e4".to_string()));
    // ... and any two checkers of the crosscut (first case), when that leaves no crosscut.
    assert!(at_c3.contains(&"c3:c3-c4".to_string()));
}

/// A placement that forms no crosscut is the whole move: no swap may follow.
#[test]
fn a_placement_without_crosscut_takes_no_swap() {
    let p = pos("swaptimum ...../..BRR/...B./...../..... R");
    assert!(
        refused(&p, "a1:c4-d4", Rule::SwapNotAllowed)
            .contains("forms no crosscut, so no swap may follow")
    );
    assert!(moves(&p).contains(&"a1".to_string()));
}

/// A swap that kills the formed crosscut but forms a new one is refused, as is a swap that
/// leaves it standing.
#[test]
fn swaps_must_leave_the_board_crosscut_free() {
    let p = pos("swaptimum ...../..BRR/...B./...../..... R");
    // c4 <-> d4 exchanges a blue and a red crosscut checker: c3 R, d3 B, c4 R, d4 B.
    // Block c3-d4 becomes R B / R B, killed; nothing new forms, so it is legal.
    assert!(moves(&p).contains(&"c3:c4-d4".to_string()));
    // c4 <-> b5 (b5 empty) is refused; d3 <-> e2 (empty) too.
    assert!(refused(&p, "c3:c4-b5", Rule::SwapPieces).contains("b5 is empty"));
    // Swapping c4 (blue, in the crosscut) with b3 (empty) ... and a swap with an
    // uninvolved pair is refused with the crosscut named.
    let q = pos("swaptimum ....B/..BRR/...B./...../..... R");
    assert!(
        refused(&q, "c3:e5-e4", Rule::SwapOutsideCrosscut)
            .contains("neither e4 nor e5 belongs to the crosscut")
    );
}

/// docs/RULINGS.md (Swaptimum, "one swap, and then no crosscut anywhere"): a swap that kills
/// the formed crosscut but forms another is refused, and a placement that forms two
/// crosscuts at once needs one swap that kills both.
#[test]
fn one_swap_must_leave_no_crosscut_anywhere() {
    // Figure 3's position with a blue e3: exchanging d3 and d4 kills c3-d4 but makes d3-e4 a
    // crosscut; figure 3's own swap (d3 with e4) still works.
    let p = pos("swaptimum ...../..BRR/...BB/...../..... R");
    let why = refused(&p, "c3:d3-d4", Rule::SwapFormsCrosscut);
    assert!(why.contains("forms a new crosscut at d3-e4"), "{why}");
    assert!(moves(&p).contains(&"c3:d3-e4".to_string()));
    // Red at c3 forms b2-c3 (with red b2, blue c2 and b3) and c3-d4 at once.
    let two = pos("swaptimum ...../..BRR/.B.B./.RB../..... R");
    let why = refused(&two, "c3", Rule::SwapRequired);
    assert!(why.contains("b2-c3") && why.contains("c3-d4"), "{why}");
    // Figure 3's swap kills c3-d4 only: b2-c3 is left standing.
    let why = refused(&two, "c3:d3-e4", Rule::SwapFormsCrosscut);
    assert!(why.contains("leaves a crosscut at b2-c3"), "{why}");
    // Exchanging c3 and c4 changes a checker of each crosscut and kills both.
    let mut after = two.clone();
    after.play_text("c3:c3-c4").unwrap();
    assert_eq!(
        after.to_string(),
        "swaptimum ...../..RRR/.BBB./.RB../..... B"
    );
}

/// Figure 4a-4d and the rulings' test case: Blue's only empty cell is illegal for her (every
/// crosscut-killing swap forms a new crosscut), so her turn is skipped; Red places there
/// with one of seven swaps.
#[test]
fn figure_4_placement_restriction_and_the_skipped_turn() {
    let blue = pos("swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB B");
    assert_eq!(blue.outcome(), None);
    assert_eq!(moves(&blue), ["pass"]);
    let why = refused(&blue, "c4", Rule::PlacementRestriction);
    assert!(
        why.contains("no swap can kill without forming a new one"),
        "{why}"
    );
    let why = refused(&blue, "c4:c3-d4", Rule::PlacementRestriction);
    assert!(why.contains("placement restriction"), "{why}");

    let mut skipped = blue.clone();
    skipped.play_text("pass").unwrap();
    assert_eq!(skipped.to_move(), Player::First);
    let red = pos("swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB R");
    assert_eq!(skipped, red);
    let red_moves = moves(&red);
    assert_eq!(red_moves.len(), 7, "{red_moves:?}");
    assert!(red_moves.iter().all(|m| m.starts_with("c4:")));
    assert!(
        refused(&red, "pass", Rule::PassNotAllowed)
            .contains("may pass only when no placement is legal")
    );
    // As in Figure 4d, Red's swap wins the game (whichever of the seven Red picks).
    for m in &red_moves {
        let mut after = red.clone();
        after.play_text(m).unwrap();
        assert_eq!(after.outcome(), Some(Outcome::Win(Player::First)), "{m}");
    }
}

/// "It's possible that a player may win on the other player's turn": Red's swap completes
/// Blue's path.
#[test]
fn a_swap_can_make_the_opponent_win() {
    // Blue holds row 2 but b2, which is red. Red places a3, forming the crosscut a2-b3
    // (a2 B, b2 R, a3 R, b3 B) and swaps b2 with b3.
    let p = pos("swaptimum ..../.B../BRBB/.... R");
    let mut after = p.clone();
    after.play_text("a3:b2-b3").unwrap();
    assert_eq!(after.to_string(), "swaptimum ..../RR../BBBB/.... B");
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::Second)));
}

#[test]
fn bad_positions_are_refused_with_the_place() {
    for (text, why) in [
        ("swaptimum RB./BR./... R", "a crosscut stands at a2-b3"),
        (
            "swaptimum ..../..../..../... R",
            "row 1 (the 4th row from the top) has 3 cells",
        ),
        ("swaptimum .../.X./... R", "unknown cell letter 'X' at b2"),
        ("swaptimum .../.../... W", "player to move is 'W'"),
        ("flipstop .../.../... R", "of game 'flipstop'"),
        ("swaptimum ../.. R", "2 rows"),
        ("swaptimum .../.../...", "3 fields"),
    ] {
        let err = text.parse::<Swaptimum>().unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
}

#[test]
fn moves_off_the_board_or_unreadable_are_refused() {
    let p = Swaptimum::start(5).unwrap();
    assert!(
        p.parse_move("f1")
            .unwrap_err()
            .to_string()
            .contains("off the 5x5 board")
    );
    assert!(p.parse_move("c3-d4").is_err());
    assert!(
        refused(&pos("swaptimum .R./.../... B"), "b3", Rule::Occupied)
            .contains("b3 is occupied by a Red checker")
    );
}

#[test]
fn sizes_3_to_26_and_default_9() {
    assert!(Swaptimum::start(2).is_err());
    assert!(Swaptimum::start(27).is_err());
    assert_eq!(Swaptimum::start(26).unwrap().legal_moves().len(), 676);
    assert_eq!(Swaptimum::DEFAULT_SIZE, 9);
    assert_eq!(
        Swaptimum::start(3).unwrap().to_string(),
        "swaptimum .../.../... R"
    );
}

#[test]
fn swap_cells_are_read_in_any_order() {
    let p = pos("swaptimum ...../..BRR/...B./...../..... R");
    assert_eq!(
        p.parse_move("c3:e4-d3").unwrap(),
        SwaptimumMove::place_swap(
            "c3".parse().unwrap(),
            "d3".parse().unwrap(),
            "e4".parse().unwrap()
        )
    );
}

/// Positions serialise as their contract text (for records, the server and its database).
#[test]
fn positions_serialise_as_their_text() {
    let p = Swaptimum::start(4).unwrap();
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(json, format!("\"{p}\""));
    assert_eq!(serde_json::from_str::<Swaptimum>(&json).unwrap(), p);
    assert!(serde_json::from_str::<Swaptimum>("\"swaptimum RB./BR./... R\"").is_err());
}

#[test]
fn position_errors_carry_their_kind() {
    let kind = |text: &str| text.parse::<Swaptimum>().expect_err(text).kind;
    assert_eq!(
        kind("flipstop .../.../... R"),
        PositionErrorKind::UnknownGame
    );
    assert_eq!(
        kind("swaptimum .../..../... R"),
        PositionErrorKind::Unreadable
    );
    assert_eq!(
        kind("swaptimum .../.X./... R"),
        PositionErrorKind::Unreadable
    );
    assert_eq!(
        kind("swaptimum .../.../... G"),
        PositionErrorKind::Unreadable
    );
    assert_eq!(kind("swaptimum ../.. R"), PositionErrorKind::BadSize);
    assert_eq!(
        kind("swaptimum RB./BR./... R"),
        PositionErrorKind::Unreachable
    );
}

#[test]
fn the_view_of_a_won_game_shows_the_winning_path() {
    // Red's chain bends: a shortest chain from the bottom row to the top one is kept.
    let won = pos("swaptimum RR../.R../.RR./..R. B");
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
    let path: Vec<String> = won.view().winning.iter().map(ToString::to_string).collect();
    assert_eq!(path, ["c1", "c2", "b2", "b3", "b4"]);
    assert!(
        pos("swaptimum RR../.R../.R../.... B")
            .view()
            .winning
            .is_empty()
    );
}

/// A move built by a program may name cells off the board: it is refused, never a panic.
#[test]
fn a_built_move_off_the_board_is_refused() {
    use swapboard_grid::Cell;
    let pos: Swaptimum = "swaptimum ...../...../.B.../.RB../..... R"
        .parse()
        .expect("position");
    let off = Cell::new(7, 2);
    let moves = [
        SwaptimumMove::Place(off),
        SwaptimumMove::place_swap(off, Cell::new(1, 1), Cell::new(2, 2)),
        // c3 forms the crosscut b2-c3 (Blue on b3 and c2), then swaps off the board.
        SwaptimumMove::place_swap(Cell::new(2, 2), off, Cell::new(25, 25)),
    ];
    for mv in moves {
        let refused = pos.check_move(&mv).unwrap_err();
        assert_eq!(refused.rule, Rule::OffBoard, "{mv:?}: {refused}");
    }
}
