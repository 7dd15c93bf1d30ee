//! Property tests of the position and move parsers: any text is read or refused with a
//! reason, never a panic, and what the engine writes it reads back.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use swapboard_core::Game;
use swapboard_rapid_transit::RapidTransit;

/// Rows of R, C and the odd stray character, a to-move, passes and last-swapper field.
fn position_text() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![3usize, 4, 6, 8]),
        prop::collection::vec(
            prop::sample::select(vec!['R', 'C', 'C', 'R', '.', 'x']),
            0..70,
        ),
        "[RCX]",
        "[0-3]",
        "[RC-]",
    )
        .prop_map(|(n, cells, to_move, passes, last)| {
            let rows: Vec<String> = cells.chunks(n.max(1)).map(|c| c.iter().collect()).collect();
            format!("rapid-transit {} {to_move} {passes} {last}", rows.join("/"))
        })
}

proptest! {
    #[test]
    fn position_texts_never_panic(text in position_text()) {
        if let Ok(p) = text.parse::<RapidTransit>() {
            prop_assert_eq!(p.to_string().parse::<RapidTransit>().unwrap(), p);
        }
    }

    #[test]
    fn arbitrary_texts_never_panic(text in "\\PC{0,80}") {
        let _ = text.parse::<RapidTransit>();
        let _ = format!("rapid-transit {text}").parse::<RapidTransit>();
    }

    #[test]
    fn move_texts_never_panic(text in "[a-jz]{0,2}[0-9]{0,3}-?[a-j]?[0-9]{0,3}|pass|\\PC{0,12}") {
        let pos = RapidTransit::start(8).unwrap();
        if let Ok(mv) = pos.parse_move(&text) {
            // Readable moves are judged with a reason, never a panic.
            let _ = pos.check_move(&mv);
        }
    }

    /// A random game's positions and moves read back as themselves.
    #[test]
    fn written_texts_read_back(seed in any::<u64>(), plies in 0usize..40, size in prop::sample::select(vec![4usize, 6, 8, 12])) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = RapidTransit::start(size).unwrap();
        for _ in 0..plies {
            let Some(mv) = pos.random_move(&mut rng) else { break };
            prop_assert_eq!(pos.parse_move(&mv.to_string()).unwrap(), mv);
            pos.play_unchecked(&mv);
            let back: RapidTransit = pos.to_string().parse().unwrap();
            prop_assert_eq!(back.zobrist(), pos.zobrist());
        }
    }
}
