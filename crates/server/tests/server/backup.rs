//! Backups that are proven to restore (issue 24): moves are played while `backup_to` copies
//! the database; the copy is restored into a new database, a server started on it, and
//! every move acknowledged before the backup began is there.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use swapboard_play::AnyPosition;
use swapboard_server::store::Store;
use swapboard_server::{backup_to, restore_from};
use swapboard_testkit::{
    Client, TestDb, auth, bearer, count, each_database, game_between, generous, start,
};

/// Games played at once during the backup.
const GAMES: usize = 8;

/// The game's next legal move (the first the rules list) and its ply, from a game's JSON.
fn next_move(game: &Value) -> Option<(String, u64)> {
    if game["status"] != "playing" {
        return None;
    }
    let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
    // A 13x13 Flipstop position has at most 169 moves.
    let first = position.legal_moves(1_000)?.into_iter().next()?;
    Some((first, game["ply"].as_u64().unwrap()))
}

async fn backup_while_playing(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Arc::new(Client::new(&server));
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let mut ids = Vec::new();
    for _ in 0..GAMES {
        ids.push(game_between(&client, "flipstop", 13, &ann, (&bob, "bob")).await);
    }
    // Each game is played on, move after move, until told to stop; each acknowledged move is
    // recorded with the time its answer came.
    let stop = Arc::new(AtomicBool::new(false));
    let mut players = Vec::new();
    for id in ids.clone() {
        let (client, stop) = (Arc::clone(&client), Arc::clone(&stop));
        let bearers = [ann.clone(), bob.clone()];
        players.push(tokio::spawn(async move {
            let mut acknowledged: Vec<(u64, Instant)> = Vec::new();
            let mut game = client.get(&format!("/api/games/{id}"), &[]).await.json;
            while !stop.load(Ordering::Relaxed) {
                let Some((text, ply)) = next_move(&game) else {
                    break;
                };
                let who = &bearers[usize::try_from(ply % 2).unwrap()];
                let played = client
                    .post(
                        &format!("/api/games/{id}/moves"),
                        &json!({"move": text, "ply": ply}),
                        &auth(who),
                    )
                    .await;
                assert_eq!(played.status, 200, "{}", played.text);
                acknowledged.push((ply + 1, Instant::now()));
                game = played.json;
            }
            (id, acknowledged)
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let dir = tempdir_of(&db, "while_playing");
    let file = dir.join("backup.bin");
    let began = Instant::now();
    backup_to(&db.url, &file).await.unwrap();
    let ended = Instant::now();
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::Relaxed);
    let mut played = Vec::new();
    for player in players {
        played.push(player.await.unwrap());
    }
    server.stop().await.unwrap();
    #[cfg(unix)]
    {
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&file).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }

    // Restored into a new database and served: every move acknowledged before the backup
    // began is there; the ones during it may or may not be.
    let copy = fresh_like(&db).await;
    restore_from(&file, &copy.url).await.unwrap();
    let restored = start(&copy, generous()).await;
    let reader = Client::new(&restored);
    let (mut before, mut during, mut after) = (0, 0, 0);
    for (id, acknowledged) in &played {
        let game = reader.get(&format!("/api/games/{id}"), &[]).await;
        assert_eq!(game.status, 200, "{}", game.text);
        let ply = game.json["ply"].as_u64().unwrap();
        for &(move_ply, at) in acknowledged {
            if at < began {
                before += 1;
                assert!(
                    move_ply <= ply,
                    "game {id}: move {move_ply} acknowledged before the backup is missing (ply {ply})"
                );
            } else if at <= ended {
                during += 1;
            } else {
                after += 1;
            }
        }
    }
    assert!(
        before > 0 && during + after > 0,
        "{before} {during} {after}"
    );
    println!(
        "backup: {before} moves before it, {during} during its {:?}, {after} after",
        ended - began
    );
    restored.stop().await.unwrap();
    copy.drop_it().await;
    std::fs::remove_dir_all(&dir).unwrap();
    db
}

/// A new temporary folder for the backups of one test (`test`) on one database.
fn tempdir_of(db: &TestDb, test: &str) -> std::path::PathBuf {
    let backend = if db.sqlite_file().is_some() {
        "sqlite"
    } else {
        "postgres"
    };
    let dir = std::env::temp_dir().join(format!(
        "swapboard_backup_{}_{test}_{backend}",
        std::process::id(),
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A new, empty database of the same backend as `db`.
async fn fresh_like(db: &TestDb) -> TestDb {
    if db.url.starts_with("sqlite:") {
        // A URL naming a file that does not exist yet: the restore creates it.
        TestDb::sqlite()
    } else {
        TestDb::postgres_empty()
            .await
            .expect("PostgreSQL answered for the first database")
    }
}

each_database!(
    a_backup_taken_while_moves_are_played_restores_every_acknowledged_move,
    backup_while_playing
);

async fn a_failed_restore_leaves_nothing(db: TestDb) -> TestDb {
    // The database made and migrated, as a server's first start would.
    Store::open(&db.url).await.unwrap().close().await;
    let dir = tempdir_of(&db, "failed_restore");
    let file = dir.join("backup.bin");
    backup_to(&db.url, &file).await.unwrap();
    // A backup whose second half was lost (a copy cut short): it starts as a backup should.
    let whole = std::fs::read(&file).unwrap();
    let damaged = dir.join("damaged.bin");
    std::fs::write(&damaged, &whole[..whole.len() * 3 / 5]).unwrap();
    // Another user may read the backup (copied with the wrong mode): the database may not.
    #[cfg(unix)]
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();

    let copy = fresh_like(&db).await;
    let refused = restore_from(&damaged, &copy.url).await.unwrap_err();
    println!("the damaged backup: {refused:#}");
    // Nothing of it is left: the database is as empty as before, so the retry is taken.
    match copy.sqlite_file() {
        Some(path) => {
            assert!(
                !path.exists(),
                "a half-restored {} was left",
                path.display()
            );
            let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
                .unwrap()
                .filter_map(|entry| entry.ok())
                .filter(|entry| entry.file_name().to_string_lossy().contains("restoring"))
                .collect();
            assert!(leftovers.is_empty(), "{leftovers:?}");
        }
        None => {
            let tables = "SELECT count(*) FROM information_schema.tables \
                          WHERE table_schema = 'public'";
            assert_eq!(
                count(&copy, tables).await,
                0,
                "a half-restored database was left"
            );
        }
    }
    restore_from(&file, &copy.url).await.unwrap();
    #[cfg(unix)]
    if let Some(path) = copy.sqlite_file() {
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&path).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600, "the restored database is {mode:o}");
    }
    // A second restore into what is now a database is refused, saying why.
    let again = restore_from(&file, &copy.url)
        .await
        .unwrap_err()
        .to_string();
    assert!(again.contains("a restore goes into"), "{again}");
    copy.drop_it().await;
    std::fs::remove_dir_all(&dir).unwrap();
    db
}

each_database!(
    a_failed_restore_leaves_nothing_and_the_retry_restores_a_private_database,
    a_failed_restore_leaves_nothing
);
