//! `swapboard loadtest`: a server under load on loopback, measured.
//!
//! It starts a server in this process (on a fresh SQLite file, or the database named), then
//! plays many games at once through real HTTP, each move acknowledged only once durable,
//! and times every answer; then it watches one game from many WebSockets and times how long
//! a move takes to reach them all. Bounded in time and in count; it prints its figures.
//!
//! A client of the server, apart from it: it reads the server's answers as the server's own
//! wire types ([`GameView`], [`swapboard_server::NewToken`]), and chooses its moves with the play layer.

mod client;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures_util::StreamExt as _;
use serde_json::json;
use swapboard_play::AnyPosition;
use swapboard_server::{GameView, Limits, ServeOptions, Server, TrustedProxy};

use client::{Account, Client, Refusals, Refused, client_address};
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

/// The options of `swapboard loadtest`.
#[derive(Clone, Debug, clap::Args)]
pub struct LoadtestOptions {
    /// The database to load: postgres://... or sqlite:FILE (default: a fresh SQLite file in
    /// a temporary folder, removed afterwards).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// Games played at once, each by its own client task.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Moves per second asked of all the games together, each game moving at its share of
    /// the rate (as players do: a game waits for its player), or 0 for as fast as the
    /// server answers (each game sends its next move when the last is answered).
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub rate: u32,
    /// Seconds of play measured.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=3_600))]
    pub seconds: u32,
    /// WebSockets watching one game while moves are played in it.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u32).range(0..=20_000))]
    pub watchers: u32,
    /// Seconds the watchers' sockets are held idle before the moves, so that the memory and
    /// the CPU of idle sockets can be measured (from outside, with --server).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=3_600))]
    pub idle_seconds: u32,
    /// Load a server already running at this URL (http://HOST:PORT) instead of starting one
    /// in this process: its memory and CPU are then its own process's, measured apart. Its
    /// rate limits apply; started with `--trusted-proxy 127.0.0.1` it believes each
    /// account's own address (below), otherwise every request comes from one address.
    #[arg(long, value_name = "URL", conflicts_with = "database")]
    pub server: Option<String>,
    /// Accounts the games are spread over, game i between accounts 2i and 2i+1 (modulo
    /// N); each speaks from a client address of its own, sent as `X-Forwarded-For`.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub accounts: u32,
    /// Start the server in this process with its real rate limits (`swapboard serve`'s)
    /// instead of limits out of the way; refusals are counted by status.
    #[arg(long, conflicts_with = "server")]
    pub real_limits: bool,
    /// Times the review of a finished game of this many plies (0: none).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1_000))]
    pub review_plies: u32,
}

/// Latencies, summarised.
struct Spread {
    count: usize,
    p50: Duration,
    p99: Duration,
    max: Duration,
}

impl Spread {
    fn of(mut samples: Vec<Duration>) -> Spread {
        samples.sort_unstable();
        let at = |q: f64| {
            let index = ((samples.len() as f64 - 1.0) * q).round() as usize;
            samples.get(index).copied().unwrap_or_default()
        };
        Spread {
            count: samples.len(),
            p50: at(0.5),
            p99: at(0.99),
            max: samples.last().copied().unwrap_or_default(),
        }
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1_000.0;
        write!(
            f,
            "{} samples, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            self.count,
            ms(self.p50),
            ms(self.p99),
            ms(self.max)
        )
    }
}

/// This process's CPU time (user and system) so far (Linux), or zero.
fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            // The fields after the command's closing parenthesis: utime and stime are the
            // 12th and 13th of them.
            let (_, rest) = stat.rsplit_once(')')?;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let user: u64 = fields.get(11)?.parse().ok()?;
            let system: u64 = fields.get(12)?.parse().ok()?;
            Some(user + system)
        })
        .unwrap_or(0);
    // The kernel counts in ticks of 1/100 s on Linux.
    Duration::from_millis(ticks * 10)
}

/// This process's resident memory in KiB (Linux), or 0.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// A move for the player to move in a game, chosen by the client (the first legal one in
/// a shuffled order, so games differ).
fn some_move(position: &str, salt: usize) -> Option<String> {
    let position: AnyPosition = position.parse().ok()?;
    let moves = position.legal_moves(100_000)?;
    (!moves.is_empty()).then(|| moves[salt % moves.len()].clone())
}

/// What one game's client saw.
#[derive(Debug, Default)]
struct Tally {
    /// Each accepted move's latency, from the moment it was due to be sent.
    accepted: Vec<Duration>,
    /// Every refused request: moves, and the reads and games made between them.
    refused: Refusals,
}

/// Where one game's client stands.
enum Stage {
    /// A new game is to be made (the last ended, or making it was refused).
    NoGame,
    /// The game's position is to be read (it is new, or a move was refused).
    Unread(String),
    /// Playing game `id` at `ply` in `position`.
    Playing {
        id: String,
        ply: u64,
        position: String,
    },
}

/// One client task: plays its games until `until`, each move due at its time on the
/// schedule (`every` apart, from `start`; or, with no schedule, as soon as the last is
/// answered). A move's latency runs from the moment it was due, not from when it was sent,
/// so a client that falls behind counts the wait (no coordinated omission); a refused
/// request is counted and the game goes on at the next due time.
async fn play_until(
    client: Client,
    players: [Account; 2],
    start: Instant,
    until: Instant,
    every: Option<Duration>,
    salt: usize,
    id: Option<String>,
) -> Tally {
    let mut tally = Tally::default();
    let mut stage = id.map_or(Stage::NoGame, Stage::Unread);
    let mut due = start;
    loop {
        // The reads and games made between moves take no turn of the schedule: their
        // time shows in the next move's latency if they made it late.
        stage = match stage {
            Stage::NoGame => match client.game(&players).await {
                Ok(id) => Stage::Unread(id),
                Err(refused) => {
                    tally.refused.count(&refused);
                    due = later(due, every);
                    wait_until(due).await;
                    Stage::NoGame
                }
            },
            Stage::Unread(id) => match client.position(&id).await {
                Ok(position) => Stage::Playing {
                    id,
                    ply: 0,
                    position,
                },
                Err(refused) => {
                    tally.refused.count(&refused);
                    due = later(due, every);
                    wait_until(due).await;
                    Stage::Unread(id)
                }
            },
            Stage::Playing { id, ply, position } => {
                let salt = salt.wrapping_add(usize::try_from(ply).unwrap_or(0) * 7);
                let Some(text) = some_move(&position, salt) else {
                    stage = Stage::NoGame;
                    continue;
                };
                // With no schedule a move is due as soon as it can be sent.
                let sent_due = match every {
                    Some(_) => due,
                    None => due.max(Instant::now()),
                };
                if sent_due >= until {
                    break;
                }
                wait_until(sent_due).await;
                let mover = &players[usize::from(ply % 2 == 1)];
                let answer = client.play(&id, mover, ply, &text).await;
                let latency = Instant::now().saturating_duration_since(sent_due);
                due = match every {
                    Some(every) => sent_due + every,
                    None => sent_due,
                };
                match answer {
                    Ok(game) if game.status == "playing" => {
                        tally.accepted.push(latency);
                        Stage::Playing {
                            id,
                            ply: ply + 1,
                            position: game.position,
                        }
                    }
                    Ok(_) => {
                        tally.accepted.push(latency);
                        Stage::NoGame
                    }
                    Err(refused) => {
                        tally.refused.count(&refused);
                        if every.is_none() {
                            due = later(due, every);
                        }
                        if refused.status == 429 {
                            // Too fast: the same move again when it is next due.
                            Stage::Playing { id, ply, position }
                        } else {
                            Stage::Unread(id)
                        }
                    }
                }
            }
        };
        if Instant::now() >= until {
            break;
        }
    }
    tally
}

/// How long a client with no schedule waits after a refusal before it tries again.
const RETRY: Duration = Duration::from_millis(100);

/// When to try again after a refusal: the next due time on the schedule, or with none a
/// little later.
fn later(due: Instant, every: Option<Duration>) -> Instant {
    match every {
        Some(every) => due + every,
        None => Instant::now() + RETRY,
    }
}

/// Sleeps until `due` (at once if it has passed).
async fn wait_until(due: Instant) {
    tokio::time::sleep_until(due.into()).await;
}
/// Runs the load test and prints its figures.
pub fn loadtest(options: LoadtestOptions) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(options))
}

async fn run(options: LoadtestOptions) -> anyhow::Result<()> {
    let scratch: Option<PathBuf> = options
        .database
        .is_none()
        .then(|| std::env::temp_dir().join(format!("swapboard_loadtest_{}", std::process::id())));
    let database = match (&options.database, &scratch) {
        (Some(url), _) => url.clone(),
        (None, Some(dir)) => {
            std::fs::create_dir_all(dir).context("the scratch folder")?;
            format!("sqlite:{}?mode=rwc", dir.join("load.db").display())
        }
        (None, None) => unreachable!("a scratch folder when no database is named"),
    };
    let idle_kib = rss_kib();
    let server = match &options.server {
        Some(_) => None,
        None => Some(
            Server::start(&ServeOptions {
                // The load test's accounts each speak from an address of their own.
                trusted_proxies: vec![
                    "127.0.0.1"
                        .parse::<TrustedProxy>()
                        .map_err(anyhow::Error::msg)?,
                ],
                // The load test mails nothing (the default).
                ..ServeOptions::local(
                    &database,
                    if options.real_limits {
                        Limits::default()
                    } else {
                        Limits::generous(10_000_000)
                    },
                )
            })
            .await?,
        ),
    };
    let started_kib = rss_kib();
    let base = match (&options.server, &server) {
        (Some(url), _) => url.trim_end_matches('/').to_owned(),
        (None, Some(server)) => format!("http://{}", server.addr()),
        (None, None) => unreachable!("a server is started when none is named"),
    };
    let client = Client {
        base,
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(usize::try_from(options.games).unwrap_or(usize::MAX))
            .build()?,
    };
    // Names of this run only, so that a database may be loaded again.
    let mut accounts = Vec::new();
    for n in 0..options.accounts {
        let name = format!("load{}_{n}", std::process::id());
        accounts.push(client.account(&name, n).await?);
    }
    let pair = |game: u32| {
        let at = |k: u32| accounts[usize::try_from(k % options.accounts).unwrap_or(0)].clone();
        [at(2 * game), at(2 * game + 1)]
    };
    println!(
        "swapboard loadtest: {} games at once over {} accounts for {} s, {} on {}{}",
        options.games,
        options.accounts,
        options.seconds,
        match options.rate {
            0 => "each game moving as soon as its last move is answered".to_owned(),
            rate => format!("{rate} moves per second asked"),
        },
        match &options.server {
            Some(url) => format!("the server at {url}"),
            None if database.starts_with("postgres") => "PostgreSQL".to_owned(),
            None => "SQLite".to_owned(),
        },
        match (&options.server, options.real_limits) {
            (Some(_), _) => "",
            (None, true) => ", its real rate limits on",
            (None, false) => ", rate limits out of the way",
        }
    );
    if server.is_some() {
        println!(
            "memory: {idle_kib} KiB before the server, {started_kib} KiB once started (this process)"
        );
    }

    // The games are made one after the other: an account may have only so many challenges
    // waiting at once. A game refused now is tried again during the run.
    let mut setup = Refusals::default();
    let mut ids = Vec::new();
    for game in 0..options.games {
        match client.game(&pair(game)).await {
            Ok(id) => ids.push(Some(id)),
            Err(refused) => {
                setup.count(&refused);
                ids.push(None);
            }
        }
    }
    if setup.total() > 0 {
        println!("setting up: games refused: {setup}");
    }
    let every = (options.rate > 0)
        .then(|| Duration::from_secs_f64(f64::from(options.games) / f64::from(options.rate)));
    let began = Instant::now();
    let until = began + Duration::from_secs(u64::from(options.seconds));
    let tasks: Vec<_> = (0u32..)
        .zip(ids)
        .map(|(game, id)| {
            // Spread the games' first moves over one period, so they do not all come at once.
            let offset = every.map_or(Duration::ZERO, |every| {
                every.mul_f64(f64::from(game) / f64::from(options.games))
            });
            tokio::spawn(play_until(
                client.clone(),
                pair(game),
                began + offset,
                until,
                every,
                usize::try_from(game).unwrap_or(0) * 31,
                id,
            ))
        })
        .collect();
    let mut latencies = Vec::new();
    let mut refused = Refusals::default();
    for task in tasks {
        let tally = task.await?;
        latencies.extend(tally.accepted);
        refused.add(tally.refused);
    }
    let elapsed = began.elapsed().as_secs_f64();
    let loaded_kib = rss_kib();
    println!(
        "moves: {:.0} accepted per second; latency {} ({})",
        latencies.len() as f64 / elapsed,
        Spread::of(latencies),
        match every {
            Some(_) =>
                "from the moment each move was due, so a client fallen behind counts the wait",
            None => "from each move's sending",
        }
    );
    println!("refused: {refused} (moves, and the games and reads between them)");
    println!(
        "memory with {} games played: {} KiB (this process: server and clients)",
        options.games, loaded_kib
    );

    // Two accounts of their own, whose moves no limit has counted yet.
    let name = |n: u32| format!("load{}_{n}", std::process::id());
    let (first, second) = (options.accounts, options.accounts + 1);
    let players = [
        client.account(&name(first), first).await?,
        client.account(&name(second), second).await?,
    ];
    if options.watchers > 0 {
        fan_out(&client, &players, options.watchers, options.idle_seconds).await?;
    }
    if options.review_plies > 0 {
        review_time(&client, &players, options.review_plies).await?;
    }
    if let Some(server) = server {
        server.stop().await?;
    }
    if let Some(dir) = scratch {
        let _ = std::fs::remove_dir_all(dir);
    }
    Ok(())
}

/// Watches one game from `watchers` sockets, plays 20 moves in it, and times each move's
/// arrival at every socket from the moment it was sent.
/// The sockets are first held idle for `idle_seconds`, with the CPU this process spent
/// meanwhile.
async fn fan_out(
    client: &Client,
    players: &[Account; 2],
    watchers: u32,
    idle_seconds: u32,
) -> anyhow::Result<()> {
    let id = client.game(players).await?;
    let url = format!(
        "{}/api/games/{id}/socket",
        client.base.replacen("http", "ws", 1)
    );
    let before_kib = rss_kib();
    let mut sockets = Vec::new();
    let mut refused = Refusals::default();
    for watcher in 0..watchers {
        // Small buffers, as a browser's: the defaults (128 KiB each way) would measure the
        // client's memory rather than the server's.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4 * 1024)
            .write_buffer_size(0);
        // Each watcher from an address of its own, after the accounts'.
        let mut request = url.as_str().into_client_request()?;
        let address = client_address(1_000_000 + watcher);
        request
            .headers_mut()
            .insert("x-forwarded-for", address.parse()?);
        match tokio_tungstenite::connect_async_with_config(request, Some(config), false).await {
            Ok((mut socket, _)) => {
                // The first message is the state.
                socket.next().await.context("the first message")??;
                sockets.push(socket);
            }
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => refused.count(&Refused {
                status: response.status().as_u16(),
                detail: String::new(),
            }),
            Err(e) => refused.count(&Refused {
                status: 0,
                detail: e.to_string(),
            }),
        }
    }
    let after_kib = rss_kib();
    let open = u32::try_from(sockets.len()).unwrap_or(u32::MAX);
    println!(
        "sockets: {open} open watching one game (refused: {refused}); memory {} KiB more ({:.1} KiB each, this process: the clients, and the server unless --server)",
        after_kib.saturating_sub(before_kib),
        after_kib.saturating_sub(before_kib) as f64 / f64::from(open.max(1))
    );
    let receivers: Vec<_> = sockets
        .into_iter()
        .map(|mut socket| {
            tokio::spawn(async move {
                let mut arrivals = Vec::new();
                while arrivals.len() < 20 {
                    match tokio::time::timeout(Duration::from_secs(30), socket.next()).await {
                        Ok(Some(Ok(message))) if message.is_text() => arrivals.push(Instant::now()),
                        Ok(Some(Ok(_))) => {}
                        _ => break,
                    }
                }
                arrivals
            })
        })
        .collect();
    // Held idle with their readers running, as a browser's are: a socket nobody reads
    // answers no ping, and the server rightly drops it.
    if idle_seconds > 0 {
        let cpu_before = cpu_time();
        println!("idle: the sockets are held for {idle_seconds} s from now");
        tokio::time::sleep(Duration::from_secs(u64::from(idle_seconds))).await;
        println!(
            "idle: {:.2} s of CPU in {idle_seconds} s (this process)",
            cpu_time().saturating_sub(cpu_before).as_secs_f64()
        );
    }
    let mut position = client.position(&id).await?;
    let mut sent = Vec::new();
    for ply in 0..20u64 {
        let Some(text) = some_move(&position, ply as usize) else {
            break;
        };
        sent.push(Instant::now());
        let game = client
            .play(&id, &players[usize::from(ply % 2 == 1)], ply, &text)
            .await?;
        position = game.position;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut delays = Vec::new();
    for receiver in receivers {
        for (arrival, sent) in receiver.await?.into_iter().zip(&sent) {
            delays.push(arrival.saturating_duration_since(*sent));
        }
    }
    println!(
        "fan-out: a move reaches the {open} watchers: {}",
        Spread::of(delays)
    );
    Ok(())
}

/// Plays a game of `plies` plies (or to its end, if sooner), resigns it, and times its
/// review from the first request to the answer that it is done.
async fn review_time(client: &Client, players: &[Account; 2], plies: u32) -> anyhow::Result<()> {
    let id = client.game(players).await?;
    let mut position = client.position(&id).await?;
    let mut ply = 0u32;
    let mut status = "playing".to_owned();
    while ply < plies && status == "playing" {
        let Some(text) = some_move(&position, ply as usize * 13) else {
            break;
        };
        let game = client
            .play(&id, &players[usize::from(ply % 2 == 1)], ply, &text)
            .await?;
        position = game.position;
        status = game.status;
        ply += 1;
    }
    if status == "playing" {
        client
            .post::<GameView>(
                &format!("/api/games/{id}/resign"),
                Some(&players[0]),
                &json!({}),
            )
            .await?;
    }
    let began = Instant::now();
    let url = format!("{}/api/games/{id}/review", client.base);
    loop {
        let response = client.http.get(&url).send().await?;
        let code = response.status().as_u16();
        let body = response.text().await?;
        match code {
            200 => break,
            202 => tokio::time::sleep(Duration::from_millis(100)).await,
            _ => anyhow::bail!("review: {code}: {body}"),
        }
        anyhow::ensure!(
            began.elapsed() < Duration::from_secs(600),
            "review: not done in 10 minutes"
        );
    }
    println!(
        "review: a game of {ply} plies ({} positions) reviewed in {:.1} s",
        ply + 1,
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_has_an_address_of_its_own() {
        assert_eq!(client_address(0), "10.0.0.1");
        assert_eq!(client_address(255), "10.0.1.0");
        assert_eq!(client_address(1_000_000), "10.15.66.65");
    }

    #[test]
    fn refusals_are_counted_by_status() {
        let mut refusals = Refusals::default();
        assert_eq!(refusals.to_string(), "none");
        for status in [429, 0, 429, 409] {
            refusals.count(&Refused {
                status,
                detail: String::new(),
            });
        }
        let mut more = Refusals::default();
        more.count(&Refused {
            status: 429,
            detail: String::new(),
        });
        refusals.add(more);
        assert_eq!(refusals.total(), 5);
        assert_eq!(refusals.to_string(), "1 unanswered, 1 x 409, 3 x 429");
    }

    #[test]
    fn a_refused_move_is_tried_again_when_next_due() {
        let due = Instant::now();
        let every = Duration::from_millis(200);
        assert_eq!(later(due, Some(every)), due + every);
        let retry = later(due, None);
        assert!(retry >= due + RETRY);
    }
}
