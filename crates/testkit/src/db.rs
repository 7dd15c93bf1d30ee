//! A database of each backend that lives as long as its test: a SQLite file in a folder of
//! its own, or a PostgreSQL database cloned from a template migrated once per test process.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::{Connection as _, PgConnection, Row as _};
use swapboard_server::store::Store;

/// The environment variable naming the PostgreSQL server the tests use, as an admin URL
/// (they create and drop their own databases on it). Set, a server that cannot be reached
/// fails the tests; unset, the local default is tried and, when nobody answers there, the
/// PostgreSQL half of each test is not run (and the run says so).
pub const PG_VARIABLE: &str = "SWAPBOARD_TEST_PG";

/// The admin URL tried when [`PG_VARIABLE`] is unset.
const DEFAULT_PG: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// The prefix of every database the tests create, and of their templates.
const TEST_PREFIX: &str = "swapboard_test";
const TEMPLATE_PREFIX: &str = "swapboard_template";

/// A database of one backend that lives as long as the test.
pub struct TestDb {
    /// The URL the server is given.
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Dir(PathBuf),
    Database { admin_url: String, name: String },
}

/// A name no other test of this run or another run uses; the process id comes first after
/// the prefix, so that a later run can tell a database whose process is gone.
fn unique(prefix: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("the system's clock is after 1970")
        .subsec_nanos();
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Whether the PostgreSQL server of the tests must be there: [`PG_VARIABLE`] is set.
fn postgres_required() -> bool {
    std::env::var_os(PG_VARIABLE).is_some()
}

/// The admin URL of the tests' PostgreSQL server.
fn admin_url() -> String {
    std::env::var(PG_VARIABLE).unwrap_or_else(|_| DEFAULT_PG.to_owned())
}

/// The URL of database `name` on the server of `admin_url`.
fn database_url(admin_url: &str, name: &str) -> String {
    let (server, _) = admin_url
        .rsplit_once('/')
        .expect("a PostgreSQL URL ends with /DATABASE");
    format!("{server}/{name}")
}

/// Says once, on the process's standard error and past the test harness's capture, that the
/// PostgreSQL half is not being run.
fn say_postgres_not_run(admin_url: &str, error: &sqlx::Error) {
    static SAID: OnceLock<()> = OnceLock::new();
    SAID.get_or_init(|| {
        // Written to the stream itself rather than with `eprintln!`: the harness keeps what
        // the macros print for failing tests only, and this must be seen on a passing run.
        let _ = writeln!(
            std::io::stderr(),
            "\nNOTE: PostgreSQL does not answer at {admin_url} ({error}): the PostgreSQL half \
             of these tests is NOT run (each `::postgres` test passes without running). \
             Start it, or set {PG_VARIABLE} to an admin URL to require it (CI does).\n"
        );
    });
}

/// An admin connection to the tests' PostgreSQL server, or `None` when it is not there and
/// not required.
async fn admin_connection() -> Option<(String, PgConnection)> {
    let admin_url = admin_url();
    match PgConnection::connect(&admin_url).await {
        Ok(conn) => Some((admin_url, conn)),
        Err(e) if !postgres_required() => {
            say_postgres_not_run(&admin_url, &e);
            None
        }
        Err(e) => panic!(
            "PostgreSQL is needed by this test and cannot be reached at {admin_url} \
             ({PG_VARIABLE} is set; unset it to run the SQLite half alone, or start the server: \
             pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start): {e}"
        ),
    }
}

/// Whether the process whose id a test database's name holds is still running (a name of
/// another shape counts as running: it is not ours to drop).
fn creator_alive(name: &str, prefix: &str) -> bool {
    let Some(pid) = name
        .strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix('_'))
        .and_then(|rest| rest.split('_').next())
        .and_then(|pid| pid.parse::<u32>().ok())
    else {
        return true;
    };
    pid == std::process::id() || std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// Drops the test databases and templates that earlier runs left behind (a run killed
/// midway, or the template every run leaves for the next to drop).
async fn sweep_leftovers(admin: &mut PgConnection) {
    let names: Vec<String> =
        sqlx::query("SELECT datname FROM pg_database WHERE datname LIKE 'swapboard\\_%'")
            .fetch_all(&mut *admin)
            .await
            .expect("listing the server's databases")
            .iter()
            .map(|row| row.get::<String, _>(0))
            .collect();
    for name in names {
        let stale = [TEST_PREFIX, TEMPLATE_PREFIX]
            .iter()
            .any(|prefix| name.starts_with(prefix) && !creator_alive(&name, prefix));
        if stale {
            let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            // Another run's sweep may be dropping it too: either way it goes.
            let _ = sqlx::raw_sql(&drop).execute(&mut *admin).await;
        }
    }
}

/// The name of this process's template: a database migrated by the server's own store,
/// made at the first call (sweeping what earlier runs left) and cloned for each test.
async fn template(admin_url: &str, admin: &mut PgConnection) -> String {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            sweep_leftovers(admin).await;
            let name = unique(TEMPLATE_PREFIX);
            let create = format!("CREATE DATABASE {name}");
            sqlx::raw_sql(&create)
                .execute(&mut *admin)
                .await
                .expect("creating the tests' template database");
            let store = Store::open(&database_url(admin_url, &name))
                .await
                .expect("migrating the tests' template database");
            store.close().await;
            name
        })
        .await
        .clone()
}

impl TestDb {
    /// A SQLite file in a new temporary folder.
    pub fn sqlite() -> TestDb {
        // Every test may open an `Any` connection to its database.
        sqlx::any::install_default_drivers();
        let dir = std::env::temp_dir().join(unique("swapboard_server_test"));
        std::fs::create_dir_all(&dir).expect("creating a temporary folder");
        let url = format!("sqlite://{}?mode=rwc", dir.join("swapboard.db").display());
        TestDb {
            url,
            cleanup: Cleanup::Dir(dir),
        }
    }

    /// A new database on the tests' PostgreSQL server ([`PG_VARIABLE`]), migrated (a copy
    /// of this process's template), or `None` when no server answers and none is required
    /// (a test about PostgreSQL alone then returns at once: `let Some(db) = ... else`).
    pub async fn postgres() -> Option<TestDb> {
        TestDb::postgres_made(true).await
    }

    /// A new database on the tests' PostgreSQL server with no table at all (what a restore
    /// goes into), or `None` as [`TestDb::postgres`].
    pub async fn postgres_empty() -> Option<TestDb> {
        TestDb::postgres_made(false).await
    }

    async fn postgres_made(migrated: bool) -> Option<TestDb> {
        sqlx::any::install_default_drivers();
        let (admin_url, mut admin) = admin_connection().await?;
        let name = unique(TEST_PREFIX);
        let create = if migrated {
            let template = template(&admin_url, &mut admin).await;
            format!("CREATE DATABASE {name} TEMPLATE {template}")
        } else {
            format!("CREATE DATABASE {name}")
        };
        {
            // One at a time: PostgreSQL refuses to copy a template that another session is
            // reading, and a copy takes a fraction of a second.
            static CREATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
            let _one_at_a_time = CREATING.lock().await;
            sqlx::raw_sql(&create)
                .execute(&mut admin)
                .await
                .unwrap_or_else(|e| panic!("{create}: {e}"));
        }
        let _ = admin.close().await;
        Some(TestDb {
            url: database_url(&admin_url, &name),
            cleanup: Cleanup::Database { admin_url, name },
        })
    }

    /// The SQLite file of a SQLite database (whether or not it exists yet); `None` on
    /// PostgreSQL.
    pub fn sqlite_file(&self) -> Option<std::path::PathBuf> {
        match &self.cleanup {
            Cleanup::Dir(dir) => Some(dir.join("swapboard.db")),
            Cleanup::Database { .. } => None,
        }
    }

    /// Removes the database (call at the end of the test, after the server stopped).
    pub async fn drop_it(self) {
        match self.cleanup {
            Cleanup::Dir(dir) => {
                // A task of the stopped server may still be closing its SQLite connection,
                // whose journal files can appear while the folder is being emptied: try
                // again for a few seconds before calling it a failure.
                for attempt in 1.. {
                    match std::fs::remove_dir_all(&dir) {
                        Ok(()) => break,
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                        Err(e) if attempt >= 50 => panic!("removing {}: {e}", dir.display()),
                        Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
                    }
                }
            }
            Cleanup::Database { admin_url, name } => {
                let mut admin = PgConnection::connect(&admin_url)
                    .await
                    .expect("reconnecting to drop a test database");
                let drop = format!("DROP DATABASE {name} WITH (FORCE)");
                sqlx::raw_sql(&drop)
                    .execute(&mut admin)
                    .await
                    .expect("dropping a test database");
            }
        }
    }
}

/// Runs one statement on the test's database (the tests' seam for what no route does, such
/// as a stored instant moved into the past).
pub async fn execute(db: &TestDb, statement: &str) {
    let mut conn = connection(db).await;
    sqlx::query(statement)
        .execute(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("{statement}: {e}"));
    let _ = conn.close().await;
}

/// The number one query gives (`SELECT count(*) ...`) on the test's database.
pub async fn count(db: &TestDb, query: &str) -> i64 {
    let mut conn = connection(db).await;
    let n: i64 = sqlx::query_scalar(query)
        .fetch_one(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    let _ = conn.close().await;
    n
}

/// A connection of its own to the test's database.
async fn connection(db: &TestDb) -> sqlx::AnyConnection {
    sqlx::any::install_default_drivers();
    sqlx::AnyConnection::connect(&db.url)
        .await
        .expect("connecting to the test's database")
}

/// Runs a scenario on a database and removes the database after it: the body of each test
/// [`each_database!`](crate::each_database) makes.
pub async fn run_scenario<F, Fut>(db: TestDb, scenario: F)
where
    F: FnOnce(TestDb) -> Fut,
    Fut: Future<Output = TestDb>,
{
    scenario(db).await.drop_it().await;
}
