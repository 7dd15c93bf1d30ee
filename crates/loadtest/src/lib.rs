//! `swapboard loadtest`: a server under load on loopback, measured.
//!
//! It starts a server in this process (on a fresh SQLite file, or the database named), then
//! plays many games at once through real HTTP, each move acknowledged only once durable,
//! and times every answer; then it watches one game from many WebSockets and times how long
//! a move takes to reach them all. Bounded in time and in count; it prints its figures.
//!
//! A client of the server, apart from it: it reads the server's answers as the server's own
//! wire types ([`GameView`], [`NewToken`]), and chooses its moves with the play layer.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures_util::StreamExt as _;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::{Value, json};
use swapboard_play::AnyPosition;
use swapboard_server::{GameView, Limits, NewToken, ServeOptions, Server};

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
    /// rate limits apply: keep the games few.
    #[arg(long, value_name = "URL", conflicts_with = "database")]
    pub server: Option<String>,
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

/// A client of the server under test.
#[derive(Clone)]
struct Client {
    base: String,
    http: reqwest::Client,
    /// The account the games are offered to.
    opponent: String,
}

impl Client {
    /// Posts `body` for the holder of `bearer`; the answer, read as `T`.
    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        bearer: &str,
        body: &Value,
    ) -> anyhow::Result<T> {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .header("authorization", bearer)
            .json(body)
            .send()
            .await?;
        let status = response.status();
        let text = response.text().await?;
        anyhow::ensure!(status.is_success(), "{path}: {status}: {text}");
        serde_json::from_str(&text).with_context(|| format!("{path}: the answer {text}"))
    }

    async fn account(&self, name: &str) -> anyhow::Result<String> {
        let credentials = json!({"name": name, "password": "load-test-password"});
        self.post::<IgnoredAny>("/api/accounts", "", &credentials)
            .await?;
        let token: NewToken = self.post("/api/tokens", "", &credentials).await?;
        Ok(format!("Bearer {}", token.token))
    }

    /// Plays a move for the player of `bearer`; the game after it.
    async fn play(
        &self,
        id: &str,
        bearer: &str,
        ply: impl Into<u64>,
        text: &str,
    ) -> anyhow::Result<GameView> {
        let body = json!({"move": text, "ply": ply.into()});
        self.post(&format!("/api/games/{id}/moves"), bearer, &body)
            .await
    }

    /// The position of a game now.
    async fn position(&self, id: &str) -> anyhow::Result<String> {
        let game: GameView = self
            .http
            .get(format!("{}/api/games/{id}", self.base))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        Ok(game.position)
    }

    /// A new game between the two accounts, started; its id.
    async fn game(&self, players: &[String; 2]) -> anyhow::Result<String> {
        let body = json!({"game": "swaptimum", "size": 13,
                          "opponent": format!("user:{}", self.opponent), "colour": "first"});
        let game: GameView = self.post("/api/games", &players[0], &body).await?;
        self.post::<GameView>(
            &format!("/api/games/{}/join", game.id),
            &players[1],
            &json!({}),
        )
        .await?;
        Ok(game.id)
    }
}

/// A move for the player to move in a game, chosen by the client (the first legal one in
/// a shuffled order, so games differ).
fn some_move(position: &str, salt: usize) -> Option<String> {
    let position: AnyPosition = position.parse().ok()?;
    let moves = position.legal_moves(100_000)?;
    (!moves.is_empty()).then(|| moves[salt % moves.len()].clone())
}

/// One client task: plays its games move after move until `until`; the latency of each
/// move.
async fn play_until(
    client: Client,
    players: Arc<[String; 2]>,
    until: Instant,
    salt: usize,
    every: Option<Duration>,
    mut id: String,
) -> anyhow::Result<Vec<Duration>> {
    let mut latencies = Vec::new();
    let mut pace = every.map(|every| {
        // Spread the games' first moves over one period, so they do not all come at once.
        let offset = every.mul_f64((salt % 997) as f64 / 997.0);
        let mut pace = tokio::time::interval_at(tokio::time::Instant::now() + offset, every);
        pace.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        pace
    });
    let mut position = String::new();
    let mut ply = 0u64;
    let mut first = true;
    while Instant::now() < until {
        if first {
            position = client.position(&id).await?;
            first = false;
        }
        let Some(text) = some_move(&position, salt.wrapping_add(ply as usize * 7)) else {
            id = client.game(&players).await?;
            (ply, first) = (0, true);
            continue;
        };
        if let Some(pace) = &mut pace {
            pace.tick().await;
        }
        let mover = &players[usize::from(ply % 2 == 1)];
        let sent = Instant::now();
        let game = client.play(&id, mover, ply, &text).await?;
        latencies.push(sent.elapsed());
        ply += 1;
        position = game.position;
        if game.status != "playing" {
            id = client.game(&players).await?;
            (ply, first) = (0, true);
        }
    }
    Ok(latencies)
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
                addr: "127.0.0.1:0".parse()?,
                database: Some(database.clone()),
                behind_tls: false,
                trusted_proxies: Vec::new(),
                sqlite_max_mib: None,
                log: tracing::Level::INFO,
                ai_searches: Some(1),
                limits: Limits::generous(10_000_000),
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
        opponent: String::new(),
    };
    // Names of this run only, so that a database may be loaded again.
    let second = format!("load{}_1", std::process::id());
    let players = Arc::new([
        client
            .account(&format!("load{}_0", std::process::id()))
            .await?,
        client.account(&second).await?,
    ]);
    let client = Client {
        opponent: second,
        ..client
    };
    println!(
        "swapboard loadtest: {} games at once for {} s, {} on {}",
        options.games,
        options.seconds,
        match options.rate {
            0 => "each game moving as soon as its last move is answered".to_owned(),
            rate => format!("{rate} moves per second asked"),
        },
        match &options.server {
            Some(url) => format!("the server at {url}"),
            None if database.starts_with("postgres") => "PostgreSQL".to_owned(),
            None => "SQLite".to_owned(),
        }
    );
    if server.is_some() {
        println!(
            "memory: {idle_kib} KiB before the server, {started_kib} KiB once started (this process)"
        );
    }

    // The games are made one after the other: an account may have only so many challenges
    // waiting at once.
    let mut ids = Vec::new();
    for _ in 0..options.games {
        ids.push(client.game(&players).await?);
    }
    let every = (options.rate > 0)
        .then(|| Duration::from_secs_f64(f64::from(options.games) / f64::from(options.rate)));
    let began = Instant::now();
    let until = began + Duration::from_secs(u64::from(options.seconds));
    let tasks: Vec<_> = ids
        .into_iter()
        .enumerate()
        .map(|(i, id)| {
            tokio::spawn(play_until(
                client.clone(),
                Arc::clone(&players),
                until,
                i * 31,
                every,
                id,
            ))
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await??);
    }
    let elapsed = began.elapsed().as_secs_f64();
    let loaded_kib = rss_kib();
    println!(
        "moves: {:.0} accepted per second; latency {}",
        latencies.len() as f64 / elapsed,
        Spread::of(latencies)
    );
    println!(
        "memory with {} games played: {} KiB (this process: server and clients)",
        options.games, loaded_kib
    );

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
    players: &[String; 2],
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
    for _ in 0..watchers {
        // Small buffers, as a browser's: the defaults (128 KiB each way) would measure the
        // client's memory rather than the server's.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4 * 1024)
            .write_buffer_size(0);
        let (mut socket, _) =
            tokio_tungstenite::connect_async_with_config(&url, Some(config), false).await?;
        // The first message is the state.
        socket.next().await.context("the first message")??;
        sockets.push(socket);
    }
    let after_kib = rss_kib();
    println!(
        "sockets: {watchers} open watching one game; memory {} KiB more ({:.1} KiB each, this process: the clients, and the server unless --server)",
        after_kib.saturating_sub(before_kib),
        after_kib.saturating_sub(before_kib) as f64 / f64::from(watchers)
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
        "fan-out: a move reaches the {watchers} watchers: {}",
        Spread::of(delays)
    );
    Ok(())
}

/// Plays a game of `plies` plies (or to its end, if sooner), resigns it, and times its
/// review from the first request to the answer that it is done.
async fn review_time(client: &Client, players: &[String; 2], plies: u32) -> anyhow::Result<()> {
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
            .post::<GameView>(&format!("/api/games/{id}/resign"), &players[0], &json!({}))
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
