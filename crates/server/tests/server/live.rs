//! Games that go on by themselves: the AI's moves, clocks that end games, and the live
//! socket that shows them, over real HTTP and real WebSockets on both backends; a thousand
//! sockets on one game, and the sockets' own cap, neither keeping a request unanswered.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use swapboard_server::Limits;
use swapboard_server::store::{NewGame, Seat, Store};
use swapboard_testkit::{
    Client, Socket, TestDb, any_move, bearer, connect, each_database, game_between, generous,
    next_message, refused_upgrade, start, start_on_manual_clock, until,
};
use tokio::task::JoinSet;

async fn the_ai_answers_live(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    // The AI plays first: its move comes without anyone asking.
    let created = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "ai:1", "colour": "second"}),
            &[("authorization", &ann)],
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    let mut socket = connect(&client, &format!("/api/games/{id}/socket")).await;
    let first = next_message(&mut socket, Duration::from_secs(10)).await;
    assert_eq!(first["type"], "state", "{first}");
    // The AI may have moved before the socket opened: the first state shows its move then.
    let after_ai = if first["game"]["ply"] == 1 {
        first
    } else {
        let moved = until(&mut socket, Duration::from_secs(30), |g| g["ply"] == 1).await;
        assert_eq!(moved["type"], "move", "{moved}");
        assert_eq!(moved["ply"], 1);
        assert_eq!(moved["move"], moved["game"]["moves"][0]);
        moved
    };
    assert_eq!(after_ai["game"]["to_move"], "ann");
    assert_eq!(after_ai["game"]["seat_to_move"], "second");
    // A socket's messages are everyone's: they name nobody's own seat.
    assert_eq!(after_ai["game"]["your_seat"], Value::Null);
    assert_eq!(after_ai["game"]["moves"].as_array().unwrap().len(), 1);

    // ann answers with any legal move (one cell the AI left empty), and the AI replies.
    let position: swapboard_play::AnyPosition = after_ai["game"]["position"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let reply = position.legal_moves(1_000).unwrap()[0].clone();
    let played = client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": reply, "ply": 1}),
            &[("authorization", &ann)],
        )
        .await;
    assert_eq!(played.status, 200, "{}", played.text);
    // A message's game is read when the message is made: the AI's reply may be in it already.
    let mine = until(&mut socket, Duration::from_secs(10), |g| {
        g["ply"].as_u64() >= Some(2)
    })
    .await;
    assert_eq!(
        (mine["type"].as_str(), mine["move"].as_str()),
        (Some("move"), Some(reply.as_str()))
    );
    let theirs = until(&mut socket, Duration::from_secs(30), |g| g["ply"] == 3).await;
    assert_eq!(theirs["ply"], 3);

    // A socket opened later with `since` replays the moves it missed, then the state.
    let mut late = connect(&client, &format!("/api/games/{id}/socket?since=1")).await;
    let replayed = next_message(&mut late, Duration::from_secs(10)).await;
    assert_eq!(
        (replayed["type"].as_str(), replayed["ply"].as_u64()),
        (Some("move"), Some(2))
    );
    assert_eq!(replayed["move"], reply.as_str());
    let replayed = next_message(&mut late, Duration::from_secs(10)).await;
    assert_eq!(replayed["ply"], 3);
    let state = next_message(&mut late, Duration::from_secs(10)).await;
    assert_eq!(state["type"], "state");
    late.close(None).await.unwrap();

    // A bad `since` and a missing game answer before any upgrade.
    let bad = client
        .get(&format!("/api/games/{id}/socket?since=-1"), &[])
        .await;
    bad.assert_error(400, "bad_request");
    let missing = client.get("/api/games/nope/socket", &[]).await;
    missing.assert_error(404, "not_found");
    server.stop().await.unwrap();
    db
}

each_database!(
    the_ai_moves_by_itself_and_sockets_show_every_move,
    the_ai_answers_live
);

async fn clocks_end_games(db: TestDb) -> TestDb {
    let (server, clock) = start_on_manual_clock(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    // Four seconds each, on the server's clock, in two games made together. In the first
    // ann moves, the AI answers at once (its budget is the clock's share), then ann lets
    // her time run out; in the second nobody moves at all.
    let body = json!({"game": "flipstop", "size": 5, "opponent": "ai:1", "colour": "first",
                      "clock": {"initial_s": 4, "increment_s": 0}});
    let mut ids = Vec::new();
    for _ in 0..2 {
        let created = client
            .post("/api/games", &body, &[("authorization", &ann)])
            .await;
        assert_eq!(created.status, 201, "{}", created.text);
        ids.push(created.json["id"].as_str().unwrap().to_owned());
    }
    let (id, idle_id) = (&ids[0], &ids[1]);
    let mut socket = connect(&client, &format!("/api/games/{id}/socket")).await;
    let mut idle_socket = connect(&client, &format!("/api/games/{idle_id}/socket")).await;
    let played = client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": "c3", "ply": 0}),
            &[("authorization", &ann)],
        )
        .await;
    assert_eq!(played.status, 200, "{}", played.text);
    let answered = until(&mut socket, Duration::from_secs(20), |g| g["ply"] == 2).await;
    assert_eq!(answered["game"]["status"], "playing", "{answered}");
    // The four seconds go by: the scheduler, woken by the move of the clock, flags.
    clock.advance(Duration::from_millis(4_001));
    let ended = until(&mut socket, Duration::from_secs(20), |g| {
        g["status"] == "finished"
    })
    .await;
    let game = &ended["game"];
    assert_eq!(game["ply"], 2, "{game}");
    assert_eq!(game["result"]["termination"], "timeout", "{game}");
    assert!(
        game["result"]["winner"]
            .as_str()
            .unwrap()
            .starts_with("ai:")
    );
    assert_eq!(game["clocks"]["deadline_ms"], Value::Null);
    // ann, who moved first, flagged: her clock reads 0, the AI's does not.
    assert_eq!(game["result"]["how"], "on time", "{game}");
    assert_eq!(game["clocks"]["remaining_ms"][0], 0, "{game}");
    assert!(
        game["clocks"]["remaining_ms"][1].as_u64().unwrap() > 0,
        "{game}"
    );
    // A move after the flag fell is refused, and the game stays as the clock ended it.
    let late = client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": "a1", "ply": 2}),
            &[("authorization", &ann)],
        )
        .await;
    late.assert_error(409, "conflict");

    // Nobody moved: the game is aborted, not lost, when the first clock ran out.
    let aborted = until(&mut idle_socket, Duration::from_secs(20), |g| {
        g["status"] == "finished"
    })
    .await;
    assert_eq!(aborted["game"]["result"]["termination"], "aborted");
    assert_eq!(aborted["game"]["result"]["winner"], Value::Null);
    server.stop().await.unwrap();
    db
}

each_database!(clocks_end_games_when_nobody_moves, clocks_end_games);

async fn the_ai_resumes(db: TestDb) -> TestDb {
    // A game stored while no server ran, an AI to move (the AI on both sides, so that it
    // alone plays on): a starting server plays it.
    let store = Store::open(&db.url).await.unwrap();
    let start_position = swapboard_play::AnyPosition::start(swapboard_play::GameId::Swaptimum, 5)
        .unwrap()
        .to_string();
    let new = NewGame {
        id: "resumed",
        game: "swaptimum",
        size: 5,
        position: &start_position,
        seats: [Seat::Ai(1), Seat::Ai(1)],
        clock: swapboard_play::TimeControl::None,
        invite: None,
        rated: false,
        rated_asked: false,
    };
    store.create_game(&new).await.unwrap();
    store.close().await;
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let mut socket = connect(&client, "/api/games/resumed/socket").await;
    let moved = until(&mut socket, Duration::from_secs(30), |g| {
        g["ply"].as_u64() >= Some(2)
    })
    .await;
    assert_eq!(
        moved["game"]["moves"].as_array().unwrap().len() as u64,
        moved["game"]["ply"].as_u64().unwrap()
    );
    server.stop().await.unwrap();
    db
}

each_database!(a_starting_server_resumes_the_ai_turns, the_ai_resumes);

/// What each listening session of the test's PostgreSQL database ran last, as
/// `pg_stat_activity` shows it: an instance's listener's last `LISTEN` names the last
/// channel it took up, sorted; polled until `done` holds of them (10 s at most).
async fn listens(db: &TestDb, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    use sqlx::{Connection as _, Row as _};
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    let started = Instant::now();
    loop {
        let mut last: Vec<String> = sqlx::query(
            "SELECT query FROM pg_stat_activity WHERE datname = current_database() \
             AND query LIKE 'LISTEN %'",
        )
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get::<String, _>(0))
        .collect();
        last.sort();
        if done(&last) || started.elapsed() > Duration::from_secs(10) {
            conn.close().await.unwrap();
            return last;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How many of the listeners' last `LISTEN`s took up a topics' channel.
fn on_topics(listens: &[String]) -> usize {
    listens
        .iter()
        .filter(|query| query.starts_with("LISTEN \"swapboard_changes_"))
        .count()
}

/// Two instances on one PostgreSQL database: a move sent to A reaches a socket held on B,
/// and a deadline ends its game once. Each instance listens only to the channels of the
/// topics its own sockets watch: A, with none, hears no game's announcements.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_one_instance_reaches_sockets_on_another() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let a = start(&db, generous()).await;
    let b = start(&db, generous()).await;
    // Each listener is on its instance's own channel, and on no topic's.
    let idle = listens(&db, |last| last.len() == 2).await;
    assert_eq!(idle.len(), 2, "{idle:?}");
    assert_eq!(on_topics(&idle), 0, "{idle:?}");
    let (client_a, client_b) = (Client::new(&a), Client::new(&b));
    let ann = bearer(&client_a, "ann").await;
    let bob = bearer(&client_b, "bob").await;
    let created = client_a
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "user:bob", "colour": "first"}),
            &[("authorization", &ann)],
        )
        .await;
    let id = created.json["id"].as_str().unwrap().to_owned();
    let mut on_b = connect(&client_b, &format!("/api/games/{id}/socket")).await;
    assert_eq!(
        next_message(&mut on_b, Duration::from_secs(10)).await["type"],
        "state"
    );
    // B's socket made B's listener take up the game's channel before it was greeted; A's
    // listener is still on its own channel only.
    let watching = listens(&db, |last| on_topics(last) == 1).await;
    assert_eq!(on_topics(&watching), 1, "{watching:?}");
    assert_eq!(watching.len(), 2, "{watching:?}");
    let joined = client_b
        .post(
            &format!("/api/games/{id}/join"),
            &json!({}),
            &[("authorization", &bob)],
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let playing = until(&mut on_b, Duration::from_secs(10), |g| {
        g["status"] == "playing"
    })
    .await;
    assert_eq!(playing["type"], "state");
    let played = client_a
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": "c3", "ply": 0}),
            &[("authorization", &ann)],
        )
        .await;
    assert_eq!(played.status, 200, "{}", played.text);
    let seen = until(&mut on_b, Duration::from_secs(10), |g| g["ply"] == 1).await;
    assert_eq!(
        (seen["type"].as_str(), seen["move"].as_str()),
        (Some("move"), Some("c3"))
    );
    a.stop().await.unwrap();
    b.stop().await.unwrap();
    db.drop_it().await;
}

/// The moves of [`watchers_block_no_move`].
const WATCHED_MOVES: u32 = 6;

/// Reads a watcher's messages until the game reaches `plies`: the plies its `move` messages
/// named, in order.
async fn moves_seen(mut socket: Socket, plies: u32) -> Vec<u64> {
    let mut seen = Vec::new();
    loop {
        let message = next_message(&mut socket, Duration::from_secs(60)).await;
        if message["type"] == "move" {
            seen.push(message["ply"].as_u64().unwrap());
        }
        if message["game"]["ply"] == plies {
            return seen;
        }
    }
}

/// A thousand sockets watch one game, more than the cap on HTTP connections (900): each was
/// an HTTP connection until its upgrade, and left that count then. Every move is still
/// answered, and reaches every socket.
async fn watchers_block_no_move(db: TestDb) -> TestDb {
    let limits = Limits {
        // From one address (the tests' clients all are 127.0.0.1).
        sockets_per_address: 1_000,
        ..Limits::default()
    };
    let server = start(&db, limits).await;
    let client = Arc::new(Client::new(&server));
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let id = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let path = format!("/api/games/{id}/socket");
    let began = Instant::now();
    let mut sockets = Vec::new();
    // 40 handshakes at a time: until its upgrade a socket is an HTTP connection, under the
    // caps of those (64 from one address).
    for _ in 0..25 {
        let mut opening = JoinSet::new();
        for _ in 0..40 {
            let (client, path) = (Arc::clone(&client), path.clone());
            opening.spawn(async move {
                let mut socket = connect(&client, &path).await;
                let first = next_message(&mut socket, Duration::from_secs(60)).await;
                assert_eq!(first["type"], "state", "{first}");
                socket
            });
        }
        sockets.extend(opening.join_all().await);
    }
    let opened = began.elapsed();
    assert!(limits.connections < 1_000);
    let mut watching = JoinSet::new();
    for socket in sockets {
        watching.spawn(moves_seen(socket, WATCHED_MOVES));
    }
    let began = Instant::now();
    for ply in 0..WATCHED_MOVES {
        let mover = if ply % 2 == 0 { &ann } else { &bob };
        any_move(&client, &id, ply, mover).await;
    }
    let played = began.elapsed();
    let health = client.get("/healthz", &[]).await;
    assert_eq!(health.status, 200, "{}", health.text);
    let every_ply: Vec<u64> = (1..=u64::from(WATCHED_MOVES)).collect();
    for seen in watching.join_all().await {
        assert_eq!(seen, every_ply);
    }
    println!(
        "1,000 sockets opened in {opened:?}; {WATCHED_MOVES} moves played in {played:?}, \
         all delivered by {:?}",
        began.elapsed()
    );
    server.stop().await.unwrap();
    db
}

each_database!(
    a_thousand_watchers_leave_every_move_answered_and_delivered,
    watchers_block_no_move
);

/// Sockets fill their own cap, past the one on HTTP connections: the next is answered 429
/// before its upgrade, while requests, moves included, are answered; a socket closed frees
/// its place.
async fn sockets_past_their_cap(db: TestDb) -> TestDb {
    let limits = Limits {
        connections: 10,
        connections_per_address: 10,
        sockets: 30,
        sockets_per_address: 30,
        ..Limits::default()
    };
    let server = start(&db, limits).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let id = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let path = format!("/api/games/{id}/socket");
    let mut open = Vec::new();
    for _ in 0..30 {
        open.push(connect(&client, &path).await);
    }
    let refused = refused_upgrade(&client, &path).await;
    refused.assert_error(429, "rate_limited");
    let retry = refused
        .headers
        .get("retry-after")
        .map(|v| v.to_str().unwrap());
    assert_eq!(retry, Some("5"));
    // HTTP goes on: a read, and a move that every open socket is sent.
    assert_eq!(client.get("/healthz", &[]).await.status, 200);
    any_move(&client, &id, 0, &ann).await;
    for socket in &mut open {
        until(socket, Duration::from_secs(10), |g| g["ply"] == 1).await;
    }
    // A socket closed gives its place to the next.
    let mut closing = open.pop().unwrap();
    closing.close(None).await.unwrap();
    drop(closing);
    let mut again = None;
    for _ in 0..100 {
        if let Ok((socket, _)) = tokio_tungstenite::connect_async(client.ws_url(&path)).await {
            again = Some(socket);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "a closed socket's place is given again");
    server.stop().await.unwrap();
    db
}

each_database!(
    sockets_past_their_cap_are_refused_while_requests_are_answered,
    sockets_past_their_cap
);
