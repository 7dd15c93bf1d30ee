//! `swapboard arena` and `swapboard analyze`, run as a user runs them.

use std::process::Output;

use crate::common::{bad, ok, swapboard};

use swapboard_arena::record::read_records;
use swapboard_core::Game;
use swapboard_swaptimum::Swaptimum;

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("utf-8")
}

fn assert_bad_input(args: &[&str], naming: &str) {
    let err = bad(args);
    assert!(err.contains(naming), "{args:?}: {err}");
}

#[test]
fn arena_json_sums_up_the_match() {
    let out = swapboard(&[
        "arena",
        "swaptimum",
        "--size",
        "5",
        "--games",
        "6",
        "--player",
        "greedy",
        "--player",
        "random",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(json["games"], 6);
    let wins: Vec<u64> = json["wins"]
        .as_array()
        .expect("wins")
        .iter()
        .map(|w| w.as_u64().expect("a count"))
        .collect();
    let draws = json["draws"].as_u64().expect("draws");
    let capped = json["capped"].as_u64().expect("capped");
    assert_eq!(wins.len(), 2);
    assert_eq!(wins[0] + wins[1] + draws + capped, 6);
    assert!(json["first_player_wins"].as_u64().expect("count") <= wins[0] + wins[1]);
    assert!(json["avg_plies"].as_f64().expect("plies") >= 5.0);
    assert!(json["elo_diff"].is_number());
}

#[test]
fn arena_records_replay_and_searches_by_iterations_are_reproducible() {
    let dir = std::env::temp_dir().join(format!("swapboard-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let run = |name: &str, threads: &str| {
        let path = dir.join(name);
        let out = swapboard(&[
            "arena",
            "swaptimum",
            "--size",
            "5",
            "--games",
            "4",
            "--player",
            "mcts:iters=300",
            "--player",
            "greedy",
            "--threads",
            threads,
            "--out",
            path.to_str().expect("path"),
        ]);
        let summary = stdout(&out);
        (
            summary,
            std::fs::read_to_string(&path).expect("records written"),
        )
    };
    let (summary, text) = run("a.pgn", "1");
    assert!(summary.contains("mcts:iters=300") && summary.contains("Elo difference"));
    let records = read_records(&text).expect("records read back");
    assert_eq!(records.len(), 4);
    for (i, record) in records.iter().enumerate() {
        // Colours alternate: the first-listed player moves first in even games.
        let (first, _) = record.players().expect("Players tag");
        assert_eq!(first == "mcts:iters=300", i % 2 == 0, "game {i}");
        let positions = record.replay::<Swaptimum>().expect("a legal game");
        assert_eq!(positions.len(), record.moves.len() + 1);
        assert!(positions.last().expect("a position").is_over());
        assert_eq!(record.tag("Termination"), Some("rules"));
    }
    // Same seed, same games, even with games played on two threads.
    assert_eq!(run("b.pgn", "2").1, text);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_long_match_writes_its_records_in_order_batch_after_batch() {
    let dir = std::env::temp_dir().join(format!("swapboard-batches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // More games than a batch of two threads holds (64), so records are written in pieces.
    let run = |name: &str, threads: &str| {
        let path = dir.join(name);
        let out = swapboard(&[
            "arena",
            "flipstop",
            "--size",
            "3",
            "--games",
            "150",
            "--player",
            "random",
            "--player",
            "greedy",
            "--threads",
            threads,
            "--json",
            "--out",
            path.to_str().expect("path"),
        ]);
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        (
            json,
            std::fs::read_to_string(&path).expect("records written"),
        )
    };
    let (json, text) = run("one.pgn", "1");
    assert_eq!(json["games"].as_u64(), Some(150));
    let records = read_records(&text).expect("records read back");
    let rounds: Vec<String> = records
        .iter()
        .map(|r| r.tag("Round").expect("Round tag").to_string())
        .collect();
    let expected: Vec<String> = (1..=150).map(|i: u32| i.to_string()).collect();
    assert_eq!(rounds, expected);
    let wins = json["wins"].as_array().expect("wins");
    let decided: u64 = wins.iter().filter_map(serde_json::Value::as_u64).sum();
    let results = records
        .iter()
        .filter(|r| r.tag("Result") != Some("1/2-1/2"))
        .count();
    assert_eq!(decided as usize, results);
    let (json_two, text_two) = run("two.pgn", "2");
    assert_eq!((json_two, text_two), (json, text));
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_ply_cap_is_reported_as_capped_never_as_a_result() {
    let dir = std::env::temp_dir().join(format!("swapboard-cap-{}.pgn", std::process::id()));
    let out = swapboard(&[
        "arena",
        "swaptimum",
        "--size",
        "7",
        "--games",
        "2",
        "--player",
        "random",
        "--player",
        "random",
        "--max-plies",
        "3",
        "--json",
        "--out",
        dir.to_str().expect("path"),
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(
        (json["capped"].as_u64(), json["draws"].as_u64()),
        (Some(2), Some(0))
    );
    let records = read_records(&std::fs::read_to_string(&dir).expect("records")).expect("read");
    std::fs::remove_file(&dir).expect("clean up");
    for record in records {
        assert_eq!(record.tag("Result"), Some("*"));
        assert_eq!(record.tag("Termination"), Some("capped at 3 plies"));
        assert_eq!(record.moves.len(), 3);
    }
}

#[test]
fn arena_refuses_bad_players_and_counts() {
    let base = ["arena", "swaptimum", "--games", "2", "--player", "random"];
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    assert_bad_input(&with(&["--player", "mcts:level=10"]), "mcts:level=10");
    assert_bad_input(&with(&["--player", "classic:level=9"]), "classic:level=9");
    assert_bad_input(&with(&["--player", "mcts:iters=x"]), "mcts:iters=x");
    assert_bad_input(&with(&["--player", "alphazero"]), "alphazero");
    assert_bad_input(&with(&[]), "two --player");
    assert_bad_input(
        &[
            "arena",
            "swaptimum",
            "--games",
            "0",
            "--player",
            "random",
            "--player",
            "random",
        ],
        "'0' for '--games",
    );
    assert_bad_input(
        &[
            "arena", "chess", "--games", "1", "--player", "random", "--player", "random",
        ],
        "chess",
    );
}

#[test]
fn analyze_prints_legal_best_moves_with_visits_and_variations() {
    let start = stdout(&swapboard(&["new", "swaptimum", "--size", "5"]));
    let start = start.trim();
    let out = stdout(&swapboard(&[
        "analyze",
        start,
        "--iterations",
        "3000",
        "--lines",
        "3",
    ]));
    let mut lines = out.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("3000 iterations in "), "{out}");
    assert!(lines.next().expect("column names").starts_with("move"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 3, "{out}");
    let mut last_visits = u64::MAX;
    for row in rows {
        let fields: Vec<&str> = row.split_whitespace().collect();
        let visits: u64 = fields[1].parse().expect("visits");
        assert!(visits <= last_visits, "best first: {out}");
        last_visits = visits;
        assert!(fields[2].ends_with('%'), "{row}");
        // The variation starts with the move and is a legal sequence.
        assert_eq!(fields[3], fields[0]);
        let mut args = vec!["apply", start];
        args.extend(&fields[3..]);
        stdout(&swapboard(&args));
    }
    // One thread and an iteration budget: the same table again.
    let again = stdout(&swapboard(&[
        "analyze",
        start,
        "--iterations",
        "3000",
        "--lines",
        "3",
    ]));
    let body = |s: &str| s.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(body(&again), body(&out));
}

#[test]
fn analyze_finds_the_winning_move_and_knows_a_finished_game() {
    // Red joins top and bottom by playing c1 (c2..c5 are red).
    let pos = "swaptimum ..R../..R../..R../..R../..... R";
    let out = stdout(&swapboard(&["analyze", pos, "--iterations", "2000"]));
    let best = out.lines().nth(2).expect("a best move");
    assert!(best.starts_with("c1 "), "{out}");
    assert!(best.contains("won"), "{out}");
    let over = stdout(&swapboard(&["apply", pos, "c1"]));
    let over = over.lines().next().expect("a position");
    let out = stdout(&swapboard(&["analyze", over, "--iterations", "10"]));
    assert!(out.contains("the game is over: Red wins"), "{out}");
}

#[test]
fn analyze_refuses_bad_positions_and_budgets() {
    assert_bad_input(
        &["analyze", "swaptimum ..../.... R"],
        "swaptimum ..../.... R",
    );
    let start = "swaptimum ...../...../...../...../..... R";
    assert_bad_input(&["analyze", start, "--seconds=-1"], "--seconds");
    assert_bad_input(&["analyze", start, "--seconds", "0"], "--seconds");
    assert_bad_input(&["analyze", start, "--iterations", "0"], "--iterations");
}

/// `bench --search` searches the start position and reports its speed and best move.
#[test]
fn bench_search_reports_iterations_per_second() {
    for game in ["swaptimum", "scware"] {
        let out = ok(&["bench", game, "--size", "5", "--seconds", "0.2", "--search"]);
        let iterations: u64 = out
            .lines()
            .find_map(|l| l.strip_prefix("iterations: "))
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no iteration count: {out}"));
        assert!(iterations > 0, "{out}");
        assert!(
            out.contains("iterations/s") && out.contains("best move: "),
            "{out}"
        );
    }
    let both = swapboard(&["bench", "swaptimum", "--search", "--branching"]);
    assert_eq!(
        both.status.code(),
        Some(2),
        "--search with --branching is refused"
    );
}

#[test]
fn numeric_arguments_out_of_range_are_refused_with_one_line() {
    let huge = "18446744073709551615";
    let start = "swaptimum ...../..BRB/..RR./...../..... B";
    let cases: &[&[&str]] = &[
        &["stats", "swaptimum", "--games", huge],
        &["stats", "swaptimum", "--games", "1000000000"],
        &["stats", "swaptimum", "--games", "2", "--threads", "10000"],
        &[
            "arena",
            "swaptimum",
            "--games",
            huge,
            "--player",
            "random",
            "--player",
            "random",
        ],
        &[
            "arena",
            "swaptimum",
            "--games",
            "1",
            "--threads",
            huge,
            "--player",
            "random",
            "--player",
            "random",
        ],
        &[
            "arena",
            "swaptimum",
            "--games",
            "1",
            "--max-plies",
            "0",
            "--player",
            "random",
            "--player",
            "random",
        ],
        &["research", "swaptimum", "--games", "0"],
        &["research", "swaptimum", "--cap", huge],
        &["swap61", "simulate", "--players", huge],
        &["swap61", "simulate", "--players", "100000000"],
        &["solve", start, "--table-mb", "17592186044415"],
        &["solve", start, "--table-mb", "100000000"],
        &["solve", start, "--seconds", "1e30"],
        &["solve", start, "--max-nodes", "0"],
        &["analyze", start, "--seconds", "inf"],
        &["analyze", start, "--seconds=-1"],
        &["analyze", start, "--threads", "10000"],
        &["analyze", start, "--lines", "0"],
        &["bench", "swaptimum", "--seconds", "nan"],
        &["bench", "swaptimum", "--max-plies", "0"],
        &["perft", start, "1000"],
    ];
    for args in cases {
        let err = bad(args);
        assert!(
            err.starts_with("swapboard: invalid value"),
            "{args:?}: {err}"
        );
    }
    // A usage error is one line too, and never prints a control character.
    let err = bad(&["swap61", "simulate", "--players", "9\u{7}"]);
    assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
}

#[test]
fn unwritable_outputs_fail_before_the_games() {
    let missing = std::env::temp_dir()
        .join(format!("swapboard-no-such-dir-{}", std::process::id()))
        .join("out");
    let missing = missing.to_str().unwrap();
    // A million games would run for hours before a late check failed with exit 1: the bad
    // input exit (2) proves the path was checked first.
    let err = bad(&[
        "arena",
        "swaptimum",
        "--games",
        "1000000",
        "--player",
        "random",
        "--player",
        "random",
        "--out",
        missing,
    ]);
    assert!(err.contains("--out"), "{err}");
    let err = bad(&[
        "stats",
        "swaptimum",
        "--games",
        "1000000",
        "--plot",
        missing,
    ]);
    assert!(err.contains("--plot"), "{err}");
}
