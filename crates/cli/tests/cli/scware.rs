//! The `swapboard` command on Scware positions: the contract's commands, `count`, and bad
//! input (exit 2, nothing on stdout, one message on stderr naming the input and the reason).

use crate::common::{bad, ok};

const KNIGHT: &str = "scware ...../..W../...../.W.../..... W g";

#[test]
fn new_prints_the_start_position() {
    assert_eq!(
        ok(&["new", "scware"]),
        format!("scware {} W -\n", ["..........."; 11].join("/"))
    );
    assert_eq!(
        ok(&["new", "scware", "--size", "3"]),
        "scware .../.../... W -\n"
    );
    assert!(bad(&["new", "scware", "--size", "27"]).contains("scware --size 27"));
}

#[test]
fn moves_count_and_perft_agree() {
    let moves = ok(&["moves", KNIGHT]);
    let lines: Vec<&str> = moves.lines().collect();
    assert!(lines.contains(&"b3,c3") && lines.contains(&"b4"), "{moves}");
    assert!(!lines.contains(&"b3"));
    assert_eq!(ok(&["count", KNIGHT]), format!("{}\n", lines.len()));
    assert_eq!(ok(&["perft", KNIGHT, "1"]), format!("{}\n", lines.len()));
}

#[test]
fn count_is_exact_on_a_position_with_millions_of_moves() {
    // Twelve lone White stones, three columns apart and three rows apart: no two of them
    // interact, so each grows or not on its own: 4 liberties each, 3 on the top row.
    let stones: Vec<(usize, usize)> = [1, 5, 9]
        .iter()
        .flat_map(|&c| [1, 4, 7, 10].map(|r| (c, r)))
        .collect();
    let mut rows = vec![vec!['.'; 11]; 11];
    for &(c, r) in &stones {
        rows[10 - r][c] = 'W';
    }
    let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let pos = format!("scware {} W g", text.join("/"));
    let clear = |c: usize, r: usize| {
        stones
            .iter()
            .all(|&(sc, sr)| sc.abs_diff(c) > 1 || sr.abs_diff(r) > 1)
    };
    let placements = (0..11)
        .flat_map(|c| (0..11).map(move |r| (c, r)))
        .filter(|&(c, r)| clear(c, r))
        .count() as u64;
    let growths = 5u64.pow(9) * 4u64.pow(3) - 1;
    let count: u64 = ok(&["count", &pos]).trim().parse().unwrap();
    assert_eq!(count, growths + placements);
    assert!(count > 100_000_000);
}

#[test]
fn apply_plays_moves_in_any_cell_order() {
    assert_eq!(
        ok(&["apply", KNIGHT, "c3,b3"]),
        "scware ...../..W../.WW../.W.../..... R g\nresult: ongoing\n"
    );
    let won = ok(&["apply", "scware ..W../..W../...../..W../..W.. W g", "c3"]);
    assert!(won.ends_with("result: W\n"), "{won}");
}

#[test]
fn refused_moves_say_why() {
    let err = bad(&["apply", KNIGHT, "b3"]);
    assert!(
        err.contains("illegal move b3") && err.contains("b3 and c4 would be diagonally adjacent"),
        "{err}"
    );
    let err = bad(&["apply", "scware ...../...../.W.W./...../..... W g", "c3,b4"]);
    assert!(err.contains("would be grown twice"), "{err}");
    let err = bad(&["apply", "scware ...../...../.W.W./...../..... W g", "b4,b5"]);
    assert!(err.contains("b5 touches no original White group"), "{err}");
    let err = bad(&["apply", "scware ...../...../..W../.R.../..... R g", "b3+e5"]);
    assert!(
        err.contains("the balancing move is no longer available"),
        "{err}"
    );
    let err = bad(&["apply", KNIGHT, "c3,c3"]);
    assert!(err.contains("c3 is named twice"), "{err}");
    let err = bad(&["apply", KNIGHT, "z9"]);
    assert!(err.contains("off the 5x5 board"), "{err}");
}

#[test]
fn bad_positions_are_named() {
    let err = bad(&["count", "scware ...../...../.W.../..W../..... W g"]);
    assert!(
        err.contains("position 'scware") && err.contains("diagonally adjacent"),
        "{err}"
    );
    let err = bad(&["moves", "scware ..../..../..../.... W"]);
    assert!(err.contains("4 fields"), "{err}");
    let err = bad(&["perft", "scware ..x/.../... W -", "1"]);
    assert!(err.contains("'x'"), "{err}");
    let err = bad(&["count", "scwar .../.../... W -"]);
    assert!(err.contains("unknown game 'scwar'"), "{err}");
}

#[test]
fn show_draws_the_board_and_an_svg() {
    let dir = std::env::temp_dir().join(format!("swapboard-scware-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("k.svg");
    let text = ok(&["show", KNIGHT, "--svg", svg.to_str().unwrap()]);
    assert!(text.contains("Scware by Christian Freeling"), "{text}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_svg_dash_writes_only_the_picture_to_stdout() {
    let picture = ok(&["show", KNIGHT, "--svg", "-"]);
    assert!(picture.starts_with("<svg"), "{picture}");
    assert!(picture.trim_end().ends_with("</svg>"), "{picture}");
    // White's edges are a light grey band, visible on a white page.
    assert!(picture.contains(r##"fill="#cfcfc8""##), "{picture}");
}

#[test]
fn bench_reports_the_branching_factor() {
    let out = ok(&[
        "bench",
        "scware",
        "--size",
        "5",
        "--seconds",
        "0.2",
        "--branching",
    ]);
    assert!(
        out.contains("plies/s") && out.contains("legal moves per position"),
        "{out}"
    );
}
