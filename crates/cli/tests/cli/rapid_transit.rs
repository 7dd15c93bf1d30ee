//! `swapboard` driven as a subprocess on Rapid Transit (Phil Leduc): the contract's
//! commands, exit codes and messages.

use crate::common::{bad, ok};

const START: &str =
    "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRCRC R 0 -";
const EARLY: &str =
    "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCRCR/RCRCRRRC/CRCRCCRR/RCRCRCRC/CRCRCCCR/RCRCRRCC C 0 R";
const BEFORE_END: &str =
    "rapid-transit RRRRCCRR/RCCRRCCC/RRCCRCRC/RCRCCCRC/RRRRRCCC/RCCCRCRC/RRRRRRRC/RCCCCCCC R 0 C";

/// Bad input: exit 2, nothing on stdout, one message on stderr containing `why`.
fn refused(args: &[&str], why: &str) {
    let err = bad(args);
    assert!(err.contains(why), "{args:?}: {err}");
}

#[test]
fn new_prints_the_start_and_refuses_odd_sizes() {
    assert_eq!(ok(&["new", "rapid-transit"]), format!("{START}\n"));
    assert_eq!(
        ok(&["new", "rapid-transit", "--size", "4"]),
        "rapid-transit CRCR/RCRC/CRCR/RCRC R 0 -\n"
    );
    refused(&["new", "rapid-transit", "--size", "7"], "even board side");
    refused(&["new", "rapid-transit", "--size", "18"], "not 18x18");
}

#[test]
fn moves_lists_each_swap_once_terminal_first() {
    let text = ok(&["moves", START]);
    assert_eq!(text.lines().count(), 104);
    assert!(text.lines().any(|l| l == "b2-c2"));
    let early = ok(&["moves", EARLY]);
    assert!(
        early.lines().any(|l| l == "d5-f6"),
        "the long-range swap is listed"
    );
    assert_eq!(ok(&["moves", BEFORE_END]), "pass\n");
    refused(
        &["moves", "rapid-transit CRCR/RCRC/CRCR/RCR. R 0 -"],
        "d1 is empty",
    );
}

#[test]
fn apply_plays_swaps_in_either_order_and_passes() {
    let text = ok(&["apply", EARLY, "f6-d5"]);
    assert_eq!(
        text,
        "rapid-transit CRCRCRCR/RCRCRCRC/CRCRCCCR/RCRRRRRC/CRCRCCRR/RCRCRCRC/CRCRCCCR/RCRCRRCC R 0 C\nresult: ongoing\n"
    );
    let end = ok(&["apply", BEFORE_END, "pass", "pass"]);
    assert!(end.ends_with("R 2 C\nresult: C\n"), "{end}");
}

#[test]
fn a_refused_swap_names_the_condition() {
    refused(
        &["apply", EARLY, "f2-f1"],
        "illegal move f2-f1: f2 is not a terminal piece",
    );
    refused(
        &["apply", EARLY, "d3-e3"],
        "would fill the 2x2 block e3, e4, f3, f4 with Cyan",
    );
    refused(
        &["apply", EARLY, "b1-a1"],
        "Cyan's piece on a1 would have 1 Cyan neighbour",
    );
    refused(&["apply", EARLY, "a2-a5"], "not in a Red network adjacent");
    refused(&["apply", EARLY, "pass"], "Cyan has a legal swap");
    refused(&["apply", EARLY, "d5-f6", "d5-f6"], "(move 2 of 2)");
    refused(&["apply", EARLY, "d5-z9"], "unreadable move d5-z9");
    refused(
        &["apply", BEFORE_END, "pass", "pass", "pass"],
        "the game is over",
    );
}

#[test]
fn perft_counts_from_the_start() {
    assert_eq!(ok(&["perft", START, "2"]), "10764\n");
    assert_eq!(ok(&["perft", BEFORE_END, "3"]), "0\n");
}

#[test]
fn show_marks_terminals_and_tells_why_the_game_ended() {
    let text = ok(&["show", EARLY]);
    assert!(text.contains("Rapid Transit by Phil Leduc"), "{text}");
    assert!(
        text.contains("Red networks (25), largest first: 7 2 1"),
        "{text}"
    );
    assert!(
        text.contains("terminal pieces (^): Red 29, Cyan 27"),
        "{text}"
    );
    assert!(text.contains('^'));
    let end = BEFORE_END.replace("R 0 C", "R 2 C");
    let text = ok(&["show", &end]);
    assert!(
        text.contains("Cyan wins: Cyan's second largest network (3) is larger than Red's (2); the larger ones were equal (28)"),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("rapid-transit-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("early.svg");
    ok(&["show", EARLY, "--svg", svg.to_str().unwrap()]);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("Rapid Transit"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_and_research_report_capped_games_apart() {
    let text = ok(&[
        "bench",
        "rapid-transit",
        "--seconds",
        "0.05",
        "--max-plies",
        "5",
    ]);
    assert!(text.contains("capped at 5 plies (no result)"), "{text}");
    let text = ok(&[
        "research",
        "rapid-transit",
        "--games",
        "20",
        "--cap",
        "1000",
        "--size",
        "6",
    ]);
    assert!(
        text.contains("ended by the rules: 20 (100.0%); capped (no result): 0"),
        "{text}"
    );
    assert!(text.contains("games with a repeated position: 0"), "{text}");
    let text = ok(&["research", "rapid-transit", "--games", "3", "--cap", "4"]);
    assert!(text.contains("capped (no result): 3 (100.0%)"), "{text}");
    refused(
        &["research", "rapid-transit", "--players", "mcts:0"],
        "--players mcts:0",
    );
    // The player spelling of arena and stats, and the old one, name the same player.
    let spelled = |args: &[&str]| {
        let mut all = vec!["research", "rapid-transit", "--games", "1", "--cap", "6"];
        all.extend_from_slice(args);
        // The first line echoes the spelling given; the games must be the same.
        ok(&all).lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(
        spelled(&["--player", "mcts:iters=3"]),
        spelled(&["--players", "mcts:3"])
    );
    // Every player of arena plays research too, the frozen reference among them.
    let text = ok(&[
        "research",
        "rapid-transit",
        "--games",
        "1",
        "--cap",
        "6",
        "--player",
        "classic:level=1",
    ]);
    assert!(text.contains("players: classic:level=1"), "{text}");
}
