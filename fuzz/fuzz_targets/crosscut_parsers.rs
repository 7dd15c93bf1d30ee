//! Fuzzes the Swaptimum and Flipstop position and move parsers, shakmaty-style: any text is
//! either refused with an error or read into a position whose listed moves are exactly the
//! moves `check_move` accepts, and which round-trips through its text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use swapboard_core::Game;
use swapboard_flipstop::Flipstop;
use swapboard_swaptimum::Swaptimum;

fn check<G: Game>(position: &str, mv: &str) {
    let Ok(pos) = position.parse::<G>() else { return };
    assert_eq!(pos.to_string().parse::<G>().as_ref(), Ok(&pos));
    let moves = pos.legal_moves();
    for m in &moves {
        assert!(pos.check_move(m).is_ok(), "listed move {m} refused in {pos}");
    }
    if let Ok(m) = pos.parse_move(mv) {
        assert_eq!(pos.check_move(&m).is_ok(), moves.contains(&m), "{m} in {pos}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (position, mv) = text.split_once('\n').unwrap_or((text, "a1"));
    check::<Swaptimum>(position, mv);
    check::<Flipstop>(position, mv);
});
