//! AI workers apart from the web servers: jobs in the database claimed with a lease, each AI
//! move made exactly once however many workers claim, a worker that dies mid-search leaving
//! its move or its review to another, and analyses and reviews done by workers apart.

use std::time::{Duration, Instant};

use serde_json::json;
use sqlx::{AnyConnection, Connection as _, PgConnection, Row as _};
use swapboard_server::ai_worker::{Worker, WorkerOptions};
use swapboard_server::store::{NewGame, Seat, Status, Store};
use swapboard_testkit::{
    Client, TestDb, bearer, count, each_database, generous, options, reviewed, sample,
};

fn worker_options(db: &TestDb, lease_s: u32) -> WorkerOptions {
    WorkerOptions {
        database: db.url.clone(),
        threads: 1,
        lease_s,
        poll_ms: 20,
        log: tracing::Level::INFO,
    }
}

/// Stores a game between two AIs at these levels, nobody having moved.
async fn ai_game(store: &Store, id: &str, size: u32, levels: [u8; 2]) {
    let position =
        swapboard_play::AnyPosition::start(swapboard_play::GameId::Swaptimum, size as usize)
            .unwrap()
            .to_string();
    let new = NewGame {
        id,
        game: "swaptimum",
        size,
        position: &position,
        seats: [Seat::Ai(levels[0]), Seat::Ai(levels[1])],
        clock: swapboard_play::TimeControl::None,
        invite: None,
        rated: false,
        rated_asked: false,
    };
    store.create_game(&new).await.unwrap();
}

/// Waits until `done` holds of the game, within `wait`.
async fn until_game(
    store: &Store,
    id: &str,
    wait: Duration,
    done: impl Fn(&swapboard_server::store::StoredGame) -> bool,
) -> swapboard_server::store::StoredGame {
    let began = Instant::now();
    loop {
        let game = store.game(id).await.unwrap().unwrap();
        if done(&game) {
            return game;
        }
        assert!(
            began.elapsed() < wait,
            "game {id} stuck at ply {}",
            game.ply
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_play_fifty_games_and_each_ai_move_once() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let store = Store::open(&db.url).await.unwrap();
    let ids: Vec<String> = (0..50).map(|i| format!("g{i}")).collect();
    for id in &ids {
        ai_game(&store, id, 4, [1, 1]).await;
    }
    let one = Worker::start(&worker_options(&db, 30)).await.unwrap();
    let two = Worker::start(&worker_options(&db, 30)).await.unwrap();
    let mut plies = 0;
    for id in &ids {
        let game = until_game(&store, id, Duration::from_secs(300), |g| {
            g.status != Status::Playing
        })
        .await;
        plies += u64::from(game.ply);
    }
    let (by_one, by_two) = (one.plies_played(), two.plies_played());
    one.stop().await;
    two.stop().await;
    // Every ply was played by exactly one of the workers: none twice, none lost.
    assert_eq!(by_one + by_two, plies, "{by_one} + {by_two} plies");
    assert!(by_one > 0 && by_two > 0, "both worked: {by_one}, {by_two}");
    let mut pg = PgConnection::connect(&db.url).await.unwrap();
    let jobs: i64 = sqlx::query("SELECT count(*) FROM ai_jobs")
        .fetch_one(&mut pg)
        .await
        .unwrap()
        .get(0);
    assert_eq!(jobs, 0, "every job removed with its move");
    let mismatched: i64 = sqlx::query(
        "SELECT count(*) FROM games g WHERE g.ply <> \
         (SELECT count(*) FROM moves m WHERE m.game_id = g.id)",
    )
    .fetch_one(&mut pg)
    .await
    .unwrap()
    .get(0);
    assert_eq!(mismatched, 0, "one stored move per ply");
    pg.close().await.unwrap();
    store.close().await;
    db.drop_it().await;
}

/// Who holds the job of the first move of game `id`; `None` once it is gone.
async fn first_holder(conn: &mut AnyConnection, id: &str) -> Option<Option<String>> {
    sqlx::query("SELECT claimed_by FROM ai_jobs WHERE game_id = $1 AND ply = 0")
        .bind(id)
        .fetch_optional(conn)
        .await
        .unwrap()
        .map(|row| row.get(0))
}

/// Waits until a worker claims the job of the first move of game `id`; who did.
async fn first_claim(conn: &mut AnyConnection, id: &str) -> String {
    let began = Instant::now();
    loop {
        if let Some(Some(holder)) = first_holder(conn, id).await {
            return holder;
        }
        assert!(began.elapsed() < Duration::from_secs(30), "never claimed");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// The moves stored at the first ply of game `id`.
async fn first_moves(conn: &mut AnyConnection, id: &str) -> i64 {
    sqlx::query("SELECT count(*) FROM moves WHERE game_id = $1 AND ply = 0")
        .bind(id)
        .fetch_one(conn)
        .await
        .unwrap()
        .get(0)
}

/// An `Any` connection to the test's database, for reading its tables.
async fn connect(db: &TestDb) -> AnyConnection {
    sqlx::any::install_default_drivers();
    AnyConnection::connect(&db.url).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_search_leaves_the_move_to_another_after_its_lease() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let store = Store::open(&db.url).await.unwrap();
    // Level 8 thinks for a good fraction of a second: long enough to be killed in (on 6x6,
    // where no book answers Red's first move at once).
    ai_game(&store, "slow", 6, [8, 1]).await;
    let mut conn = connect(&db).await;
    let first = Worker::start(&worker_options(&db, 1)).await.unwrap();
    first_claim(&mut conn, "slow").await;
    let claimed_at = Instant::now();
    // Killed mid-search: its search is abandoned, its job held until the lease runs out.
    first.stop().await;
    let second = Worker::start(&worker_options(&db, 1)).await.unwrap();
    let game = until_game(&store, "slow", Duration::from_secs(60), |g| g.ply >= 1).await;
    assert!(
        claimed_at.elapsed() >= Duration::from_millis(900),
        "taken again only after the lease"
    );
    assert_eq!(first_moves(&mut conn, "slow").await, 1);
    assert!(second.plies_played() >= 1, "the second worker moved");
    assert!(game.ply >= 1);
    second.stop().await;
    conn.close().await.unwrap();
    store.close().await;
    db.drop_it().await;
}

async fn long_search_keeps_its_job(db: TestDb) -> TestDb {
    let store = Store::open(&db.url).await.unwrap();
    // Level 8 on 9x9: a search of seconds in a test build, several leases of 1 s long.
    ai_game(&store, "long", 9, [8, 1]).await;
    let mut conn = connect(&db).await;
    let first = Worker::start(&worker_options(&db, 1)).await.unwrap();
    let holder = first_claim(&mut conn, "long").await;
    let claimed_at = Instant::now();
    // A second worker, idle and polling, never takes the job from the first while it
    // searches: the first renews its lease.
    let second = Worker::start(&worker_options(&db, 1)).await.unwrap();
    while let Some(by) = first_holder(&mut conn, "long").await {
        assert_eq!(
            by.as_deref(),
            Some(holder.as_str()),
            "taken {:?} after the claim",
            claimed_at.elapsed()
        );
        assert!(
            claimed_at.elapsed() < Duration::from_secs(120),
            "never moved"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let searched = claimed_at.elapsed();
    assert!(
        searched > Duration::from_millis(1500),
        "the search outlasted its lease by half: {searched:?}"
    );
    assert_eq!(first_moves(&mut conn, "long").await, 1);
    assert!(first.plies_played() >= 1, "the first worker moved");
    first.stop().await;
    second.stop().await;
    conn.close().await.unwrap();
    store.close().await;
    db
}

each_database!(
    a_search_longer_than_its_lease_keeps_its_job,
    long_search_keeps_its_job
);

/// A server without its embedded worker (`serve --no-ai-worker`), with its metrics.
async fn server_without_worker(db: &TestDb) -> swapboard_server::Server {
    let mut serve_options = options(db, generous());
    serve_options.no_ai_worker = true;
    serve_options.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    swapboard_server::Server::start(&serve_options)
        .await
        .unwrap()
}

async fn serve_leaves_the_ai_to_workers(db: TestDb) -> TestDb {
    let server = server_without_worker(&db).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let created = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "ai:1", "colour": "second"}),
            &[("authorization", &ann)],
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(800)).await;
    let waiting = client.get(&format!("/api/games/{id}"), &[]).await;
    assert_eq!(waiting.json["ply"], 0, "no worker, no AI move");
    let worker = Worker::start(&worker_options(&db, 30)).await.unwrap();
    let began = Instant::now();
    loop {
        let game = client.get(&format!("/api/games/{id}"), &[]).await;
        if game.json["ply"] == 1 {
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(30), "{}", game.text);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(worker.plies_played(), 1);
    worker.stop().await;
    server.stop().await.unwrap();
    db
}

each_database!(
    serve_without_its_worker_leaves_the_ai_to_an_ai_worker,
    serve_leaves_the_ai_to_workers
);

/// A server without its worker, and a game between two level-1 AIs on `size` finished by a
/// worker that has stopped since.
async fn finished_ai_game(db: &TestDb, id: &str, size: u32) -> (swapboard_server::Server, Store) {
    let server = server_without_worker(db).await;
    let store = Store::open(&db.url).await.unwrap();
    ai_game(&store, id, size, [1, 1]).await;
    let worker = Worker::start(&worker_options(db, 30)).await.unwrap();
    until_game(&store, id, Duration::from_secs(60), |g| {
        g.status == Status::Finished
    })
    .await;
    worker.stop().await;
    (server, store)
}

async fn workers_analyse_and_review(db: TestDb) -> TestDb {
    let (server, store) = finished_ai_game(&db, "done", 4).await;
    let client = Client::new(&server);
    let plies = store.game("done").await.unwrap().unwrap().ply;
    // No worker: the review waits for one.
    let asked = client.get("/api/games/done/review", &[]).await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let waiting = client.get("/api/games/done/review", &[]).await;
    assert_eq!(waiting.status, 202, "{}", waiting.text);
    assert_eq!(waiting.json["done"], 0, "{}", waiting.text);
    assert_eq!(waiting.json["total"], plies + 1, "{}", waiting.text);
    // The operator sees the job waiting.
    let metrics = server.metrics_addr().unwrap();
    let scrape = reqwest::get(format!("http://{metrics}/metrics"))
        .await
        .unwrap();
    let text = scrape.text().await.unwrap();
    assert_eq!(
        sample(&text, "swapboard_ai_jobs_waiting", &[r#"kind="review""#]),
        Some(1.0),
        "{text}"
    );
    // An analysis asked with no worker waits for one, and is answered once a worker starts.
    let asking = Client::new(&server);
    let analysis = tokio::spawn(async move {
        asking
            .get("/api/games/done/analysis?ply=1&level=2", &[])
            .await
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!analysis.is_finished(), "answered with no worker");
    let worker = Worker::start(&worker_options(&db, 30)).await.unwrap();
    let answered = analysis.await.unwrap();
    assert_eq!(answered.status, 200, "{}", answered.text);
    assert_eq!(answered.json["ply"], 1, "{}", answered.text);
    assert!(
        !answered.json["lines"].as_array().unwrap().is_empty(),
        "{}",
        answered.text
    );
    let review = reviewed(&client, "done").await;
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), plies as usize, "{review}");
    assert!(moves.iter().all(|m| m["basis"].is_string()), "{review}");
    assert_eq!(worker.plies_played(), 0, "no game to move in");
    worker.stop().await;
    // Stored: asked again with no worker, both are answered at once.
    let again = client
        .get("/api/games/done/analysis?ply=1&level=2", &[])
        .await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json, answered.json);
    assert_eq!(client.get("/api/games/done/review", &[]).await.json, review);
    store.close().await;
    server.stop().await.unwrap();
    db
}

each_database!(
    analyses_and_reviews_are_jobs_done_by_workers_apart,
    workers_analyse_and_review
);

async fn review_taken_over(db: TestDb) -> TestDb {
    let (server, store) = finished_ai_game(&db, "long", 4).await;
    let client = Client::new(&server);
    assert_eq!(client.get("/api/games/long/review", &[]).await.status, 202);
    // A worker with a 1 s lease begins it, and is killed after its first positions.
    let first = Worker::start(&worker_options(&db, 1)).await.unwrap();
    let began = Instant::now();
    let reached = loop {
        let progress = client.get("/api/games/long/review", &[]).await;
        assert_eq!(progress.status, 202, "done before it could be killed");
        let done = progress.json["done"].as_u64().unwrap();
        if done >= 1 {
            break done;
        }
        assert!(began.elapsed() < Duration::from_secs(60), "never begun");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    first.stop().await;
    let killed = client.get("/api/games/long/review", &[]).await;
    assert_eq!(killed.status, 202, "{}", killed.text);
    assert!(killed.json["done"].as_u64().unwrap() >= reached);
    // Another worker takes it once the lease has run out, and finishes it.
    let second = Worker::start(&worker_options(&db, 1)).await.unwrap();
    let review = reviewed(&client, "long").await;
    let plies = store.game("long").await.unwrap().unwrap().ply;
    assert_eq!(review["moves"].as_array().unwrap().len(), plies as usize);
    second.stop().await;
    store.close().await;
    server.stop().await.unwrap();
    db
}

each_database!(
    a_review_whose_worker_died_is_taken_again_by_another,
    review_taken_over
);

/// The figures of docs/PERFORMANCE.md ("AI workers"): AI moves per second of one worker
/// thread by level, through the whole job pipeline on SQLite, on 6x6 Swaptimum (no book: on
/// 5x5 the AI plays from the solver's book and does not search). A measurement, not a test:
/// `cargo test -p swapboard-server --test server ai_moves_per_second -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement"]
async fn ai_moves_per_second_per_worker_thread() {
    for level in [1, 4, 8] {
        let db = TestDb::sqlite();
        let store = Store::open(&db.url).await.unwrap();
        for i in 0..4 {
            ai_game(&store, &format!("l{level}g{i}"), 6, [level, level]).await;
        }
        let worker = Worker::start(&worker_options(&db, 60)).await.unwrap();
        let began = Instant::now();
        while worker.plies_played() < 40 && began.elapsed() < Duration::from_secs(60) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let (plies, took) = (worker.plies_played(), began.elapsed());
        worker.stop().await;
        println!(
            "level {level}: {plies} plies in {:.2} s, {:.1} moves/s",
            took.as_secs_f64(),
            plies as f64 / took.as_secs_f64()
        );
        store.close().await;
        db.drop_it().await;
    }
}

/// Stores a game in which the AI at `level` moves first against the account `player`.
async fn against(store: &Store, id: &str, player: i64, level: u8) {
    let position = swapboard_play::AnyPosition::start(swapboard_play::GameId::Swaptimum, 6)
        .unwrap()
        .to_string();
    let new = NewGame {
        id,
        game: "swaptimum",
        size: 6,
        position: &position,
        seats: [Seat::Ai(level), Seat::Account(player)],
        clock: swapboard_play::TimeControl::None,
        invite: None,
        rated: false,
        rated_asked: false,
    };
    store.create_game(&new).await.unwrap();
}

each_database!(
    the_ai_serves_accounts_in_turn_so_many_games_cannot_hold_back_another,
    |db: TestDb| async move {
        // ann has three games waiting on the AI, bob one, made after hers: a worker takes
        // one of ann's, then bob's (his account has not been served), then ann's others.
        // Oldest first, bob's move would wait for all three of ann's searches.
        let store = Store::open(&db.url).await.unwrap();
        let server = swapboard_testkit::start(&db, generous()).await;
        let client = Client::new(&server);
        bearer(&client, "ann").await;
        bearer(&client, "bob").await;
        server.stop().await.unwrap();
        let ann = count(&db, "SELECT id FROM accounts WHERE name = 'ann'").await;
        let bob = count(&db, "SELECT id FROM accounts WHERE name = 'bob'").await;
        for id in ["a1", "a2", "a3"] {
            against(&store, id, ann, 6).await;
        }
        against(&store, "b1", bob, 1).await;
        let worker = Worker::start(&worker_options(&db, 30)).await.unwrap();
        for id in ["a1", "a2", "a3", "b1"] {
            until_game(&store, id, Duration::from_secs(60), |game| game.ply >= 1).await;
        }
        worker.stop().await;
        // The order the first moves were played in: bob's second, before ann's last two.
        let after_bob = count(
            &db,
            "SELECT count(*) FROM moves m WHERE m.ply = 0 AND m.game_id LIKE 'a%' AND m.played_ms > \
             (SELECT b.played_ms FROM moves b WHERE b.game_id = 'b1' AND b.ply = 0)",
        )
        .await;
        assert_eq!(after_bob, 2, "bob's move waited behind ann's searches");
        store.close().await;
        db
    }
);
