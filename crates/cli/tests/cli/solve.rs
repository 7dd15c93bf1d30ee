//! `swapboard solve`, run as a user runs it: the winner, a winning move, the nodes and the
//! time; limits answered as "unknown"; bad input refused per the contract. And `swapboard
//! book`, which writes the books the AI plays proven wins from.

use crate::common::{bad, ok};

/// The value of the `key: value` line of a report.
fn field<'a>(report: &'a str, key: &str) -> &'a str {
    report
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
        .unwrap_or_else(|| panic!("no {key} line in {report}"))
}

#[test]
fn the_empty_3x3_swaptimum_board_is_lost_for_red() {
    let report = ok(&["solve", "swaptimum .../.../... R"]);
    assert_eq!(field(&report, "winner"), "B (Blue)");
    assert!(
        field(&report, "move").contains("every move loses"),
        "{report}"
    );
    assert!(field(&report, "nodes").parse::<u64>().unwrap() > 0);
    assert!(field(&report, "time").ends_with(" s"));
}

/// The knowledge switches change the search, not the answer.
#[test]
fn without_symmetries_or_distances_the_answer_is_the_same() {
    let pos = "flipstop ..../R.B./..../.... R";
    let nodes = |extra: &[&str]| {
        let report = ok(&[&["solve", pos][..], extra].concat());
        assert_eq!(field(&report, "winner"), "R (Red)", "{extra:?}: {report}");
        field(&report, "nodes").parse::<u64>().unwrap()
    };
    let both = nodes(&[]);
    assert!(nodes(&["--no-distances"]) > both);
    assert!(nodes(&["--no-symmetries"]) > both);
}

#[test]
fn a_winning_move_keeps_the_win() {
    let pos = "flipstop ..../R.B./R.B./.... R";
    let report = ok(&["solve", pos]);
    assert_eq!(field(&report, "winner"), "R (Red)", "{report}");
    let mv = field(&report, "move")
        .strip_suffix(" (wins)")
        .unwrap_or_else(|| panic!("{report}"));
    let after = ok(&["apply", pos, mv]);
    let next = after.lines().next().unwrap();
    let report = ok(&["solve", next]);
    assert_eq!(field(&report, "winner"), "R (Red)", "after {mv}: {report}");
    // Every legal move is listed with what it does.
    let listed = ok(&["solve", pos, "--moves"]);
    let moves = ok(&["moves", pos]);
    assert_eq!(
        listed.lines().filter(|l| l.starts_with("move ")).count(),
        moves.lines().count()
    );
    assert!(listed.contains(&format!("move {mv}: wins")), "{listed}");
}

#[test]
fn limits_answer_unknown_and_exit_0() {
    let report = ok(&[
        "solve",
        "swaptimum ..../..../..../.... R",
        "--max-nodes",
        "20",
    ]);
    assert_eq!(
        field(&report, "winner"),
        "unknown within the limit (the node limit was reached)"
    );
    assert!(!report.contains("move:"), "{report}");
    // A game that can cycle is not guessed at either.
    let start = ok(&["new", "rapid-transit"]);
    let report = ok(&["solve", start.trim(), "--max-nodes", "3000"]);
    assert!(
        field(&report, "winner").starts_with("unknown within the limit"),
        "{report}"
    );
}

#[test]
fn a_finished_game_is_reported_as_such() {
    let report = ok(&["solve", "swaptimum R../R../R.. B"]);
    assert_eq!(field(&report, "the game is over"), "Red wins");
    assert_eq!(field(&report, "winner"), "R (Red)");
    assert_eq!(field(&report, "nodes"), "0");
}

#[test]
fn each_move_is_solved_once_per_symmetry_class() {
    let report = ok(&["solve", "flipstop .../.../... R", "--each"]);
    let lines: Vec<&str> = report.lines().collect();
    // Nine moves, then nodes and time.
    assert_eq!(lines.len(), 11, "{report}");
    // The corners are one class under the symmetries that keep Red's sides.
    assert!(lines.iter().any(|l| l.starts_with("c3: as a1")), "{report}");
    assert!(
        lines.iter().any(|l| l.starts_with("b2: B (Blue)")),
        "{report}"
    );
}

#[test]
fn bad_input_is_refused() {
    assert!(bad(&["solve", "swaptimum RB/BR R"]).contains("position 'swaptimum RB/BR R'"));
    assert!(bad(&["solve", "go ..... B"]).contains("unknown game 'go'"));
    assert!(bad(&["solve", "swaptimum .../.../... R", "--seconds=-1"]).contains("--seconds"));
    assert!(bad(&["solve", "swaptimum .../.../... R", "--max-nodes", "0"]).contains("--max-nodes"));
}

/// The time limit holds on the biggest board: a 26x26 Scware node has hundreds of children,
/// and the clock used to be read only every 1,024 nodes (a 2 s limit ran 3 to 5 s).
#[test]
fn the_time_limit_holds_on_a_big_board() {
    let start = ok(&["new", "scware", "--size", "26"]);
    let text = ok(&["solve", start.trim(), "--seconds", "1"]);
    assert!(text.contains("the time limit was reached"), "{text}");
    let seconds: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("time: "))
        .and_then(|t| t.trim_end_matches(" s").parse().ok())
        .unwrap_or_else(|| panic!("no time line in {text}"));
    // A generous margin for a shared machine; before the fix this took about 3 s.
    assert!(seconds < 2.0, "{seconds} s for a 1 s limit");
}

/// `swapboard book` writes the shipped 3x3 book byte for byte, and with `--until-live` a
/// 4x4 book that leaves Blue's answers to the live solver.
#[test]
fn the_book_command_writes_the_shipped_book_and_one_until_live() {
    let dir = std::env::temp_dir().join(format!("swapboard-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = |args: &[&str], out: &std::path::Path| {
        ok(&[&["book"], args, &["--out", out.to_str().unwrap()]].concat())
    };
    let three = dir.join("swaptimum-3.book");
    let report = book(&["swaptimum", "--size", "3"], &three);
    assert!(
        report.starts_with("swaptimum 3x3: 28 positions, 262 bytes"),
        "{report}"
    );
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../solver/books/swaptimum-3.book"
    );
    assert_eq!(
        std::fs::read(&three).unwrap(),
        std::fs::read(shipped).unwrap()
    );
    let report = book(
        &["swaptimum", "--size", "4", "--until-live"],
        &dir.join("swaptimum-4.book"),
    );
    assert!(
        report.starts_with(
            "swaptimum 4x4: 1 position (4 positions of the winner left to the live solver)"
        ),
        "{report}"
    );
    // A journal keeps each decision; a second run replays them all into the same book, a
    // last line cut short by a killed run is dropped, and another board's journal refused.
    let journal = dir.join("flipstop-3.journal");
    let journal_arg = journal.to_str().unwrap();
    let first = dir.join("first.book");
    let again = dir.join("again.book");
    let flipstop = ["flipstop", "--size", "3", "--journal", journal_arg];
    book(&flipstop, &first);
    let kept = std::fs::read_to_string(&journal).unwrap();
    assert!(
        kept.starts_with("swapboard-book-journal 2 flipstop 3 whole\n"),
        "{kept}"
    );
    assert!(kept.lines().count() > 5, "{kept}");
    std::fs::write(&journal, format!("{kept}0123")).unwrap();
    book(&flipstop, &again);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&first).unwrap()
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), kept);
    // A decision is replayed only on the image of the position it was made on: with every
    // line's image hash changed, each is made again (and appended), into the same book.
    let moved: String = kept
        .lines()
        .map(|line| match line.splitn(3, ' ').collect::<Vec<_>>()[..] {
            [hash, image, decision] if !line.starts_with("swapboard") => {
                let other = !u64::from_str_radix(image, 16).unwrap();
                format!("{hash} {other:016x} {decision}\n")
            }
            _ => format!("{line}\n"),
        })
        .collect();
    assert_ne!(moved, kept);
    std::fs::write(&journal, &moved).unwrap();
    book(&flipstop, &again);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&first).unwrap()
    );
    let redone = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(redone.lines().count(), 2 * kept.lines().count() - 1);
    let refused = bad(&[
        "book",
        "flipstop",
        "--size",
        "4",
        "--journal",
        journal_arg,
        "--out",
        journal_arg,
    ]);
    assert!(refused.contains("it is the journal of"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}
