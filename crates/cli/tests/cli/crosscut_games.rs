//! The contract commands for Swaptimum and Flipstop (Mark Steere), driven as a user would:
//! through the `swapboard` binary.

use std::process::Command;

use crate::common::{bad, ok};

fn sorted_lines(text: &str) -> Vec<&str> {
    let mut v: Vec<&str> = text.lines().collect();
    v.sort_unstable();
    v
}

const SWAPTIMUM_CASE: &str = "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB";
const FLIPSTOP_CASE: &str = "flipstop RRRB/BBRR/RR.R/BRRB";

#[test]
fn new_prints_the_start_position() {
    assert_eq!(
        ok(&["new", "swaptimum", "--size", "5"]),
        "swaptimum ...../...../...../...../..... R\n"
    );
    let nine = ok(&["new", "flipstop"]);
    assert_eq!(nine, format!("flipstop {} R\n", ["........."; 9].join("/")));
    assert!(bad(&["new", "swaptimum", "--size", "27"]).contains("board size 27 is outside 3..=26"));
    assert!(bad(&["new", "hex"]).contains("unknown game 'hex'"));
}

#[test]
fn moves_follow_the_rulings_test_cases() {
    assert_eq!(ok(&["moves", &format!("{SWAPTIMUM_CASE} B")]), "pass\n");
    let red = ok(&["moves", &format!("{SWAPTIMUM_CASE} R")]);
    assert_eq!(
        sorted_lines(&red),
        [
            "c4:a5-b4", "c4:a6-b5", "c4:b3-b4", "c4:b6-c5", "c4:c5-c6", "c4:c5-d5", "c4:c5-d6"
        ]
    );
    assert_eq!(ok(&["moves", &format!("{FLIPSTOP_CASE} B")]), "pass\n");
    assert_eq!(ok(&["moves", &format!("{FLIPSTOP_CASE} R")]), "c2\n");
}

#[test]
fn apply_prints_the_position_and_the_result() {
    let out = ok(&["apply", &format!("{SWAPTIMUM_CASE} B"), "pass", "c4:c5-c6"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("swaptimum ") && lines[0].ends_with(" B"));
    assert_eq!(lines[1], "result: R");
    assert_eq!(
        ok(&["apply", "swaptimum .../.../... R", "b2"]),
        "swaptimum .../.R./... B\nresult: ongoing\n"
    );
    assert_eq!(
        ok(&["apply", "flipstop .../.../... R"]),
        "flipstop .../.../... R\nresult: ongoing\n"
    );
    let full = ok(&["apply", &format!("{FLIPSTOP_CASE} R"), "c2"]);
    assert!(
        full.ends_with("result: R\n") || full.ends_with("result: B\n"),
        "{full}"
    );
}

#[test]
fn illegal_and_unreadable_moves_exit_2_with_the_reason() {
    let err = bad(&["apply", &format!("{SWAPTIMUM_CASE} B"), "c4"]);
    assert!(
        err.contains("illegal move c4: a placement at c4 forms a crosscut"),
        "{err}"
    );
    assert!(
        err.contains("that no swap can kill without forming a new one"),
        "{err}"
    );
    let err = bad(&["apply", "swaptimum .../.R./... B", "b2"]);
    assert!(
        err.contains("illegal move b2: b2 is occupied by a Red checker"),
        "{err}"
    );
    let err = bad(&["apply", "swaptimum .../.../... R", "a1", "d4"]);
    assert!(
        err.contains("unreadable move d4: d4 is off the 3x3 board (move 2 of 2)"),
        "{err}"
    );
    let err = bad(&["apply", "flipstop .../.../... R", "pass"]);
    assert!(
        err.contains("illegal move pass: a player may pass only when no placement is legal"),
        "{err}"
    );
    let err = bad(&["apply", &format!("{FLIPSTOP_CASE} B"), "c2"]);
    assert!(err.contains("placement restriction"), "{err}");
}

#[test]
fn unreadable_positions_exit_2_naming_the_place() {
    for (position, why) in [
        ("swaptimum RB./BR./... R", "a crosscut stands at a2-b3"),
        (
            "swaptimum .../..../... R",
            "row 2 (the 2nd row from the top) has 4 cells, expected 3",
        ),
        ("flipstop .../.Q./... R", "unknown cell letter 'Q' at b2"),
        ("flipstop .../.../... X", "the player to move is 'X'"),
        ("", "unknown game ''"),
    ] {
        let err = bad(&["moves", position]);
        assert!(err.contains(why), "{position}: {err}");
        if !position.is_empty() {
            assert!(err.contains(&format!("position '{position}'")), "{err}");
        }
    }
}

#[test]
fn perft_counts_sequences() {
    assert_eq!(
        ok(&["perft", "swaptimum ..../..../..../.... R", "4"]),
        "43896\n"
    );
    assert_eq!(
        ok(&["perft", "swaptimum ..../..../..../.... R", "0"]),
        "1\n"
    );
    assert_eq!(ok(&["perft", &format!("{FLIPSTOP_CASE} B"), "2"]), "1\n");
    assert_eq!(ok(&["perft", &format!("{FLIPSTOP_CASE} B"), "3"]), "0\n");
}

#[test]
fn show_draws_the_board_with_coordinates_and_sides() {
    let text = ok(&["show", "swaptimum ...../..BRB/..RR./...../..... B"]);
    insta::assert_snapshot!("show_swaptimum", text);
    let dir = std::env::temp_dir().join(format!("swapboard-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("board.svg");
    ok(&[
        "show",
        &format!("{FLIPSTOP_CASE} R"),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert_eq!(
        picture.matches("<circle").count(),
        15,
        "one disc per checker"
    );
    assert!(picture.contains("Flipstop by Mark Steere"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .args(["moves", "swaptimum ..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../..................../.................... R"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    assert!(status.success() || status.code() == Some(0), "{status:?}");
}

#[test]
fn echoed_input_is_shortened_and_its_control_characters_escaped() {
    let start = "swaptimum ...../...../...../...../..... R";
    let long = "x".repeat(3000);
    let long_board = format!("swaptimum {} R", ".".repeat(3000));
    let cases: [(Vec<&str>, &str); 6] = [
        (vec!["apply", start, "c\u{1b}[31m3"], "c\\u{1b}[31m3"),
        (vec!["apply", start, &long], "…"),
        (vec!["moves", &long_board], "…"),
        (vec!["new", "sw\u{1b}aptimum"], "sw\\u{1b}aptimum"),
        (vec!["stats", "x\u{7}", "--games", "3"], "x\\u{7}"),
        (vec!["replay", "/no/such\u{1b}file"], "such\\u{1b}file"),
    ];
    for (args, shown) in cases {
        let err = crate::common::bad(&args);
        assert!(err.contains(shown), "{args:?}: {err}");
        assert!(
            !err.trim_end().chars().any(char::is_control),
            "{args:?}: a control character reached the terminal: {err:?}"
        );
        assert!(
            err.chars().count() < 400,
            "{args:?}: {} characters",
            err.len()
        );
    }
}
