//! Fuzzes the move builder with random cell sequences on positions reached by random
//! moves, in every game: no answer panics, a complete verdict is a legal move, and every cell
//! offered next is accepted when clicked (the builder never offers a dead end).
//!
//! Bytes: the game, the board side, the number of plies, one byte per ply choosing among
//! the legal moves, then the clicks (a byte of 255 presses Scware's "+").

#![no_main]

use libfuzzer_sys::fuzz_target;
use swapboard_grid::Cell;
use swapboard_play::{AnyPosition, GameId, Selection};

fn position(bytes: &mut impl Iterator<Item = u8>) -> Option<AnyPosition> {
    let game = GameId::ALL[usize::from(bytes.next()?) % GameId::ALL.len()];
    let sizes = game.sizes();
    let span = (sizes.end() - sizes.start()).min(6) + 1;
    let mut size = sizes.start() + usize::from(bytes.next()?) % span;
    if game == GameId::RapidTransit {
        size += size % 2;
    }
    let mut pos = AnyPosition::start(game, size).ok()?;
    for _ in 0..bytes.next()? % 40 {
        let moves = pos.legal_moves(2_000)?;
        if moves.is_empty() {
            break;
        }
        let pick = usize::from(bytes.next()?) % moves.len();
        pos.play_text(&moves[pick]).expect("a listed move is legal");
    }
    Some(pos)
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let Some(pos) = position(&mut bytes) else { return };
    let n = pos.size() as u8;
    let mut selection = Selection::default();
    for byte in bytes {
        let mut next = selection.clone();
        if byte == 255 {
            if !next.end_growth() {
                continue;
            }
        } else {
            next = next.with(Cell::new(byte % n, (byte / n) % n));
        }
        let draft = pos.draft(&next);
        if let Some(mv) = draft.ready() {
            let mut after = pos.clone();
            assert!(after.play_text(mv).is_ok(), "{pos}: '{next}' made the illegal {mv}");
        }
        for &cell in &draft.next {
            let clicked = pos.draft(&next.with(cell));
            assert!(
                clicked.refusal().is_none(),
                "{pos}: {cell} offered after '{next}' but refused: {clicked:?}"
            );
        }
        if draft.refusal().is_none() {
            selection = next;
        }
    }
});
