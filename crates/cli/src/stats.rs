//! `swapboard stats <game>`: a designer's report from self-play games played in parallel.
//!
//! First-player win rate with its 95% interval, the length distribution, draws, capped
//! games (never a result), skipped turns, repeated positions, and how often each rule fired
//! ([`swapboard_core::Game::rule_events`]). `--plot` draws the length histogram and the win
//! rates as SVG;
//! `--json` prints the report as one JSON object for scripts.
//!
//! Games come from the arena's [`play_game`], each seeded from the base seed and its index,
//! so a report is the same whatever the number of threads.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use rayon::prelude::*;
use serde::Serialize;
use swapboard_arena::{Interval, MatchSettings, PlayerSpec, play_game, today, wilson};
use swapboard_core::text::xml_escape;
use swapboard_core::{History, Outcome, Player, Stepwise};

use crate::commands::start;
use crate::error::{CliError, CliResult};
use crate::files::NewFile;
use crate::limits;
use crate::output::{Output, progress_bar};

/// The arguments of `swapboard stats`.
#[derive(clap::Args)]
pub(crate) struct StatsArgs {
    /// The game (swaptimum, flipstop, scware, rapid-transit).
    pub(crate) game: String,
    /// The board side (default: the game's own).
    #[arg(long)]
    size: Option<usize>,
    /// The number of self-play games.
    #[arg(long, value_parser = limits::games)]
    games: u64,
    /// Who plays both sides: random (default), greedy, mcts:level=K, mcts:iters=N.
    #[arg(long = "player", value_name = "SPEC", default_value = "random")]
    player: String,
    /// The base seed; game i is seeded from it and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long, value_parser = limits::threads)]
    threads: Option<usize>,
    /// Stop a game after this many plies and report it as capped (no result).
    #[arg(long, default_value_t = 1_000, value_parser = limits::plies)]
    max_plies: u64,
    /// Draw the length histogram and the win rates in this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Let --plot overwrite an existing file (never a Swap 61 game file).
    #[arg(long, requires = "plot")]
    force: bool,
    /// Print the report as one JSON object (keys in docs/RESEARCH.md) instead of text.
    #[arg(long)]
    json: bool,
}

/// What one game did.
struct GameStats {
    plies: u64,
    /// `None` for a capped game.
    outcome: Option<Outcome>,
    passes: u64,
    repeats: u64,
    /// The rule counters, in the order the game first reported them.
    events: Vec<(&'static str, u64)>,
}

fn add(events: &mut Vec<(&'static str, u64)>, name: &'static str, count: u64) {
    match events.iter_mut().find(|(n, _)| *n == name) {
        Some(e) => e.1 += count,
        None => events.push((name, count)),
    }
}

/// Plays game `index` and replays its moves through the statistics hook.
fn one_game<G: Stepwise>(settings: &MatchSettings, start: &G, index: u64, date: &str) -> GameStats {
    let result = play_game(settings, start, index, date);
    let mut pos = start.clone();
    let mut history = History::new();
    history.record(pos.zobrist());
    let (mut passes, mut repeats) = (0, 0);
    let mut events = Vec::new();
    for text in &result.record.moves {
        let mv = pos
            .parse_move(text)
            .expect("the arena writes the moves it played");
        if G::is_pass(&mv) {
            passes += 1;
        }
        pos.rule_events(&mv, &mut |name, count| add(&mut events, name, count));
        pos.play_unchecked(&mv);
        if history.record(pos.zobrist()).is_some() {
            repeats += 1;
        }
    }
    GameStats {
        plies: result.plies,
        outcome: result.outcome,
        passes,
        repeats,
        events,
    }
}

/// What the games of a report did, summed as each ends, so memory stays bounded whatever
/// the number of games.
#[derive(Default)]
struct Totals {
    games: u64,
    /// Wins of the first and the second player.
    wins: [u64; 2],
    draws: u64,
    capped: u64,
    /// How many games had each length: one entry per length seen, at most `--max-plies`.
    lengths: BTreeMap<u64, u64>,
    passes: u64,
    games_with_passes: u64,
    repeats: u64,
    games_with_repeats: u64,
    /// Moves other than pass.
    moves: u64,
    /// The rule counters, in the order the games (by index) first reported them.
    events: Vec<(&'static str, u64)>,
}

impl Totals {
    /// The totals of one game.
    fn of(game: GameStats) -> Totals {
        let mut totals = Totals {
            games: 1,
            lengths: BTreeMap::from([(game.plies, 1)]),
            passes: game.passes,
            games_with_passes: u64::from(game.passes > 0),
            repeats: game.repeats,
            games_with_repeats: u64::from(game.repeats > 0),
            moves: game.plies - game.passes,
            events: game.events,
            ..Totals::default()
        };
        match game.outcome {
            Some(Outcome::Win(p)) => totals.wins[p.index()] = 1,
            Some(Outcome::Draw) => totals.draws = 1,
            None => totals.capped = 1,
        }
        totals
    }

    /// The totals with one more game.
    fn add(self, game: GameStats) -> Totals {
        self.merge(Totals::of(game))
    }

    /// The totals of two runs of games, `self`'s games coming first.
    fn merge(mut self, other: Totals) -> Totals {
        self.games += other.games;
        for p in 0..2 {
            self.wins[p] += other.wins[p];
        }
        self.draws += other.draws;
        self.capped += other.capped;
        for (length, count) in other.lengths {
            *self.lengths.entry(length).or_default() += count;
        }
        self.passes += other.passes;
        self.games_with_passes += other.games_with_passes;
        self.repeats += other.repeats;
        self.games_with_repeats += other.games_with_repeats;
        self.moves += other.moves;
        for (name, count) in other.events {
            add(&mut self.events, name, count);
        }
        self
    }

    /// The game length at fraction `q` of the games ordered by length (nearest rank).
    fn quantile(&self, q: f64) -> u64 {
        let rank = ((self.games as f64 * q).ceil() as u64).clamp(1, self.games.max(1));
        let mut seen = 0;
        for (&length, &count) in &self.lengths {
            seen += count;
            if seen >= rank {
                return length;
            }
        }
        0
    }
}

/// The report of many games.
struct Report {
    game: &'static str,
    title: String,
    size: usize,
    player: String,
    seed: u64,
    names: [&'static str; 2],
    totals: Totals,
}

/// The report as `--json` prints it.
#[derive(Serialize)]
struct Summary {
    game: &'static str,
    title: String,
    size: usize,
    player: String,
    seed: u64,
    games: u64,
    /// Wins of the first and the second player.
    wins: [u64; 2],
    /// The 95% intervals of the two win rates over all games.
    win_intervals: [Interval; 2],
    draws: u64,
    /// Games stopped at `--max-plies`, with no result.
    capped: u64,
    plies: Lengths,
    /// Skipped turns, and the games with at least one.
    passes: u64,
    games_with_passes: u64,
    /// Repeated positions, and the games with at least one.
    repeats: u64,
    games_with_repeats: u64,
    /// Moves other than pass: what the rule counts are divided by per move.
    moves: u64,
    /// Each rule counter of the game with its total over all games.
    rules: Vec<RuleCount>,
}

/// The distribution of game lengths (nearest-rank quantiles), all zero for no games.
#[derive(Serialize, Default)]
struct Lengths {
    mean: f64,
    min: u64,
    p10: u64,
    median: u64,
    p90: u64,
    max: u64,
}

/// One rule counter's total.
#[derive(Serialize)]
struct RuleCount {
    rule: &'static str,
    total: u64,
}

impl Report {
    fn summary(&self) -> Summary {
        let t = &self.totals;
        let n = t.games;
        let plies = match (t.lengths.first_key_value(), t.lengths.last_key_value()) {
            (Some((&min, _)), Some((&max, _))) => Lengths {
                mean: t.lengths.iter().map(|(l, c)| l * c).sum::<u64>() as f64 / n as f64,
                min,
                p10: t.quantile(0.1),
                median: t.quantile(0.5),
                p90: t.quantile(0.9),
                max,
            },
            _ => Lengths::default(),
        };
        Summary {
            game: self.game,
            title: self.title.clone(),
            size: self.size,
            player: self.player.clone(),
            seed: self.seed,
            games: n,
            wins: t.wins,
            win_intervals: t.wins.map(|w| wilson(w as f64, n)),
            draws: t.draws,
            capped: t.capped,
            plies,
            passes: t.passes,
            games_with_passes: t.games_with_passes,
            repeats: t.repeats,
            games_with_repeats: t.games_with_repeats,
            moves: t.moves,
            rules: t
                .events
                .iter()
                .map(|&(rule, total)| RuleCount { rule, total })
                .collect(),
        }
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let summary = self.summary();
        let n = summary.games;
        let nf = n.max(1) as f64;
        writeln!(
            f,
            "{} on {}x{}: {n} self-play games, {} against itself, seed {}",
            self.title, self.size, self.size, self.player, self.seed
        )?;
        for p in Player::BOTH {
            let w = summary.wins[p.index()];
            let iv = summary.win_intervals[p.index()];
            writeln!(
                f,
                "  {} player ({}) wins {w:>7}  {:>6}  (95%: {} - {})",
                if p == Player::First {
                    "first "
                } else {
                    "second"
                },
                self.names[p.index()],
                pct(w as f64 / nf),
                pct(iv.low),
                pct(iv.high)
            )?;
        }
        let [first, second] = summary.wins;
        let decided = first + second;
        if decided > 0 {
            let iv = wilson(first as f64, decided);
            writeln!(
                f,
                "  first player's share of decided games {} (95%: {} - {})",
                pct(first as f64 / decided as f64),
                pct(iv.low),
                pct(iv.high)
            )?;
        }
        writeln!(
            f,
            "  draws {}, capped (no result) {}",
            summary.draws, summary.capped
        )?;
        if n > 0 {
            let l = &summary.plies;
            writeln!(
                f,
                "  length in plies: mean {:.1}, min {}, 10% {}, median {}, 90% {}, max {}",
                l.mean, l.min, l.p10, l.median, l.p90, l.max
            )?;
        }
        writeln!(
            f,
            "  skipped turns (pass): {} in {} games ({:.2} per game)",
            summary.passes,
            summary.games_with_passes,
            summary.passes as f64 / nf
        )?;
        writeln!(
            f,
            "  repeated positions: {} in {} games",
            summary.repeats, summary.games_with_repeats
        )?;
        let moves = summary.moves;
        let events = &summary.rules;
        if !events.is_empty() {
            writeln!(
                f,
                "  rules fired ({moves} moves other than pass):   total   per game   per move"
            )?;
            for RuleCount { rule, total } in events {
                writeln!(
                    f,
                    "    {rule:<40} {total:>9} {:>10.2} {:>10.3}",
                    *total as f64 / nf,
                    *total as f64 / moves.max(1) as f64
                )?;
            }
            let get = |name: &str| events.iter().find(|e| e.rule == name).map(|e| e.total);
            if let (Some(stones), Some(growths)) = (get("stones in growths"), get("growths"))
                && growths > 0
            {
                writeln!(
                    f,
                    "    stones per growth: {:.2}",
                    stones as f64 / growths as f64
                )?;
            }
        }
        Ok(())
    }
}

/// The length histogram and the win rates as an SVG picture.
fn plot(report: &Report) -> String {
    let totals = &report.totals;
    let (w, h) = (900.0, 420.0);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(svg, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let _ = writeln!(
        svg,
        r#"<text x="20" y="28" font-size="17" font-weight="bold">{} on {}x{}: {} games, {} vs {}</text>"#,
        xml_escape(&report.title),
        report.size,
        report.size,
        totals.games,
        xml_escape(&report.player),
        xml_escape(&report.player)
    );
    // Left: the histogram of lengths, in at most 30 bins of whole plies.
    let (x0, y0, pw, ph) = (60.0, 60.0, 500.0, 300.0);
    if let (Some((&lo, _)), Some((&hi, _))) = (
        totals.lengths.first_key_value(),
        totals.lengths.last_key_value(),
    ) {
        let span = hi - lo + 1;
        let width = span.div_ceil(30).max(1);
        let bins = span.div_ceil(width) as usize;
        let mut counts = vec![0u64; bins];
        for (&l, &c) in &totals.lengths {
            counts[((l - lo) / width) as usize] += c;
        }
        let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let bw = pw / bins as f64;
        for (i, &c) in counts.iter().enumerate() {
            let bh = ph * c as f64 / top;
            let _ = writeln!(
                svg,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#4a7ab5"><title>{}-{} plies: {c} games</title></rect>"##,
                x0 + i as f64 * bw + 1.0,
                y0 + ph - bh,
                (bw - 2.0).max(1.0),
                lo + i as u64 * width,
                lo + (i as u64 + 1) * width - 1
            );
        }
        let _ = writeln!(
            svg,
            r##"<line x1="{x0}" y1="{}" x2="{}" y2="{}" stroke="#333"/>"##,
            y0 + ph,
            x0 + pw,
            y0 + ph
        );
        for (frac, value) in [(0.0, lo), (1.0, hi)] {
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{}" text-anchor="middle">{value}</text>"#,
                x0 + frac * pw,
                y0 + ph + 18.0
            );
        }
        let _ = writeln!(
            svg,
            r##"<text x="{x0}" y="{}" fill="#333">0</text><text x="{x0}" y="{}">{} games in the tallest bar</text>"##,
            y0 + ph - 4.0,
            y0 - 6.0,
            top as u64
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">game length (plies, passes included)</text>"#,
            x0 + pw / 2.0,
            y0 + ph + 40.0
        );
    }
    // Right: win rates with 95% intervals, draws and capped games.
    let n = totals.games;
    let nf = n.max(1) as f64;
    let (rx, rw) = (620.0, 260.0);
    let bars = [
        (
            report.names[0],
            "(1st)",
            totals.wins[0],
            side_fill(report.names[0]),
        ),
        (
            report.names[1],
            "(2nd)",
            totals.wins[1],
            side_fill(report.names[1]),
        ),
        ("draw", "", totals.draws, "#888888"),
        ("capped", "", totals.capped, "#bbbbbb"),
    ];
    let slot = rw / bars.len() as f64;
    for (i, (label, order, count, fill)) in bars.iter().enumerate() {
        let rate = *count as f64 / nf;
        let x = rx + i as f64 * slot;
        let bh = ph * rate;
        let _ = writeln!(
            svg,
            // The outline keeps a white bar visible on the white page.
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{fill}" stroke="#333"/>"##,
            x + 8.0,
            y0 + ph - bh,
            slot - 16.0
        );
        if i < 2 {
            let iv = wilson(*count as f64, n);
            let cx = x + slot / 2.0;
            let _ = writeln!(
                svg,
                r##"<line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="#000" stroke-width="2"/>"##,
                y0 + ph * (1.0 - iv.low),
                y0 + ph * (1.0 - iv.high)
            );
        }
        // The side's name and its turn on two lines, so neighbouring labels never overlap.
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text><text x="{:.1}" y="{}" text-anchor="middle">{}</text><text x="{:.1}" y="{}" text-anchor="middle">{order}</text>"#,
            x + slot / 2.0,
            y0 + ph - bh - 6.0,
            pct(rate),
            x + slot / 2.0,
            y0 + ph + 18.0,
            xml_escape(label),
            x + slot / 2.0,
            y0 + ph + 32.0,
        );
    }
    let _ = writeln!(
        svg,
        r##"<line x1="{rx}" y1="{}" x2="{}" y2="{}" stroke="#333"/><line x1="{rx}" y1="{}" x2="{}" y2="{}" stroke="#999" stroke-dasharray="4 4"/>"##,
        y0 + ph,
        rx + rw,
        y0 + ph,
        y0 + ph / 2.0,
        rx + rw,
        y0 + ph / 2.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">results (bars: 95% intervals; dashes: 50%)</text>"#,
        rx + rw / 2.0,
        y0 + ph + 52.0
    );
    svg.push_str("</svg>\n");
    svg
}

/// The fill of a side's bar: the colour its name says (White's bar white, Red's red).
fn side_fill(name: &str) -> &'static str {
    match name {
        "Red" => "#c0392b",
        "White" => "#ffffff",
        "Blue" => "#2c6fbb",
        "Cyan" => "#17a2b8",
        _ => "#777777",
    }
}

/// Runs `swapboard stats` for game `G`.
pub(crate) fn stats<G: Stepwise>(args: &StatsArgs, out: &mut Output) -> CliResult {
    let start_pos = start::<G>(args.size)?;
    let player: PlayerSpec = args
        .player
        .parse()
        .map_err(|e| CliError::bad(format!("--player: {e}")))?;
    // Opened before the games, so that an unwritable path fails before the run.
    let plot_file = args
        .plot
        .as_deref()
        .map(|p| NewFile::create("--plot", p, args.force))
        .transpose()?;
    let settings = MatchSettings {
        size: start_pos.size(),
        games: args.games,
        players: [player, player],
        seed: args.seed,
        threads: 1,
        max_plies: args.max_plies,
    };
    let bar = progress_bar(
        Some(args.games),
        "{bar:30} {pos}/{len} games  [{elapsed} / {eta}]",
    );
    let date = today();
    // Each game is folded into the totals as it ends; the folds are merged in game order,
    // so the report is the same whatever the number of threads.
    let run = || -> Totals {
        (0..args.games)
            .into_par_iter()
            .map(|i| {
                let g = one_game(&settings, &start_pos, i, &date);
                bar.inc(1);
                g
            })
            .fold(Totals::default, Totals::add)
            .reduce(Totals::default, Totals::merge)
    };
    let totals = match args.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .context("cannot start the worker threads")?
            .install(run),
        None => run(),
    };
    bar.finish_and_clear();
    let report = Report {
        game: G::ID,
        title: G::TITLE.to_string(),
        size: start_pos.size(),
        player: player.to_string(),
        seed: args.seed,
        names: Player::BOTH.map(G::colour_name),
        totals,
    };
    if let Some(file) = plot_file {
        file.write(&plot(&report))?;
    }
    if args.json {
        let json = serde_json::to_string(&report.summary()).context("cannot encode the report")?;
        return out.line(json);
    }
    out.text(&report)
}
