//! `swapboard replay`: records written by `arena --out` and `play` read back, checked move
//! by move, round trips, and corrupt records refused with their line.

use std::path::PathBuf;

use crate::common::swapboard;

use swapboard_arena::record::read_records;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swapboard-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

/// An arena file of `games` random games of `game`, and its text.
fn arena_file(game: &str, size: &str, games: &str, name: &str) -> (PathBuf, String) {
    let file = temp(name);
    let out = swapboard(&[
        "arena",
        game,
        "--size",
        size,
        "--games",
        games,
        "--player",
        "random",
        "--player",
        "greedy",
        "--max-plies",
        "60",
        "--out",
        file.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&file).expect("records written");
    (file, text)
}

#[test]
fn records_round_trip_exactly_and_replay_for_every_game() {
    for (game, size) in [
        ("swaptimum", "5"),
        ("flipstop", "5"),
        ("scware", "5"),
        ("rapid-transit", "6"),
    ] {
        let (file, text) = arena_file(game, size, "3", &format!("{game}.txt"));
        let records = read_records(&text).expect("arena records read back");
        assert_eq!(records.len(), 3);
        let again: Vec<String> = records.iter().map(ToString::to_string).collect();
        assert_eq!(again.join("\n"), text, "{game}: the text round-trips");
        for k in 1..=3 {
            let out = swapboard(&[
                "replay",
                file.to_str().expect("UTF-8"),
                "--game",
                &k.to_string(),
            ]);
            assert!(out.status.success(), "{game} {k}: {out:?}");
            let shown = String::from_utf8(out.stdout).expect("UTF-8");
            let record = &records[k - 1];
            assert!(
                shown.contains(&format!("record result: {}", record.result)),
                "{shown}"
            );
            let plies = record.moves.len();
            assert!(
                shown.contains(&format!("after ply {plies} of {plies}")),
                "{shown}"
            );
        }
    }
}

#[test]
fn a_picture_on_stdout_carries_the_ply_and_the_move() {
    let (file, _) = arena_file("swaptimum", "5", "1", "caption.txt");
    let out = swapboard(&[
        "replay",
        file.to_str().expect("UTF-8"),
        "--ply",
        "1",
        "--svg",
        "-",
    ]);
    assert!(out.status.success(), "{out:?}");
    let picture = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(picture.starts_with("<svg"), "{picture}");
    assert!(picture.contains(">after ply 1 of "), "{picture}");
    assert!(!picture.contains("[Event"), "{picture}");
}

#[test]
fn a_position_part_way_is_shown_and_drawn() {
    let (file, _) = arena_file("swaptimum", "5", "1", "partway.txt");
    let svg = temp("partway.svg");
    let out = swapboard(&[
        "replay",
        file.to_str().expect("UTF-8"),
        "--ply",
        "2",
        "--svg",
        svg.to_str().expect("UTF-8"),
    ]);
    assert!(out.status.success(), "{out:?}");
    let shown = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(shown.contains("after ply 2 of"), "{shown}");
    assert!(shown.contains("2. Blue "), "{shown}");
    assert!(!shown.contains("3. Red "), "{shown}");
    // Two placements, Red to move again.
    let position = shown
        .lines()
        .find(|l| l.starts_with("swaptimum "))
        .expect("the position line");
    assert_eq!(position.matches(['R', 'B']).count(), 2 + 1, "{position}");
    assert!(
        std::fs::read_to_string(svg)
            .expect("svg written")
            .starts_with("<svg")
    );
}

#[test]
fn a_corrupt_record_is_refused_with_its_line_and_reason() {
    let (_, text) = arena_file("swaptimum", "5", "2", "good.txt");
    // The second record's first move line: make its first move land on the cell the second
    // move takes, so that move 2 is illegal there.
    let lines: Vec<&str> = text.lines().collect();
    let second_start = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[Game"))
        .nth(1)
        .map(|(i, _)| i)
        .expect("two records");
    let moves_line = (second_start..lines.len())
        .find(|&i| lines[i].starts_with("1. "))
        .expect("the moves");
    let tokens: Vec<&str> = lines[moves_line].split_whitespace().collect();
    // tokens: "1." m1 "2." m2 ...: play m1 again as move 2.
    let corrupt_line = lines[moves_line].replacen(
        &format!("2. {}", tokens[3]),
        &format!("2. {}", tokens[1]),
        1,
    );
    let mut corrupt: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
    corrupt[moves_line] = corrupt_line;
    let file = temp("corrupt.txt");
    std::fs::write(&file, corrupt.join("\n")).expect("written");
    let out = swapboard(&["replay", file.to_str().expect("UTF-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    assert!(
        err.contains(&format!("line {}: move 2: illegal move", moves_line + 1)),
        "{err}"
    );
    assert!(err.contains("occupied"), "{err}");

    // A broken move number is found while reading, with its line.
    std::fs::write(&file, text.replacen("2. ", "7. ", 1)).expect("written");
    let out = swapboard(&["replay", file.to_str().expect("UTF-8")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    assert!(err.contains("line 9: move number '7.'"), "{err}");
}
