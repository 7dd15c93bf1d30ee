//! Safe upgrades (issue 48): a database migrated further than the binary knows is refused in
//! one sentence naming both; a command that may not migrate refuses a database behind it; a
//! newer instance does not migrate the schema under an older one still running, unless told
//! to; each running instance is recorded with its version, and marked stopped at its stop.

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

/// The tables the migration numbered `version` of the test's backend creates.
fn tables_of_migration(db: &TestDb, version: i64) -> Vec<String> {
    let backend = if db.sqlite_file().is_some() {
        "sqlite"
    } else {
        "postgres"
    };
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(backend);
    let prefix = format!("{version:04}_");
    let file = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&prefix)
        })
        .expect("the last migration's file");
    let text = std::fs::read_to_string(file).unwrap();
    let tables: Vec<String> = text
        .split("CREATE TABLE ")
        .skip(1)
        .map(|rest| rest.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert!(
        !tables.is_empty(),
        "migration {version} creates no table: undo it here by hand"
    );
    tables
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
    execute(
        &db,
        &format!("DELETE FROM _sqlx_migrations WHERE version = {schema}"),
    )
    .await;
    for table in tables_of_migration(&db, schema) {
        execute(&db, &format!("DROP TABLE {table}")).await;
    }
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
