//! `swapboard serve` as a process: the default SQLite file in the working directory, accounts
//! that survive a `kill -9` right after their answers, SIGTERM stopping it cleanly, and logs
//! free of account data.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `swapboard serve` and the lines of its log as they come.
struct Serving {
    child: Child,
    addr: SocketAddr,
    log: mpsc::Receiver<String>,
}

impl Drop for Serving {
    // A failing test must not leave a server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `swapboard serve --addr 127.0.0.1:0` in `dir` (no database named, no
/// `DATABASE_URL`) and waits for the address it listens on.
fn serve_in(dir: &Path) -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swapboard"))
        // Every request logged (at debug), so that the tests see each one, and that no
        // secret is logged at any level.
        .args(["serve", "--addr", "127.0.0.1:0", "--log", "debug"])
        .current_dir(dir)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the swapboard binary runs");
    let log = read_lines(child.stderr.take().unwrap());
    let addr = loop {
        let line = log
            .recv_timeout(Duration::from_secs(60))
            .expect("swapboard serve says where it listens within a minute");
        if let Some((_, addr)) = line.split_once("listening on http://") {
            break addr.trim().parse().expect("an address");
        }
    };
    Serving { child, addr, log }
}

fn read_lines(stderr: ChildStderr) -> mpsc::Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// Sends one request (`line` is the method and the path; `headers` ends each header with
/// CRLF) over a plain socket; returns the status and the body.
fn request(addr: SocketAddr, line: &str, headers: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "{line} HTTP/1.1\r\nHost: {addr}\r\n{headers}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    (status, body)
}

/// POSTs a JSON body.
fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, String) {
    request(addr, &format!("POST {path}"), "", body)
}

/// The name of the account a bearer token acts for, from `GET /api/me`.
fn me(addr: SocketAddr, token: &str) -> (u16, String) {
    request(
        addr,
        "GET /api/me",
        &format!("Authorization: Bearer {token}\r\n"),
        "",
    )
}

/// The token of a `POST /api/tokens` answer.
fn token_of(body: &str) -> String {
    let value = body
        .split("\"token\":\"")
        .nth(1)
        .expect("a token in the answer");
    value.split('"').next().unwrap().to_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swapboard_serve_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn credentials(i: usize) -> String {
    format!(r#"{{"name": "player{i}", "password": "secret-pass-{i}"}}"#)
}

#[test]
fn accounts_survive_kill_9_right_after_their_answers() {
    let dir = temp_dir("kill9");
    let mut server = serve_in(&dir);
    assert!(
        dir.join("swapboard.db").exists(),
        "the default database is created"
    );
    // Five accounts (the default sign-up limit of one address) and a token for each.
    let mut tokens = Vec::new();
    for i in 0..5 {
        let (status, body) = post(server.addr, "/api/accounts", &credentials(i));
        assert_eq!(status, 201, "{body}");
        let (status, body) = post(server.addr, "/api/tokens", &credentials(i));
        assert_eq!(status, 201, "{body}");
        tokens.push(token_of(&body));
    }
    // SIGKILL at once: nothing gets the chance to flush after the last answer.
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let mut server = serve_in(&dir);
    for (i, token) in tokens.iter().enumerate() {
        let (status, body) = me(server.addr, token);
        assert_eq!(status, 200, "player{i}'s token was lost: {body}");
        assert!(body.contains(&format!("player{i}")), "{body}");
    }
    let (status, body) = post(server.addr, "/api/tokens", &credentials(4));
    assert_eq!(status, 201, "{body}");
    let (status, _) = post(server.addr, "/api/accounts", &credentials(3));
    assert_eq!(status, 409, "player3 exists once");

    // SIGHUP (a closed terminal, a "reload"): logged and ignored, the server answers on.
    let hup = Command::new("kill")
        .args(["-HUP", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(hup.success());
    let mut seen = Vec::new();
    while !seen
        .last()
        .is_some_and(|line: &String| line.contains("SIGHUP ignored"))
    {
        let line = server.log.recv_timeout(Duration::from_secs(10));
        seen.push(line.expect("the server logs the SIGHUP it ignores"));
    }
    let (status, after_hup) = me(server.addr, &tokens[0]);
    assert_eq!(status, 200, "after a SIGHUP: {after_hup}");

    // SIGTERM: the server stops by itself, with success.
    let term = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let exit = server.child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");

    seen.extend(server.log.try_iter());
    let log = seen.join("\n");
    // The access log: a line per request at info, by the route's template.
    assert!(
        log.lines().any(|line| line.contains("INFO")
            && line.contains("method=POST")
            && line.contains("route=\"/api/tokens\"")
            && line.contains("status=201")),
        "requests are logged at info: {log}"
    );
    // The database's statements only at trace, even at debug.
    assert!(!log.contains("SELECT"), "statements at debug: {log}");
    assert!(log.contains("shutting down"), "{log}");
    for secret in ["player3", "secret-pass-3", &tokens[3], &token_of(&body)] {
        assert!(!log.contains(secret), "{secret:?} is in the log:\n{log}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// The value of a top-level JSON string field of an answer (`"id":"..."`).
fn field<'a>(body: &'a str, name: &str) -> &'a str {
    let start = body
        .find(&format!("\"{name}\":\""))
        .unwrap_or_else(|| panic!("no {name} in {body}"))
        + name.len()
        + 4;
    let end = body[start..].find('"').unwrap() + start;
    &body[start..end]
}

/// Signs up `n` accounts and returns an `Authorization` header line of a token of each.
fn bearers(addr: SocketAddr, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            post(addr, "/api/accounts", &credentials(i));
            let (_, body) = post(addr, "/api/tokens", &credentials(i));
            format!("Authorization: Bearer {}\r\n", token_of(&body))
        })
        .collect()
}

#[test]
fn moves_survive_kill_9_right_after_their_answers_and_the_ai_plays_on() {
    let dir = temp_dir("kill9_moves");
    let mut server = serve_in(&dir);
    let bearers = bearers(server.addr, 2);
    let (status, body) = request(
        server.addr,
        "POST /api/games",
        &bearers[0],
        r#"{"game": "flipstop", "size": 5, "opponent": "open", "colour": "first"}"#,
    );
    assert_eq!(status, 201, "{body}");
    let people = field(&body, "id").to_owned();
    let (status, body) = request(
        server.addr,
        &format!("POST /api/games/{people}/join"),
        &bearers[1],
        "{}",
    );
    assert_eq!(status, 200, "{body}");
    // An AI game in which the AI is to move at the moment of the kill, or has just moved.
    let (status, body) = request(
        server.addr,
        "POST /api/games",
        &bearers[0],
        r#"{"game": "swaptimum", "size": 5, "opponent": "ai:1", "colour": "first"}"#,
    );
    assert_eq!(status, 201, "{body}");
    let against_ai = field(&body, "id").to_owned();
    let (status, body) = request(
        server.addr,
        &format!("POST /api/games/{against_ai}/moves"),
        &bearers[0],
        r#"{"move": "c3", "ply": 0}"#,
    );
    assert_eq!(status, 200, "{body}");
    let moves = ["c3", "b2", "d4", "a1", "e5", "b4"];
    for (ply, text) in moves.iter().enumerate() {
        let (status, body) = request(
            server.addr,
            &format!("POST /api/games/{people}/moves"),
            &bearers[ply % 2],
            &format!(r#"{{"move": "{text}", "ply": {ply}}}"#),
        );
        assert_eq!(status, 200, "move {text}: {body}");
    }
    // SIGKILL right after the last answer.
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let server = serve_in(&dir);
    let (status, body) = request(server.addr, &format!("GET /api/games/{people}"), "", "");
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains("\"ply\":6"),
        "an acknowledged move was lost: {body}"
    );
    assert!(
        body.contains(r#""moves":["c3","b2","d4","a1","e5","b4"]"#),
        "{body}"
    );
    // The restarted server plays the AI's turn if the kill came before it.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (_, body) = request(server.addr, &format!("GET /api/games/{against_ai}"), "", "");
        if body.contains("\"ply\":2") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the AI never answered after the restart: {body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Runs `swapboard bot` with these arguments until it exits; its output.
fn run_bot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .arg("bot")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the swapboard binary runs")
}

#[test]
fn a_bot_joins_its_challenges_and_answers_with_the_ai_or_an_engine() {
    let dir = temp_dir("bot");
    let server = serve_in(&dir);
    let mut tokens = Vec::new();
    for i in 0..2 {
        post(server.addr, "/api/accounts", &credentials(i));
        let (_, body) = post(server.addr, "/api/tokens", &credentials(i));
        tokens.push(token_of(&body));
    }
    let ann = format!("Authorization: Bearer {}\r\n", tokens[0]);
    let url = format!("http://{}", server.addr);
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_swapboard"));
    // The AI at a level, an engine, and any player spec (the frozen reference here); the last
    // time both sides ask for a rated game (a person and a bot: rated only then).
    for (chooser, rated) in [
        (vec!["--level".to_owned(), "1".to_owned()], false),
        (vec!["--engine".to_owned(), engine], false),
        (
            vec![
                "--player".to_owned(),
                "classic:iters=50".to_owned(),
                "--rated".to_owned(),
            ],
            true,
        ),
    ] {
        // player0 challenges the bot (player1) and moves first.
        let challenge = format!(
            r#"{{"game": "flipstop", "size": 5, "opponent": "user:player1", "colour": "first", "rated": {rated}}}"#
        );
        let (status, body) = request(server.addr, "POST /api/games", &ann, &challenge);
        assert_eq!(status, 201, "{body}");
        let id = field(&body, "id").to_owned();
        let bot = {
            let url = url.clone();
            let token = tokens[1].clone();
            let chooser = chooser.clone();
            std::thread::spawn(move || {
                let mut args = vec!["--server", &url, "--token", &token];
                args.extend(["--moves", "1", "--poll-ms", "100"]);
                args.extend(chooser.iter().map(String::as_str));
                run_bot(&args)
            })
        };
        // The bot joins; then it is player0's move, then the bot's.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let (_, body) = request(server.addr, &format!("GET /api/games/{id}"), "", "");
            if body.contains("\"status\":\"playing\"") {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the bot never joined: {body}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let (status, body) = request(
            server.addr,
            &format!("POST /api/games/{id}/moves"),
            &ann,
            r#"{"move": "c3", "ply": 0}"#,
        );
        assert_eq!(status, 200, "{body}");
        let output = bot.join().unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{said} {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(said.contains(&format!("joined {id}")), "{said}");
        assert!(said.contains(&format!("played {id} ply 2 ")), "{said}");
        let (_, body) = request(server.addr, &format!("GET /api/games/{id}"), "", "");
        assert!(body.contains("\"ply\":2"), "{body}");
        assert!(!said.contains("not marked a bot"), "{said}");
        assert!(body.contains(&format!("\"rated\":{rated}")), "{body}");
    }
    // The bot marked its account as a program's; the person's account is not.
    let (_, body) = request(server.addr, "GET /api/accounts/player1", "", "");
    assert!(body.contains("\"bot\":true"), "{body}");
    let (_, body) = request(server.addr, "GET /api/accounts/player0", "", "");
    assert!(body.contains("\"bot\":false"), "{body}");

    // A bad token and an unreachable server are refused with exit 2, naming the option.
    let refused = run_bot(&["--server", &url, "--token", "nope"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--token"));
    let nowhere = run_bot(&["--server", "https://example.invalid", "--token", "x"]);
    assert_eq!(nowhere.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nowhere.stderr).contains("--server"));
    let typo = run_bot(&[
        "--server",
        &url,
        "--token",
        "x",
        "--player",
        "classic:level=9",
    ]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stderr).contains("--player"));
    drop(server);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Runs `swapboard loadtest` with these arguments; what it printed, once it succeeded.
fn load_test(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .arg("loadtest")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the swapboard binary runs");
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&output.stderr)
    );
    said
}

#[test]
fn the_load_test_runs_and_reports_its_figures() {
    let said = load_test(&[
        "--games",
        "2",
        "--seconds",
        "1",
        "--rate",
        "20",
        "--watchers",
        "3",
    ]);
    assert!(said.contains("accepted per second"), "{said}");
    assert!(
        said.contains("reaches the 3 watchers: 60 samples"),
        "{said}"
    );
}

#[test]
fn the_load_test_keeps_going_past_refusals_and_counts_them_by_status() {
    // Two accounts under the server's real limits (120 moves a minute each, in a burst)
    // asked for 400 moves in 2 s: the moves past the bursts are refused with 429, counted,
    // and the run goes on to its end.
    let said = load_test(&[
        "--games",
        "4",
        "--seconds",
        "2",
        "--rate",
        "200",
        "--watchers",
        "0",
        "--accounts",
        "2",
        "--real-limits",
    ]);
    assert!(said.contains("its real rate limits on"), "{said}");
    let refused = said
        .lines()
        .find_map(|line| line.strip_prefix("refused: "))
        .unwrap_or_else(|| panic!("no refusals line in {said}"));
    // Statuses are listed by how often they came (a loaded machine may add others, such as
    // requests left unanswered): the 429s are found by name.
    let count: u32 = refused
        .split(" (")
        .next()
        .unwrap_or_default()
        .split(", ")
        .find_map(|part| part.strip_suffix(" x 429"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no 429 counted: {said}"));
    assert!(count > 0, "{said}");
    assert!(said.contains("from the moment each move was due"), "{said}");
}

/// The number after `"name":` in an answer (`"round":2`).
fn number_field(body: &str, name: &str) -> i64 {
    let start = body
        .find(&format!("\"{name}\":"))
        .unwrap_or_else(|| panic!("no {name} in {body}"))
        + name.len()
        + 3;
    let digits: String = body[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

#[test]
fn a_swap61_round_whose_deadline_passes_around_a_kill_9_resolves_once() {
    let dir = temp_dir("kill9_rooms");
    let mut server = serve_in(&dir);
    let bearers = bearers(server.addr, 2);
    // Rounds of 2 s; one player and eight bots.
    let (status, body) = request(
        server.addr,
        "POST /api/rooms",
        &bearers[0],
        r#"{"seats": 9, "round_hours": 0.00055556}"#,
    );
    assert_eq!(status, 201, "{body}");
    let id = field(&body, "id").to_owned();
    let invite = field(&body, "invite").to_owned();
    let join = format!(r#"{{"invite": "{invite}"}}"#);
    let (status, body) = request(
        server.addr,
        &format!("POST /api/rooms/{id}/join"),
        &bearers[1],
        &join,
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = request(
        server.addr,
        &format!("POST /api/rooms/{id}/start"),
        &bearers[0],
        r#"{"fill_with_bots": true}"#,
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = request(
        server.addr,
        &format!("PUT /api/rooms/{id}/submission?round=0"),
        &bearers[1],
        "# kept across the kill\n",
    );
    assert_eq!(status, 200, "{body}");
    // Killed just before the deadline; back once it has passed.
    std::thread::sleep(Duration::from_millis(1500));
    let log: Vec<String> = server.log.try_iter().collect();
    assert!(
        !log.join("\n").contains("kept across"),
        "a submission is in the log"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let mut server = serve_in(&dir);
    let room = |addr| request(addr, &format!("GET /api/rooms/{id}"), "", "").1;
    let restarted = std::time::Instant::now();
    while number_field(&room(server.addr), "round") == 0 {
        assert!(
            restarted.elapsed() < Duration::from_secs(5),
            "{}",
            room(server.addr)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Killed again at once, whatever it was doing (the next round may be resolving); the
    // rounds go on after the restart, each resolved once.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let server = serve_in(&dir);
    let (status, file) = request(
        server.addr,
        &format!("GET /api/rooms/{id}/file"),
        &bearers[0],
        "",
    );
    assert_eq!(status, 200, "{file}");
    assert!(file.contains("# kept across the kill"), "{file}");
    let (status, audit) = request(
        server.addr,
        &format!("GET /api/rooms/{id}/audit"),
        &bearers[0],
        "",
    );
    assert_eq!(status, 200, "{audit}");
    for round in 0..=5 {
        let times = audit
            .matches(&format!("\"detail\":\"round {round} with"))
            .count();
        assert!(times <= 1, "round {round} resolved {times} times: {audit}");
    }
    assert_eq!(
        audit.matches("\"detail\":\"round 0 with").count(),
        1,
        "{audit}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `swapboard admin rerate` opens the database it names (which must exist at this version's
/// schema: it neither creates nor migrates one) and replays its rated games and Swap 61
/// rooms: none in a new one. Its numbers are the server's (`Store::rerate`, tested against
/// live updates in the server's `ratings` tests).
#[test]
fn admin_rerate_replays_the_rated_games_of_the_database_named() {
    let dir = temp_dir("rerate");
    let url = format!("sqlite:{}", dir.join("rated.db").display());
    let missing = crate::common::swapboard(&["admin", "rerate", "--database", &url]);
    assert_ne!(missing.status.code(), Some(0));
    assert!(!dir.join("rated.db").exists());
    let made = crate::common::swapboard(&["migrate", "--database", &url]);
    assert_eq!(
        made.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&made)
    );
    let out = crate::common::swapboard(&["admin", "rerate", "--database", &url]);
    let err = crate::common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err.trim_end(), "rerated 0 games and 0 Swap 61 rooms");
    assert!(dir.join("rated.db").exists());
    let refused = crate::common::swapboard(&["admin", "rerate", "--database", "mysql://x"]);
    assert_ne!(refused.status.code(), Some(0));
    assert!(
        crate::common::stderr(&refused).contains("database URL"),
        "{}",
        crate::common::stderr(&refused)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `swapboard admin grant|revoke|roles|ban|unban|annul|adjudicate|close-room|reset-link|signups|log`
/// act on the database named, as `operator:USER`,
/// and name what they cannot find; the server's `admin` tests check what each does.
#[test]
fn admin_commands_name_the_account_or_game_they_cannot_find() {
    let dir = temp_dir("admin");
    let url = format!("sqlite:{}", dir.join("admin.db").display());
    let run = |args: &[&str]| {
        let mut all = vec!["admin"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--database", &url]);
        crate::common::swapboard(&all)
    };
    // An admin command neither creates nor migrates a database: `swapboard migrate` does.
    let refused = run(&["log"]);
    assert_ne!(refused.status.code(), Some(0));
    assert!(
        !dir.join("admin.db").exists(),
        "an admin command made the database"
    );
    let migrate = || crate::common::swapboard(&["migrate", "--database", &url]);
    let migrated = crate::common::stdout(&migrate());
    assert!(migrated.contains("migrated from schema 0 to"), "{migrated}");
    let again = crate::common::stdout(&migrate());
    assert!(again.contains("already"), "{again}");
    let version = crate::common::stdout(&crate::common::swapboard(&["--version"]));
    assert!(
        version.starts_with(&format!("swapboard {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    let log = run(&["log"]);
    assert_eq!(
        log.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&log)
    );
    assert!(crate::common::stdout(&log).trim().is_empty());
    for (args, missing) in [
        (&["grant", "ann", "admin"][..], "no account \"ann\""),
        (&["revoke", "ann", "moderator"][..], "no account \"ann\""),
        (
            &["ban", "ann", "--reason", "spam"][..],
            "no account \"ann\"",
        ),
        (
            &["unban", "ann", "--reason", "appeal"][..],
            "no account \"ann\"",
        ),
        (
            &["annul", "g1", "--reason", "collusion"][..],
            "no game \"g1\"",
        ),
        (
            &["adjudicate", "g1", "--result", "draw", "--reason", "x"][..],
            "game \"g1\": no such game",
        ),
        (
            &["close-room", "r1", "--reason", "abandoned"][..],
            "room \"r1\": no such room",
        ),
        (
            &["reset-link", "ann", "--reason", "lost access"][..],
            "no account \"ann\"",
        ),
    ] {
        let out = run(args);
        let err = crate::common::stderr(&out);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(err.contains(missing), "{args:?}: {err}");
    }
    let signups = run(&["signups", "--address", "127.0.0.1"]);
    assert_eq!(signups.status.code(), Some(0));
    assert!(crate::common::stdout(&signups).trim().is_empty());
    let bad = run(&["signups", "--address", "nowhere"]);
    assert_eq!(bad.status.code(), Some(2));
    let roles = run(&["roles"]);
    assert_eq!(roles.status.code(), Some(0));
    assert_eq!(crate::common::stdout(&roles).trim(), "nobody holds a role");
    for days in ["0", "3651"] {
        let term = run(&["ban", "ann", "--reason", "spam", "--days", days]);
        assert_eq!(term.status.code(), Some(2), "--days {days}");
    }
    let role = run(&["grant", "ann", "root"]);
    assert_eq!(role.status.code(), Some(2));
    assert!(crate::common::stderr(&role).contains("admin or moderator"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// `swapboard admin adjudicate` decides a game being played on a running server's database:
/// the server then shows it over, `adjudicated`, the winner the operator named; the admin log
/// says so; a finished game, a bad result word and an empty reason are refused.
#[test]
fn admin_adjudicate_decides_a_game_the_running_server_then_shows_over() {
    let dir = temp_dir("adjudicate");
    let server = serve_in(&dir);
    let bearers = bearers(server.addr, 2);
    let (status, body) = request(
        server.addr,
        "POST /api/games",
        &bearers[0],
        r#"{"game": "flipstop", "size": 5, "opponent": "open", "colour": "first"}"#,
    );
    assert_eq!(status, 201, "{body}");
    let id = field(&body, "id").to_owned();
    let (status, body) = request(
        server.addr,
        &format!("POST /api/games/{id}/join"),
        &bearers[1],
        "{}",
    );
    assert_eq!(status, 200, "{body}");
    let url = format!("sqlite:{}", dir.join("swapboard.db").display());
    let run = |args: &[&str]| {
        let mut all = vec!["admin"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--database", &url]);
        crate::common::swapboard(&all)
    };
    let bad = run(&["adjudicate", &id, "--result", "red", "--reason", "x"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(crate::common::stderr(&bad).contains("--result"));
    let empty = run(&["adjudicate", &id, "--result", "second", "--reason", " "]);
    assert_ne!(empty.status.code(), Some(0));
    assert!(crate::common::stderr(&empty).contains("--reason"));

    let done = run(&[
        "adjudicate",
        &id,
        "--result",
        "second",
        "--reason",
        "abandoned",
    ]);
    let said = crate::common::stdout(&done);
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&done)
    );
    assert!(
        said.contains(&format!("{id} adjudicated: the second player wins")),
        "{said}"
    );
    let (status, body) = request(server.addr, &format!("GET /api/games/{id}"), "", "");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""status":"finished""#), "{body}");
    assert!(body.contains(r#""termination":"adjudicated""#), "{body}");
    assert!(body.contains(r#""winner":"player1""#), "{body}");

    let again = run(&["adjudicate", &id, "--result", "first", "--reason", "x"]);
    assert_ne!(again.status.code(), Some(0));
    assert!(
        crate::common::stderr(&again).contains("the game is finished"),
        "{}",
        crate::common::stderr(&again)
    );
    let log = run(&["log", "--limit", "1"]);
    let lines = crate::common::stdout(&log);
    // The actor is the Unix user who ran the command; the time is written out.
    let actor = ["USER", "LOGNAME"]
        .into_iter()
        .find_map(|name| std::env::var(name).ok().filter(|user| !user.is_empty()))
        .map_or_else(|| "operator".to_owned(), |user| format!("operator:{user}"));
    assert!(
        lines.contains(&format!("{actor} adjudicate {id} second: abandoned")),
        "{lines}"
    );
    assert!(lines.starts_with("20") && lines.contains('T'), "{lines}");
    drop(server);
    std::fs::remove_dir_all(dir).unwrap();
}
