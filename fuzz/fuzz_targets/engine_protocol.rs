//! Fuzzes the engine protocol's line reader and command parser: any bytes (lines that are not
//! UTF-8, ids, comments, unknown commands, bad arguments) get answers that each start with `=`
//! or `?`, and the session never ends early. Searching commands are left out: they think for
//! real time.

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use swapboard_play::protocol::run_protocol;

fuzz_target!(|data: &[u8]| {
    let thinks = |line: &[u8]| {
        [&b"genmove"[..], b"analyze", b"solve", b"quit"]
            .iter()
            .any(|word| line.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word)))
    };
    let input: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|line| !thinks(line))
        .flat_map(|line| line.iter().copied().chain([b'\n']))
        .collect();
    let mut out = Vec::new();
    run_protocol(Cursor::new(input), &mut out).expect("in-memory i/o");
    let text = String::from_utf8(out).expect("answers are UTF-8");
    for answer in text.split("\n\n").filter(|a| !a.is_empty()) {
        assert!(
            answer.starts_with('=') || answer.starts_with('?'),
            "{answer:?}"
        );
    }
});
