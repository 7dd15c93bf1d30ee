//! `swapboard train` as an operator runs it: a tiny self-play training writes a table the
//! game can load, the same seed writes the same bytes, and what cannot be trained or
//! written is refused before any game is played.

use std::path::{Path, PathBuf};

use swapboard_core::pattern::PriorTable;

use crate::common::{bad, ok};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swapboard-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

/// The arguments of `train` of `game` on 5x5: 6 games of a small iteration budget into
/// `out`, then `extra`.
fn train_args<'a>(game: &'a str, out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "train",
        game,
        "--size",
        "5",
        "--games",
        "6",
        "--player",
        "mcts:iters=60",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    args
}

/// `train` of `game` on 5x5 with seed 3, into `out`.
fn train(game: &str, out: &Path, extra: &[&str]) -> String {
    let mut args = train_args(game, out, &["--seed", "3"]);
    args.extend(extra);
    ok(&args)
}

#[test]
fn training_writes_a_table_the_game_loads_and_the_seed_fixes_it() {
    for game in ["swaptimum", "flipstop"] {
        let first = temp(&format!("{game}-1.txt"));
        let report = train(game, &first, &["--threads", "2"]);
        let text = std::fs::read_to_string(&first).unwrap();
        let table = PriorTable::parse(&text, game).expect("a readable table");
        assert!(!table.is_empty(), "{text}");
        assert!(report.contains(&format!("{game} 5x5: 6 games")), "{report}");
        assert!(
            report.contains(&format!("{} patterns", table.len())),
            "{report}"
        );
        let header = text.lines().next().unwrap();
        for field in [
            "format=1",
            &format!("game={game}"),
            "size=5",
            "games=6",
            "player=mcts:iters=60",
            "seed=3",
        ] {
            assert!(header.contains(field), "{header}");
        }
        // Weights span the scale: the most chosen pattern 1, the least 0.
        assert!(
            text.lines().skip(1).any(|l| l.ends_with(" 1.0000")),
            "{text}"
        );
        assert!(
            text.lines().skip(1).any(|l| l.ends_with(" 0.0000")),
            "{text}"
        );
        // Again with the same seed on one thread: the same bytes; the file exists now, so
        // only --force overwrites it.
        let refused = bad(&train_args(game, &first, &[]));
        assert!(refused.contains("--force"), "{refused}");
        train(game, &first, &["--force"]);
        assert_eq!(std::fs::read_to_string(&first).unwrap(), text);
    }
}

#[test]
fn what_cannot_be_trained_is_refused() {
    let out = temp("never.txt");
    let path = out.to_str().unwrap();
    let no_patterns = bad(&[
        "train", "scware", "--games", "2", "--player", "random", "--out", path,
    ]);
    assert!(no_patterns.contains("no move patterns"), "{no_patterns}");
    let bad_player = bad(&[
        "train",
        "flipstop",
        "--games",
        "2",
        "--player",
        "mcts:level=10",
        "--out",
        path,
    ]);
    assert!(bad_player.contains("1 to 9"), "{bad_player}");
    let no_games = bad(&[
        "train", "flipstop", "--games", "0", "--player", "random", "--out", path,
    ]);
    assert!(no_games.contains("--games"), "{no_games}");
    assert!(!out.exists());
}
