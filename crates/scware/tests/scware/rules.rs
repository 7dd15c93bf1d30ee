//! The rules of the sheet and the rulings, example by example.

use std::collections::HashSet;
use std::ops::ControlFlow;

use swapboard_core::{Game, Outcome, Player, Rule, Stepwise, Stone};
use swapboard_scware::{Scware, ScwareMove, ScwareStep, ScwareSteps};

fn pos(text: &str) -> Scware {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The refusal of `mv` here, which must be under `rule`.
fn refused(p: &Scware, mv: &str, rule: Rule) -> String {
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let e = p.check_move(&m).expect_err(mv);
    assert_eq!(e.rule, rule, "{mv}: {e}");
    e.message
}

fn play(p: &Scware, mv: &str) -> Scware {
    let mut q = p.clone();
    q.play_text(mv).unwrap_or_else(|e| panic!("{p} {mv}: {e}"));
    q
}

#[test]
fn white_moves_first_on_an_empty_11x11_board() {
    let start = Scware::start(Scware::DEFAULT_SIZE).unwrap();
    assert_eq!(
        start.to_string(),
        format!("scware {} W -", ["..........."; 11].join("/"))
    );
    assert_eq!(start.to_move(), Player::First);
    assert_eq!(Scware::colour_letter(Player::First), 'W');
    assert_eq!(start.move_count(), 121);
    assert!(Scware::start(2).is_err() && Scware::start(27).is_err() && Scware::start(26).is_ok());
}

#[test]
fn a_knights_move_connection_is_grown_with_two_stones() {
    // White b2 and c4 are a knight's move apart.
    let p = pos("scware ...../..W../...../.W.../..... W g");
    let after = play(&p, "c3,b3");
    assert_eq!(
        after.to_string(),
        "scware ...../..W../.WW../.W.../..... R g"
    );
    // Either stone alone would stand diagonally next to the other group.
    assert!(
        refused(&p, "b3", Rule::DiagonalRestriction)
            .contains("b3 and c4 would be diagonally adjacent White stones in different groups")
    );
    assert!(
        refused(&p, "c3", Rule::DiagonalRestriction)
            .contains("b2 and c3 would be diagonally adjacent")
    );
    // The other connections: c2 with c3, b3 with b4.
    for mv in ["c2,c3", "b3,b4"] {
        assert!(p.is_legal(&p.parse_move(mv).unwrap()), "{mv}");
    }
}

/// A move builder may keep a growth that breaks only the restriction (a further stone can
/// join the groups): the refusal's code tells it apart from every other refusal.
#[test]
fn only_the_restriction_can_be_cured_by_more_stones() {
    let p = pos("scware ...../..W../...../.W.../..... W g");
    let rule = |mv: &str| {
        p.check_move(&p.parse_move(mv).unwrap())
            .err()
            .map(|e| e.rule)
    };
    // b3 alone stands diagonally next to c4; with c3 it joins the groups.
    assert_eq!(rule("b3"), Some(Rule::DiagonalRestriction));
    assert_eq!(rule("b3,c3"), None);
    // Stones no further stone can mend carry other codes.
    assert_eq!(
        rule("b3,e5"),
        Some(Rule::NotAGrowth),
        "e5 touches no White group"
    );
    assert_eq!(rule("b2"), Some(Rule::Occupied));
    assert_eq!(rule("pass"), Some(Rule::PassNotAllowed));
}

#[test]
fn a_stone_touching_two_groups_grows_both() {
    let p = pos("scware ...../...../.W.W./...../..... W g");
    let after = play(&p, "c3");
    assert_eq!(
        after.to_string(),
        "scware ...../...../.WWW./...../..... R g"
    );
    // c3 grew both groups: another stone next to either is a second growth.
    assert!(
        refused(&p, "c3,b4", Rule::GroupGrownTwice)
            .contains("the White group at b3 would be grown twice, by b4 and c3")
    );
    assert!(
        refused(&p, "c3,e3", Rule::GroupGrownTwice)
            .contains("the White group at d3 would be grown twice, by c3 and e3")
    );
    // Growing both groups separately is fine (any subset of the groups).
    assert!(p.is_legal(&p.parse_move("b4,d2").unwrap()));
    assert!(p.is_legal(&p.parse_move("a3,e3").unwrap()));
}

/// docs/RULINGS.md (Scware, "any or all"): a growth need not grow every group, unlike
/// Symple's. With White groups at b3 and d3, a3 grows b3's alone and d4 grows d3's alone.
#[test]
fn a_growth_may_leave_groups_ungrown() {
    let p = pos("scware ...../...../.W.W./...../..... W g");
    let after = play(&p, "a3");
    assert_eq!(
        after.to_string(),
        "scware ...../...../WW.W./...../..... R g"
    );
    assert!(p.is_legal(&p.parse_move("d4").unwrap()));
}

#[test]
fn every_growth_stone_touches_an_original_group() {
    let p = pos("scware ...../...../.W.W./...../..... W g");
    // b5 touches nothing; c4 touches only the new stone c3... no: c4 touches no White stone.
    assert!(refused(&p, "c3,c4", Rule::NotAGrowth).contains("c4 touches no original White group"));
    assert!(refused(&p, "b4,b5", Rule::NotAGrowth).contains("b5 touches no original White group"));
}

#[test]
fn the_restriction_refuses_a_new_group_diagonal_to_an_own_stone() {
    let p = pos("scware ...../...../...../.W.../..... W -");
    assert!(
        refused(&p, "c3", Rule::DiagonalRestriction)
            .contains("b2 and c3 would be diagonally adjacent White stones in different groups")
    );
    assert!(p.is_legal(&p.parse_move("d4").unwrap()));
    // Occupied cells are named.
    assert!(refused(&p, "b2", Rule::Occupied).contains("b2 is not empty"));
}

#[test]
fn the_restriction_is_checked_after_the_whole_move() {
    // b3 alone is refused, but with c3 the two groups end joined: legal.
    let p = pos("scware ...../..W../...../.W.../..... W g");
    assert!(!p.is_legal(&p.parse_move("b3").unwrap()));
    assert!(p.is_legal(&p.parse_move("b3,c3").unwrap()));
}

#[test]
fn red_may_balance_while_nobody_has_grown() {
    let p = pos("scware ...../...../..W../.R.../..... R -");
    assert!(p.balancing_available());
    let after = play(&p, "b3+e5");
    assert_eq!(
        after.to_string(),
        "scware ....R/...../.RW../.R.../..... W g"
    );
    // The new group must start a group: not next to Red's stones, old or new.
    assert!(
        refused(&p, "b3+b4", Rule::NewGroupTouches)
            .contains("b4 would not start a new group: it touches the Red stone at b3")
    );
    assert!(
        refused(&p, "b3+a1", Rule::DiagonalRestriction)
            .contains("a1 and b2 would be diagonally adjacent Red stones in different groups")
    );
    assert!(
        refused(&p, "b3+c4", Rule::DiagonalRestriction)
            .contains("b3 and c4 would be diagonally adjacent Red stones")
    );
    // A growth must come first.
    assert!(refused(&p, "e5+e1", Rule::NotAGrowth).contains("e5 touches no original Red group"));
    // White may never balance.
    let w = pos("scware ...../...../..W../.R.../..... W -");
    assert!(refused(&w, "c4+e1", Rule::BalancingMove).contains("only Red"));
}

#[test]
fn the_balancing_move_is_available_once_only() {
    let p = pos("scware ...../...../..W../.R.../..... R -");
    let after = play(&play(&p, "b3+e5"), "d3");
    assert!(after.grown() && !after.balancing_available());
    assert!(
        refused(&after, "b4+e1", Rule::BalancingMove)
            .contains("the balancing move is no longer available")
    );
    // A White growth first also closes it.
    let w = pos("scware ...../...../..W../.R.../..... W -");
    let after = play(&w, "c4");
    assert!(after.grown());
    assert!(
        refused(&after, "b3+e5", Rule::BalancingMove)
            .contains("the balancing move is no longer available")
    );
    // A placement keeps it open.
    let after = play(&play(&w, "e5"), "a5");
    let after = play(&after, "e1");
    assert!(after.balancing_available());
}

#[test]
fn balanced_moves_are_listed_and_counted() {
    let p = pos("scware ...../...../..W../.R.../..... R -");
    let moves = p.legal_moves();
    let counts = p.move_counts();
    assert_eq!(counts.total(), moves.len() as u128);
    assert_eq!(
        moves
            .iter()
            .filter(|m| matches!(
                m,
                ScwareMove::Stones {
                    new_group: Some(_),
                    ..
                }
            ))
            .count() as u128,
        counts.balanced
    );
    assert!(counts.balanced > 0);
    assert!(moves.iter().any(|m| m.to_string() == "b3+e5"));
    // b2 has four liberties, a1 would not start a group clear of b1.
    assert!(!moves.iter().any(|m| m.to_string() == "b1+a1"));
    assert_eq!(counts.growths, 4);
}

#[test]
fn connecting_top_to_bottom_wins_for_white() {
    let p = pos("scware ..W../..W../...../..W../..W.. W g");
    let after = play(&p, "c3");
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(after.legal_moves(), vec![]);
    assert!(refused(&after, "a1", Rule::GameOver).contains("the game is over: White has won"));
    // Red joins left and right.
    let r = pos("scware ...../...../RR.RR/...../W.W.W R g");
    assert_eq!(play(&r, "c3").outcome(), Some(Outcome::Win(Player::Second)));
}

#[test]
fn positions_no_game_reaches_are_refused() {
    for (text, why) in [
        (
            "scware ...../...../.W.../..W../..... W g",
            "White's stones b3 and c2 stand diagonally adjacent in different groups",
        ),
        (
            "scware ...../...../.WR../.RW../..... W g",
            "diagonally adjacent in different groups",
        ),
        (
            "scware ...../...../.WW../...../..... W -",
            "only a growth joins stones",
        ),
        (
            "scware ...../...../...../...../..... W x",
            "the grown field is 'x'",
        ),
        (
            "scware ...../...../...../...../..... B -",
            "expected 'W' or 'R'",
        ),
        ("scware ...../...../...../..... W -", "row"),
        ("scware ...../...../...../...../..... W", "4 fields"),
    ] {
        let err = text.parse::<Scware>().expect_err(text).to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
}

#[test]
fn pass_is_the_only_move_of_a_player_who_cannot_move() {
    // White's only empty cells, a3 and b3, are next to White stones, but every growth into
    // them leaves c4 or a4 diagonally next to a new stone of another group; Red can play.
    let p = pos("scware WRRRW/WRWRR/..RRW/RWRWW/RWRRW W g");
    assert!(
        refused(&p, "a3,b3", Rule::DiagonalRestriction)
            .contains("b3 and c4 would be diagonally adjacent White stones in different groups")
    );
    assert!(!p.can_move(Player::First), "{:?}", p.legal_moves());
    assert!(p.can_move(Player::Second));
    assert_eq!(p.legal_moves(), vec![ScwareMove::Pass]);
    assert_eq!(p.move_count(), 1);
    let after = play(&p, "pass");
    assert_eq!(after.to_move(), Player::Second);
    assert!(
        refused(&after, "pass", Rule::PassNotAllowed)
            .contains("pass is only legal when there is no other move")
    );
}

#[test]
fn moves_print_in_cell_order_whatever_the_input_order() {
    let p = pos("scware ...../...../.W.W./...../..... W g");
    let mv = p.parse_move("e3,a3").unwrap();
    assert_eq!(mv.to_string(), "a3,e3");
    assert!(p.legal_moves().iter().all(|m| {
        let t = m.to_string();
        let cells: Vec<&str> = t.split(['+']).next().unwrap().split(',').collect();
        let parsed: Vec<swapboard_grid::Cell> = cells.iter().map(|c| c.parse().unwrap()).collect();
        parsed.windows(2).all(|w| w[0] < w[1])
    }));
}

#[test]
fn steps_rebuild_every_move_once() {
    for text in [
        "scware ...../..W../...../.W.../..... W g",
        "scware ...../...../..W../.R.../..... R -",
        "scware .W.W./...../W.W.W/...../.W.W. W g",
        "scware WRRRW/WRWRR/..RRW/RWRWW/RWRRW W g",
    ] {
        let p = pos(text);
        let mut seen = HashSet::new();
        let mut path = Vec::new();
        walk_turn(&p, &p.to_steps(), &mut path, &mut seen);
        let listed: HashSet<ScwareMove> = p.legal_moves().into_iter().collect();
        assert_eq!(seen, listed, "{text}");
    }
}

/// Every complete path of decisions of one turn, checked to give a new move each time.
fn walk_turn(
    p: &Scware,
    s: &swapboard_scware::ScwareSteps,
    path: &mut Vec<ScwareStep>,
    seen: &mut HashSet<ScwareMove>,
) {
    let steps = s.legal_moves();
    assert!(!steps.is_empty(), "dead end after {path:?}");
    for step in steps {
        path.push(step);
        let mut next = s.clone();
        next.play_unchecked(&step);
        if next.at_turn_start() {
            let mv = p
                .move_from_steps(path)
                .expect("a complete path gives a move");
            assert_eq!(p.move_from_steps_unchecked(path), Some(mv));
            assert!(seen.insert(mv), "{mv} built twice");
            assert_eq!(next.position(), &p.clone().play(&mv).unwrap());
        } else {
            assert_eq!(next.to_move(), p.to_move());
            assert!(p.move_from_steps(path).is_none());
            walk_turn(p, &next, path, seen);
        }
        path.pop();
    }
    let _ = ControlFlow::<()>::Continue(());
}

#[test]
fn steps_explain_refusals_and_read_their_text() {
    let p = pos("scware ...../..W../...../.W.../..... W g");
    let s = p.to_steps();
    let b3 = s.parse_move("b3").unwrap();
    assert_eq!(b3, ScwareStep::Grow("b3".parse().unwrap()));
    let mut s2 = s.clone();
    s2.play_unchecked(&b3);
    assert_eq!(
        s2.to_string(),
        "scware-steps ...../..W../...../.W.../..... W g grow:1:b3"
    );
    assert_eq!(
        s2.to_string()
            .parse::<swapboard_scware::ScwareSteps>()
            .unwrap(),
        s2
    );
    // With b3 grown, group c4 must grow into c3 or b4 to join it.
    let legal: Vec<String> = s2.legal_moves().iter().map(ToString::to_string).collect();
    assert_eq!(legal, ["b4", "c3"]);
    assert!(
        s2.check_move(&ScwareStep::Skip)
            .unwrap_err()
            .to_string()
            .contains("no legal growth continues")
    );
    assert!(
        s2.check_move(&ScwareStep::Place("e1".parse().unwrap()))
            .is_err()
    );
    assert!(
        "scware-steps ...../..W../...../.W.../..... W g grow:1:e5"
            .parse::<swapboard_scware::ScwareSteps>()
            .is_err()
    );
}

/// A crowded 11x11 middle game whose growth components are large (374,537,063 moves), where
/// deciding whether partial choices can be completed once took seconds a decision. Every
/// turn built from the decisions the step view offers, along random paths, reaches a legal
/// whole move without a dead end, and growths are offered, not only placements.
#[test]
fn steps_on_large_components_end_in_legal_moves() {
    use rand::{RngExt, SeedableRng};
    let p = pos(
        "scware W....RW..../R.W.W....../..R...RW.R./R...W....../..WR...WR.W/\
        ....W.....R/W.R..R..R../..W......../R..R.W..WRW/..W......../WR...W.R.WR R -",
    );
    assert_eq!(p.move_count(), 374_537_063);
    let first = p.to_steps().legal_moves();
    assert!(
        first
            .iter()
            .any(|s| matches!(s, ScwareStep::Grow(_) | ScwareStep::Skip)),
        "{first:?}"
    );
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(37);
    let mut growths = 0;
    for _ in 0..40 {
        let mut steps = p.to_steps();
        let mut path = Vec::new();
        while path.is_empty() || !steps.at_turn_start() {
            let options = steps.legal_moves();
            assert!(!options.is_empty(), "dead end after {path:?}");
            // Growth decisions mostly, to build long turns.
            let grows: Vec<_> = options
                .iter()
                .filter(|s| !matches!(s, ScwareStep::Place(_)))
                .collect();
            let step = if !grows.is_empty() && rng.random_range(0..10) > 0 {
                *grows[rng.random_range(0..grows.len())]
            } else {
                options[rng.random_range(0..options.len())]
            };
            path.push(step);
            steps.play_unchecked(&step);
        }
        let mv = p
            .move_from_steps(&path)
            .unwrap_or_else(|| panic!("no move from {path:?}"));
        assert_eq!(p.move_from_steps_unchecked(&path), Some(mv), "{path:?}");
        p.check_move(&mv)
            .unwrap_or_else(|e| panic!("{mv} from {path:?}: {e}"));
        growths += usize::from(!matches!(path[..], [ScwareStep::Place(_)]));
    }
    assert!(growths > 25, "{growths} growths of 40 turns");
}

#[test]
fn the_view_of_a_won_game_shows_the_winning_path() {
    let won = pos("scware .W./.WW/..W R g");
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
    let path: Vec<String> = won.view().winning.iter().map(ToString::to_string).collect();
    assert_eq!(path, ["c1", "c2", "b2", "b3"]);
    assert!(Scware::start(5).unwrap().view().winning.is_empty());
}

/// A move built by a program may name cells off the board: it is refused, never a panic.
#[test]
fn a_built_move_off_the_board_is_refused() {
    use swapboard_grid::Cell;
    let pos = Scware::start(5).expect("5x5");
    for cell in [Cell::new(5, 0), Cell::new(0, 9), Cell::new(25, 25)] {
        let refused = pos.check_move(&ScwareMove::single(cell)).unwrap_err();
        assert_eq!(refused.rule, Rule::OffBoard, "{cell}: {refused}");
    }
}

/// For all-moves-as-first, a move names exactly the cells it fills with the mover's stones
/// (a balanced growth's new group too, a pass none), and a decision the one cell it writes.
#[test]
fn a_move_names_for_the_search_the_cells_its_stones_fill() {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(61);
    let mut balanced = 0;
    for _ in 0..40 {
        let mut p = Scware::start(7).unwrap();
        while let Some(mv) = p.random_move(&mut rng) {
            let mover = p.to_move();
            let mut named = HashSet::new();
            let any = Scware::amaf_cells(&mv, |cell| {
                assert!(named.insert(cell), "{mv}: {cell} twice")
            });
            let before = p.clone();
            p.check_move(&mv).unwrap();
            p.play_unchecked(&mv);
            let filled: HashSet<_> = p
                .board()
                .square()
                .cells()
                .filter(|&c| p.board().at(c) != before.board().at(c))
                .inspect(|&c| assert_eq!(p.board().at(c), Stone::of(mover)))
                .collect();
            assert_eq!(named, filled, "{before} {mv}");
            assert_eq!(any, mv != ScwareMove::Pass, "{mv}");
            balanced += usize::from(matches!(
                mv,
                ScwareMove::Stones {
                    new_group: Some(_),
                    ..
                }
            ));
        }
    }
    assert!(balanced > 0, "a balanced growth was met");
    let steps = Scware::start(7).unwrap().to_steps();
    let mut decisions = Vec::new();
    let _ = steps.for_each_move(|step| {
        decisions.push(step);
        ControlFlow::Continue(())
    });
    for step in decisions
        .into_iter()
        .chain([ScwareStep::Skip, ScwareStep::Done])
    {
        let mut named = Vec::new();
        let any = ScwareSteps::amaf_cells(&step, |cell| named.push(cell.to_string()));
        let text = step.to_string().trim_start_matches('+').to_string();
        assert_eq!(
            any,
            !matches!(step, ScwareStep::Skip | ScwareStep::Done | ScwareStep::Pass)
        );
        assert_eq!(named, if any { vec![text] } else { vec![] }, "{step}");
    }
}
