//! Fuzzes the Scware position and move parsers: any text is either refused with an error or
//! read into a position that round-trips through its text, whose move count matches its
//! listed moves (when few enough to list), and where a parsed move is accepted exactly when
//! it is listed. The step decomposition's parser gets the same treatment.

#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use swapboard_core::Game;
use swapboard_scware::{Scware, ScwareSteps};

fn check<G: Game>(position: &str, mv: &str) {
    let Ok(pos) = position.parse::<G>() else { return };
    assert_eq!(pos.to_string().parse::<G>().as_ref(), Ok(&pos));
    let count = pos.move_count();
    let parsed = pos.parse_move(mv);
    if count > 20_000 {
        return;
    }
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, count, "{pos}");
    for m in &moves {
        assert!(pos.check_move(m).is_ok(), "listed move {m} refused in {pos}");
        assert_eq!(pos.parse_move(&m.to_string()).as_ref(), Ok(m));
    }
    if let Ok(m) = parsed {
        assert_eq!(pos.check_move(&m).is_ok(), moves.contains(&m), "{m} in {pos}");
    }
    let _ = pos.for_each_move(|_| ControlFlow::Break(()));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (position, mv) = text.split_once('\n').unwrap_or((text, "a1"));
    check::<Scware>(position, mv);
    check::<ScwareSteps>(position, mv);
});
