//! Fuzzes the reading of Swap 61 game files: any bytes are either refused with an error or
//! read into a game whose written file reads back into the same game, so a game master's
//! file survives every save.

#![no_main]

use libfuzzer_sys::fuzz_target;
use swapboard_swap61::Swap61Game;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(game) = Swap61Game::from_json(text) else { return };
    let written = game.to_json();
    let again = Swap61Game::from_json(&written).expect("a written game file reads back");
    assert_eq!(again.to_json(), written);
});
