//! Swap 61's text parsers never panic: the grid text, submissions (checked against a grid
//! for every seat), pairs and variations. Accepted grids print back to the same grid.

#![no_main]

use libfuzzer_sys::fuzz_target;
use swapboard_swap61::{Board, Seat, Variation, allowance, check_submission, parse_pairs};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for seats in [9, 10] {
        if let Ok(board) = Board::parse(text, seats) {
            assert_eq!(Board::parse(&board.to_string(), seats), Ok(board));
        }
    }
    let names: Vec<String> = (1..=10).map(|i| format!("p{i}")).collect();
    let setup =
        swapboard_swap61::Setup::generate(&names, u64::from(data.first().copied().unwrap_or(0)))
            .expect("a generated setup is valid");
    for seat in Seat::all(10) {
        for round in [0, 1] {
            let sub = check_submission(text, &setup.start, seat, allowance(round));
            assert!(sub.spent() <= allowance(round));
        }
    }
    let _ = parse_pairs(text);
    let _ = text.parse::<Variation>();
});
