//! The game record: writing, reading, round trips and refusals.

use proptest::prelude::*;
use swapboard_arena::record::{GameRecord, RecordResult, read_records};

fn sample() -> GameRecord {
    GameRecord {
        tags: vec![
            ("Game".into(), "swaptimum".into()),
            ("Size".into(), "9".into()),
            ("Players".into(), "mcts:level=8 vs greedy".into()),
            ("Date".into(), "2026.11.21".into()),
            ("Result".into(), "R".into()),
            ("Termination".into(), "rules".into()),
        ],
        moves: vec!["e5".into(), "d4".into(), "c3:c4-d3".into(), "pass".into()],
        result: RecordResult::Win('R'),
    }
}

#[test]
fn a_record_is_written_as_tag_pairs_then_numbered_moves() {
    let text = sample().to_string();
    assert_eq!(
        text,
        "[Game \"swaptimum\"]\n[Size \"9\"]\n[Players \"mcts:level=8 vs greedy\"]\n\
         [Date \"2026.11.21\"]\n[Result \"R\"]\n[Termination \"rules\"]\n\n\
         1. e5 2. d4 3. c3:c4-d3 4. pass R\n"
    );
    assert_eq!(sample().players(), Some(("mcts:level=8", "greedy")));
}

#[test]
fn records_round_trip_one_after_another() {
    let mut long = sample();
    long.moves = (0..200).map(|i| format!("m{i}")).collect();
    long.result = RecordResult::Unfinished;
    long.set_tag("Result", "*");
    let text = format!("{}\n{}", sample(), long);
    assert!(text.lines().all(|l| l.len() <= 79));
    assert_eq!(read_records(&text), Ok(vec![sample(), long]));
}

#[test]
fn bad_records_are_refused_with_the_line_and_the_reason() {
    let cases = [
        ("[Game swaptimum]\n\n*\n", 1, "not in quotes"),
        ("[Game \"x\"]\n\n1. a1 3. b2 *\n", 3, "move number '3.'"),
        (
            "[Game \"x\"]\n[Result \"R\"]\n\n1. a1 draw\n",
            4,
            "differs from the Result tag",
        ),
        ("[Game \"x\"]\n\n1. a1 *\n1. b2", 4, "ends without a result"),
        ("[Game \"x\"]\n\n1. a1 R b2\n", 3, "after the result"),
        (
            "[Game \"x\"]\n\n1. a1\n[Game \"y\"]\n",
            4,
            "before the result",
        ),
        ("[Ga-me \"x\"]\n", 1, "not a word"),
        ("[Game \"a\\x\"]\n", 1, "backslash"),
    ];
    for (text, line, reason) in cases {
        let err = read_records(text).expect_err(text);
        assert_eq!(err.line, line, "{text}: {err}");
        assert!(err.reason.contains(reason), "{text}: {err}");
    }
}

proptest! {
    #[test]
    fn any_record_round_trips(
        tags in prop::collection::vec(("[A-Za-z][A-Za-z0-9_]{0,8}", "[ -~]{0,20}"), 0..6),
        moves in prop::collection::vec("[a-z][a-z0-9:,+-]{0,10}", 0..120),
        result in prop_oneof![
            Just(RecordResult::Draw),
            Just(RecordResult::Unfinished),
            Just(RecordResult::Win('R')),
            Just(RecordResult::Win('C')),
        ],
    ) {
        let record = GameRecord { tags, moves, result };
        prop_assert_eq!(read_records(&record.to_string()), Ok(vec![record]));
    }

    #[test]
    fn reading_any_text_never_panics(text in "[\\[\\]\" a-z0-9.*\\\\\n]{0,200}") {
        let _ = read_records(&text);
    }
}
