//! `swapboard ai-worker` as a process: one killed with `kill -9` (SIGKILL) in the middle of a
//! search holds its job until its lease runs out, and only then does another worker take it
//! and make the move, once; one killed in the middle of a review leaves it, the same way, to
//! another that reviews the whole game. On a SQLite file and on a PostgreSQL database.

use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sqlx::{AnyConnection, Connection as _, Row as _};
use swapboard_server::store::{NewGame, Seat, Store};
use swapboard_testkit::{TestDb, each_database};

/// The workers' lease: long enough to watch the job stay with the killed worker, short
/// enough for a quick test.
const LEASE_S: u32 = 2;

/// A running `swapboard ai-worker`, killed if the test fails first.
struct Worker {
    child: Child,
    log: PathBuf,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

impl Worker {
    /// Starts `swapboard ai-worker` on the database, named `name` in the jobs it claims (its
    /// claims read `NAME-PID-0`: the worker names itself after `$HOSTNAME`).
    fn start(db: &TestDb, name: &str) -> Worker {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let log = std::env::temp_dir().join(format!(
            "swapboard_ai_worker_{}_{name}_{nanos}.log",
            std::process::id()
        ));
        let child = Command::new(env!("CARGO_BIN_EXE_swapboard"))
            .args(["ai-worker", "--database", &db.url, "--threads", "1"])
            .args(["--lease-s", &LEASE_S.to_string(), "--poll-ms", "20"])
            .env("HOSTNAME", name)
            .env_remove("DATABASE_URL")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("the swapboard binary runs");
        Worker { child, log }
    }

    /// Its name in a claim.
    fn claim_name(&self, name: &str) -> String {
        format!("{name}-{}-0", self.child.id())
    }

    fn log(&self) -> String {
        read_log(&self.log)
    }
}

fn read_log(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Milliseconds since the epoch, the clock the workers' leases are written in.
fn now_ms() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

/// Who holds the job of the game's first move and until when; `None` once it is gone.
async fn first_job(conn: &mut AnyConnection) -> Option<(Option<String>, Option<i64>)> {
    sqlx::query("SELECT claimed_by, lease_until_ms FROM ai_jobs WHERE game_id = 'slow' AND ply = 0")
        .fetch_optional(conn)
        .await
        .unwrap()
        .map(|row| (row.get(0), row.get(1)))
}

/// The game's ply, and the moves stored at ply 0 with when each was played.
async fn game_state(conn: &mut AnyConnection) -> (i64, Vec<i64>) {
    let ply = sqlx::query("SELECT ply FROM games WHERE id = 'slow'")
        .fetch_one(&mut *conn)
        .await
        .unwrap()
        .get(0);
    let played = sqlx::query("SELECT played_ms FROM moves WHERE game_id = 'slow' AND ply = 0")
        .fetch_all(conn)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    (ply, played)
}

async fn a_worker_killed_mid_search_leaves_its_move_to_another_once(db: TestDb) -> TestDb {
    // A 9x9 Swaptimum game whose first seat is the AI at level 8: its first move is a
    // search of 150,000 iterations, seconds in a test build, long enough to be killed in.
    // The second seat is an AI too (a person's seat needs an account), at level 1.
    let store = Store::open(&db.url).await.unwrap();
    create_ai_game(&store, "slow", 9, [8, 1]).await;
    store.close().await;
    let mut conn = AnyConnection::connect(&db.url).await.unwrap();

    // The first worker writes the game's job as it starts, and claims it.
    let mut first = Worker::start(&db, "first");
    let started = Instant::now();
    let (holder, lease_until) = poll(
        &mut conn,
        Duration::from_secs(60),
        "the first worker never claimed the job",
        &first,
        async |conn| match first_job(conn).await {
            Some((Some(holder), Some(lease_until))) => Some((holder, lease_until)),
            _ => None,
        },
    )
    .await;
    assert_eq!(holder, first.claim_name("first"));

    // SIGKILL in the middle of its search: no move, and the job still held by the dead
    // worker until its lease runs out.
    first.child.kill().unwrap();
    let status = first.child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status:?}");
    let killed_at = now_ms();
    assert!(
        killed_at < lease_until,
        "the kill came {} ms after the lease had run out",
        killed_at - lease_until
    );
    assert_eq!(game_state(&mut conn).await, (0, Vec::new()), "no move yet");

    // A second worker starts at once; it must leave the job alone until the lease has run
    // out, then take it.
    let second = Worker::start(&db, "second");
    let mut taken = None;
    let played = loop {
        let job = first_job(&mut conn).await;
        let now = now_ms();
        match &job {
            Some((Some(by), _)) if *by == holder => {}
            Some((Some(by), Some(until))) if *by == second.claim_name("second") => {
                taken.get_or_insert(*until);
            }
            None => {}
            other => panic!("the job at {now} ms: {other:?}"),
        }
        if now < lease_until {
            assert_eq!(
                job.and_then(|(by, _)| by).as_ref(),
                Some(&holder),
                "the job was taken {} ms before the lease ran out",
                lease_until - now
            );
        }
        let (ply, played) = game_state(&mut conn).await;
        if ply >= 1 {
            break played;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the second worker never moved: {}",
            second.log()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    drop(second);

    // The second worker claimed the job only once the first lease had run out (a claim
    // writes its time plus the lease), and the move was stored once, by it, after that.
    let second_lease_until = taken.expect("the second worker's claim was seen");
    let claimed_at = second_lease_until - i64::from(LEASE_S) * 1000;
    assert!(
        claimed_at > lease_until,
        "claimed at {claimed_at} ms, the first lease until {lease_until} ms"
    );
    assert_eq!(played.len(), 1, "the first move stored once");
    assert!(played[0] >= claimed_at, "played at {} ms", played[0]);
    assert_eq!(first_job(&mut conn).await, None, "the job is done");
    let stored: i64 = sqlx::query(
        "SELECT count(*) FROM moves WHERE game_id = 'slow' AND ply < \
         (SELECT ply FROM games WHERE id = 'slow')",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap()
    .get(0);
    let (ply, _) = game_state(&mut conn).await;
    assert_eq!(stored, ply, "one stored move per ply, none lost");
    conn.close().await.unwrap();
    db
}

/// The review of game `rev`: its status, holder, lease and positions done; `None` before it
/// was asked for.
async fn review_row(
    conn: &mut AnyConnection,
) -> Option<(String, Option<String>, Option<i64>, i64)> {
    sqlx::query(
        "SELECT status, claimed_by, claimed_until_ms, done FROM reviews WHERE game_id = 'rev'",
    )
    .fetch_optional(conn)
    .await
    .unwrap()
    .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3)))
}

/// Writes an unclocked Swaptimum game `id` on a `size` x `size` board between the AIs of
/// `levels` (the first player's first); a person's seat would need an account.
async fn create_ai_game(store: &Store, id: &str, size: u32, levels: [u8; 2]) {
    let position = swapboard_play::AnyPosition::start(
        swapboard_play::GameId::Swaptimum,
        usize::try_from(size).unwrap(),
    )
    .unwrap()
    .to_string();
    store
        .create_game(&NewGame {
            id,
            game: "swaptimum",
            size,
            position: &position,
            seats: levels.map(Seat::Ai),
            clock: swapboard_play::TimeControl::None,
            invite: None,
            rated: false,
            rated_asked: false,
        })
        .await
        .unwrap();
}

/// Polls `probe` every few milliseconds until it gives a value, failing after `limit`
/// with `what` and the worker's log.
async fn poll<T>(
    conn: &mut AnyConnection,
    limit: Duration,
    what: &str,
    worker: &Worker,
    mut probe: impl AsyncFnMut(&mut AnyConnection) -> Option<T>,
) -> T {
    let started = Instant::now();
    loop {
        if let Some(value) = probe(conn).await {
            return value;
        }
        assert!(started.elapsed() < limit, "{what}: {}", worker.log());
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

async fn a_worker_killed_mid_review_leaves_it_to_another(db: TestDb) -> TestDb {
    // A finished 7x7 Swaptimum game between two level-1 AIs, played by a worker.
    let store = Store::open(&db.url).await.unwrap();
    create_ai_game(&store, "rev", 7, [1, 1]).await;
    let mut conn = AnyConnection::connect(&db.url).await.unwrap();
    let player = Worker::start(&db, "player");
    let plies: i64 = poll(
        &mut conn,
        Duration::from_secs(60),
        "the game never ended",
        &player,
        async |conn| {
            let row = sqlx::query("SELECT status, ply FROM games WHERE id = 'rev'")
                .fetch_one(conn)
                .await
                .unwrap();
            (row.get::<String, _>(0) == "finished").then(|| row.get(1))
        },
    )
    .await;
    drop(player);

    // Asked as the server asks: one position more than the moves.
    let total = u32::try_from(plies + 1).unwrap();
    assert!(store.request_review("rev", total).await.unwrap());
    store.close().await;

    // The first worker claims the review and is killed with SIGKILL once it has reviewed a
    // position, long before the last.
    let mut first = Worker::start(&db, "first");
    let holder = first.claim_name("first");
    let lease_until = poll(
        &mut conn,
        Duration::from_secs(60),
        "the first worker reviewed nothing",
        &first,
        async |conn| match review_row(conn).await {
            Some((_, Some(by), Some(until), done)) if by == holder && done >= 1 => Some(until),
            _ => None,
        },
    )
    .await;
    first.child.kill().unwrap();
    let status = first.child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status:?}");
    let killed_at = now_ms();
    let (state, by, until, done) = review_row(&mut conn).await.unwrap();
    assert_eq!(
        (state.as_str(), by.as_deref()),
        ("running", Some(holder.as_str()))
    );
    let lease_until = until.unwrap_or(lease_until);
    assert!(
        killed_at < lease_until,
        "the kill came {} ms after the lease had run out",
        killed_at - lease_until
    );
    assert!(
        done < i64::from(total),
        "killed after {done} of {total} positions"
    );

    // A second worker starts at once: it leaves the review to the dead worker until the
    // lease runs out, then takes it and reviews the whole game.
    let second = Worker::start(&db, "second");
    let second_name = second.claim_name("second");
    let mut taken_until = None;
    poll(
        &mut conn,
        Duration::from_secs(180),
        "the second worker never finished the review",
        &second,
        async |conn| {
            let (state, by, until, _) = review_row(conn).await.unwrap();
            let now = now_ms();
            match by {
                Some(by) if by == holder => assert!(
                    taken_until.is_none(),
                    "the dead worker's claim came back at {now} ms"
                ),
                Some(by) if by == second_name => {
                    taken_until.get_or_insert(until.expect("a claim has a lease"));
                }
                None => {}
                Some(other) => panic!("claimed by {other} at {now} ms"),
            }
            if now < lease_until {
                assert!(
                    taken_until.is_none(),
                    "the review was taken {} ms before the lease ran out",
                    lease_until - now
                );
            }
            (state == "done").then_some(())
        },
    )
    .await;
    drop(second);
    let second_until = taken_until.expect("the second worker's claim was seen");
    let claimed_at = second_until - i64::from(LEASE_S) * 1000;
    assert!(
        claimed_at > lease_until,
        "claimed at {claimed_at} ms, the first lease until {lease_until} ms"
    );

    // Every move of the game is judged, in order, once.
    let moves: String = sqlx::query("SELECT moves FROM reviews WHERE game_id = 'rev'")
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get(0);
    let reviewed: Vec<serde_json::Value> = serde_json::from_str(&moves).unwrap();
    let judged: Vec<i64> = reviewed
        .iter()
        .map(|m| m["ply"].as_i64().unwrap())
        .collect();
    assert_eq!(judged, (1..=plies).collect::<Vec<_>>(), "{moves}");
    conn.close().await.unwrap();
    db
}

each_database!(
    a_worker_killed_with_sigkill_mid_review_leaves_it_to_another,
    a_worker_killed_mid_review_leaves_it_to_another
);

each_database!(
    a_worker_killed_with_sigkill_mid_search_leaves_the_move_to_another_once,
    a_worker_killed_mid_search_leaves_its_move_to_another_once
);
