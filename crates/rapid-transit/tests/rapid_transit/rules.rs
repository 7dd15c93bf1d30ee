//! The rule sheet's examples and every ruling, as positions built for them (the sheet's
//! figures are lost). Each position's features are checked by hand in the comments.

use swapboard_core::{Game, Outcome, Player, Rule};
use swapboard_grid::{Cell, CellSet};
use swapboard_rapid_transit::{RapidTransit, RapidTransitMove};

fn pos(text: &str) -> RapidTransit {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cells(names: &str) -> CellSet {
    names
        .split_whitespace()
        .map(|n| n.parse::<Cell>().unwrap())
        .collect()
}

/// The refusal of `mv` here, which must be under `rule`.
fn refused(p: &RapidTransit, mv: &str, rule: Rule) -> String {
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let e = p.check_move(&m).expect_err(mv);
    assert_eq!(e.rule, rule, "{mv}: {e}");
    e.message
}

/// Early in a game (Cyan to move, Red swapped last):
///
/// ```text
///   8  C R C R C R C R
///   7  R C R C R C R C
///   6  C R C R C R C R
///   5  R C R C R R R C
///   4  C R C R C C R R
///   3  R C R C R C R C
///   2  C R C R C C C R
///   1  R C R C R R C C
///      a b c d e f g h
/// ```
///
/// Red's network of 7 is e5 f5 g5 f6 g4 h4 g3; Cyan's of 8 is e4 f4 f3 f2 e2 g2 g1 h1.
const EARLY: &str =
    "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRRRC/CRCRCCRR/RCRCRCRC/CRCRCCCR/RCRCRRCC C 0 R";

/// The sheet's cornering example: "Red has 4 cornered pieces ... The two lower formations
/// overlap. Cyan has 5 cornered pieces." In EARLY, Red's f1 (with g1 g2 f2) and h2 (with g1
/// g2 h1) are the two lower formations, overlapping on g1 and g2; e3 (f3 e4 f4) and g3 (f2
/// g2 f3) are the others. Cyan's e6 (e5 f5 f6), f4 (g4 f5 g5), g6 (f5 g5 f6), h3 (g3 g4 h4)
/// and h5 (g4 h4 g5) are cornered by Red.
#[test]
fn cornered_pieces_are_counted_as_the_sheet_defines() {
    let p = pos(EARLY);
    assert_eq!(p.cornered(Player::First), cells("e3 f1 g3 h2"));
    assert_eq!(p.cornered(Player::Second), cells("e6 f4 g6 h3 h5"));
    let view = p.view();
    let marked: CellSet = view
        .marks
        .iter()
        .filter(|(_, m)| *m == swapboard_core::CellMark::Cornered)
        .map(|&(c, _)| c)
        .collect();
    assert_eq!(marked, cells("e3 f1 g3 h2 e6 f4 g6 h3 h5"));
    assert!(
        view.notes
            .iter()
            .any(|n| n.starts_with("cornered pieces: Red 4 (e3 f1 g3 h2), Cyan 5"))
    );
}

/// The sheet's terminal example: "Here Red has 10 terminals and Cyan has 11."
///
/// ```text
///   8  C C C R C C R R
///   7  C R R R R C C R
///   6  C C C C R R C R
///   5  C R R R R C R R
///   4  C R C C R C C R
///   3  C C R C R C R R
///   2  R R R C C C R C
///   1  R C C C R R R C
///      a b c d e f g h
/// ```
///
/// Red terminals (at most one Red neighbour): a1 (a2), b4 (b5), b7 (c7), c3 (c2), d8
/// (none), e1 (f1), e3 (e4), f6 (e6), g5 (h5), g8 (h8). Cyan: b1 (c1), b3 (a3), c4 (d4),
/// c8 (b8), d6 (c6), e8 (none), f5 (f4), g4 (f4), g6 (g7), h1 (h2), h2 (h1).
#[test]
fn terminal_pieces_are_counted_as_the_sheet_defines() {
    let p = pos(
        "rapid-transit CCCRCCRR/CRRRRCCR/CCCCRRCR/CRRRRCRR/CRCCRCCR/CCRCRCRR/RRRCCCRC/RCCCRRRC C 0 R",
    );
    assert_eq!(
        p.terminals(Player::First),
        cells("a1 b4 b7 c3 d8 e1 e3 f6 g5 g8")
    );
    assert_eq!(
        p.terminals(Player::Second),
        cells("b1 b3 c4 c8 d6 e8 f5 g4 g6 h1 h2")
    );
    assert!(
        p.view()
            .notes
            .contains(&"terminal pieces (^): Red 10, Cyan 11".to_string())
    );
    // Cyan's terminals are all hemmed in: none can swap, so Cyan must pass.
    assert_eq!(p.legal_moves(), [RapidTransitMove::Pass]);
}

/// "The player must use one of his or her terminal pieces, but can swap with any opponent
/// piece in an adjacent network": d5 (a lone Cyan piece) swaps with f6, two cells away, in
/// Red's network of 7 that touches d5 at e5. Red on d5 then has four Red neighbours, Cyan on
/// f6 has e6 f7 g6, and no block turns one colour.
#[test]
fn a_swap_needs_no_contact_between_the_pieces() {
    let p = pos(EARLY);
    assert!(p.is_legal(&p.parse_move("d5-f6").unwrap()));
    // Either order on input; the terminal first on output.
    assert_eq!(p.parse_move("f6-d5").unwrap().to_string(), "d5-f6");
    let after = p.clone().play(&p.parse_move("d5-f6").unwrap()).unwrap();
    assert_eq!(
        after.to_string(),
        "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCCCR/RCRRRRRC/CRCRCCRR/RCRCRCRC/CRCRCCCR/RCRCRRCC R 0 C"
    );
    // Red's network grew by d5 and the pieces around it; f6 left it.
    assert_eq!(after.network_size_at("d5".parse().unwrap()), 1 + 4 + 5);
    // But a Red piece of a network that does not touch a2's is out of reach.
    assert_eq!(
        refused(&p, "a2-a5", Rule::NetworksNotAdjacent),
        "a5 is not in a Red network adjacent to the network of a2"
    );
}

/// docs/RULINGS.md (Rapid Transit, "which pieces may swap"): only the mover's piece must be
/// terminal; the partner may be any piece of an adjacent enemy network, terminal or not.
/// Cyan's lone d5 swaps with Red's g5, which has two Red neighbours (f5 and g4): afterwards
/// Red on d5 has four Red neighbours and Cyan on g5 has g6 and h5.
#[test]
fn the_partner_need_not_be_terminal() {
    let p = pos(EARLY);
    let g5: Cell = "g5".parse().unwrap();
    assert!(!p.terminals(Player::First).contains(g5));
    assert!(p.is_legal(&p.parse_move("d5-g5").unwrap()));
}

#[test]
fn restriction_1_only_terminal_pieces_swap() {
    // f2 has Cyan neighbours f3, e2 and g2.
    let p = pos(EARLY);
    assert_eq!(
        refused(&p, "f2-f1", Rule::NotTerminal),
        "f2 is not a terminal piece: it has 3 Cyan neighbours (a terminal piece has at most one)"
    );
    assert!(refused(&p, "a1-a3", Rule::SwapPieces).contains("a1 holds a Red piece"));
}

#[test]
fn restriction_2_no_block_of_one_colour_of_either_colour() {
    let p = pos(EARLY);
    // Red's e3 is cornered by Cyan's f3 e4 f4: Cyan on e3 would fill that block.
    assert_eq!(
        refused(&p, "d3-e3", Rule::BlockFormed),
        "the swap would fill the 2x2 block e3, e4, f3, f4 with Cyan (no 2x2 block of one colour may be formed)"
    );
    // The other colour: Red's g4 is in Red's block g4 h4 g3 (with Cyan h3 cornered); Cyan's
    // h3 swapping away would leave Red on h3 and fill g3 g4 h3 h4 with Red.
    let blocked = refused(&p, "h3-g5", Rule::BlockFormed);
    assert!(blocked.contains("g3, g4, h3, h4 with Red"), "{blocked}");
}

#[test]
fn restriction_3_both_moved_pieces_need_two_friends() {
    let p = pos(EARLY);
    // Cyan on a1 would touch only a2 of its colour (b1 turns Red).
    assert_eq!(
        refused(&p, "b1-a1", Rule::TooFewNeighbours),
        "after the swap Cyan's piece on a1 would have 1 Cyan neighbour; both moved pieces need at least two friendly neighbours"
    );
    // Red on a8 would touch only a7 of its colour (b8 turns Cyan): the opponent's piece
    // counts too.
    assert_eq!(
        refused(&p, "a8-b8", Rule::TooFewNeighbours),
        "after the swap Red's piece on a8 would have 1 Red neighbour; both moved pieces need at least two friendly neighbours"
    );
}

#[test]
fn pass_only_without_a_swap() {
    let p = pos(EARLY);
    assert!(refused(&p, "pass", Rule::PassNotAllowed).starts_with("Cyan has a legal swap"));
    // The parser refuses what no position can read.
    assert!(p.parse_move("d5").is_err());
    assert!(p.parse_move("d5-d5").is_err());
    assert!(p.parse_move("d5-i5").is_err());
}

/// An 8 x 8 game's end: Cyan swapped last; Red, then Cyan, have no swap.
const BEFORE_END: &str =
    "rapid-transit RRRRCCRR/RCCRRCCC/RRCCRCRC/RCRCCCRC/RRRRRCCC/RCCCRCRC/RRRRRRRC/RCCCCCCC R 0 C";

#[test]
fn two_passes_in_a_row_end_the_game() {
    let p = pos(BEFORE_END);
    assert_eq!(p.legal_moves(), [RapidTransitMove::Pass]);
    let once = p.play(&RapidTransitMove::Pass).unwrap();
    assert_eq!(once.outcome(), None);
    assert_eq!(once.legal_moves(), [RapidTransitMove::Pass]);
    let twice = once.play(&RapidTransitMove::Pass).unwrap();
    assert!(twice.is_over());
    assert!(twice.legal_moves().is_empty());
    assert_eq!(
        refused(&twice, "pass", Rule::GameOver),
        "the game is over: both players passed in a row"
    );
}

/// Finished 8 x 8 games, each decided at a different level of the tie-break.
#[test]
fn the_largest_network_wins_then_the_next_and_so_on() {
    // Red's network of 26 against Cyan's 23.
    let p = pos(
        "rapid-transit CCCCCCCR/CRCRCRRR/CRRRCRCR/CCRCCRCC/CRCCRRRC/RRCRRCRC/RCCCRCRC/RRRRRRRC C 2 R",
    );
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(p.network_sizes(Player::First)[0], 26);
    assert_eq!(p.network_sizes(Player::Second)[0], 23);
    // Both largest 28; Cyan's second largest (3) beats Red's (2).
    let p = pos(&BEFORE_END.replace("R 0 C", "R 2 C"));
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::Second)));
    let note = p.view().notes.last().cloned().unwrap();
    assert_eq!(
        note,
        "game over (both players passed): Cyan wins: Cyan's second largest network (3) is larger than Red's (2); the larger ones were equal (28)"
    );
    // 24 and 5 equal; Red's third largest (3) beats Cyan's (2).
    let p = pos(
        "rapid-transit CCRRRRRR/RCRCRCCC/RCRCRRRC/RCRRRCRC/RRCRCRRC/CCCRCCRC/CRCRRCRC/RRCCCCCC C 2 R",
    );
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
    assert!(
        p.verdict()
            .unwrap()
            .reason
            .starts_with("Red's third largest network (3)")
    );
}

#[test]
fn identical_network_sizes_go_to_the_last_swapper() {
    for (text, last) in [
        (
            "rapid-transit CRRRRRRR/CCRCCRCC/RRRCRRRC/RCRCCCCC/RCCCRRRC/RCRCCCCC/RCRRRRRC/RRRCCCCC R 2 C",
            Player::Second,
        ),
        (
            "rapid-transit CRRRRRRC/CCCCCCRC/CRRRRRRC/CCRCCCCC/CRRRRRCR/CCCCCRRR/CRCRCCCC/RRRRRRRC C 2 R",
            Player::First,
        ),
    ] {
        let p = pos(text);
        assert_eq!(
            p.network_sizes(Player::First),
            p.network_sizes(Player::Second)
        );
        assert_eq!(p.outcome(), Some(Outcome::Win(last)), "{text}");
        assert!(p.verdict().unwrap().reason.contains("swapped last"));
    }
}

#[test]
fn the_start_is_a_full_checkerboard_red_on_a1_red_first() {
    let p = RapidTransit::start(8).unwrap();
    assert_eq!(
        p.to_string(),
        "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC R 0 -"
    );
    assert_eq!(p.to_move(), Player::First);
    assert_eq!(
        RapidTransit::start_with(8, Player::Second)
            .unwrap()
            .to_move(),
        Player::Second
    );
    assert_eq!(p.network_sizes(Player::First), vec![1; 32]);
    // Every piece is a terminal; only swaps of two neighbours away from the edges' corners
    // leave both with two friends.
    assert_eq!(p.terminals(Player::First).len(), 32);
    assert_eq!(p.legal_moves().len(), 104);
}

#[test]
fn size_variants_are_even_4_to_16() {
    for n in (4..=16).step_by(2) {
        let p = RapidTransit::start(n).unwrap();
        assert_eq!(p.size(), n);
        assert_eq!(p.to_string().parse::<RapidTransit>().unwrap(), p);
    }
    for n in [5, 7, 9, 15] {
        let e = RapidTransit::start(n).unwrap_err();
        assert!(e.reason.contains("even board side"), "{e}");
    }
    assert!(
        RapidTransit::start(18)
            .unwrap_err()
            .reason
            .contains("not 18x18")
    );
    assert!(
        RapidTransit::start(3)
            .unwrap_err()
            .reason
            .contains("not 3x3")
    );
}

#[test]
fn unreachable_positions_are_refused_with_the_reason() {
    let start = RapidTransit::start(4).unwrap().to_string();
    assert_eq!(start, "rapid-transit CRCR/RCRC/CRCR/RCRC R 0 -");
    let cases = [
        ("rapid-transit CRCR/RCRC/CRCR/RCR. R 0 -", "d1 is empty"),
        (
            "rapid-transit CRCR/RCRC/CRCR/RCRR R 0 R",
            "Red has 9 pieces and Cyan 7",
        ),
        (
            "rapid-transit CRCRC/RCRCR/CRCRC/RCRCR/CRCRC R 0 -",
            "the board has 5 rows",
        ),
        ("rapid-transit CRCR/RCRC/CRCR/RCRC X 0 -", "player to move"),
        (
            "rapid-transit CRCR/RCRC/CRCR/RCRC R 3 -",
            "passes field is '3'",
        ),
        (
            "rapid-transit CRCR/RCRC/CRCR/RCRC R 0 x",
            "last swapper field",
        ),
        (
            "rapid-transit CRCR/RCRC/CRCR/RCXC R 0 -",
            "unknown cell letter 'X' at c1",
        ),
        (
            "rapid-transit CRCR/RCRC/CRCR/CRRC R 0 -",
            "must be the start checkerboard",
        ),
        (
            "rapid-transit CRCR/RCRC/CRCR/RCRC R 0 R",
            "the last player to swap is Cyan, not Red",
        ),
        (
            "rapid-transit CRCR/RCRC/CRCR/RCRC R 1 -",
            "Cyan passed, but Cyan has a swap",
        ),
        (
            "rapid-transit RRCR/RRCC/CCRC/CCRR C 0 R",
            "the 2x2 block a1, a2, b1, b2 is all Cyan",
        ),
        ("swaptimum CRCR/RCRC/CRCR/RCRC R 0 -", "not 'rapid-transit'"),
        ("rapid-transit CRCR/RCRC/CRCR/RCRC R 0", "5 fields"),
    ];
    for (text, why) in cases {
        let e = text.parse::<RapidTransit>().unwrap_err();
        assert!(e.reason.contains(why), "{text}: {e}");
    }
}

#[test]
fn show_names_both_players_network_sizes() {
    let view = pos(EARLY).view();
    assert!(
        view.notes.contains(
            &"Red networks (25), largest first: 7 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
                .to_string()
        )
    );
    assert!(
        view.notes
            .iter()
            .any(|n| n.starts_with("Cyan networks (25), largest first: 8 1"))
    );
    assert_eq!(view.sides, [swapboard_core::SideOwner::None; 2]);
    let terminals = view
        .marks
        .iter()
        .filter(|(_, m)| *m == swapboard_core::CellMark::Terminal)
        .count();
    assert_eq!(terminals, 29 + 27);
}

#[test]
fn the_sheet_read_from_scratch_agrees_on_these_positions() {
    for text in [EARLY, BEFORE_END] {
        let engine: std::collections::BTreeSet<String> = pos(text)
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(engine, crate::common::Plain::read(text).legal_moves());
    }
}

/// The picture's networks of a hand-built position:
///
/// ```text
///   4  R R C C
///   3  R C C R
///   2  C C R R
///   1  R R C C
///      a b c d
/// ```
///
/// Red's networks: {a3 a4 b4} and {c2 d2 d3}, tied for largest, and {a1 b1}; Cyan's:
/// {a2 b2 b3 c3 c4 d4} and {c1 d1}. Every orthogonal pair of like pieces is a link, the
/// left or lower cell first.
#[test]
fn the_view_links_like_neighbours_and_outlines_every_largest_network() {
    let p = pos("rapid-transit RRCC/RCCR/CCRR/RRCC R 0 C");
    assert_eq!(
        p.largest_networks(Player::First),
        cells("a3 a4 b4 c2 d2 d3")
    );
    assert_eq!(
        p.largest_networks(Player::Second),
        cells("a2 b2 b3 c3 c4 d4")
    );
    let view = p.view();
    let pairs: Vec<String> = view.links.iter().map(|(a, b)| format!("{a}-{b}")).collect();
    assert_eq!(
        pairs.join(" "),
        "a1-b1 a2-b2 a3-a4 a4-b4 b2-b3 b3-c3 c1-d1 c2-d2 c3-c4 c4-d4 d2-d3"
    );
    let outlined: CellSet = view.outlined.iter().copied().collect();
    assert_eq!(outlined, cells("a3 a4 b4 c2 d2 d3 a2 b2 b3 c3 c4 d4"));
}
