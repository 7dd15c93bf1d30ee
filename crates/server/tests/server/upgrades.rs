//! Safe upgrades (issue 48): a database migrated further than the binary knows is refused in
//! one sentence naming both; a command that may not migrate refuses a database behind it; a
//! newer instance does not migrate the schema under an older one still running, unless told
//! to; each running instance is recorded with its version, and marked stopped at its stop.

use std::borrow::Cow;

use sqlx::Connection as _;
use sqlx::migrate::{Migration, MigrationType, Migrator};
use swapboard_server::store::{Migrations, Store, StoreOptions};
use swapboard_server::{Clock, VERSION};
use swapboard_testkit::{TestDb, count, each_database, execute, generous, start};

/// Opens the test's database as a command that migrates `migrations`.
async fn open(db: &TestDb, migrations: Migrations) -> anyhow::Result<Store> {
    let options = StoreOptions {
        migrations,
        clock: Clock::real(),
        ..StoreOptions::default()
    };
    Store::open_with(&db.url, options).await
}

/// The error of opening, as the command would print it.
async fn refusal(db: &TestDb, migrations: Migrations) -> String {
    let refused = open(db, migrations)
        .await
        .expect_err("the database is refused");
    format!("{refused:#}")
}

/// This binary's migrations of `backend` (`sqlite` or `postgres`) numbered below `version`,
/// read from the repository's files: the schema of an earlier release.
pub(crate) fn migrator_before(backend: &str, version: i64) -> Migrator {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(backend);
    let mut migrations: Vec<Migration> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| {
            let name = path.file_stem()?.to_str()?.to_owned();
            let number: i64 = name.split('_').next()?.parse().ok()?;
            (number < version).then(|| {
                Migration::new(
                    number,
                    Cow::Owned(name),
                    MigrationType::Simple,
                    Cow::Owned(std::fs::read_to_string(&path).unwrap()),
                    false,
                )
            })
        })
        .collect();
    migrations.sort_by_key(|m| m.version);
    assert_eq!(migrations.last().map(|m| m.version), Some(version - 1));
    Migrator {
        migrations: Cow::Owned(migrations),
        ..Migrator::DEFAULT
    }
}

/// Empties the test's database and lays down the schema before migration `version`: the
/// database of the release before, as its upgrade finds it.
async fn as_before(db: &TestDb, version: i64) {
    let backend = match db.sqlite_file() {
        Some(file) => {
            for suffix in ["", "-wal", "-shm"] {
                let mut path = file.clone().into_os_string();
                path.push(suffix);
                let _ = std::fs::remove_file(path);
            }
            "sqlite"
        }
        None => {
            execute(db, "DROP SCHEMA public CASCADE").await;
            execute(db, "CREATE SCHEMA public").await;
            "postgres"
        }
    };
    sqlx::any::install_default_drivers();
    let mut connection = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    migrator_before(backend, version)
        .run(&mut connection)
        .await
        .unwrap();
    connection.close().await.unwrap();
}

async fn upgrades(db: TestDb) -> TestDb {
    let ours = Store::open(&db.url).await.unwrap();
    let schema = ours.schema();
    ours.close().await;

    // A running server records itself, and its stop.
    let server = start(&db, generous()).await;
    let running = format!(
        "SELECT count(*) FROM instances WHERE version = '{VERSION}' AND schema = {schema} \
         AND stopped_ms IS NULL"
    );
    assert_eq!(count(&db, &running).await, 1);
    server.stop().await.unwrap();
    assert_eq!(count(&db, &running).await, 0);

    // As before an upgrade: the database one migration behind (its row and its tables
    // gone), an older instance running.
    let now = Clock::real().now_ms();
    as_before(&db, schema).await;
    execute(
        &db,
        &format!(
            "INSERT INTO instances (id, version, schema, started_ms, seen_ms) \
             VALUES ('old', '0.0.9', {}, {now}, {now})",
            schema - 1
        ),
    )
    .await;
    let held = refusal(&db, Migrations::Auto).await;
    assert!(
        held.contains("swapboard 0.0.9")
            && held.contains("is running")
            && held.contains("--migrate always"),
        "{held}"
    );
    let behind = refusal(&db, Migrations::Never).await;
    assert!(
        behind.contains(&format!("schema {}", schema - 1)) && behind.contains("swapboard migrate"),
        "{behind}"
    );
    // The old instance stopped, the newer one migrates.
    execute(
        &db,
        "UPDATE instances SET stopped_ms = seen_ms WHERE id = 'old'",
    )
    .await;
    let migrated = open(&db, Migrations::Auto).await.unwrap();
    assert_eq!(migrated.found_schema(), schema - 1);
    migrated.close().await;
    let at_once = open(&db, Migrations::Never).await.unwrap();
    assert_eq!(at_once.found_schema(), schema);
    at_once.close().await;

    // Migrated further by a newer version: refused, naming both versions.
    let future = if db.sqlite_file().is_some() {
        "x'00'"
    } else {
        "'\\x00'::bytea"
    };
    execute(
        &db,
        &format!(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, \
             execution_time) VALUES ({}, 'the future', TRUE, {future}, 0)",
            schema + 1
        ),
    )
    .await;
    execute(
        &db,
        &format!(
            "INSERT INTO instances (id, version, schema, started_ms, seen_ms, stopped_ms) \
             VALUES ('new', '9.0.0', {}, {now}, {now}, {now})",
            schema + 1
        ),
    )
    .await;
    for migrations in [Migrations::Auto, Migrations::Always, Migrations::Never] {
        let ahead = refusal(&db, migrations).await;
        assert!(
            ahead.contains(&format!("schema {}", schema + 1))
                && ahead.contains("swapboard 9.0.0")
                && ahead.contains(&format!("swapboard {VERSION}")),
            "{ahead}"
        );
    }
    execute(
        &db,
        &format!(
            "DELETE FROM _sqlx_migrations WHERE version = {}",
            schema + 1
        ),
    )
    .await;
    db
}

each_database!(
    a_database_is_migrated_only_when_no_older_instance_runs_and_never_past_the_binary,
    upgrades
);
