//! Storage: one `sqlx::AnyPool` on SQLite or PostgreSQL, the migrations of each backend, and
//! the queries the handlers need. The SQL is written once with `$N` placeholders, which both
//! drivers read, so the handlers never ask which backend runs; the few statements that must
//! differ (transaction start, row locks) are chosen here.

mod cache;
mod games;
pub(crate) mod puzzles;
pub(crate) mod ratings;
mod reviews;
mod rooms;

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use cache::Caches;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyConnection, AnyPool, Connection as _, Executor as _, Row as _};
use swapboard_play::names;

pub use games::moves::{Claim, Landed, MoveRequest, Played};
pub use games::{
    Finish, JoinError, MoveError, NewGame, Rematch, Seat, SeatRow, Status, StoredGame, Termination,
    Times, seat_of,
};
pub use reviews::ReviewState;
pub use rooms::{
    AuditEntry, BotSubmission, ImportedRoom, NewRoom, Occupant, RoomError, RoomSeat, RoomStatus,
    RoundInput, RoundResult, SeatAssignment, Started, StoredRoom, StoredRound, StoredSubmission,
    Trigger,
};

/// The PostgreSQL channel on which instances tell each other what changed.
pub(crate) const NOTIFY_CHANNEL: &str = "swapboard_changes";

/// The file created in the working directory when no database is named.
pub(crate) const DEFAULT_SQLITE_FILE: &str = "swapboard.db";

/// Which database the server stores into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    Sqlite,
    Postgres,
}

/// The database and what the server asks of it.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    caches: Arc<Caches>,
}

/// What logging in needs to know of an account.
pub(crate) struct Login {
    pub(crate) account_id: i64,
    pub(crate) name: String,
    pub(crate) password_hash: String,
}

/// What became of a sign-up.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NewAccount {
    /// Made, with this id.
    Created(i64),
    /// The name is taken, in some case.
    Taken,
    /// The name looks like this account's.
    LooksLike(String),
}

/// Whether a credential is a bearer token or a browser session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum CredentialKind {
    Token,
    Session,
}

impl CredentialKind {
    /// The kind a stored `kind` column names (the table's CHECK allows only these two).
    fn of_str(text: &str) -> CredentialKind {
        if text == "session" {
            CredentialKind::Session
        } else {
            CredentialKind::Token
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CredentialKind::Token => "token",
            CredentialKind::Session => "session",
        }
    }
}

/// A credential as its holder lists it (never its secret).
#[derive(Clone, Debug)]
pub(crate) struct CredentialRow {
    /// The SHA-256 of its secret, in hex.
    pub(crate) secret_hash: String,
    /// A token or a session.
    pub(crate) kind: CredentialKind,
    /// When it was made.
    pub(crate) created_ms: i64,
    /// When it ends by itself, if it does.
    pub(crate) expires_ms: Option<i64>,
}

/// The most credentials of one account a listing shows.
const MAX_LISTED_CREDENTIALS: i64 = 500;

/// The account a credential acts for.
#[derive(Clone, Debug)]
pub(crate) struct Holder {
    pub(crate) account_id: i64,
    pub(crate) name: String,
}

/// Milliseconds since the Unix epoch, as stored.
pub(crate) fn now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

impl Backend {
    fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }

    /// The backend a database URL names: `postgres://` or `postgresql://`, else SQLite.
    pub(crate) fn of_url(url: &str) -> anyhow::Result<Backend> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else {
            anyhow::bail!(
                "database URL: expected postgres://... or sqlite:FILE, got a URL of another scheme"
            )
        }
    }

    fn migrator(self) -> Migrator {
        // The migrations are embedded by hand rather than by `migrate!`: that macro needs
        // sqlx's proc-macro crate built with both drivers (SQLite's C library compiled a second
        // time for the host), a cost CI's two cores would pay on every clean build.
        let files: &[(i64, &str, &'static str)] = match self {
            Backend::Sqlite => &[
                (
                    1,
                    "schema",
                    include_str!("../migrations/sqlite/0001_schema.sql"),
                ),
                (
                    2,
                    "invitations",
                    include_str!("../migrations/sqlite/0002_invitations.sql"),
                ),
                (
                    3,
                    "clocks and live",
                    include_str!("../migrations/sqlite/0003_clocks_and_live.sql"),
                ),
                (
                    4,
                    "invites, rematches and reviews",
                    include_str!("../migrations/sqlite/0004_invites_rematch.sql"),
                ),
                (
                    5,
                    "rooms",
                    include_str!("../migrations/sqlite/0005_rooms.sql"),
                ),
                (
                    6,
                    "name skeletons",
                    include_str!("../migrations/sqlite/0006_name_skeletons.sql"),
                ),
                (
                    7,
                    "ratings",
                    include_str!("../migrations/sqlite/0007_ratings.sql"),
                ),
                (
                    8,
                    "puzzles",
                    include_str!("../migrations/sqlite/0008_puzzles.sql"),
                ),
            ],
            Backend::Postgres => &[
                (
                    1,
                    "schema",
                    include_str!("../migrations/postgres/0001_schema.sql"),
                ),
                (
                    2,
                    "invitations",
                    include_str!("../migrations/postgres/0002_invitations.sql"),
                ),
                (
                    3,
                    "clocks and live",
                    include_str!("../migrations/postgres/0003_clocks_and_live.sql"),
                ),
                (
                    4,
                    "invites, rematches and reviews",
                    include_str!("../migrations/postgres/0004_invites_rematch.sql"),
                ),
                (
                    5,
                    "rooms",
                    include_str!("../migrations/postgres/0005_rooms.sql"),
                ),
                (
                    6,
                    "name skeletons",
                    include_str!("../migrations/postgres/0006_name_skeletons.sql"),
                ),
                (
                    7,
                    "ratings",
                    include_str!("../migrations/postgres/0007_ratings.sql"),
                ),
                (
                    8,
                    "puzzles",
                    include_str!("../migrations/postgres/0008_puzzles.sql"),
                ),
            ],
        };
        let migrations = files
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    false,
                )
            })
            .collect::<Vec<_>>();
        Migrator {
            migrations: Cow::Owned(migrations),
            ..Migrator::DEFAULT
        }
    }
}

/// The URL of the default database: `swapboard.db` in the working directory, created if
/// missing.
pub(crate) fn default_sqlite_url() -> String {
    format!("sqlite:{DEFAULT_SQLITE_FILE}?mode=rwc")
}

/// A SQLite URL that creates its file when it is missing (`mode=rwc`), as the default does:
/// an operator naming a new file means it. A URL that names its own `mode` keeps it.
pub(crate) fn creating(url: &str) -> Cow<'_, str> {
    let Some(rest) = url.strip_prefix("sqlite:") else {
        return Cow::Borrowed(url);
    };
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if query.split('&').any(|pair| pair.starts_with("mode=")) || path.contains(":memory:") {
        return Cow::Borrowed(url);
    }
    let joiner = if query.is_empty() { "?" } else { "&" };
    Cow::Owned(format!("{url}{joiner}mode=rwc"))
}

/// The file a SQLite URL names (`sqlite:FILE`, `sqlite://FILE`, `sqlite:///ABSOLUTE`), if any.
pub(crate) fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let path = rest.split_once('?').map_or(rest, |(path, _)| path);
    let path = path.strip_prefix("//").unwrap_or(path);
    (!path.is_empty() && !path.contains(":memory:")).then(|| std::path::PathBuf::from(path))
}

/// Creates a missing SQLite file readable by its owner only (0600): it holds credential
/// hashes. SQLite gives its `-wal` and `-shm` files the database file's permissions.
pub(crate) fn create_private(path: &std::path::Path) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(anyhow::anyhow!(
            "cannot create the SQLite database {}: {e}",
            path.display()
        )),
    }
}

/// How a store is opened beyond its URL.
#[derive(Clone, Copy, Debug, Default)]
pub struct StoreOptions {
    /// SQLite only: the most pages (4 KiB each) the database may grow to (`PRAGMA
    /// max_page_count`), a quota below the disk's size. Past it writes fail as on a full
    /// disk (503 `storage_full`) until rows are deleted.
    pub sqlite_max_pages: Option<u32>,
}

impl Store {
    /// Connects to `url` (`postgres://...` or `sqlite:FILE`) and brings its schema up to
    /// date.
    pub async fn open(url: &str) -> anyhow::Result<Store> {
        Store::open_with(url, StoreOptions::default()).await
    }

    /// [`Store::open`] with options.
    pub async fn open_with(url: &str, store_options: StoreOptions) -> anyhow::Result<Store> {
        let backend = Backend::of_url(url)?;
        sqlx::any::install_default_drivers();
        let url = creating(url);
        if let Some(file) = sqlite_file(&url) {
            create_private(&file)?;
        }
        // The causes are put in the message itself: the command prints only the outermost.
        let options: AnyConnectOptions = url
            .parse()
            .map_err(|e| anyhow::anyhow!("database URL: cannot be read: {e}"))?;
        let max_pages = store_options.sqlite_max_pages;
        let pool_options = match backend {
            // SQLite writes one transaction at a time whatever the pool; a few connections
            // let reads go on beside the writer (WAL).
            Backend::Sqlite => {
                AnyPoolOptions::new()
                    .max_connections(4)
                    .after_connect(move |conn, _| {
                        Box::pin(async move {
                            // WAL: readers never block the writer. synchronous=FULL: each commit is
                            // fsynced before it returns, so an acknowledged write survives a kill -9
                            // and a power cut too (NORMAL would survive the kill only).
                            conn.execute(
                                "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                            )
                            .await?;
                            if let Some(pages) = max_pages {
                                conn.execute(format!("PRAGMA max_page_count = {pages}").as_str())
                                    .await?;
                            }
                            Ok(())
                        })
                    })
            }
            Backend::Postgres => AnyPoolOptions::new().max_connections(16),
        };
        // A connection whose transaction could not be ended (a COMMIT or ROLLBACK that failed,
        // as on a full disk, where SQLite may already have rolled back on its own and then
        // refuses the ROLLBACK) would fail every later `BEGIN` of whoever got it next: such a
        // connection is closed instead of reused. A dropped transaction's rollback may still
        // be queued on the connection: the ping runs after it.
        let pool_options = pool_options.after_release(|conn, _| {
            Box::pin(async move {
                if !conn.is_in_transaction() {
                    return Ok(true);
                }
                if conn.ping().await.is_err() {
                    return Ok(false);
                }
                let clean = !conn.is_in_transaction();
                if !clean {
                    tracing::warn!("a database connection left in a transaction is closed");
                }
                Ok(clean)
            })
        });
        // One connection first, alone: the pool would report a refused connection only as
        // a timeout.
        AnyConnection::connect_with(&options)
            .await
            .map_err(|e| anyhow::anyhow!("cannot open the {} database: {e}", backend.name()))?
            .close()
            .await?;
        let pool = pool_options
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| anyhow::anyhow!("cannot open the {} database: {e}", backend.name()))?;
        backend
            .migrator()
            .run(&pool)
            .await
            .map_err(|e| anyhow::anyhow!("cannot migrate the {} database: {e}", backend.name()))?;
        // Not a migration: a scratch table no query reads, made where missing, so that it
        // never takes a migration's number.
        sqlx::raw_sql("CREATE TABLE IF NOT EXISTS write_probe (filler TEXT NOT NULL)")
            .execute(&pool)
            .await
            .map_err(|e| anyhow::anyhow!("cannot prepare the {} database: {e}", backend.name()))?;
        let store = Store {
            pool,
            backend,
            caches: Arc::new(Caches::new()),
        };
        store
            .fill_name_skeletons()
            .await
            .map_err(|e| anyhow::anyhow!("cannot prepare the {} database: {e}", backend.name()))?;
        Ok(store)
    }

    /// Closes every connection (a SQLite file is checkpointed and released).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Whether the database answers a trivial query.
    pub(crate) async fn ping(&self) -> anyhow::Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Whether the database accepts writes now: one transaction stores a row of 8 KiB in
    /// `write_probe` and deletes it again, and commits. The row needs new pages, as a game's
    /// growth does (a quota or a full disk refuses it) and the commit goes to the disk.
    pub(crate) async fn probe_write(&self) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query("INSERT INTO write_probe (filler) VALUES ($1)")
            .bind("x".repeat(8 * 1024))
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM write_probe")
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Whether live messages cross instances through the database (PostgreSQL's
    /// `LISTEN/NOTIFY`) rather than staying in this process (SQLite: one instance).
    pub(crate) fn fans_out_through_database(&self) -> bool {
        self.backend == Backend::Postgres
    }

    /// Sends `payload` to every instance listening on [`NOTIFY_CHANNEL`] (PostgreSQL only).
    pub(crate) async fn notify(&self, payload: &str) -> anyhow::Result<()> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(NOTIFY_CHANNEL)
            .bind(payload)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Creates an account, unless its name is taken (in any case) or looks like one that is
    /// (the same [`names::skeleton`]: "rnike" beside "mike"). The look-alike test is part of
    /// the insert, so two sign-ups of look-alike names cannot both pass it on SQLite (one
    /// writer); on PostgreSQL two such inserts in the same instant may both land.
    pub(crate) async fn create_account(
        &self,
        name: &str,
        password_hash: &str,
    ) -> anyhow::Result<NewAccount> {
        let skeleton = names::skeleton(name);
        let inserted = sqlx::query(
            "INSERT INTO accounts (name, name_key, password_hash, created_ms, name_skeleton) \
             SELECT $1, $2, $3, $4, $5 \
             WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE name_skeleton = $5) RETURNING id",
        )
        .bind(name)
        .bind(name.to_ascii_lowercase())
        .bind(password_hash)
        .bind(now_ms())
        .bind(&skeleton)
        .fetch_optional(&self.pool)
        .await;
        match inserted {
            Ok(Some(row)) => Ok(NewAccount::Created(row.try_get(0)?)),
            Ok(None) => match self.account_like(&skeleton).await? {
                Some(other) if other.eq_ignore_ascii_case(name) => Ok(NewAccount::Taken),
                Some(other) => Ok(NewAccount::LooksLike(other)),
                // The look-alike was deleted in between: the name is free, but say so
                // rather than loop.
                None => Ok(NewAccount::Taken),
            },
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(NewAccount::Taken),
            Err(e) => Err(e.into()),
        }
    }

    /// The name of an account whose name has this [`names::skeleton`], if any.
    pub(crate) async fn account_like(&self, skeleton: &str) -> anyhow::Result<Option<String>> {
        let row = sqlx::query("SELECT name FROM accounts WHERE name_skeleton = $1 LIMIT 1")
            .bind(skeleton)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| row.try_get(0)).transpose()?)
    }

    /// Gives every account made before skeletons were stored its [`names::skeleton`].
    async fn fill_name_skeletons(&self) -> anyhow::Result<()> {
        let rows = sqlx::query("SELECT id, name FROM accounts WHERE name_skeleton IS NULL")
            .fetch_all(&self.pool)
            .await?;
        for row in rows {
            let id: i64 = row.try_get(0)?;
            let name: String = row.try_get(1)?;
            sqlx::query("UPDATE accounts SET name_skeleton = $1 WHERE id = $2")
                .bind(names::skeleton(&name))
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// The account of that name (in any case), if any.
    pub(crate) async fn login_of(&self, name: &str) -> anyhow::Result<Option<Login>> {
        let row = sqlx::query("SELECT id, name, password_hash FROM accounts WHERE name_key = $1")
            .bind(name.to_ascii_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(Login {
                account_id: row.try_get(0)?,
                name: row.try_get(1)?,
                password_hash: row.try_get(2)?,
            })
        })
        .transpose()
    }

    /// Stores a credential (by the hash of its secret) for an account.
    pub(crate) async fn insert_credential(
        &self,
        secret_hash: &str,
        account_id: i64,
        kind: CredentialKind,
        expires_ms: Option<i64>,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO credentials (secret_hash, account_id, kind, created_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(secret_hash)
        .bind(account_id)
        .bind(kind.as_str())
        .bind(now_ms())
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account an unexpired credential of that kind acts for.
    pub(crate) async fn holder_of(
        &self,
        secret_hash: &str,
        kind: CredentialKind,
    ) -> anyhow::Result<Option<Holder>> {
        let key = (secret_hash.to_owned(), kind);
        if let Some((holder, until)) = self.caches.credentials.get(&key)
            && Instant::now() < until
        {
            return Ok(Some(holder));
        }
        let row = sqlx::query(
            "SELECT a.id, a.name FROM credentials c JOIN accounts a ON a.id = c.account_id \
             WHERE c.secret_hash = $1 AND c.kind = $2 \
             AND (c.expires_ms IS NULL OR c.expires_ms > $3)",
        )
        .bind(secret_hash)
        .bind(kind.as_str())
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        let holder = row
            .map(|row| {
                anyhow::Ok(Holder {
                    account_id: row.try_get(0)?,
                    name: row.try_get(1)?,
                })
            })
            .transpose()?;
        match &holder {
            Some(holder) => self.caches.credentials.insert(
                key,
                (holder.clone(), Instant::now() + cache::CREDENTIAL_TTL),
            ),
            None => self.caches.credentials.remove(&key),
        }
        Ok(holder)
    }

    /// The account's unexpired credentials, newest first (at most 500).
    pub(crate) async fn credentials_of(
        &self,
        account_id: i64,
    ) -> anyhow::Result<Vec<CredentialRow>> {
        let rows = sqlx::query(
            "SELECT secret_hash, kind, created_ms, expires_ms FROM credentials \
             WHERE account_id = $1 AND (expires_ms IS NULL OR expires_ms > $2) \
             ORDER BY created_ms DESC, secret_hash LIMIT $3",
        )
        .bind(account_id)
        .bind(now_ms())
        .bind(MAX_LISTED_CREDENTIALS)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let kind: String = row.try_get(1)?;
                Ok(CredentialRow {
                    secret_hash: row.try_get(0)?,
                    kind: CredentialKind::of_str(&kind),
                    created_ms: row.try_get(2)?,
                    expires_ms: row.try_get(3)?,
                })
            })
            .collect()
    }

    /// Ends the account's credentials whose hash starts with `prefix` (all of them for an
    /// empty prefix) except the one hashed `keep`; how many ended. Instances other than
    /// this one may trust an ended credential for [`cache::CREDENTIAL_TTL`] more.
    pub(crate) async fn end_credentials(
        &self,
        account_id: i64,
        prefix: &str,
        keep: &str,
    ) -> anyhow::Result<u64> {
        let mut tx = self.pool.begin().await?;
        let ended = Self::end_credentials_in(&mut tx, account_id, prefix, keep).await?;
        tx.commit().await?;
        Ok(self.forget_credentials(ended))
    }

    /// Sets the account's password hash and ends every other credential of it, in one
    /// transaction; how many credentials ended.
    pub(crate) async fn change_password(
        &self,
        account_id: i64,
        password_hash: &str,
        keep: &str,
    ) -> anyhow::Result<u64> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let ended = Self::end_credentials_in(&mut tx, account_id, "", keep).await?;
        tx.commit().await?;
        Ok(self.forget_credentials(ended))
    }

    async fn end_credentials_in(
        tx: &mut sqlx::Transaction<'static, sqlx::Any>,
        account_id: i64,
        prefix: &str,
        keep: &str,
    ) -> anyhow::Result<Vec<(String, CredentialKind)>> {
        let rows = sqlx::query(
            "DELETE FROM credentials WHERE account_id = $1 AND secret_hash <> $2 \
             AND secret_hash LIKE $3 RETURNING secret_hash, kind",
        )
        .bind(account_id)
        .bind(keep)
        // The prefix is hex (checked at the edge), so it holds no wildcard of LIKE.
        .bind(format!("{prefix}%"))
        .fetch_all(&mut **tx)
        .await?;
        rows.iter()
            .map(|row| {
                let kind: String = row.try_get(1)?;
                Ok((row.try_get(0)?, CredentialKind::of_str(&kind)))
            })
            .collect()
    }

    /// Drops ended credentials from this instance's cache; how many there were.
    fn forget_credentials(&self, ended: Vec<(String, CredentialKind)>) -> u64 {
        let count = ended.len() as u64;
        for key in ended {
            self.caches.credentials.remove(&key);
        }
        count
    }

    /// Revokes a credential; whether one was there.
    pub(crate) async fn delete_credential(
        &self,
        secret_hash: &str,
        kind: CredentialKind,
    ) -> anyhow::Result<bool> {
        let done = sqlx::query("DELETE FROM credentials WHERE secret_hash = $1 AND kind = $2")
            .bind(secret_hash)
            .bind(kind.as_str())
            .execute(&self.pool)
            .await?;
        // After the delete: a request reading the credential meanwhile may have cached it.
        self.caches
            .credentials
            .remove(&(secret_hash.to_owned(), kind));
        Ok(done.rows_affected() > 0)
    }
}
