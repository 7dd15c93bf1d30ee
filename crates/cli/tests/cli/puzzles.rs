//! `swapboard puzzles generate` from games played for real, run as an operator runs it: the
//! AI's self-play written by `arena --out` examined instead of random games, every puzzle
//! found standing in one of those games; records of another size skipped; a corrupt record
//! refused with its file and line.

use std::collections::HashSet;
use std::path::PathBuf;

use swapboard_arena::record::read_records;
use swapboard_play::AnyPosition;
use swapboard_play::puzzles::read_lines;

use crate::common::{bad, ok, swapboard};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swapboard-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

/// Every position of every game in a record text, as position text.
fn positions_in(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for record in read_records(text).expect("records") {
        let size = record.tag("Size").unwrap().parse().unwrap();
        let game = record.tag("Game").unwrap().parse().unwrap();
        let mut position = AnyPosition::start(game, size).unwrap();
        seen.insert(position.to_string());
        for mv in &record.moves {
            position.play_text(mv).unwrap();
            seen.insert(position.to_string());
        }
    }
    seen
}

/// Borrowed arguments for the command's helpers.
fn refs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn puzzles_come_from_the_self_play_records_given() {
    let records = temp("self-play.txt");
    let out = swapboard(&[
        "arena",
        "swaptimum",
        "--size",
        "4",
        "--games",
        "8",
        "--player",
        "greedy",
        "--player",
        "random",
        "--seed",
        "3",
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&records).unwrap();
    let file = temp("found.jsonl");
    // `puzzles generate` of Swaptimum on `size`, reading `source`, into the puzzle file.
    let args = |size: &'static str, source: &PathBuf, extra: &[&'static str]| -> Vec<String> {
        let mut args: Vec<String> = ["puzzles", "generate", "--game", "swaptimum", "--size", size]
            .map(str::to_owned)
            .to_vec();
        args.extend(extra.iter().map(|a| (*a).to_owned()));
        args.extend(["--records".to_owned(), source.to_str().unwrap().to_owned()]);
        args.extend(["--file".to_owned(), file.to_str().unwrap().to_owned()]);
        args
    };
    let report = ok(&refs(&args("4", &records, &["--count", "5"])));
    let found = read_lines(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(!found.is_empty(), "{report}");
    assert!(
        report.contains(&format!("{} new swaptimum 4x4 puzzles", found.len())),
        "{report}"
    );
    let played = positions_in(&text);
    for puzzle in &found {
        assert!(
            played.contains(&puzzle.position),
            "{}: {report}",
            puzzle.position
        );
    }
    // The same records again add nothing: every puzzle in them is in the file already.
    let again = ok(&refs(&args("4", &records, &["--count", "5"])));
    assert!(again.contains("0 new swaptimum 4x4 puzzles"), "{again}");
    // Records of another size are not read.
    let other = ok(&refs(&args("5", &records, &[])));
    assert!(other.contains("from 0 positions examined"), "{other}");

    // A record with a move the rules refuse: its file and line named.
    let corrupt = temp("corrupt.txt");
    std::fs::write(
        &corrupt,
        "[Game \"swaptimum\"]\n[Size \"4\"]\n[Result \"*\"]\n\n1. a1 2. a1 *\n",
    )
    .unwrap();
    let message = bad(&refs(&args("4", &corrupt, &[])));
    assert!(message.contains("corrupt.txt"), "{message}");
    assert!(message.contains("move 2 (a1)"), "{message}");
    // --records and --database are one source or the other.
    let both = swapboard(&refs(&args(
        "4",
        &corrupt,
        &["--database", "sqlite::memory:"],
    )));
    assert_eq!(both.status.code(), Some(2), "{both:?}");
    assert!(
        String::from_utf8_lossy(&both.stderr).contains("--database"),
        "{both:?}"
    );
}
