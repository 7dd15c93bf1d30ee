//! Faults heal themselves (issue 24): a SQLite database that cannot grow (its quota,
//! `--sqlite-max-mib`, i.e. `PRAGMA max_page_count`, reached, as a full disk would) answers
//! 503 `storage_full` to writes while it lasts, `/readyz` says so, and once space is freed
//! every write works again without a restart: no connection is left in a failed
//! transaction. The same on a real full disk: a small tmpfs filled to the last byte (as
//! root, who may mount one). Also: a new `sqlite:FILE` is created, readable by its owner
//! only.

use std::time::Duration;

use serde_json::json;
use sqlx::Connection as _;
use swapboard_server::Server;
use swapboard_testkit::{Client, TestDb, auth, bearer, game_between, generous, options};

/// The quota of the server under test, in MiB (256 pages of 4 KiB each).
const QUOTA_MIB: u32 = 2;

/// Grows the database from outside the server (a connection without its quota) until it
/// has as many pages as the quota, with rows of `filler`.
async fn fill_to_the_quota(file: &std::path::Path) -> sqlx::SqliteConnection {
    let mut own = sqlx::SqliteConnection::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    sqlx::raw_sql("CREATE TABLE filler (b BLOB NOT NULL)")
        .execute(&mut own)
        .await
        .unwrap();
    let quota_pages = i64::from(QUOTA_MIB) * 256;
    loop {
        let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
            .fetch_one(&mut own)
            .await
            .unwrap();
        let free: i64 = sqlx::query_scalar("PRAGMA freelist_count")
            .fetch_one(&mut own)
            .await
            .unwrap();
        if pages >= quota_pages && free == 0 {
            return own;
        }
        sqlx::query("INSERT INTO filler (b) VALUES (zeroblob(2000))")
            .execute(&mut own)
            .await
            .unwrap();
    }
}

async fn sign_up(client: &Client, name: &str) -> (u16, String, String) {
    let answer = client
        .post(
            "/api/accounts",
            &json!({"name": name, "password": "correct horse"}),
            &[],
        )
        .await;
    let retry = answer
        .headers
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (answer.status.as_u16(), answer.code().to_owned(), retry)
}

/// Signs up until the storage is full: every refusal a 503 `storage_full` asking to come
/// back in 30 s, never a 500, eight in a row (the first sign-ups may still fit in pages the
/// files already have; the issue saw every write answer 500 after three).
async fn until_storage_full(client: &Client) {
    let mut tried = 0;
    let mut full = 0;
    while full < 8 {
        assert!(tried < 300, "no sign-up met the full storage in {tried}");
        let (status, code, retry) = sign_up(client, &format!("full{tried}")).await;
        tried += 1;
        match status {
            201 if full == 0 => {}
            503 => {
                assert_eq!(code, "storage_full");
                assert_eq!(retry, "30");
                full += 1;
            }
            other => panic!("sign-up {tried} while full: {other} {code}"),
        }
    }
}

/// Once space is freed, the same server is ready and writes again: ten sign-ups and a move
/// of `player` in game `id`.
async fn writes_again(client: &Client, id: &str, player: &str) {
    assert_eq!(client.get("/readyz", &[]).await.status, 200);
    for i in 0..10 {
        assert_eq!(sign_up(client, &format!("after{i}")).await.0, 201);
    }
    let moved = client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": "c3", "ply": 0}),
            &auth(player),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
}

#[tokio::test]
async fn a_full_sqlite_database_answers_503_and_heals_without_a_restart() {
    let db = TestDb::sqlite();
    let file = db
        .url
        .strip_prefix("sqlite://")
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let file = std::path::PathBuf::from(file);
    let mut options = options(&db, generous());
    options.sqlite_max_mib = Some(QUOTA_MIB);
    let server = Server::start(&options).await.unwrap();
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let id = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    assert_eq!(client.get("/readyz", &[]).await.status, 200);

    let mut own = fill_to_the_quota(&file).await;
    // Writes that need a page now fail, each a 503.
    until_storage_full(&client).await;
    let ready = client.get("/readyz", &[]).await;
    ready.assert_error(503, "storage_full");
    // Reads go on.
    assert_eq!(client.get("/healthz", &[]).await.status, 200);
    assert_eq!(
        client.get(&format!("/api/games/{id}"), &[]).await.status,
        200
    );

    // Space is freed: everything works again, with the same server.
    sqlx::raw_sql("DELETE FROM filler")
        .execute(&mut own)
        .await
        .unwrap();
    own.close().await.unwrap();
    writes_again(&client, &id, &ann).await;
    tokio::time::timeout(Duration::from_secs(30), server.stop())
        .await
        .unwrap()
        .unwrap();
    db.drop_it().await;
}

#[tokio::test]
async fn a_new_sqlite_file_is_created_readable_by_its_owner_only() {
    let db = TestDb::sqlite();
    let dir = std::path::PathBuf::from(
        db.url
            .strip_prefix("sqlite://")
            .unwrap()
            .rsplit_once('/')
            .unwrap()
            .0,
    );
    // `sqlite:FILE` without `?mode=rwc`, a file that does not exist yet.
    let file = dir.join("new.db");
    let mut options = options(&db, generous());
    options.database = Some(format!("sqlite:{}", file.display()));
    let server = Server::start(&options).await.unwrap();
    let client = Client::new(&server);
    bearer(&client, "ann").await;
    for name in ["new.db", "new.db-wal", "new.db-shm"] {
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(dir.join(name)).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600, "{name}: {mode:o}");
    }
    server.stop().await.unwrap();
    db.drop_it().await;
}

/// Whether the tests run as root (the effective user id of `/proc/self/status`).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            == Some("0")
    })
}

/// A tmpfs of a few MiB mounted on a folder of its own, unmounted when dropped.
struct SmallDisk {
    dir: std::path::PathBuf,
}

impl SmallDisk {
    /// Mounts one of `mib` MiB, or says why it cannot (only root may mount).
    fn mount(mib: u32) -> Result<SmallDisk, String> {
        let dir = std::env::temp_dir().join(format!(
            "swapboard-small-disk-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let mounted = std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={mib}m,mode=0700"),
                "tmpfs",
            ])
            .arg(&dir)
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if !mounted.status.success() {
            let _ = std::fs::remove_dir(&dir);
            return Err(String::from_utf8_lossy(&mounted.stderr).into_owned());
        }
        Ok(SmallDisk { dir })
    }

    /// Writes a file until the disk is full; returns its path.
    fn fill(&self) -> std::path::PathBuf {
        use std::io::Write as _;
        let path = self.dir.join("filler");
        let mut file = std::fs::File::create(&path).unwrap();
        let chunk = vec![0u8; 4096];
        loop {
            match file.write(&chunk) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::StorageFull => break,
                Err(e) => panic!("filling the small disk: {e}"),
            }
        }
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.dir)
            .status();
        let _ = std::fs::remove_dir(&self.dir);
    }
}

#[tokio::test]
async fn a_full_disk_answers_503_and_heals_once_space_is_freed() {
    if !is_root() {
        eprintln!(
            "NOT RUN: a_full_disk_answers_503_and_heals_once_space_is_freed mounts a tmpfs, which needs root"
        );
        return;
    }
    let disk = SmallDisk::mount(4).expect("root mounts a 4 MiB tmpfs");
    let db = TestDb::sqlite();
    let mut options = options(&db, generous());
    options.database = Some(format!(
        "sqlite:{}",
        disk.dir.join("swapboard.db").display()
    ));
    let server = Server::start(&options).await.unwrap();
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let id = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;

    // The write-ahead log keeps the size it grew to and is written over from its start, so
    // commits would not need a new byte for a long while: empty it first, then fill the disk.
    let mut own = sqlx::SqliteConnection::connect(&format!(
        "sqlite://{}",
        disk.dir.join("swapboard.db").display()
    ))
    .await
    .unwrap();
    let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(&mut own)
        .await
        .unwrap();
    assert_eq!(busy, 0, "the log could not be emptied");
    own.close().await.unwrap();
    let filler = disk.fill();
    // Writes that need a byte of the disk now fail, each a 503.
    until_storage_full(&client).await;
    assert_eq!(client.get("/healthz", &[]).await.status, 200);
    assert_eq!(
        client.get(&format!("/api/games/{id}"), &[]).await.status,
        200
    );

    // Space is freed: the same server writes again.
    std::fs::remove_file(&filler).unwrap();
    writes_again(&client, &id, &ann).await;
    tokio::time::timeout(Duration::from_secs(30), server.stop())
        .await
        .unwrap()
        .unwrap();
    drop(disk);
    db.drop_it().await;
}
