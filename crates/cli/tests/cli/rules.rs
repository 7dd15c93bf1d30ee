//! `swapboard rules GAME` prints the rules of `swapboard_play::rules`, diagrams drawn.

#[test]
fn the_rules_of_every_game_print_with_their_credit_and_diagrams() {
    for game in swapboard_play::rules::ALL {
        let text = crate::common::ok(&["rules", game.id()]);
        assert_eq!(text, game.text(), "{}", game.id());
        assert!(text.contains(game.author()), "{}", game.id());
    }
    let swaptimum = crate::common::ok(&["rules", "swaptimum"]);
    assert!(swaptimum.starts_with("Swaptimum by Mark Steere (2023)\n"));
    // A diagram drawn by the render crate, with its marked cells and caption.
    assert!(
        swaptimum.contains("   3 B| . B . . . |B 3\n"),
        "{swaptimum}"
    );
    assert!(swaptimum.contains("marked: b2 b3 c2 c3\n"));
    // A move shown played is drawn after it too, its changes starred.
    assert!(swaptimum.contains("after c3:b3-c3:\n"), "{swaptimum}");
    let rapid = crate::common::ok(&["rules", "rapid-transit"]);
    let words = rapid.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("All rights are reserved"), "{rapid}");
    assert!(rapid.contains("(How swapboard reads the sheet)"));
    let swap61 = crate::common::ok(&["rules", "swap61"]);
    assert!(swap61.contains("A: N1 P1 P1 P2 N2"), "{swap61}");
    // Bids are listed as bids, never as swaps, before the round resolves them.
    assert!(
        swap61.contains("bid on this round (tokens): D4 E4 (8)"),
        "{swap61}"
    );
}

#[test]
fn an_unknown_game_is_refused_with_the_list() {
    let err = crate::common::bad(&["rules", "chess"]);
    assert!(err.contains("unknown game 'chess'"), "{err}");
    assert!(err.contains("swap61"), "{err}");
}

/// The help's list of games is read from the rules: every game on a line of its own, by id,
/// with its author's credit (the words it had when it was written by hand).
#[test]
fn the_help_lists_every_game_with_its_credit() {
    let help = crate::common::ok(&["--help"]);
    assert!(
        help.contains(
            "Rules engines, AI and tools for swap and crosscut games:
  swaptimum      Swaptimum by Mark Steere (2023)
  flipstop       Flipstop by Mark Steere (2023)
  scware         Scware by Christian Freeling (2012)
  rapid-transit  Rapid Transit by Phil Leduc (2022/2024)
  swap61         Swap 61 by 'pseudonam' (9-10 players, with a game master)\n"
        ),
        "{help}"
    );
}
