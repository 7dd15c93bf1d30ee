//! Fuzzes the Rapid Transit position and move parsers: any text is either refused with an
//! error or read into a position that round-trips through its text with the same hash, whose
//! move count matches its listed moves, and where a parsed move is accepted exactly when it
//! is listed (a refusal always carries its reason).

#![no_main]

use libfuzzer_sys::fuzz_target;
use swapboard_core::Game;
use swapboard_rapid_transit::RapidTransit;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (position, mv) = text.split_once('\n').unwrap_or((text, "a1-a2"));
    let Ok(pos) = position.parse::<RapidTransit>() else { return };
    let back: RapidTransit = pos.to_string().parse().expect("own text reads back");
    assert_eq!(back, pos);
    assert_eq!(back.zobrist(), pos.zobrist());
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.move_count(), "{pos}");
    for m in &moves {
        assert!(pos.check_move(m).is_ok(), "listed move {m} refused in {pos}");
        assert_eq!(pos.parse_move(&m.to_string()).as_ref(), Ok(m));
    }
    if let Ok(m) = pos.parse_move(mv) {
        match pos.check_move(&m) {
            Ok(()) => assert!(moves.contains(&m), "{m} accepted but not listed in {pos}"),
            Err(reason) => {
                assert!(!moves.contains(&m), "{m} listed but refused in {pos}");
                assert!(!reason.message.is_empty());
            }
        }
    }
});
