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
        (vec!["swaptimum", "--ai", "10"], "the level must be 1 to 9"),
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

/// A lone Swaptimum placement that forms a crosscut opens its swap step (the swap typed on
/// the next line, cells in any case); `position` prints the position text.
#[test]
fn a_crosscut_placement_alone_asks_for_its_swap() {
    // 3 x 3 after a1 b1 b2: Blue at a2 forms a crosscut.
    let (code, out) = play(&["swaptimum", "--size", "3"], "A1\nb1\nb2\na2\nposition\n");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("a2 forms a crosscut: choose the two checkers to swap (one of: "),
        "{out}"
    );
    assert!(out.contains("position: swaptimum"), "{out}");
    let swap = out
        .lines()
        .find_map(|l| l.split_once("(one of: "))
        .map(|(_, cells)| {
            cells
                .trim_end_matches(')')
                .split(' ')
                .take(1)
                .collect::<Vec<_>>()
        })
        .expect("the cells offered");
    let (code, out) = play(
        &["swaptimum", "--size", "3"],
        &format!("a1\nb1\nb2\na2\n{}\n", swap[0].to_uppercase()),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("with which checker?"), "{out}");
}

/// `--position` starts from a position text; `--resume` continues the record of an
/// unfinished game, kept after every move in the --out file.
#[test]
fn a_game_is_resumed_from_its_record() {
    let dir = std::env::temp_dir().join(format!("swapboard-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("game.txt");
    let path = file.to_str().expect("a UTF-8 path");
    let (code, _) = play(
        &["swaptimum", "--size", "3", "--out", path],
        "a1\nc1\nquit\n",
    );
    assert_eq!(code, 0);
    let kept = std::fs::read_to_string(&file).expect("the record");
    assert!(kept.contains("[Termination \"unfinished\"]"), "{kept}");
    assert!(kept.contains("1. a1 2. c1 *"), "{kept}");
    let (code, out) = play(&["swaptimum", "--resume", path], "a2\nc2\na3\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("game over: Red wins"), "{out}");
    let kept = std::fs::read_to_string(&file).expect("the record");
    assert!(kept.contains("1. a1 2. c1 3. a2 4. c2 5. a3 R"), "{kept}");
    let (code, _) = play(&["swaptimum", "--resume", path], "");
    assert_ne!(code, 0, "a finished game cannot be resumed");
    let (code, out) = play(
        &["swaptimum", "--position", "swaptimum R../.../... B"],
        "resign\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("game over: Blue resigned: Red wins"), "{out}");
    assert!(out.contains("[Termination \"resigned\"]"), "{out}");
    assert!(out.contains("[Start \"swaptimum R../.../... B\"]"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `arena --start` plays every game from the position given, and the records say so.
#[test]
fn an_arena_starts_from_a_position() {
    let dir = std::env::temp_dir().join(format!("swapboard-arena-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("games.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .args([
            "arena",
            "swaptimum",
            "--start",
            "swaptimum R../.../... B",
            "--games",
            "2",
        ])
        .args(["--player", "random", "--player", "random", "--out"])
        .arg(&file)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = std::fs::read_to_string(&file).expect("the records");
    assert_eq!(
        records
            .matches("[Start \"swaptimum R../.../... B\"]")
            .count(),
        2,
        "{records}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .args([
            "arena",
            "swaptimum",
            "--start",
            "flipstop ... R",
            "--games",
            "1",
        ])
        .args(["--player", "random", "--player", "random"])
        .output()
        .expect("the binary runs");
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}
