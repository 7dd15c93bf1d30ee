//! `swapboard ai-worker` as a process: one killed with `kill -9` (SIGKILL) in the middle of a
//! search holds its job until its lease runs out, and only then does another worker take it
//! and make the move, once. On a SQLite file and on a PostgreSQL database.

use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sqlx::{AnyConnection, Connection as _, Row as _};
use swapboard_server::store::{NewGame, Seat, Store};

/// The workers' lease: long enough to watch the job stay with the killed worker, short
/// enough for a quick test.
const LEASE_S: u32 = 2;

/// A database of one backend, and a folder for the workers' logs, for one test.
struct Database {
    url: String,
    dir: PathBuf,
    /// The admin URL and name of a PostgreSQL database to drop at the end.
    postgres: Option<(String, String)>,
}

/// A name no other test of this run or another run uses.
fn unique(prefix: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{prefix}_{}_{nanos}", std::process::id())
}

impl Database {
    /// A new SQLite file.
    fn sqlite() -> Database {
        sqlx::any::install_default_drivers();
        let dir = std::env::temp_dir().join(unique("swapboard_ai_worker_sqlite"));
        std::fs::create_dir_all(&dir).unwrap();
        Database {
            url: format!("sqlite://{}?mode=rwc", dir.join("jobs.db").display()),
            dir,
            postgres: None,
        }
    }

    /// A new database on the PostgreSQL server of `SWAPBOARD_TEST_PG` (default: the local
    /// one), as the server's tests make theirs: a server that cannot be reached fails the
    /// test.
    async fn postgres() -> Database {
        sqlx::any::install_default_drivers();
        let admin_url = std::env::var("SWAPBOARD_TEST_PG")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let name = unique("swapboard_test_ai_worker");
        let dir = std::env::temp_dir().join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        let mut admin = AnyConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("PostgreSQL at {admin_url} (SWAPBOARD_TEST_PG): {e}"));
        sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap();
        admin.close().await.unwrap();
        let (server, _) = admin_url
            .rsplit_once('/')
            .expect("a URL ending in /DATABASE");
        Database {
            url: format!("{server}/{name}"),
            dir,
            postgres: Some((admin_url, name)),
        }
    }

    /// Removes the database and the logs (at the end of the test, the workers stopped).
    async fn drop_it(self) {
        if let Some((admin_url, name)) = self.postgres {
            let mut admin = AnyConnection::connect(&admin_url).await.unwrap();
            sqlx::raw_sql(&format!("DROP DATABASE {name} WITH (FORCE)"))
                .execute(&mut admin)
                .await
                .unwrap();
        }
        std::fs::remove_dir_all(self.dir).unwrap();
    }
}

/// A running `swapboard ai-worker`, killed if the test fails first.
struct Worker {
    child: Child,
    log: PathBuf,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Worker {
    /// Starts `swapboard ai-worker` on the database, named `name` in the jobs it claims (its
    /// claims read `NAME-PID-0`: the worker names itself after `$HOSTNAME`).
    fn start(db: &Database, name: &str) -> Worker {
        let log = db.dir.join(format!("{name}.log"));
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

async fn a_worker_killed_mid_search_leaves_its_move_to_another_once(db: Database) -> Database {
    // A 9x9 Swaptimum game whose first seat is the AI at level 8: its first move is a
    // search of 150,000 iterations, seconds in a test build, long enough to be killed in.
    // The second seat is an AI too (a person's seat needs an account), at level 1.
    let store = Store::open(&db.url).await.unwrap();
    let position = swapboard_play::AnyPosition::start(swapboard_play::GameId::Swaptimum, 9)
        .unwrap()
        .to_string();
    store
        .create_game(&NewGame {
            id: "slow",
            game: "swaptimum",
            size: 9,
            position: &position,
            seats: [Seat::Ai(8), Seat::Ai(1)],
            clock: swapboard_play::TimeControl::None,
            invite: None,
            rated: false,
        })
        .await
        .unwrap();
    store.close().await;
    let mut conn = AnyConnection::connect(&db.url).await.unwrap();

    // The first worker writes the game's job as it starts, and claims it.
    let mut first = Worker::start(&db, "first");
    let started = Instant::now();
    let (holder, lease_until) = loop {
        if let Some((Some(holder), Some(lease_until))) = first_job(&mut conn).await {
            break (holder, lease_until);
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the first worker never claimed the job: {}",
            first.log()
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
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

#[tokio::test]
async fn a_worker_killed_with_sigkill_mid_search_leaves_the_move_to_another_once_on_sqlite() {
    a_worker_killed_mid_search_leaves_its_move_to_another_once(Database::sqlite())
        .await
        .drop_it()
        .await;
}

#[tokio::test]
async fn a_worker_killed_with_sigkill_mid_search_leaves_the_move_to_another_once_on_postgres() {
    a_worker_killed_mid_search_leaves_its_move_to_another_once(Database::postgres().await)
        .await
        .drop_it()
        .await;
}
