//! `swapboard engine`: a line-based text protocol over standard input and output in the
//! spirit of GTP, for GUIs, tournament managers and scripts (`docs/ENGINE-PROTOCOL.md`).
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

use swapboard_ai::{Budget, Config, Level, Mcts};
use swapboard_core::{Game, Outcome, Stepwise};
use swapboard_play::{GameFn, GameId, Playable};
use swapboard_solver::{Options, Solver};

use crate::commands::result_line;
use crate::error::{CliError, CliResult};

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

/// A game in progress, whatever the game: what the protocol needs of it.
trait Session {
    /// The current position as contract text.
    fn position(&self) -> String;
    /// Checks and plays a move; returns it as the contract prints it.
    fn play(&mut self, text: &str) -> Result<String, String>;
    /// Searches, plays and returns a move.
    fn genmove(&mut self, search: &SearchSpec) -> Result<String, String>;
    /// Every legal move.
    fn moves(&self) -> Vec<String>;
    /// The board drawn as text.
    fn show(&self) -> String;
    /// Searches, sending `info` lines to `emit`, until the budget is spent or `interrupted`
    /// says so (asked at each `info` line), and returns the final `bestmove` text.
    fn analyze(
        &mut self,
        search: &SearchSpec,
        emit: &mut dyn FnMut(String),
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<String, String>;
    /// Proves the result within a budget.
    fn solve(&mut self, nodes: Option<u64>, time: Option<Duration>) -> String;
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

impl SearchSpec {
    /// Reads `ms=T`, `iters=N`, `level=K` or `infinite` (or nothing: the default level).
    fn parse(args: &[&str]) -> Result<SearchSpec, String> {
        if args == ["infinite"] {
            return Ok(SearchSpec::Infinite);
        }
        let default = SearchSpec::Level(Level::new(DEFAULT_LEVEL).expect("a level"));
        let [arg] = args else {
            return if args.is_empty() {
                Ok(default)
            } else {
                Err(format!(
                    "expected one budget (ms=T, iters=N or level=K), got '{}'",
                    args.join(" ")
                ))
            };
        };
        let (key, value) = arg
            .split_once('=')
            .ok_or_else(|| format!("'{arg}': a budget is ms=T, iters=N or level=K"))?;
        let n: u64 = value
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("'{arg}': '{value}' is not a positive whole number"))?;
        match key {
            "ms" => Ok(SearchSpec::Millis(n)),
            "iters" => Ok(SearchSpec::Iterations(n)),
            "level" => u8::try_from(n)
                .ok()
                .and_then(Level::new)
                .map(SearchSpec::Level)
                .ok_or_else(|| format!("'{arg}': the level must be 1 to 8")),
            _ => Err(format!(
                "'{arg}': unknown budget '{key}' (ms, iters or level)"
            )),
        }
    }

    fn config_and_budget<G: Game>(self) -> (Config, Budget) {
        match self {
            SearchSpec::Millis(ms) => (Config::default(), Budget::time(Duration::from_millis(ms))),
            SearchSpec::Iterations(n) => (Config::default(), Budget::iterations(n)),
            SearchSpec::Level(level) => (level.config(1), level.budget::<G>()),
            SearchSpec::Infinite => (Config::default(), Budget::default()),
        }
    }
}

/// A session of game `G`: the positions from the first, for `undo`, and the last search,
/// whose tree is kept across moves.
struct GameSession<G: Stepwise> {
    history: Vec<G>,
    search: Option<Mcts<G>>,
}

impl<G: Stepwise> GameSession<G> {
    fn new(position: G) -> GameSession<G> {
        GameSession {
            history: vec![position],
            search: None,
        }
    }

    fn current(&self) -> &G {
        self.history.last().expect("a session holds a position")
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
    fn push(&mut self, mv: &G::Move) {
        let mut next = self.current().clone();
        next.play_unchecked(mv);
        self.history.push(next);
        if let Some(search) = &mut self.search
            && search.advance(mv).is_err()
        {
            self.search = None;
        }
    }

    fn over(&self) -> Option<String> {
        self.current()
            .outcome()
            .map(|_| format!("the game is over ({})", result_line(self.current())))
    }
}

/// A number as the protocol prints win rates.
fn rate(x: f64) -> String {
    format!("{x:.3}")
}

impl<G: Stepwise> Session for GameSession<G> {
    fn position(&self) -> String {
        self.current().to_string()
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let mv = self
            .current()
            .clone()
            .play_text(text)
            .map_err(|e| e.to_string())?;
        self.push(&mv);
        Ok(mv.to_string())
    }

    fn genmove(&mut self, search: &SearchSpec) -> Result<String, String> {
        if let Some(over) = self.over() {
            return Err(over);
        }
        if *search == SearchSpec::Infinite {
            return Err("genmove needs a budget that ends: ms=T, iters=N or level=K".into());
        }
        let (config, budget) = search.config_and_budget::<G>();
        let mcts = self.searcher(config);
        mcts.think(&budget);
        let mv = mcts
            .best_move()
            .ok_or_else(|| "the search found no move".to_string())?;
        self.push(&mv);
        Ok(mv.to_string())
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
        search: &SearchSpec,
        emit: &mut dyn FnMut(String),
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<String, String> {
        if let Some(over) = self.over() {
            return Err(over);
        }
        let (config, budget) = search.config_and_budget::<G>();
        let stop = Arc::new(AtomicBool::new(false));
        let budget = budget.with_stop(Arc::clone(&stop));
        let interval = match budget.time {
            // Often enough to stream progress and to see `stop` within half a second.
            Some(t) => (t / 5).clamp(Duration::from_millis(50), Duration::from_millis(500)),
            None => Duration::from_millis(200),
        };
        let player = self.current().to_move();
        let mcts = self.searcher(config);
        let describe = |a: &swapboard_ai::Analysis<G::Move>| -> String {
            let mut text = format!(
                "iterations {} time_ms {} nodes {}",
                a.iterations,
                a.elapsed.as_millis(),
                a.nodes
            );
            if let Some(best) = a.best() {
                text += &format!(
                    " move {} visits {} winrate {}",
                    best.mv,
                    best.visits,
                    rate(best.win_rate)
                );
                if let Some(outcome) = best.proven {
                    let word = match outcome {
                        Outcome::Win(p) if p == player => "win",
                        Outcome::Win(_) => "loss",
                        Outcome::Draw => "draw",
                    };
                    text += &format!(" proven {word}");
                }
                let pv: Vec<String> = best.pv.iter().map(ToString::to_string).collect();
                text += &format!(" pv {}", pv.join(" "));
            }
            text
        };
        let analysis = mcts.think_with(&budget, interval, |snapshot| {
            emit(format!("info {}", describe(snapshot)));
            if interrupted() {
                stop.store(true, Ordering::Relaxed);
            }
        });
        emit(format!("info {}", describe(&analysis)));
        // The move `genmove` would play (for a game searched as decisions, chosen decision
        // by decision, which may differ from the first line).
        let mv = mcts
            .best_move()
            .ok_or_else(|| "the search found no move".to_string())?;
        Ok(format!("bestmove {mv}"))
    }

    fn solve(&mut self, nodes: Option<u64>, time: Option<Duration>) -> String {
        let options = Options {
            max_nodes: nodes,
            time,
            ..Options::default()
        };
        let solution = Solver::new(options).solve(self.current(), &mut |_| {});
        let mut text = match (solution.outcome, solution.stopped) {
            (Some(Outcome::Win(p)), _) => format!("winner {}", G::colour_letter(p)),
            (Some(Outcome::Draw), _) => "winner none".to_string(),
            (None, _) => "winner unknown".to_string(),
        };
        if let Some(mv) = &solution.best_move {
            text += &format!(" move {mv}");
        }
        text + &format!(" nodes {}", solution.nodes)
    }

    fn undo(&mut self) -> bool {
        if self.history.len() > 1 {
            self.history.pop();
            true
        } else {
            false
        }
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
    let game: GameId = id
        .parse()
        .map_err(|e: swapboard_play::UnknownGame| e.to_string())?;
    game.run(Make { position, size })
}

/// The state of the protocol loop.
struct Engine {
    game: Option<Box<dyn Session>>,
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
        interrupted: &mut dyn FnMut(&SearchSpec) -> bool,
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
                let spec = SearchSpec::parse(args)?;
                done(self.game()?.genmove(&spec)?)
            }
            "moves" => no_args().and_then(|()| done(self.game()?.moves().join(" "))),
            "show" => no_args().and_then(|()| {
                let text = self.game()?.show();
                // A blank line ends a response: keep the picture free of them.
                let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
                done(format!("\n{}", lines.join("\n")))
            }),
            "analyze" => {
                let spec = SearchSpec::parse(args)?;
                done(
                    self.game()?
                        .analyze(&spec, emit, &mut || interrupted(&spec))?,
                )
            }
            // A `stop` that comes during an analysis ends it; then, or alone, it is done.
            "stop" => no_args().and_then(|()| done(String::new())),
            "solve" => {
                let (mut nodes, mut time) = (None, None);
                for arg in args {
                    let parsed = arg.split_once('=').and_then(|(k, v)| {
                        v.parse::<u64>().ok().filter(|&n| n > 0).map(|n| (k, n))
                    });
                    match parsed {
                        Some(("nodes", n)) => nodes = Some(n),
                        Some(("ms", n)) => time = Some(Duration::from_millis(n)),
                        _ => return Err(format!("'{arg}': a limit is nodes=N or ms=T")),
                    }
                }
                done(self.game()?.solve(nodes, time))
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

/// The lines of the input, read by a thread of their own so that a running analysis can
/// look for `stop` without waiting on the input.
struct Input {
    lines: Receiver<io::Result<String>>,
    /// Lines read ahead while an analysis ran, to be run after it.
    pending: VecDeque<io::Result<String>>,
    /// Whether the input has ended.
    ended: bool,
}

impl Input {
    fn new(input: impl BufRead + Send + 'static) -> Input {
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in input.lines() {
                if sender.send(line).is_err() {
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
    fn next(&mut self) -> Option<io::Result<String>> {
        self.pending.pop_front().or_else(|| self.lines.recv().ok())
    }

    /// Reads what has arrived without waiting; whether it holds `stop` or `quit` (which end
    /// an analysis), or, for an analysis without a budget, the end of the input.
    fn interrupts(&mut self, search: &SearchSpec) -> bool {
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
            line.as_ref().is_ok_and(|l| {
                let (_, name, _) = split_command(l.split('#').next().unwrap_or(""));
                name == "stop" || name == "quit"
            })
        });
        stops || (self.ended && *search == SearchSpec::Infinite)
    }
}

/// Runs the protocol over `input` and `output` until `quit` or the end of the input.
pub(crate) fn run_protocol(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let mut engine = Engine { game: None };
    let mut input = Input::new(input);
    while let Some(line) = input.next() {
        let line = line?;
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
            let mut interrupted = |search: &SearchSpec| input.interrupts(search);
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

/// `swapboard engine`: the protocol over standard input and output.
pub(crate) fn engine() -> CliResult {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    run_protocol(io::BufReader::new(stdin), stdout.lock()).map_err(|e| CliError::Failure(e.into()))
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
        assert_eq!(
            SearchSpec::parse(&["iters=5"]),
            Ok(SearchSpec::Iterations(5))
        );
        assert!(SearchSpec::parse(&["iters=-5"]).is_err());
        assert!(SearchSpec::parse(&["level=0"]).is_err());
    }

    /// An analysis without a budget ends with the input (nobody is left to send `stop`),
    /// and `stop` or `quit` queued behind a budgeted one ends it too; a queued command
    /// that is neither waits for it.
    #[test]
    fn analyses_end_with_the_input_or_a_queued_stop() {
        let answers = responses("new swaptimum 3\nanalyze infinite");
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert!(answers[1].contains("= bestmove "), "{answers:?}");
        let answers = responses("new swaptimum 5\nanalyze ms=60000\nstop");
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(answers[1].contains("= bestmove "), "{answers:?}");
        let answers = responses("new swaptimum 4\nanalyze iters=500\nname");
        assert!(answers[1].contains("info iterations 500 "), "{answers:?}");
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
