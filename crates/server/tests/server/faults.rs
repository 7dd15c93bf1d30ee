//! Faults heal themselves (issue 24): a SQLite database that cannot grow (its quota,
//! `--sqlite-max-mib`, i.e. `PRAGMA max_page_count`, reached, as a full disk would) answers
//! 503 `storage_full` to writes while it lasts, `/readyz` says so, and once space is freed
//! every write works again without a restart: no connection is left in a failed
//! transaction. Also: a new `sqlite:FILE` is created, readable by its owner only.

use std::time::Duration;

use serde_json::json;
use sqlx::Connection as _;
use swapboard_server::Server;

use crate::common::{Client, TestDb, auth, bearer, game_between, generous, options};

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
    // Writes that need a page now fail (the first few may still fit in a page's free
    // space): each is a 503 `storage_full` asking to come back later, never a 500, however
    // many there are; the issue saw every write answer 500 after three.
    let mut tried = 0;
    let mut full = 0;
    while full < 8 {
        assert!(tried < 300, "no sign-up met the full database in {tried}");
        let (status, code, retry) = sign_up(&client, &format!("full{tried}")).await;
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
    assert_eq!(client.get("/readyz", &[]).await.status, 200);
    for i in 0..10 {
        assert_eq!(sign_up(&client, &format!("after{i}")).await.0, 201);
    }
    let moved = client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": "c3", "ply": 0}),
            &auth(&ann),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
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
