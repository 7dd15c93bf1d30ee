//! `swapboard stats`: the designer's report, reproducible on a fixed seed whatever the
//! number of threads.

fn stats(args: &[&str]) -> String {
    crate::common::ok(&[&["stats"], args].concat())
}

/// The number after `label` on the report's line that contains it.
fn number_after(report: &str, label: &str) -> u64 {
    let line = report.lines().find(|l| l.contains(label)).expect(label);
    let rest = &line[line.find(label).expect("found") + label.len()..];
    rest.split_whitespace()
        .next()
        .and_then(|w| w.trim_end_matches(',').parse().ok())
        .unwrap_or_else(|| panic!("no number after {label} in {line}"))
}

#[test]
fn a_fixed_seed_gives_the_same_report_on_one_thread_or_two() {
    let one = stats(&[
        "swaptimum",
        "--size",
        "5",
        "--games",
        "60",
        "--seed",
        "7",
        "--threads",
        "1",
    ]);
    let two = stats(&[
        "swaptimum",
        "--size",
        "5",
        "--games",
        "60",
        "--seed",
        "7",
        "--threads",
        "2",
    ]);
    assert_eq!(one, two);
    let other = stats(&[
        "swaptimum",
        "--size",
        "5",
        "--games",
        "60",
        "--seed",
        "8",
        "--threads",
        "2",
    ]);
    assert_ne!(one, other, "the seed matters");
}

#[test]
fn the_report_adds_up_and_counts_each_games_rules() {
    for (game, size, counters) in [
        (
            "swaptimum",
            "5",
            &[
                "crosscuts formed",
                "swaps inside the crosscut",
                "wins made on the opponent's turn",
            ][..],
        ),
        (
            "flipstop",
            "5",
            &["replacements made", "replacements refused"][..],
        ),
        (
            "scware",
            "5",
            &["placements", "growths", "balancing moves"][..],
        ),
        ("rapid-transit", "6", &["swaps", "long-range swaps"][..]),
    ] {
        let report = stats(&[game, "--size", size, "--games", "40", "--max-plies", "200"]);
        let first = number_after(&report, ") wins");
        let second = report
            .lines()
            .filter(|l| l.contains(") wins"))
            .nth(1)
            .and_then(|l| l.split(") wins").nth(1))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
            .expect("second player's wins");
        let draws = number_after(&report, "draws ");
        let capped = number_after(&report, "capped (no result) ");
        assert_eq!(first + second + draws + capped, 40, "{report}");
        for counter in counters {
            assert!(
                report.contains(&format!("    {counter} ")),
                "{game}: {counter}\n{report}"
            );
        }
    }
}

#[test]
fn rapid_transit_games_past_the_cap_are_capped_never_drawn() {
    let report = stats(&[
        "rapid-transit",
        "--size",
        "6",
        "--games",
        "20",
        "--max-plies",
        "5",
    ]);
    assert_eq!(number_after(&report, "capped (no result) "), 20, "{report}");
    assert_eq!(number_after(&report, "draws "), 0, "{report}");
}

#[test]
fn the_plot_is_an_svg_picture() {
    let dir = std::env::temp_dir().join(format!("swapboard-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("plot.svg");
    let _ = std::fs::remove_file(&file);
    stats(&[
        "scware",
        "--size",
        "5",
        "--games",
        "30",
        "--plot",
        file.to_str().expect("UTF-8"),
    ]);
    let svg = std::fs::read_to_string(&file).expect("the plot is written");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("game length"));
    // Scware: White moves first; each side's bar has its own colour (White's white, with an
    // outline) and its label is two short lines (name, then turn), so labels cannot overlap.
    assert!(
        svg.contains(">White</text>") && svg.contains(">(1st)</text>"),
        "{svg}"
    );
    assert!(svg.contains(r##"fill="#ffffff" stroke="#333""##), "{svg}");
    assert!(svg.contains(r##"fill="#c0392b""##), "{svg}");
    assert!(!svg.contains("Red (2nd)") && !svg.contains("White (1st)"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--json` prints one object with the same figures as the text report.
#[test]
fn the_json_report_matches_the_text_one() {
    let args = ["scware", "--size", "5", "--games", "40", "--seed", "3"];
    let text = stats(&args);
    let json: serde_json::Value =
        serde_json::from_str(&stats(&[&args[..], &["--json"]].concat())).expect("one JSON object");
    let number = |key: &str| {
        json[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key}: {json}"))
    };
    assert_eq!(json["game"], "scware");
    assert_eq!(number("games"), 40);
    assert_eq!(
        json["wins"][0].as_u64(),
        Some(number_after(&text, ") wins"))
    );
    let wins = json["wins"].as_array().expect("two win counts");
    let total: u64 = wins.iter().filter_map(|w| w.as_u64()).sum();
    assert_eq!(total + number("draws") + number("capped"), 40, "{json}");
    assert_eq!(
        number("passes"),
        number_after(&text, "skipped turns (pass): ")
    );
    assert_eq!(
        json["plies"]["median"].as_u64(),
        Some(number_after(&text, "median "))
    );
    let rules = json["rules"].as_array().expect("the rule counts");
    let growths = rules
        .iter()
        .find(|r| r["rule"] == "growths")
        .and_then(|r| r["total"].as_u64());
    assert_eq!(growths, Some(number_after(&text, "    growths ")), "{json}");
    let low = json["win_intervals"][0]["low"]
        .as_f64()
        .expect("an interval");
    assert!(low > 0.0 && low < 1.0, "{json}");
}
