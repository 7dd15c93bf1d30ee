//! The `swapboard swap61` commands as a user runs them: the contract's stateless `round`
//! (exact output, exit 2 on bad input) and the game master's workflow on a game file.

use std::path::{Path, PathBuf};

use crate::common::{bad, ok};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swapboard-swap61-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Asserts the contract's bad input (see `crate::common::bad`) with a message holding `expected`.
fn assert_bad(args: &[&str], expected: &str) {
    let err = bad(args);
    assert!(err.contains(expected), "{err:?} lacks {expected:?}");
}

const GRID: &str = "\
# row A: N1 and N2 on two corners, a wild wall between them
A: N1 P1 W P2 N2
B: P3 P3 P3 P3 P3 P4
C: P4 P4 P4 P4 P5 P5 P5
D: P5 P5 P6 P6 P6 P6 P6 P7
E: P7 P7 P7 P7 P8 P8 P8 P8 P8
F: P9 P9 P9 P9 P9 P10 P10 P10
G: P10 P10 P1 P1 P1 P1 N3
H: N4 N5 N6 P2 P2 P2
I: N7 N8 N9 P2 W
";

#[test]
fn round_prints_rejects_edges_grid_and_scores_in_order() {
    let dir = scratch("round");
    let grid = write(&dir, "grid.txt", GRID);
    let s1 = format!("1={}", write(&dir, "s1.txt", "A2 A3 4\nA2 B2 x\n"));
    let s3 = format!(
        "3={}",
        write(&dir, "s3.txt", "# comment\nb1 b2 2\r\nB2\tB3 3\n")
    );
    let out = ok(&[
        "swap61",
        "round",
        "--grid",
        &grid,
        "--seats",
        "10",
        "--round",
        "1",
        "--pairs",
        "N1-N2, N3-N4,N5-N6",
        "--submission",
        &s3,
        "--submission",
        &s1,
    ]);
    // P5 (borrowing P4, P6): N1-N2 through the swapped wild wall at A2, 4; N3-N4 along row
    // G, 6; N5-N6 touch, 1. P3 (borrowing P2, P4) is shut in at N1: 0 + 6 + 1.
    let expected = "\
reject P1 line 2: 'x' is not a number of tokens (a whole number from 1, digits only)
swap A2 A3 4
fail B2 B3 3 fewer than the 4 tokens a swap needs
fail B1 B2 2 fewer than the 4 tokens a swap needs
grid
A: N1 W P1 P2 N2
B: P3 P3 P3 P3 P3 P4
C: P4 P4 P4 P4 P5 P5 P5
D: P5 P5 P6 P6 P6 P6 P6 P7
E: P7 P7 P7 P7 P8 P8 P8 P8 P8
F: P9 P9 P9 P9 P9 P10 P10 P10
G: P10 P10 P1 P1 P1 P1 N3
H: N4 N5 N6 P2 P2 P2
I: N7 N8 N9 P2 W
score P1 6
score P2 8
score P3 7
score P4 11
score P5 11
score P6 11
score P7 11
score P8 11
score P9 5
score P10 6
";
    assert_eq!(out, expected);
}

#[test]
fn pregame_and_network_need_no_pairs_and_the_pregame_has_no_scores() {
    let dir = scratch("pregame");
    let grid = write(&dir, "grid.txt", GRID);
    let s = format!("2={}", write(&dir, "s.txt", "A4 A5 4\nA4 A3 1\n"));
    let out = ok(&[
        "swap61",
        "round",
        "--grid",
        &grid,
        "--seats",
        "10",
        "--round",
        "0",
        "--submission",
        &s,
    ]);
    assert!(out.starts_with(
        "reject P2 line 2: 1 tokens over your allowance: 4 of 4 already spent\nswap A4 A5 4\ngrid\n"
    ));
    assert!(!out.contains("score"));
    let out = ok(&[
        "swap61",
        "round",
        "--grid",
        &grid,
        "--seats",
        "10",
        "--round",
        "3",
        "--variation",
        "network",
        "--pairs",
        "junk",
    ]);
    assert_eq!(out.lines().filter(|l| l.starts_with("score P")).count(), 10);
}

#[test]
fn seat_exchange_swaps_with_one_token() {
    let dir = scratch("exchange");
    let grid = write(&dir, "grid.txt", GRID);
    let s = format!("1={}", write(&dir, "s.txt", "A2 A3 1\n"));
    let base = [
        "swap61",
        "round",
        "--grid",
        &grid,
        "--seats",
        "10",
        "--round",
        "4",
        "--pairs",
        "N1-N2,N3-N4,N5-N6",
        "--submission",
        &s,
    ];
    let mut args = base.to_vec();
    args.extend(["--variation", "seat-exchange"]);
    assert!(ok(&args).contains("swap A2 A3 1\n"));
    assert!(ok(&base).contains("fail A2 A3 1 fewer than the 4 tokens"));
}

#[test]
fn bad_input_exits_2_with_one_message() {
    let dir = scratch("bad");
    let grid = write(&dir, "grid.txt", GRID);
    let bad_grid = write(&dir, "bad.txt", GRID.replace("N9", "N1"));
    let latin1 = write(&dir, "latin1.txt", b"A2 A3 4 \xe9\n");
    let fine = write(&dir, "ok.txt", "A2 A3 4\n");
    let pairs = "N1-N2,N3-N4,N5-N6";
    // `round` with the good arguments and `extra`, which must be refused with `expected`.
    let round_refuses = |extra: &[&str], expected: &str| {
        let mut args = vec![
            "swap61", "round", "--grid", &grid, "--seats", "10", "--round", "1", "--pairs", pairs,
        ];
        args.extend(extra);
        assert_bad(&args, expected);
    };
    assert_bad(
        &[
            "swap61", "round", "--grid", &bad_grid, "--seats", "10", "--round", "1", "--pairs",
            pairs,
        ],
        "N1 appears 2 times",
    );
    assert_bad(
        &[
            "swap61", "round", "--grid", &grid, "--seats", "9", "--round", "1", "--pairs", pairs,
        ],
        "only 9 seats",
    );
    assert_bad(
        &[
            "swap61", "round", "--grid", &grid, "--seats", "10", "--round", "6", "--pairs", pairs,
        ],
        "--round '6'",
    );
    assert_bad(
        &[
            "swap61", "round", "--grid", &grid, "--seats", "+10", "--round", "1", "--pairs", pairs,
        ],
        "--seats '+10'",
    );
    assert_bad(
        &[
            "swap61", "round", "--grid", &grid, "--seats", "10", "--round", "2",
        ],
        "--pairs is needed",
    );
    round_refuses(&["--variation", "corner"], "not a variation");
    assert_bad(
        &[
            "swap61",
            "round",
            "--grid",
            &grid,
            "--seats",
            "10",
            "--round",
            "1",
            "--pairs",
            "N1-N2,N2-N3,N5-N6",
        ],
        "N2 is in two pairs",
    );
    round_refuses(&["--submission", &format!("11={fine}")], "seat");
    round_refuses(
        &[
            "--submission",
            &format!("1={fine}"),
            "--submission",
            &format!("1={fine}"),
        ],
        "two submissions",
    );
    round_refuses(&["--submission", &format!("1={latin1}")], "not UTF-8");
    round_refuses(
        &["--submission", "1=/nonexistent/file"],
        "/nonexistent/file",
    );
    round_refuses(&["--submission", "nofile"], "SEAT=FILE");
}

#[test]
fn the_game_masters_workflow() {
    let dir = scratch("workflow");
    let game = dir.join("game.json");
    let game = game.to_str().unwrap();
    let players = "ann,bob,cat,dan,eve,fay,gus,hal,ivy,jo";
    let created = ok(&[
        "swap61",
        "new",
        "--players",
        players,
        "--seed",
        "7",
        "--out",
        game,
    ]);
    assert!(created.contains("open: the pregame"), "{created}");
    let text = std::fs::read_to_string(game).unwrap();
    assert!(text.contains("\"format\": \"swapboard-swap61/1\""));
    // A new game never overwrites a file.
    assert_bad(
        &[
            "swap61",
            "new",
            "--players",
            players,
            "--seed",
            "7",
            "--out",
            game,
        ],
        "never overwritten",
    );
    // Without --out the game file goes to stdout, the same for the same seed.
    let printed = ok(&["swap61", "new", "--players", players, "--seed", "7"]);
    assert_eq!(
        printed.contains("\"seed\": 7"),
        text.contains("\"seed\": 7")
    );

    let private = ok(&["swap61", "show", game, "--for", "ann"]);
    let walls: Vec<&str> = private
        .lines()
        .find_map(|l| l.strip_prefix("your walls: "))
        .unwrap()
        .split(' ')
        .collect();
    assert_eq!(walls.len(), 5);
    // Bid on an edge from ann's first wall to a neighbour; a junk line is rejected.
    let grid_lines: String = ok(&["swap61", "show", game])
        .lines()
        .skip_while(|l| *l != "grid")
        .skip(1)
        .take(9)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(grid_lines.lines().count(), 9);
    let wall = walls[0];
    let neighbour = neighbour_of(wall);
    let sub = write(&dir, "ann.txt", format!("{wall} {neighbour} 4\nnonsense\n"));
    let told = ok(&["swap61", "submit", game, "--player", "ann", &sub]);
    assert!(told.contains(&format!("line 1: {wall} ")), "{told}");
    assert!(
        told.contains("line 2: rejected: expected three fields"),
        "{told}"
    );
    assert_bad(
        &["swap61", "submit", game, "--player", "zed", &sub],
        "no player 'zed'",
    );

    let report = ok(&["swap61", "resolve", game]);
    assert!(report.contains("the pregame resolved"), "{report}");
    assert!(report.contains("public report"));
    assert!(report.contains("open: round 1 (Theme)"));
    let svg = dir.join("grid.svg");
    ok(&["swap61", "show", game, "--svg", svg.to_str().unwrap()]);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("swapped last round"));
    // `--svg -` writes the same picture, and nothing else, to stdout.
    assert_eq!(ok(&["swap61", "show", game, "--svg", "-"]), picture);

    let bot = ok(&["swap61", "bot", game, "--player", "bob"]);
    assert!(bot.starts_with("the bot bids for bob"));
    let undone = ok(&["swap61", "undo", game]);
    assert!(undone.contains("the submission of bob"), "{undone}");
    let undone = ok(&["swap61", "undo", game]);
    assert!(undone.contains("the resolution of the pregame"), "{undone}");
    assert!(undone.contains("open: the pregame"));
    // The history keeps everything: new, submit, resolve, bot submit, two undos.
    let text = std::fs::read_to_string(game).unwrap();
    assert_eq!(text.matches("\"change\":").count(), 6);
    // A damaged file is bad input.
    let broken = write(
        &dir,
        "broken.json",
        text.replace("\"round\": 0", "\"round\": 4"),
    );
    assert_bad(&["swap61", "show", &broken], "inconsistent");
}

/// A neighbour of a cell of the hexagon: rows A-D touch the row below at the same number,
/// rows F-I the row above; `En` touches `Dn-1` (and `D1` for `E1`).
fn neighbour_of(cell: &str) -> String {
    let row = cell.as_bytes()[0];
    let number: u32 = cell[1..].parse().unwrap();
    match row {
        b'A'..=b'D' => format!("{}{number}", (row + 1) as char),
        b'E' => format!("D{}", number.saturating_sub(1).max(1)),
        _ => format!("{}{number}", (row - 1) as char),
    }
}

#[test]
fn simulate_plays_a_whole_game() {
    let out = ok(&["swap61", "simulate", "--seed", "3", "--players", "9"]);
    assert!(out.contains("round 5 (Theme)"), "{out}");
    let standings: Vec<&str> = out
        .lines()
        .skip_while(|l| *l != "standings")
        .skip(1)
        .collect();
    assert_eq!(standings.len(), 9);
    assert_eq!(
        out,
        ok(&["swap61", "simulate", "--seed", "3", "--players", "9"])
    );
    assert_bad(&["swap61", "simulate", "--players", "8"], "9 or 10");
}

#[test]
fn round_five_is_configurable() {
    let players = "a1,a2,a3,a4,a5,a6,a7,a8,a9";
    let args = [
        "swap61",
        "new",
        "--players",
        players,
        "--seed",
        "1",
        "--round5",
    ];
    let json = |v: &str| {
        let mut a = args.to_vec();
        a.push(v);
        ok(&a)
    };
    let network = json("network");
    let rounds = network.split("\"rounds\"").nth(1).unwrap();
    assert_eq!(rounds.matches("\"variation\": \"network\"").count(), 2);
    assert!(json("corners+seat-exchange").contains("\"variation\": \"corners+seat-exchange\""));
    let mut swirl = args.to_vec();
    swirl.push("swirl");
    assert_bad(&swirl, "--round5");
}

/// A new game of ten players in `dir`, returning its path.
fn new_game(dir: &Path, name: &str) -> String {
    let game = dir.join(name);
    let game = game.to_str().unwrap().to_string();
    ok(&[
        "swap61",
        "new",
        "--players",
        "p0,p1,p2,p3,p4,p5,p6,p7,p8,p9",
        "--seed",
        "3",
        "--out",
        &game,
    ]);
    game
}

/// The count in the public view's `submissions received: N of 10` line.
fn submissions_received(game: &str) -> usize {
    let view = ok(&["swap61", "show", game]);
    let line = view
        .lines()
        .find_map(|l| l.strip_prefix("submissions received: "))
        .unwrap_or_else(|| panic!("no submission count in {view}"));
    line.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn fifty_concurrent_submits_are_all_recorded() {
    use std::process::{Command, Stdio};
    let dir = scratch("race");
    let empty = write(&dir, "empty.txt", "");
    let mut recorded = 0;
    // Five games of ten players, each player submitting at the same moment: 50 submits.
    for trial in 0..5 {
        let game = new_game(&dir, &format!("game{trial}.json"));
        let children: Vec<_> = (0..10)
            .map(|p| {
                Command::new(env!("CARGO_BIN_EXE_swapboard"))
                    .args([
                        "swap61",
                        "submit",
                        &game,
                        "--player",
                        &format!("p{p}"),
                        &empty,
                    ])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        recorded += submissions_received(&game);
    }
    assert_eq!(recorded, 50);
}

#[test]
fn game_files_keep_their_mode_and_refuse_links_and_read_only_files() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("modes");
    let empty = write(&dir, "empty.txt", "");
    let game = new_game(&dir, "game.json");
    std::fs::set_permissions(&game, std::fs::Permissions::from_mode(0o600)).unwrap();
    ok(&["swap61", "submit", &game, "--player", "p0", &empty]);
    let mode = std::fs::metadata(&game).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&game, &link).unwrap();
    let link = link.to_str().unwrap();
    assert_bad(
        &["swap61", "submit", link, "--player", "p1", &empty],
        "symbolic link",
    );
    assert_bad(&["swap61", "resolve", link], "symbolic link");

    std::fs::set_permissions(&game, std::fs::Permissions::from_mode(0o400)).unwrap();
    assert_bad(&["swap61", "undo", &game], "read-only");
    assert_bad(&["swap61", "bot", &game, "--player", "p2"], "read-only");
    assert_eq!(submissions_received(&game), 1);
}

#[test]
fn a_temporary_file_left_by_a_killed_writer_is_removed_by_the_next_one() {
    let dir = scratch("leftovers");
    let empty = write(&dir, "empty.txt", "");
    let game = new_game(&dir, "game.json");
    // What a writer killed between creating its temporary file and renaming it leaves.
    let leftover = write(&dir, ".game.json.0123456789abcdef.tmp", "half a game");
    // Files that merely look alike are not the game's temporaries and stay.
    let other_game = write(&dir, ".other.json.0123456789abcdef.tmp", "another game's");
    let notes = write(&dir, ".game.json.notes.tmp", "someone's notes");
    ok(&["swap61", "submit", &game, "--player", "p0", &empty]);
    assert!(!Path::new(&leftover).exists(), "the leftover stayed");
    assert!(Path::new(&other_game).exists() && Path::new(&notes).exists());
    assert_eq!(submissions_received(&game), 1);
}

#[test]
fn outputs_never_overwrite_a_game_file_nor_an_existing_file_unasked() {
    let dir = scratch("outputs");
    let game = new_game(&dir, "game.json");
    let before = std::fs::read_to_string(&game).unwrap();
    assert_bad(&["swap61", "show", &game, "--svg", &game], "game file");
    assert_bad(
        &["swap61", "show", &game, "--svg", &game, "--force"],
        "game file",
    );
    assert_bad(
        &["swap61", "simulate", "--out", &game, "--force"],
        "game file",
    );
    assert_eq!(std::fs::read_to_string(&game).unwrap(), before);

    let other = write(&dir, "notes.txt", "keep me");
    assert_bad(&["swap61", "simulate", "--out", &other], "--force");
    assert_bad(
        &[
            "show",
            "swaptimum ...../..BRB/..RR./...../..... B",
            "--svg",
            &other,
        ],
        "--force",
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep me");
    ok(&["swap61", "show", &game, "--svg", &other, "--force"]);
    assert!(std::fs::read_to_string(&other).unwrap().starts_with("<svg"));
    // An unwritable output fails before the work, and leaves nothing behind.
    let missing = dir.join("no-such-dir").join("g.json");
    assert_bad(
        &["swap61", "simulate", "--out", missing.to_str().unwrap()],
        "--out",
    );
}

#[test]
fn submissions_have_a_size_limit() {
    let dir = scratch("limit");
    let game = new_game(&dir, "game.json");
    let huge = write(&dir, "huge.txt", "# padding\n".repeat(1000));
    assert_bad(
        &["swap61", "submit", &game, "--player", "p0", &huge],
        "limit",
    );
    assert_eq!(submissions_received(&game), 0);
}

#[test]
fn a_report_that_cannot_be_written_commits_nothing() {
    let dir = scratch("full");
    let game = new_game(&dir, "game.json");
    let before = std::fs::read_to_string(&game).unwrap();
    let full = std::fs::File::create("/dev/full").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .args(["swap61", "resolve", &game])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&game).unwrap(), before);
}
