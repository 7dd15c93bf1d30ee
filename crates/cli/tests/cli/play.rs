//! `swapboard play` in its line mode, driven as a subprocess with piped input.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `swapboard play ARGS` with `input` on standard input; returns (exit code, stdout).
fn play(args: &[&str], input: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input.as_bytes())
        .expect("input written");
    let out = child.wait_with_output().expect("the binary ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8"),
    )
}

#[test]
fn a_scripted_game_is_played_to_its_end_with_refusals_and_undo() {
    let script = "# Red runs down column a\na1\nc1\nb9\nb2\nundo\na2\nc2\nhint\na3\n";
    let (code, out) = play(&["swaptimum", "--size", "3"], script);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("refused: unreadable move b9"), "{out}");
    assert!(out.contains("Red b2: placed b2"), "{out}");
    assert!(out.contains("took back 1 plies"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("game over: Red wins"), "{out}");
    assert!(
        out.ends_with("[Termination \"rules\"]\n\n1. a1 2. c1 3. a2 4. c2 5. a3 R\n"),
        "{out}"
    );
}

#[test]
fn the_board_shows_what_a_swap_did() {
    // 3 x 3 after a1 b1 b2: Blue at a2 forms a crosscut, so a swap must follow.
    let (code, out) = play(&["swaptimum", "--size", "3"], "a1\nb1\nb2\nmoves\n");
    assert_eq!(code, 0, "{out}");
    let line = out
        .lines()
        .find_map(|l| l.split_once(" legal moves: ").map(|(_, moves)| moves))
        .expect("the moves line");
    // Every listed move is playable; play the first swap, if any, and see it described.
    let swap = line
        .split_whitespace()
        .find(|m| m.contains(':'))
        .expect("a1 b1 b2 leaves Blue a crosscut-forming placement");
    let (code, out) = play(
        &["swaptimum", "--size", "3"],
        &format!("a1\nb1\nb2\n{swap}\n"),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("Blue {swap}: placed")), "{out}");
    assert!(out.contains("swapped"), "{out}");
}

#[test]
fn the_ai_plays_both_sides_to_the_end_and_the_record_replays() {
    let dir = std::env::temp_dir().join(format!("swapboard-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("watch.txt");
    let file_text = file.to_str().expect("a UTF-8 path");
    let (code, out) = play(
        &[
            "flipstop", "--size", "4", "--ai", "1", "--as", "none", "--out", file_text,
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("game over: "), "{out}");
    let saved = std::fs::read_to_string(&file).expect("the record is saved");
    assert!(out.ends_with(&saved), "the printed record is the saved one");
    crate::common::ok(&["replay", file_text]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_refused_with_exit_2() {
    for (args, why) in [
        (vec!["swaptimum", "--ai", "9"], "the level must be 1 to 8"),
        (
            vec!["swaptimum", "--ai", "1", "--as", "green"],
            "not a side",
        ),
        (vec!["swaptimum", "--as", "red"], "needs an opponent"),
        (vec!["chess"], "unknown game"),
    ] {
        let err = crate::common::bad(&[&["play"], &args[..]].concat());
        assert!(err.contains(why), "{args:?}: {err}");
    }
}
