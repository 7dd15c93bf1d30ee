//! `swapboard bot`: an account of a `swapboard serve` played by swapboard's AI or by any
//! program that speaks the engine protocol (what lichess-bot is for lichess).
//!
//! The bot polls the server: it joins the challenges addressed to it (and, if asked, open
//! ones), and answers in every game where it is to move. Polling keeps it a plain blocking
//! program that survives a server restart without reconnect logic; a second of delay is
//! nothing in a correspondence game and little in a live one.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::json;
use swapboard_arena::{Bot, PlayerSpec};
use swapboard_core::MoveError;
use swapboard_play::{
    AiRequest, AnyPosition, GameId, Level, Millis, Playable, PositionFn, ThinkBudget,
};
use swapboard_server::api::{
    Account, ChallengeList, ErrorBody, GameView, Lobby, PlayerView, TurnList,
};
use swapboard_solver::Course;

use crate::error::{CliError, CliResult};
use crate::output::Output;

/// The arguments of `swapboard bot`.
#[derive(clap::Args)]
pub(crate) struct BotArgs {
    /// The server, as `http://HOST:PORT` (plain HTTP: put a TLS server behind a local proxy).
    #[arg(long, value_name = "URL")]
    server: String,
    /// The bot account's bearer token (`POST /api/tokens`).
    #[arg(long, value_name = "TOKEN")]
    token: String,
    /// The AI's strength, 1 to 9 (9: on every core), when no engine is given.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=9))]
    level: u8,
    /// A program speaking docs/ENGINE-PROTOCOL.md (run by `sh -c`) that chooses the moves.
    #[arg(long, value_name = "COMMAND", conflicts_with = "player")]
    engine: Option<String>,
    /// A player spec of `arena` instead of a level (`classic:level=8`, `mcts:ms=500`, ...),
    /// thinking no longer than a share of the clock either.
    #[arg(long, value_name = "SPEC", conflicts_with = "level")]
    player: Option<String>,
    /// Also accept open challenges from the lobby (by default only those sent to the bot).
    #[arg(long)]
    open: bool,
    /// Ask for rated games when joining: a person's challenge that asked for a rated game
    /// counts for the ratings only if the bot asks too (by default its games with people
    /// are casual; with bots they are rated as asked).
    #[arg(long)]
    rated: bool,
    /// Stop after playing this many moves (default: run until stopped).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    moves: Option<u64>,
    /// Milliseconds between two looks at the server.
    #[arg(long, value_name = "MS", default_value_t = 1_000,
          value_parser = clap::value_parser!(u64).range(100..=60_000))]
    poll_ms: u64,
}

/// The server as the bot sees it.
struct Server {
    base: String,
    bearer: String,
    agent: ureq::Agent,
}

/// Why a request failed.
enum Failure {
    /// The server cannot be reached or answered something unreadable: try again later.
    Unreachable(String),
    /// The server refused, with its status and message.
    Refused(u16, String),
}

impl Server {
    fn new(base: &str, token: &str) -> Result<Server, CliError> {
        let base = base.trim_end_matches('/');
        if !base.starts_with("http://") {
            return Err(CliError::bad(format!(
                "--server {}: expected http://HOST:PORT",
                crate::files::quote(base)
            )));
        }
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build();
        Ok(Server {
            base: base.to_owned(),
            bearer: format!("Bearer {token}"),
            agent: config.into(),
        })
    }

    /// The answer read as the server's wire type `T`, or why not.
    fn answer<T: DeserializeOwned>(
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<T, Failure> {
        let mut response = response.map_err(|e| Failure::Unreachable(e.to_string()))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| Failure::Unreachable(e.to_string()))?;
        if status >= 400 {
            let message =
                serde_json::from_str::<ErrorBody>(&text).map_or(text, |body| body.error.message);
            return Err(Failure::Refused(status, message));
        }
        // A 204's empty body reads as `null`, which `()` takes.
        let json = if text.is_empty() { "null" } else { &text };
        serde_json::from_str(json)
            .map_err(|e| Failure::Unreachable(format!("an answer it cannot read: {e}")))
    }

    fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, Failure> {
        let url = format!("{}{path}", self.base);
        Self::answer(
            self.agent
                .get(&url)
                .header("authorization", &self.bearer)
                .call(),
        )
    }

    fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<T, Failure> {
        let url = format!("{}{path}", self.base);
        Self::answer(
            self.agent
                .post(&url)
                .header("authorization", &self.bearer)
                .header("content-type", "application/json")
                .send(body.to_string()),
        )
    }
}

/// An engine program, asked one question at a time.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(command: &str) -> Result<Engine, CliError> {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| CliError::bad(format!("--engine: cannot start it: {e}")))?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Ok(Engine {
            child,
            input,
            output,
        })
    }

    /// Sends a command and reads its response: the text after `=`, or the refusal after `?`.
    fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        writeln!(self.input, "{command}")?;
        self.input.flush()?;
        let mut response = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                anyhow::bail!("the engine ended its output while answering {command:?}");
            }
            let line = line.trim_end();
            if line.is_empty() && !response.is_empty() {
                break;
            }
            // `info` lines stream before an answer; they are not part of it.
            if !line.is_empty() && (!response.is_empty() || !line.starts_with("info")) {
                response.push_str(line);
                response.push('\n');
            }
        }
        let (head, rest) = response.split_at(1);
        let text = rest
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_owned();
        match head {
            "=" => Ok(text),
            "?" => anyhow::bail!("the engine refused {command:?}: {text}"),
            _ => {
                anyhow::bail!("the engine answered {command:?} outside the protocol: {response:?}")
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// What chooses the bot's moves.
enum Chooser {
    Ai(Level),
    Player(PlayerSpec),
    Engine(Engine),
}

/// One move of a player spec, thought afresh in a position of any game, no longer than
/// `limit`.
struct SpecMove<'a> {
    spec: PlayerSpec,
    limit: Option<Duration>,
    seed: u64,
    /// The game's moves, from its start.
    moves: &'a [String],
}

impl PositionFn for SpecMove<'_> {
    type Output = Result<Option<String>, MoveError>;

    fn call<G: Playable>(self, start: &G) -> Result<Option<String>, MoveError> {
        let course = Course::replay_texts(start, self.moves)?;
        let position = course.position().clone();
        let mut bot = Bot::new(self.spec, &position, self.seed);
        bot.follow(course);
        Ok(bot
            .choose_within(&position, self.limit)
            .map(|mv| mv.to_string()))
    }
}

impl Chooser {
    /// The move for the player to move in `game` (a `<game>` of the API), who is the bot.
    fn choose(&mut self, game: &GameView, seat: usize) -> anyhow::Result<String> {
        let text = game.position.as_str();
        let left = game
            .clocks
            .as_ref()
            .and_then(|clocks| clocks.remaining_ms.get(seat).copied());
        // The play layer's budget of the time left (the increment is not known here).
        let (limit, extra) = left.map_or((None, Duration::ZERO), |ms| {
            let (limit, extra) = ThinkBudget::live(Millis(ms), Millis(0)).limits();
            (Some(limit), extra)
        });
        let seed = u64::from(game.ply);
        // The AI is told the game and not only its position, to know where its board's
        // book leads.
        let start = || -> anyhow::Result<AnyPosition> {
            let kind: GameId = game.game.parse()?;
            let size = usize::try_from(game.size)?;
            Ok(AnyPosition::start(kind, size)?)
        };
        let moves = game.moves.as_slice();
        let replayed = |e: MoveError| anyhow::anyhow!("the server's moves: {e}");
        let over = || anyhow::anyhow!("the game is over");
        match self {
            Chooser::Ai(level) => {
                let request = AiRequest {
                    level: *level,
                    limit,
                    extra,
                    seed,
                    max_nodes: 1_000_000,
                };
                start()?
                    .ai_move(moves, request)
                    .map_err(replayed)?
                    .ok_or_else(over)
            }
            Chooser::Player(spec) => start()?
                .visit(SpecMove {
                    spec: *spec,
                    limit,
                    seed,
                    moves,
                })
                .map_err(replayed)?
                .ok_or_else(over),
            Chooser::Engine(engine) => {
                engine.ask(&format!("position {text}"))?;
                if let Some(ms) = left {
                    engine.ask(&format!("time_left {}", ms.max(1)))?;
                }
                engine.ask("genmove")
            }
        }
    }
}

/// Runs the bot until stopped (or until it has played `--moves` moves).
pub(crate) fn bot(args: &BotArgs, out: &mut Output) -> CliResult {
    // Checked before the server is asked anything: a typo is told at once.
    let player: Option<PlayerSpec> = args
        .player
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e| CliError::bad(format!("--player: {e}")))?;
    let server = Server::new(&args.server, &args.token)?;
    let me = match server.get::<Option<Account>>("/api/me") {
        Ok(Some(me)) => me.name,
        Ok(None) => {
            return Err(CliError::bad(
                "--token: the server does not know it".to_owned(),
            ));
        }
        Err(Failure::Refused(status, message)) => {
            return Err(CliError::bad(format!(
                "--token: the server refused it ({status}: {message})"
            )));
        }
        Err(Failure::Unreachable(e)) => {
            return Err(CliError::bad(format!("--server: cannot reach it: {e}")));
        }
    };
    let mut chooser = match (&args.engine, player) {
        (Some(command), _) => Chooser::Engine(Engine::start(command)?),
        (None, Some(spec)) => Chooser::Player(spec),
        (None, None) => Chooser::Ai(Level::new(args.level).expect("clap checked the range")),
    };
    out.line(format!("bot {me} at {}", server.base))?;
    // The account says it is a program's, so the site marks it a bot wherever it is named.
    match server.post::<()>("/api/me/bot", &json!({})) {
        Ok(()) => {}
        Err(Failure::Refused(status, message)) => {
            out.line(format!(
                "not marked a bot on the server ({status}: {message})"
            ))?;
        }
        Err(Failure::Unreachable(e)) => {
            out.line(format!("not marked a bot on the server: {e}"))?;
        }
    }
    out.flush()?;
    let mut played = 0;
    loop {
        if let Err(e) = join_challenges(&server, &me, args.open, args.rated, out) {
            report(e, out)?;
        }
        match server.get::<TurnList>("/api/me/turn") {
            Ok(turn) => {
                for game in &turn.games {
                    if play_one(&server, &me, game, &mut chooser, out)? {
                        played += 1;
                        if args.moves.is_some_and(|n| played >= n) {
                            return Ok(());
                        }
                    }
                }
            }
            Err(e) => report(e, out)?,
        }
        std::thread::sleep(Duration::from_millis(args.poll_ms));
    }
}

/// Says why a look at the server failed; the bot goes on (the server may be restarting).
fn report(failure: Failure, out: &mut Output) -> CliResult {
    let text = match failure {
        Failure::Unreachable(e) => format!("the server cannot be reached: {e}; trying again"),
        Failure::Refused(status, message) => format!("the server refused ({status}): {message}"),
    };
    eprintln!("swapboard bot: {text}");
    out.flush()
}

/// Joins the waiting games whose open seat is kept for the bot (or open to anyone, with
/// `--open`), asking for a rated game with `--rated`.
fn join_challenges(
    server: &Server,
    me: &str,
    open: bool,
    rated: bool,
    out: &mut Output,
) -> Result<(), Failure> {
    // A challenge kept for the bot is its own to see; the lobby lists the open ones.
    let mut waiting = server.get::<ChallengeList>("/api/me/challenges")?.incoming;
    if open {
        waiting.extend(server.get::<Lobby>("/api/lobby")?.open);
    }
    for game in &waiting {
        let seated_already = game.players.iter().any(|p| p.seated && is_me(p, me));
        let for_me = game
            .players
            .iter()
            .any(|p| !p.seated && (is_me(p, me) || (open && p.name.is_none())));
        if for_me && !seated_already {
            let id = &game.id;
            let body = if rated {
                json!({"rated": true})
            } else {
                json!({})
            };
            match server.post::<IgnoredAny>(&format!("/api/games/{id}/join"), &body) {
                Ok(_) => {
                    let _ = out.line(format!("joined {id}"));
                    let _ = out.flush();
                }
                // Someone else took the seat first: not an error.
                Err(Failure::Refused(409 | 403, _)) => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(())
}

/// Whether a seat is the bot's (names are unique in any case).
fn is_me(player: &PlayerView, me: &str) -> bool {
    player
        .name
        .as_deref()
        .is_some_and(|name| name.eq_ignore_ascii_case(me))
}

/// Plays the bot's move in one game where it is to move; whether a move was played.
fn play_one(
    server: &Server,
    me: &str,
    game: &GameView,
    chooser: &mut Chooser,
    out: &mut Output,
) -> Result<bool, CliError> {
    let id = &game.id;
    let ply = game.ply;
    let seat = game.players.iter().position(|p| is_me(p, me)).unwrap_or(0);
    let text = chooser.choose(game, seat).map_err(CliError::Failure)?;
    match server.post::<IgnoredAny>(
        &format!("/api/games/{id}/moves"),
        &json!({"move": text, "ply": ply}),
    ) {
        Ok(_) => {
            out.line(format!("played {id} ply {} {text}", ply + 1))?;
            out.flush()?;
            Ok(true)
        }
        Err(failure) => {
            report(failure, out)?;
            Ok(false)
        }
    }
}
