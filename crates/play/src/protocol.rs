//! The engine protocol of `swapboard engine`: a line-based text protocol in the spirit of
//! GTP, for GUIs, tournament managers and scripts (`docs/ENGINE-PROTOCOL.md`), over any
//! input and output, so that it can be tested and fuzzed without a process.
//!
//! Each command is one line, optionally preceded by a numeric id; each response is `= ...`
//! (success) or `? ...` (failure), with the id echoed after the sign, followed by a blank
//! line. A bad command, an illegal move or a position that cannot be read is answered with
//! `?` and the session goes on; only `quit` or the end of the input ends it.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;
use std::time::Duration;

use crate::clock::{Clock, Millis, TimeControl};
use crate::game::{GameFn, GameId, Playable, UnknownGame};
use crate::table::{Seat, Table, UndoPolicy};
use crate::words::result_line;
use swapboard_ai::{Analysis, Budget, Config, Level, Line, Mcts};
use swapboard_core::{Game, Outcome};
use swapboard_solver::{Course, Options, Solver};

/// The version of this protocol (bumped when a command changes meaning).
const PROTOCOL_VERSION: u32 = 1;

/// Every command, in the order `list_commands` prints them.
const COMMANDS: &[&str] = &[
    "name",
    "version",
    "protocol_version",
    "list_commands",
    "list_games",
    "new",
    "position",
    "play",
    "genmove",
    "time_left",
    "moves",
    "show",
    "analyze",
    "stop",
    "solve",
    "undo",
    "result",
    "quit",
];

/// The search budget of `genmove` when none is given.
const DEFAULT_LEVEL: u8 = 4;
/// The most search threads a command may ask for.
const MAX_THREADS: u64 = 64;
/// The most lines `analyze ... multipv=N` may ask for.
const MAX_MULTIPV: u64 = 64;
/// The limits of `solve` when none are given: it answers `winner unknown` after them.
const SOLVE_NODES: u64 = 5_000_000;
const SOLVE_MS: u64 = 10_000;
/// The largest value of any budget (`ms`, `iters`, `nodes`): about 31 years of
/// milliseconds, far beyond any search, and safe to add to instants.
const MAX_BUDGET: u64 = 1 << 40;

/// What a search is told to do, from `genmove`/`analyze` arguments.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SearchArgs {
    budget: SearchSpec,
    /// `threads=N`; `None`: the budget's own (every core at level 9), or one.
    threads: Option<usize>,
    multipv: usize,
    /// How much longer a search cut short by its time may go on in a critical position (a
    /// `genmove` by the clock; [`swapboard_ai::Mcts::think_extended`]).
    extra: Duration,
}

/// A game in progress, whatever the game: what the protocol needs of it.
trait Session {
    /// The current position as contract text.
    fn position(&self) -> String;
    /// Checks and plays a move; returns it as the contract prints it.
    fn play(&mut self, text: &str) -> Result<String, String>;
    /// Searches until the budget is spent or `interrupted` says so (asked often), then
    /// plays and returns a move.
    fn genmove(
        &mut self,
        search: &SearchArgs,
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<String, String>;
    /// The thinking time the clock of the side to move allows, from `time_left`, and how
    /// much longer in a critical position.
    fn clock_budget(&self, left_ms: u64, increment_ms: u64) -> (SearchSpec, Duration);
    /// Every legal move.
    fn moves(&self) -> Vec<String>;
    /// The board drawn as text.
    fn show(&self) -> String;
    /// Searches, sending `info` lines to `emit`, until the budget is spent or `interrupted`
    /// says so (asked at each `info` line), and returns the final `bestmove` text.
    fn analyze(
        &mut self,
        search: &SearchArgs,
        emit: &mut dyn FnMut(String),
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<String, String>;
    /// Proves the result within the limits, or until `interrupted` says so.
    fn solve(
        &mut self,
        nodes: u64,
        time: Duration,
        interrupted: &mut dyn FnMut() -> bool,
    ) -> String;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// The contract's result line without its `result: ` label.
    fn result(&self) -> String;
}

/// How long a search goes on, from `genmove`/`analyze` arguments.
#[derive(Debug, Clone, Copy, PartialEq)]
enum SearchSpec {
    Millis(u64),
    Iterations(u64),
    Level(Level),
    /// Until `stop` (`analyze` only).
    Infinite,
}

/// Reads `key=N` with N a whole number from `min` to `max`.
fn bounded(arg: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| format!("'{arg}': '{value}' is not a whole number from {min} to {max}"))
}

impl SearchArgs {
    /// Reads a budget (`ms=T`, `iters=N`, `level=K`, `infinite`, or nothing: `default`),
    /// `threads=N` and, where `multipv` is allowed, `multipv=N`.
    fn parse(args: &[&str], default: SearchSpec, multipv: bool) -> Result<SearchArgs, String> {
        let mut out = SearchArgs {
            budget: default,
            threads: None,
            multipv: 1,
            extra: Duration::ZERO,
        };
        let mut budgets = 0;
        for &arg in args {
            if arg == "infinite" {
                out.budget = SearchSpec::Infinite;
                budgets += 1;
                continue;
            }
            let (key, value) = arg
                .split_once('=')
                .ok_or_else(|| format!("'{arg}': a budget is ms=T, iters=N or level=K"))?;
            match key {
                "ms" => out.budget = SearchSpec::Millis(bounded(arg, value, 1, MAX_BUDGET)?),
                "iters" => {
                    out.budget = SearchSpec::Iterations(bounded(arg, value, 1, MAX_BUDGET)?);
                }
                "level" => {
                    let k = bounded(arg, value, 1, u64::from(Level::MAX.number()))?;
                    out.budget = SearchSpec::Level(Level::new(k as u8).expect("in range"));
                }
                "threads" => {
                    out.threads = Some(bounded(arg, value, 1, MAX_THREADS)? as usize);
                    continue;
                }
                "multipv" if multipv => {
                    out.multipv = bounded(arg, value, 1, MAX_MULTIPV)? as usize;
                    continue;
                }
                _ => {
                    return Err(format!(
                        "'{arg}': unknown setting '{key}' (ms, iters, level, threads{})",
                        if multipv { ", multipv" } else { "" }
                    ));
                }
            }
            budgets += 1;
        }
        if budgets > 1 {
            return Err(format!(
                "expected one budget (ms=T, iters=N or level=K), got '{}'",
                args.join(" ")
            ));
        }
        Ok(out)
    }

    fn config_and_budget<G: Game>(&self) -> (Config, Budget) {
        let (config, budget) = match self.budget {
            SearchSpec::Millis(ms) => (
                Config::for_game::<G>(1),
                Budget::time(Duration::from_millis(ms)),
            ),
            SearchSpec::Iterations(n) => (Config::for_game::<G>(1), Budget::iterations(n)),
            SearchSpec::Level(level) => {
                let config = level.config::<G>(1);
                let threads = self.threads.unwrap_or(config.threads);
                (config, level.budget_on::<G>(threads))
            }
            SearchSpec::Infinite => (Config::for_game::<G>(1), Budget::default()),
        };
        (
            Config {
                threads: self.threads.unwrap_or(config.threads),
                ..config
            },
            budget,
        )
    }
}

/// How often a search looks for `stop` (and streams `info` without a time budget).
fn report_interval(budget: &Budget) -> Duration {
    match budget.time {
        // Often enough to stream progress and to see `stop` within half a second.
        Some(t) => (t / 5).clamp(Duration::from_millis(50), Duration::from_millis(500)),
        None => Duration::from_millis(200),
    }
}

/// A session of game `G`: the table (positions, moves, undo), and the last search, whose
/// tree is kept across moves.
struct GameSession<G: Playable> {
    table: Table<G>,
    search: Option<Mcts<G>>,
}

impl<G: Playable> GameSession<G> {
    fn new(position: G) -> GameSession<G> {
        let seats = [
            Seat::Person("engine".to_string()),
            Seat::Person("engine".to_string()),
        ];
        GameSession {
            // The controller gives every move, the passes the rules force included.
            table: Table::replaying(
                position,
                seats,
                TimeControl::None,
                UndoPolicy::Allowed,
                Millis(0),
            ),
            search: None,
        }
    }

    fn current(&self) -> &G {
        self.table.position()
    }

    /// A search of the current position with `config`: the last one when its configuration
    /// is the same (it followed every move played since, so its tree is kept), else a new
    /// one.
    fn searcher(&mut self, config: Config) -> &mut Mcts<G> {
        let position = self.current().clone();
        match &mut self.search {
            Some(search) if *search.config() == config => search.set_position(position),
            slot => *slot = Some(Mcts::new(position, config)),
        }
        self.search.as_mut().expect("just made")
    }

    /// Plays `mv` (legal) and moves the kept search along with it.
    fn push(&mut self, mv: &G::Move) -> Result<(), String> {
        self.table
            .play_move(self.table.ply(), mv, Millis(0))
            .map_err(|e| e.to_string())?;
        if let Some(search) = &mut self.search
            && search.advance(mv).is_err()
        {
            self.search = None;
        }
        Ok(())
    }

    fn over(&self) -> Option<String> {
        self.current()
            .outcome()
            .map(|_| format!("the game is over ({})", result_line(self.current())))
    }

    /// Searches with `search` until its budget is spent or `interrupted` says so, calling
    /// `report` at each interval.
    fn think(
        &mut self,
        search: &SearchArgs,
        interrupted: &mut dyn FnMut() -> bool,
        report: impl FnMut(&Analysis<G::Move>),
    ) -> Analysis<G::Move> {
        let (config, budget) = search.config_and_budget::<G>();
        self.think_within(config, budget, interrupted, report)
    }

    /// [`GameSession::think`] with `config` and `budget` as given.
    fn think_within(
        &mut self,
        config: Config,
        budget: Budget,
        interrupted: &mut dyn FnMut() -> bool,
        mut report: impl FnMut(&Analysis<G::Move>),
    ) -> Analysis<G::Move> {
        let stop = Arc::new(AtomicBool::new(false));
        let budget = budget.with_stop(Arc::clone(&stop));
        let interval = report_interval(&budget);
        self.searcher(config)
            .think_with(&budget, interval, |snapshot| {
                report(snapshot);
                if interrupted() {
                    stop.store(true, Ordering::Relaxed);
                }
            })
    }
}

/// A number as the protocol prints win rates.
fn rate(x: f64) -> String {
    format!("{x:.3}")
}

/// An `info` line's words for one line of an analysis.
fn describe_line<M: std::fmt::Display>(line: &Line<M>, player: swapboard_core::Player) -> String {
    let mut text = format!(
        "move {} visits {} winrate {}",
        line.mv,
        line.visits,
        rate(line.win_rate)
    );
    if let Some(outcome) = line.proven {
        let word = match outcome {
            Outcome::Win(p) if p == player => "win",
            Outcome::Win(_) => "loss",
            Outcome::Draw => "draw",
        };
        text += &format!(" proven {word}");
    }
    let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
    text + &format!(" pv {}", pv.join(" "))
}

/// The `info` lines of an analysis: one, or one per line with `multipv k` when more are
/// asked for.
fn info_lines<M: std::fmt::Display>(
    a: &Analysis<M>,
    player: swapboard_core::Player,
    multipv: usize,
) -> Vec<String> {
    let head = format!(
        "info iterations {} time_ms {} nodes {}",
        a.iterations,
        a.elapsed.as_millis(),
        a.nodes
    );
    if multipv == 1 {
        return vec![match a.best() {
            Some(best) => format!("{head} {}", describe_line(best, player)),
            None => head,
        }];
    }
    let lines: Vec<String> = a
        .lines
        .iter()
        .take(multipv)
        .enumerate()
        .map(|(k, line)| format!("{head} multipv {} {}", k + 1, describe_line(line, player)))
        .collect();
    if lines.is_empty() { vec![head] } else { lines }
}

impl<G: Playable> Session for GameSession<G> {
    fn position(&self) -> String {
        self.current().to_string()
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let mut next = self.current().clone();
        // Cells are read without regard to case, as everywhere.
        let mv = next
            .play_text(&text.to_ascii_lowercase())
            .map_err(|e| e.to_string())?;
        self.push(&mv)?;
        Ok(mv.to_string())
    }

    fn genmove(
        &mut self,
        search: &SearchArgs,
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<String, String> {
        if let Some(over) = self.over() {
            return Err(over);
        }
        if search.budget == SearchSpec::Infinite {
            return Err("genmove needs a budget that ends: ms=T, iters=N or level=K".into());
        }
        // A proven win on a board with a book is played from it, unsearched; off the book
        // the solver has half of a budget in time at most.
        let solver_time = match search.budget {
            SearchSpec::Millis(ms) => Some(Duration::from_millis(ms) / 2),
            _ => None,
        };
        let course = Course::replay(self.table.start(), self.table.moves())
            .map_err(|e| format!("the game so far: {e}"))?;
        let mv = match course.proven_move(self.current(), solver_time) {
            Some(mv) => mv,
            None => {
                let first = self.think(search, interrupted, |_| {});
                // By the clock, a critical position gets more of it.
                let (config, budget) = search.config_and_budget::<G>();
                if let Some(more) = budget.extension(&first, search.extra) {
                    self.think_within(config, more, interrupted, |_| {});
                }
                self.search
                    .as_mut()
                    .and_then(Mcts::best_move)
                    .ok_or_else(|| "the search found no move".to_string())?
            }
        };
        self.push(&mv)?;
        Ok(mv.to_string())
    }

    fn clock_budget(&self, left_ms: u64, increment_ms: u64) -> (SearchSpec, Duration) {
        let control = TimeControl::Live {
            initial_ms: left_ms,
            increment_ms,
        };
        let clock = Clock::new(control, self.current().to_move(), Millis(0));
        let (limit, extra) = clock
            .ai_budget(Millis(0))
            .map_or((Duration::from_millis(1), Duration::ZERO), |b| b.limits());
        (SearchSpec::Millis(limit.as_millis() as u64), extra)
    }

    fn moves(&self) -> Vec<String> {
        self.current()
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn show(&self) -> String {
        swapboard_render::text(&self.current().view())
    }

    fn analyze(
        &mut self,
        search: &SearchArgs,
        emit: &mut dyn FnMut(String),
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<String, String> {
        if let Some(over) = self.over() {
            return Err(over);
        }
        let player = self.current().to_move();
        let analysis = self.think(search, interrupted, |snapshot| {
            for line in info_lines(snapshot, player, search.multipv) {
                emit(line);
            }
        });
        for line in info_lines(&analysis, player, search.multipv) {
            emit(line);
        }
        // The move `genmove` would play (for a game searched as decisions, chosen decision
        // by decision, which may differ from the first line).
        let mv = self
            .search
            .as_mut()
            .and_then(Mcts::best_move)
            .ok_or_else(|| "the search found no move".to_string())?;
        Ok(format!("bestmove {mv}"))
    }

    fn solve(
        &mut self,
        nodes: u64,
        time: Duration,
        interrupted: &mut dyn FnMut() -> bool,
    ) -> String {
        let options = Options {
            max_nodes: Some(nodes),
            time: Some(time),
            // Often enough to see `stop` soon.
            progress_every: 1 << 12,
            ..Options::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let solution =
            Solver::new(options)
                .with_stop(Arc::clone(&stop))
                .solve(self.current(), &mut |_| {
                    if interrupted() {
                        stop.store(true, Ordering::Relaxed);
                    }
                });
        let mut text = match solution.outcome {
            Some(Outcome::Win(p)) => format!("winner {}", G::colour_letter(p)),
            Some(Outcome::Draw) => "winner none".to_string(),
            None => "winner unknown".to_string(),
        };
        if let Some(mv) = &solution.best_move {
            text += &format!(" move {mv}");
        }
        text + &format!(" nodes {}", solution.nodes)
    }

    fn undo(&mut self) -> bool {
        self.table.undo().is_ok()
    }

    fn result(&self) -> String {
        result_line(self.current())
            .trim_start_matches("result: ")
            .to_string()
    }
}

/// A new session of the game `id` starting at `position`, or at the start on a board of
/// `size`.
fn session(
    id: &str,
    position: Option<&str>,
    size: Option<usize>,
) -> Result<Box<dyn Session>, String> {
    struct Make<'a> {
        position: Option<&'a str>,
        size: Option<usize>,
    }
    impl GameFn for Make<'_> {
        type Output = Result<Box<dyn Session>, String>;

        fn call<G: Playable>(self) -> Self::Output {
            let pos = match self.position {
                Some(text) => text
                    .parse::<G>()
                    .map_err(|e| format!("position '{text}': {e}"))?,
                None => {
                    let n = self.size.unwrap_or(G::DEFAULT_SIZE);
                    G::start(n).map_err(|e| format!("{} size {n}: {e}", G::ID))?
                }
            };
            Ok(Box::new(GameSession::new(pos)))
        }
    }
    let game: GameId = id.parse().map_err(|e: UnknownGame| e.to_string())?;
    game.run(Make { position, size })
}

/// The state of the protocol loop.
struct Engine {
    game: Option<Box<dyn Session>>,
    /// The clock of the side to move as `time_left` last gave it (milliseconds left and
    /// the increment); `genmove` without a budget thinks by it.
    time_left: Option<(u64, u64)>,
}

/// What a command asks the loop to do after its response.
enum Next {
    Continue,
    Quit,
}

impl Engine {
    fn game(&mut self) -> Result<&mut Box<dyn Session>, String> {
        self.game.as_mut().ok_or_else(|| {
            "no game: start one with 'new <game> [size]' or 'position <text>'".to_string()
        })
    }

    /// Runs one command; `emit` takes the lines streamed before the response, and
    /// `interrupted` tells a running analysis whether `stop` has come (see [`Input`]).
    fn command(
        &mut self,
        name: &str,
        args: &[&str],
        rest: &str,
        emit: &mut dyn FnMut(String),
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<(String, Next), String> {
        let done = |text: String| Ok((text, Next::Continue));
        let no_args = || {
            if args.is_empty() {
                Ok(())
            } else {
                Err(format!("'{name}' takes no arguments"))
            }
        };
        match name {
            "name" => no_args().and_then(|()| done("swapboard".into())),
            "version" => no_args().and_then(|()| done(env!("CARGO_PKG_VERSION").into())),
            "protocol_version" => no_args().and_then(|()| done(PROTOCOL_VERSION.to_string())),
            "list_commands" => no_args().and_then(|()| done(COMMANDS.join("\n"))),
            "list_games" => no_args().and_then(|()| {
                let lines: Vec<String> = GameId::ALL
                    .iter()
                    .map(|id| format!("{id} {}", id.title()))
                    .collect();
                done(lines.join("\n"))
            }),
            "new" => {
                let (id, size) = match args {
                    [id] => (*id, None),
                    [id, size] => {
                        let n = size
                            .parse::<usize>()
                            .map_err(|_| format!("size '{size}' is not a whole number"))?;
                        (*id, Some(n))
                    }
                    _ => return Err("usage: new <game> [size]".into()),
                };
                let game = session(id, None, size)?;
                let text = game.position();
                self.game = Some(game);
                self.time_left = None;
                done(text)
            }
            "position" => {
                if rest.is_empty() {
                    return done(self.game()?.position());
                }
                let id = swapboard_core::text::game_of(rest).unwrap_or("");
                let game = session(id, Some(rest), None)?;
                let text = game.position();
                self.game = Some(game);
                self.time_left = None;
                done(text)
            }
            "play" => match args {
                [mv] => {
                    let mv = *mv;
                    done(self.game()?.play(mv)?)
                }
                _ => Err("usage: play <move>".into()),
            },
            "genmove" => {
                let time_left = self.time_left;
                let game = self.game()?;
                let (default, extra) = match time_left {
                    Some((left, increment)) => game.clock_budget(left, increment),
                    None => (
                        SearchSpec::Level(Level::new(DEFAULT_LEVEL).expect("a level")),
                        Duration::ZERO,
                    ),
                };
                let mut search = SearchArgs::parse(args, default, false)?;
                if search.budget == default {
                    search.extra = extra;
                }
                done(game.genmove(&search, interrupted)?)
            }
            "time_left" => {
                let [left, rest @ ..] = args else {
                    return Err("usage: time_left <ms> [increment_ms]".into());
                };
                let left = bounded(left, left, 0, MAX_BUDGET)?;
                let increment = match rest {
                    [] => 0,
                    [inc] => bounded(inc, inc, 0, MAX_BUDGET)?,
                    _ => return Err("usage: time_left <ms> [increment_ms]".into()),
                };
                self.time_left = Some((left, increment));
                done(String::new())
            }
            "moves" => no_args().and_then(|()| done(self.game()?.moves().join(" "))),
            "show" => no_args().and_then(|()| {
                let text = self.game()?.show();
                // A blank line ends a response: keep the picture free of them.
                let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
                done(format!("\n{}", lines.join("\n")))
            }),
            "analyze" => {
                let default = SearchSpec::Level(Level::new(DEFAULT_LEVEL).expect("a level"));
                let search = SearchArgs::parse(args, default, true)?;
                done(self.game()?.analyze(&search, emit, interrupted)?)
            }
            // A `stop` that comes during an analysis ends it; then, or alone, it is done.
            "stop" => no_args().and_then(|()| done(String::new())),
            "solve" => {
                let (mut nodes, mut ms) = (SOLVE_NODES, SOLVE_MS);
                for &arg in args {
                    match arg.split_once('=') {
                        Some(("nodes", v)) => nodes = bounded(arg, v, 1, MAX_BUDGET)?,
                        Some(("ms", v)) => ms = bounded(arg, v, 1, MAX_BUDGET)?,
                        _ => return Err(format!("'{arg}': a limit is nodes=N or ms=T")),
                    }
                }
                done(
                    self.game()?
                        .solve(nodes, Duration::from_millis(ms), interrupted),
                )
            }
            "undo" => no_args().and_then(|()| {
                let game = self.game()?;
                if game.undo() {
                    done(game.position())
                } else {
                    Err("nothing to undo".into())
                }
            }),
            "result" => no_args().and_then(|()| done(self.game()?.result())),
            "quit" => Ok((String::new(), Next::Quit)),
            other => Err(format!("unknown command '{other}' (see list_commands)")),
        }
    }
}

/// Splits a line into its optional numeric id, its command and the rest.
fn split_command(line: &str) -> (Option<&str>, &str, &str) {
    let line = line.trim();
    let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        let rest = rest.trim_start();
        let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        (Some(first), name, args.trim())
    } else {
        (None, first, rest.trim())
    }
}

/// A line of the input: text, or bytes that are not UTF-8 (answered as a bad line).
type InputLine = Result<String, ()>;

/// The lines of the input, read by a thread of their own so that a running search can look
/// for `stop` without waiting on the input.
struct Input {
    lines: Receiver<io::Result<InputLine>>,
    /// Lines read ahead while a search ran, to be run after it.
    pending: VecDeque<io::Result<InputLine>>,
    /// Whether the input has ended.
    ended: bool,
}

impl Input {
    fn new(mut input: impl BufRead + Send + 'static) -> Input {
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                let line = match input.read_until(b'\n', &mut bytes) {
                    Ok(0) => break,
                    Ok(_) => {
                        let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
                        let text = text.strip_suffix(b"\r").unwrap_or(text);
                        Ok(String::from_utf8(text.to_vec()).map_err(|_| ()))
                    }
                    Err(e) => Err(e),
                };
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        Input {
            lines,
            pending: VecDeque::new(),
            ended: false,
        }
    }

    /// The next line, or `None` at the end of the input.
    fn next(&mut self) -> Option<io::Result<InputLine>> {
        self.pending.pop_front().or_else(|| self.lines.recv().ok())
    }

    /// Reads what has arrived without waiting; whether a search must stop: `stop` or
    /// `quit` has come, or the input has ended (nobody is left to wait for the answer
    /// longer than the search has run).
    fn interrupts(&mut self) -> bool {
        loop {
            match self.lines.try_recv() {
                Ok(line) => self.pending.push_back(line),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.ended = true;
                    break;
                }
            }
        }
        let stops = self.pending.iter().any(|line| {
            matches!(line, Ok(Ok(l)) if {
                let (_, name, _) = split_command(l.split('#').next().unwrap_or(""));
                name == "stop" || name == "quit"
            })
        });
        stops || self.ended
    }
}

/// Runs the protocol over `input` and `output` until `quit` or the end of the input. The
/// input is read by a thread of its own, so that a search can see `stop` coming.
pub fn run_protocol(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let mut engine = Engine {
        game: None,
        time_left: None,
    };
    let mut input = Input::new(input);
    while let Some(line) = input.next() {
        let Ok(line) = line? else {
            writeln!(output, "? the line is not UTF-8 text\n")?;
            output.flush()?;
            continue;
        };
        // Comments and blank lines are ignored, as in GTP.
        let line = line.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let (id, name, rest) = split_command(line);
        let id = id.unwrap_or("");
        if name.is_empty() {
            writeln!(output, "?{id} a command is missing after the id\n")?;
            output.flush()?;
            continue;
        }
        let args: Vec<&str> = rest.split_whitespace().collect();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            // Streamed lines go out at once; a write error shows again on the response.
            let mut emit = |text: String| {
                let _ = writeln!(output, "{text}").and_then(|()| output.flush());
            };
            let mut interrupted = || input.interrupts();
            engine.command(name, &args, rest, &mut emit, &mut interrupted)
        }));
        let reply = match outcome {
            Ok(reply) => reply,
            Err(_) => Err(format!(
                "internal error while running '{name}'; the session goes on"
            )),
        };
        match reply {
            Ok((text, next)) => {
                if text.is_empty() {
                    writeln!(output, "={id}\n")?;
                } else {
                    writeln!(output, "={id} {text}\n")?;
                }
                output.flush()?;
                if let Next::Quit = next {
                    return Ok(());
                }
            }
            Err(message) => {
                writeln!(output, "?{id} {}\n", message.replace('\n', " "))?;
                output.flush()?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The responses of a session fed `input`: (sign and id, text) per response.
    fn responses(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        run_protocol(io::Cursor::new(input.to_string()), &mut out).expect("in-memory i/o");
        let text = String::from_utf8(out).expect("utf-8");
        text.split("\n\n")
            .filter(|r| !r.is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn ids_and_arguments_are_split() {
        assert_eq!(split_command(" 12  play  c3 "), (Some("12"), "play", "c3"));
        assert_eq!(
            split_command("position swaptimum ... R"),
            (None, "position", "swaptimum ... R")
        );
        assert_eq!(split_command("3"), (Some("3"), "", ""));
        let default = SearchSpec::Iterations(1);
        let parse = |args: &[&str]| SearchArgs::parse(args, default, true);
        assert_eq!(
            parse(&["iters=5", "threads=2", "multipv=3"]),
            Ok(SearchArgs {
                budget: SearchSpec::Iterations(5),
                threads: Some(2),
                multipv: 3,
                extra: Duration::ZERO,
            })
        );
        assert_eq!(parse(&[]).map(|a| a.budget), Ok(default));
        assert!(parse(&["iters=-5"]).is_err());
        assert!(parse(&["level=0"]).is_err());
        assert!(parse(&["level=9"]).is_ok() && parse(&["level=10"]).is_err());
        assert!(parse(&["threads=65"]).is_err());
        assert!(parse(&["ms=1", "iters=2"]).is_err());
        assert!(SearchArgs::parse(&["multipv=2"], default, false).is_err());
    }

    /// A search ends with the input (nobody is left to send `stop`), and `stop` or `quit`
    /// queued behind a budgeted one ends it too; a queued command that is neither waits
    /// for it, and a line that is not UTF-8 is answered as a bad line.
    #[test]
    fn analyses_end_with_the_input_or_a_queued_stop() {
        let answers = responses("new swaptimum 3\nanalyze infinite");
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert!(answers[1].contains("= bestmove "), "{answers:?}");
        let answers = responses("new swaptimum 5\nanalyze ms=60000\nstop");
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(answers[1].contains("= bestmove "), "{answers:?}");
        let answers = responses("new swaptimum 4\nanalyze iters=500\nname");
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(answers[2].starts_with("= swapboard"), "{answers:?}");
    }

    /// On a solved board a won position is played from the book whatever the budget: with
    /// one iteration, Blue's every answer to each of Red's first moves on 4x4 Flipstop
    /// keeps a proven win (the solver says so after it).
    #[test]
    fn genmove_plays_a_proven_win_from_the_book() {
        use swapboard_core::Player;
        use swapboard_flipstop::Flipstop;
        let mut solver = Solver::new(Options::default());
        for first in ["a1", "b1", "a2", "b2", "c3", "d4"] {
            let answers = responses(&format!("new flipstop 4\nplay {first}\ngenmove iters=1"));
            assert_eq!(answers.len(), 3, "{answers:?}");
            let reply = answers[2].trim_start_matches("= ");
            let mut position = Flipstop::start(4).unwrap();
            position.play_text(first).unwrap();
            position.play_text(reply).unwrap();
            let proof = solver.solve(&position, &mut |_| {});
            assert_eq!(
                proof.outcome,
                Some(Outcome::Win(Player::Second)),
                "{first} {reply}"
            );
        }
    }

    /// On 5x5 Swaptimum, whose book stops where the live solver takes over, the engine
    /// playing both sides with one search iteration a move wins as Red, the strategy's
    /// winner: the game so far tells it where the live solver is to be asked.
    #[test]
    fn genmove_follows_the_game_past_the_5x5_book() {
        let mut script = String::from("new swaptimum 5\n");
        script.push_str(&"genmove iters=1\n".repeat(26));
        script.push_str("result");
        let answers = responses(&script);
        assert_eq!(
            answers.last().map(String::as_str),
            Some("= R"),
            "{answers:?}"
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_is_a_bad_line() {
        let mut input = b"name\n\xff\xfe play\nresult\n".to_vec();
        input.extend_from_slice(b"new flipstop 3\n");
        let mut out = Vec::new();
        run_protocol(io::Cursor::new(input), &mut out).expect("in-memory i/o");
        let text = String::from_utf8(out).expect("utf-8");
        let answers: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(answers.len(), 4, "{answers:?}");
        assert_eq!(answers[1], "? the line is not UTF-8 text");
        assert!(answers[3].starts_with("= flipstop"), "{answers:?}");
    }

    /// Lines left out of generated sessions: searches (slow, and `analyze` streams) and
    /// `quit`.
    fn thinks_or_quits(line: &str) -> bool {
        ["genmove", "solve", "analyze", "quit"]
            .iter()
            .any(|c| line.contains(c))
    }

    proptest! {
        /// Any input gets one response per command line, each `=` or `?`, and never ends
        /// the session early.
        #[test]
        fn every_line_gets_one_answer(lines in proptest::collection::vec(
            prop_oneof![
                Just("new swaptimum 3".to_string()),
                Just("new flipstop 4".to_string()),
                Just("moves".to_string()),
                Just("undo".to_string()),
                Just("result".to_string()),
                "play [a-e][1-5]",
                "(new|play|position|genmove|solve|undo|moves) [ -~]{0,12}",
                "[0-9]{0,3} ?[ -~]{0,16}",
            ],
            1..12,
        )) {
            let commands: Vec<&String> = lines
                .iter()
                .filter(|l| {
                    let l = l.split('#').next().unwrap_or("");
                    !l.trim().is_empty() && !thinks_or_quits(l)
                })
                .collect();
            // Searches are left out of the generated input to keep the test fast.
            let input: Vec<&str> = lines
                .iter()
                .map(String::as_str)
                .filter(|l| !thinks_or_quits(l))
                .collect();
            let answers = responses(&input.join("\n"));
            prop_assert_eq!(answers.len(), commands.len(), "{:?} -> {:?}", input, answers);
            for a in &answers {
                prop_assert!(a.starts_with('=') || a.starts_with('?'), "{}", a);
            }
        }
    }
}
