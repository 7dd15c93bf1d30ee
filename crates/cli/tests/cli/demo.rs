//! The README's main job, `swapboard demo`, runs to its end and shows what it promises.

#[test]
fn the_demo_plays_the_sheet_figures_through_the_engines() {
    let text = crate::common::ok(&["demo"]);
    assert!(text.contains("Swaptimum by Mark Steere (2023)"));
    assert!(text.contains("Flipstop by Mark Steere (2023)"));
    // Blue's skipped turn, then Red's winning swap, then Flipstop's replacement.
    assert!(text.contains("-> pass\n"));
    assert!(text.contains("-> c4:c5-c6\n"));
    assert!(text.contains("result: R\n"));
    assert!(text.contains("flipstop ...../..RR./..RBB/...BR/..... B\n"));
}
