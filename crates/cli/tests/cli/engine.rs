//! `swapboard engine`, driven as a GUI drives it: commands on standard input, responses on
//! standard output (`docs/ENGINE-PROTOCOL.md`).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A running engine and the ends of its pipes.
struct Engine {
    child: Child,
    /// Standard input of the engine; dropped to close it.
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_swapboard"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Engine {
            child,
            input: Some(input),
            output,
        }
    }

    /// Sends one line and returns every line up to the blank line that ends the response
    /// (streamed lines included), without the blank line.
    fn send(&mut self, line: &str) -> Vec<String> {
        self.write(line);
        self.response(line)
    }

    /// Sends one line without waiting for the response.
    fn write(&mut self, line: &str) {
        let input = self.input.as_mut().expect("the input is open");
        writeln!(input, "{line}").expect("the engine reads");
        input.flush().expect("flush");
    }

    /// Every line of the next response (see `send`); `line` names the command in messages.
    fn response(&mut self, line: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut text = String::new();
            let n = self
                .output
                .read_line(&mut text)
                .expect("the engine answers");
            assert!(
                n > 0,
                "the engine stopped answering after {line:?}: {lines:?}"
            );
            let text = text.trim_end_matches('\n').to_string();
            if text.is_empty() {
                return lines;
            }
            lines.push(text);
        }
    }

    /// The response to a command that must succeed, without its `= `.
    fn ok(&mut self, line: &str) -> String {
        let lines = self.send(line);
        let last = lines.join("\n");
        let response = lines
            .iter()
            .position(|l| l.starts_with('='))
            .unwrap_or_else(|| panic!("{line:?} failed: {last}"));
        let mut text = lines[response]
            .trim_start_matches('=')
            .trim_start()
            .to_string();
        for more in &lines[response + 1..] {
            text.push('\n');
            text.push_str(more);
        }
        text
    }

    /// The message of a command that must fail.
    fn error(&mut self, line: &str) -> String {
        let lines = self.send(line);
        assert_eq!(lines.len(), 1, "{line:?}: {lines:?}");
        assert!(lines[0].starts_with('?'), "{line:?} should fail: {lines:?}");
        lines[0].trim_start_matches('?').trim().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn identifies_itself_and_lists_what_it_knows() {
    let mut e = Engine::start();
    assert_eq!(e.ok("name"), "swapboard");
    assert_eq!(e.ok("version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(e.ok("protocol_version"), "1");
    let commands = e.ok("list_commands");
    for c in [
        "new", "position", "play", "genmove", "analyze", "undo", "quit",
    ] {
        assert!(commands.lines().any(|l| l == c), "{c}: {commands}");
    }
    let games = e.ok("list_games");
    assert!(
        games.contains("swaptimum Swaptimum by Mark Steere"),
        "{games}"
    );
    assert!(
        games.contains("scware Scware by Christian Freeling"),
        "{games}"
    );
    assert!(games.contains("rapid-transit"), "{games}");
    // Ids are echoed; comments and blank lines are ignored.
    assert_eq!(e.send("7 name  # who are you"), ["=7 swapboard"]);
    assert_eq!(
        e.send("\n8 nonsense"),
        ["?8 unknown command 'nonsense' (see list_commands)"]
    );
}

#[test]
fn plays_a_game_with_moves_undo_and_results() {
    let mut e = Engine::start();
    assert!(e.error("moves").contains("no game"));
    assert_eq!(e.ok("new swaptimum 4"), "swaptimum ..../..../..../.... R");
    let moves = e.ok("moves");
    assert_eq!(moves.split(' ').count(), 16, "{moves}");
    assert_eq!(e.ok("play b2"), "b2");
    assert_eq!(e.ok("position"), "swaptimum ..../..../.R../.... B");
    // Errors are answered in-protocol and the session goes on.
    assert!(e.error("play b2").contains("occupied"));
    assert!(e.error("play z9").contains("z9"));
    assert!(e.error("play").contains("usage"));
    assert!(e.error("new chess").contains("unknown game 'chess'"));
    assert!(e.error("new swaptimum 99").contains("99"));
    assert!(e.error("position swaptimum RB/BR B").contains("position"));
    assert_eq!(e.ok("result"), "ongoing");
    assert_eq!(e.ok("undo"), "swaptimum ..../..../..../.... R");
    assert!(e.error("undo").contains("nothing to undo"));
    // A position from the contract, a win, and the result.
    assert_eq!(
        e.ok("position flipstop R.../R.../R.../.... R"),
        "flipstop R.../R.../R.../.... R"
    );
    assert_eq!(e.ok("play a1"), "a1");
    assert_eq!(e.ok("result"), "R");
    assert!(e.error("genmove").contains("over"));
    assert_eq!(e.ok("moves"), "");
    let board = e.ok("show");
    assert!(board.lines().count() >= 4, "{board}");
    assert_eq!(e.send("quit"), ["="]);
}

#[test]
fn generates_and_analyses_moves_within_a_budget() {
    let mut e = Engine::start();
    e.ok("new flipstop 5");
    let mv = e.ok("genmove iters=200");
    assert_eq!(e.ok("moves").split(' ').count(), 24);
    assert!(e.ok("position").contains('R'), "{mv} was not played");
    for bad in [
        "genmove ms=0",
        "genmove speed=3",
        "genmove level=10",
        "genmove 1 2",
    ] {
        assert!(!e.error(bad).is_empty());
    }
    assert!(!e.ok("genmove level=2").is_empty());
    let lines = e.send("5 analyze iters=3000");
    let (last, infos) = lines.split_last().expect("a response");
    assert!(last.starts_with("=5 bestmove "), "{lines:?}");
    assert!(
        !infos.is_empty() && infos.iter().all(|l| l.starts_with("info iterations ")),
        "{lines:?}"
    );
    assert!(infos.last().unwrap().contains(" pv "), "{lines:?}");
    // The engine still answers after the stream.
    assert_eq!(e.ok("name"), "swapboard");
}

/// The nodes of the tree an `analyze` ends with, from its last `info` line.
fn nodes_after(e: &mut Engine, command: &str) -> (u64, String) {
    let lines = e.send(command);
    let (last, infos) = lines.split_last().expect("a response");
    let info = infos.last().unwrap_or_else(|| panic!("no info: {lines:?}"));
    let words: Vec<&str> = info.split(' ').collect();
    let nodes = words
        .iter()
        .position(|&w| w == "nodes")
        .and_then(|i| words.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count: {info}"));
    let best = last.trim_start_matches("= bestmove ").to_string();
    (nodes, best)
}

/// After a search, the tree below the moves played is kept: one more iteration starts
/// from hundreds of nodes, not from an empty tree; a position the tree does not hold (after
/// `undo`) starts afresh.
#[test]
fn keeps_the_search_tree_across_moves() {
    let mut e = Engine::start();
    e.ok("new swaptimum 5");
    let (grown, best) = nodes_after(&mut e, "analyze iters=4000");
    assert!(grown > 1000, "{grown}");
    e.ok(&format!("play {best}"));
    let (kept, reply) = nodes_after(&mut e, "analyze iters=1");
    assert!(
        kept > 100,
        "the tree below {best} was dropped: {kept} nodes"
    );
    e.ok(&format!("play {reply}"));
    e.ok("undo");
    e.ok("undo");
    let (fresh, _) = nodes_after(&mut e, "analyze iters=1");
    assert!(fresh < 100, "an unrelated position kept {fresh} nodes");
}

/// `analyze infinite` thinks until `stop`, streaming `info` lines, then answers its best
/// move; `stop` gets its own answer, and alone it is a harmless no-op.
#[test]
fn analyses_until_stopped() {
    let mut e = Engine::start();
    e.ok("new swaptimum 5");
    e.write("7 analyze infinite");
    // Let it think long enough for a few info lines, then stop it.
    std::thread::sleep(std::time::Duration::from_millis(700));
    e.write("8 stop");
    let lines = e.response("analyze infinite");
    let (last, infos) = lines.split_last().expect("a response");
    assert!(last.starts_with("=7 bestmove "), "{lines:?}");
    assert!(infos.len() >= 2, "{lines:?}");
    assert_eq!(e.response("stop"), ["=8"]);
    assert_eq!(e.ok("stop"), "");
    assert!(!e.error("genmove infinite").is_empty());
    assert_eq!(e.ok("name"), "swapboard");
}

#[test]
fn solves_small_positions_in_protocol() {
    let mut e = Engine::start();
    e.ok("position swaptimum ..R/.../... R");
    // Red to move on 3 x 3 with a checker at c3.
    let answer = e.ok("solve");
    assert!(answer.starts_with("winner "), "{answer}");
    assert!(answer.contains(" nodes "), "{answer}");
    assert!(e.ok("solve nodes=1").starts_with("winner unknown"));
    assert!(e.error("solve depth=3").contains("nodes=N"));
}

#[test]
fn ends_cleanly_at_the_end_of_the_input() {
    let mut e = Engine::start();
    e.ok("new scware 5");
    e.input = None;
    let status = e.child.wait().expect("the engine ends");
    assert!(status.success());
}

/// Runs the engine on a whole input at once (as `printf ... | swapboard engine` does) and
/// returns its responses and how long it took.
fn piped(input: &[u8]) -> (Vec<String>, std::time::Duration) {
    let started = std::time::Instant::now();
    let mut e = Engine::start();
    let mut stdin = e.input.take().expect("stdin");
    stdin.write_all(input).expect("the engine reads");
    drop(stdin);
    let mut text = String::new();
    e.output.read_to_string(&mut text).expect("UTF-8 answers");
    assert!(e.child.wait().expect("the engine ends").success());
    let answers = text
        .split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect();
    (answers, started.elapsed())
}

/// A `solve` of a board far too large to prove is bounded and stopped by the `stop` behind
/// it: every command is answered and the engine exits within seconds.
#[test]
fn a_big_solve_is_stopped_and_every_command_answered() {
    let (answers, took) = piped(b"new swaptimum 7\nsolve\nstop\nname\nquit\n");
    assert_eq!(answers.len(), 5, "{answers:?}");
    assert!(answers[1].starts_with("= winner unknown"), "{answers:?}");
    assert_eq!(answers[2], "=");
    assert_eq!(answers[3], "= swapboard");
    assert_eq!(answers[4], "=");
    assert!(took.as_secs() < 5, "{took:?}");
    // The end of the input stops it too.
    let (answers, took) = piped(b"new swaptimum 7\nsolve nodes=1000000000000 ms=100000000\n");
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(took.as_secs() < 5, "{took:?}");
}

/// A genmove with a budget of days ends at `stop`, at `quit` and at the end of the input,
/// with a legal move played.
#[test]
fn a_huge_genmove_obeys_stop_quit_and_the_end_of_the_input() {
    for tail in ["stop\nposition\n", "quit\n", ""] {
        let input = format!("new flipstop 9\ngenmove ms=100000000 threads=2\n{tail}");
        let (answers, took) = piped(input.as_bytes());
        assert!(took.as_secs() < 5, "{tail:?}: {took:?}");
        assert!(answers.len() >= 2, "{tail:?}: {answers:?}");
        assert!(
            answers[1].starts_with("= ") && answers[1].len() > 2,
            "{answers:?}"
        );
    }
    let mut e = Engine::start();
    e.ok("new flipstop 9");
    e.write("genmove iters=1000000000000");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.write("stop");
    let mv = e.response("genmove");
    assert!(mv[0].starts_with("= "), "{mv:?}");
    assert_eq!(e.response("stop"), ["="]);
    assert!(e.ok("position").contains('R'));
}

/// `analyze ... multipv=N` streams N numbered lines per report; `threads=N` is bounded;
/// `time_left` makes a budgetless genmove think by the clock.
#[test]
fn multipv_threads_and_time_left() {
    let mut e = Engine::start();
    e.ok("new swaptimum 5");
    let lines = e.send("analyze iters=2000 multipv=3 threads=2");
    let (last, infos) = lines.split_last().expect("a response");
    assert!(last.starts_with("= bestmove "), "{lines:?}");
    let final_infos: Vec<&String> = infos.iter().rev().take(3).collect();
    for (k, info) in final_infos.iter().rev().enumerate() {
        assert!(
            info.contains(&format!(" multipv {} move ", k + 1)),
            "{lines:?}"
        );
    }
    assert!(e.error("analyze iters=10 threads=0").contains("threads=0"));
    assert!(e.error("analyze iters=10 threads=1000").contains("1 to 64"));
    assert!(e.error("genmove iters=10 multipv=2").contains("multipv"));
    assert_eq!(e.ok("time_left 3000 100"), "");
    let started = std::time::Instant::now();
    assert!(!e.ok("genmove").is_empty());
    // 3 s left and 0.1 s increment: a share of the time (a fraction of a second).
    assert!(
        started.elapsed().as_millis() < 2_000,
        "{:?}",
        started.elapsed()
    );
    assert!(e.error("time_left").contains("usage"));
    assert!(e.error("time_left -5").contains("-5"));
}

/// Cells are read in any case, and a line that is not UTF-8 is answered as a bad line.
#[test]
fn cells_in_any_case_and_lines_that_are_not_utf8() {
    let (answers, _) = piped(b"new swaptimum 5\nplay C3\n\xff\xfe\nposition\n");
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_eq!(answers[1], "= c3");
    assert_eq!(answers[2], "? the line is not UTF-8 text");
    assert!(answers[3].contains(".R"), "{answers:?}");
}
