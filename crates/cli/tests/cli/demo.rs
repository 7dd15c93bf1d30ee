//! The README's main job, `swapboard demo`, runs to its end and shows what it promises.

#[test]
fn the_demo_tours_the_five_games_the_ai_and_what_to_try_next() {
    let text = crate::common::ok(&["demo"]);
    for credit in [
        "Swaptimum by Mark Steere (2023)",
        "Flipstop by Mark Steere (2023)",
        "Scware by Christian Freeling (2012)",
        "Rapid Transit by Phil Leduc (2022/2024)",
        "Swap 61 by 'pseudonam'",
    ] {
        assert!(text.contains(credit), "no {credit:?} in the tour");
    }
    // Blue's skipped turn, then Red's winning swap, then Flipstop's replacement.
    assert!(text.contains("-> pass\n"));
    assert!(text.contains("-> c4:c5-c6\n"));
    assert!(text.contains("result: R\n"));
    assert!(text.contains("flipstop ...../..RR./..RBB/...BR/..... B\n"));
    // Scware's growth of two groups at once, Rapid Transit's swap of two pieces.
    assert!(text.contains("scware W...R/W..../...../W..../W...R R g\n"));
    assert!(text.contains("/RCCRRCRC C 0 R\n"));
    // The AI's table of candidate moves, and the move it then plays.
    assert!(text.contains("20000 iterations in"));
    assert!(text.contains("move                visits     win  pv\n"));
    assert!(text.contains("-> the AI plays "));
    // A whole Swap 61 game: every round resolved, then the standings of ten seats.
    assert!(text.contains("round 5 (Theme)"));
    assert!(text.contains("\n10. P"));
    assert!(text.trim_end().ends_with("the server: docs/API.md"));
    assert!(text.contains("== What to try next\n"));
}
