//! The store itself: which database (the backend), the pool, opening and migrating it, and
//! the statements that are not about any one kind of row (a ping, a write probe, a
//! notification to the other instances).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use super::cache::Caches;
use super::rows::CredentialKey;
use crate::clock::{Clock, millis};
use crate::limits::instances::ALIVE_FOR;
use crate::version::VERSION;

use sqlx::any::{AnyArguments, AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{Any, AnyConnection, AnyPool, Connection as _, Executor as _, Row as _, Transaction};

/// How many PostgreSQL channels the instances' announcements of what changed are spread
/// over, by topic (a game, a room, an inbox, a tournament): an instance listens only to the
/// channels of the topics its sockets watch, so that N instances do not each hear every
/// change.
pub(crate) const NOTIFY_SHARDS: u32 = 64;

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
    pub(super) pool: AnyPool,
    pub(super) backend: Backend,
    pub(super) caches: Arc<Caches>,
    /// Tells this instance's live sockets which credentials have just ended (a ban, a
    /// password change, a log-out), so that a socket opened with one closes at once.
    pub(super) ended: tokio::sync::broadcast::Sender<Arc<[CredentialKey]>>,
    /// The wall clock every stored instant is read from.
    pub(super) clock: Clock,
    /// The schema the database was at when this store opened it (before any migration).
    pub(super) found_schema: i64,
}

/// Batches of ended credentials a live socket may fall behind by; one that falls further
/// behind checks its credential in the database instead.
const ENDED_CREDENTIALS_BUFFER: usize = 64;

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
                    include_str!("../../migrations/sqlite/0001_schema.sql"),
                ),
                (
                    2,
                    "invitations",
                    include_str!("../../migrations/sqlite/0002_invitations.sql"),
                ),
                (
                    3,
                    "clocks and live",
                    include_str!("../../migrations/sqlite/0003_clocks_and_live.sql"),
                ),
                (
                    4,
                    "invites, rematches and reviews",
                    include_str!("../../migrations/sqlite/0004_invites_rematch.sql"),
                ),
                (
                    5,
                    "rooms",
                    include_str!("../../migrations/sqlite/0005_rooms.sql"),
                ),
                (
                    6,
                    "name skeletons",
                    include_str!("../../migrations/sqlite/0006_name_skeletons.sql"),
                ),
                (
                    7,
                    "ratings",
                    include_str!("../../migrations/sqlite/0007_ratings.sql"),
                ),
                (
                    8,
                    "admin",
                    include_str!("../../migrations/sqlite/0008_admin.sql"),
                ),
                (
                    9,
                    "notifications",
                    include_str!("../../migrations/sqlite/0009_notifications.sql"),
                ),
                (
                    10,
                    "puzzles",
                    include_str!("../../migrations/sqlite/0010_puzzles.sql"),
                ),
                (
                    11,
                    "tournaments",
                    include_str!("../../migrations/sqlite/0011_tournaments.sql"),
                ),
                (
                    12,
                    "vacation, password resets and push",
                    include_str!("../../migrations/sqlite/0012_vacation_reset_push.sql"),
                ),
                (
                    13,
                    "guests and lessons",
                    include_str!("../../migrations/sqlite/0013_guests_and_lessons.sql"),
                ),
                (
                    14,
                    "operators",
                    include_str!("../../migrations/sqlite/0014_operators.sql"),
                ),
                (
                    15,
                    "web push",
                    include_str!("../../migrations/sqlite/0015_push.sql"),
                ),
                (
                    16,
                    "chat",
                    include_str!("../../migrations/sqlite/0016_chat.sql"),
                ),
                (
                    17,
                    "AI jobs",
                    include_str!("../../migrations/sqlite/0017_ai_jobs.sql"),
                ),
                (
                    18,
                    "Swap 61 skills and bot accounts",
                    include_str!("../../migrations/sqlite/0018_room_skills_and_bots.sql"),
                ),
                (
                    19,
                    "tournaments forbidding vacation",
                    include_str!("../../migrations/sqlite/0019_tournament_vacation.sql"),
                ),
                (
                    20,
                    "adjudication",
                    include_str!("../../migrations/sqlite/0020_adjudication.sql"),
                ),
                (
                    21,
                    "the guests' sweep",
                    include_str!("../../migrations/sqlite/0021_guest_sweep.sql"),
                ),
                (
                    22,
                    "analyses and reviews as AI jobs",
                    include_str!("../../migrations/sqlite/0022_analysis_jobs.sql"),
                ),
                (
                    23,
                    "instances",
                    include_str!("../../migrations/sqlite/0023_instances.sql"),
                ),
                (
                    24,
                    "AI turns by account",
                    include_str!("../../migrations/sqlite/0024_ai_turns.sql"),
                ),
                (
                    25,
                    "the outbox's due rows indexed apart",
                    include_str!("../../migrations/sqlite/0025_outbox_due.sql"),
                ),
                (
                    26,
                    "deadlines in the games' rows",
                    include_str!("../../migrations/sqlite/0026_deadlines_in_games.sql"),
                ),
                (
                    27,
                    "challenges declined, cancelled, expired",
                    include_str!("../../migrations/sqlite/0027_challenges.sql"),
                ),
                (
                    28,
                    "timed bans, moderators' notes",
                    include_str!("../../migrations/sqlite/0028_moderation.sql"),
                ),
                (
                    29,
                    "rating pools by size band",
                    include_str!("../../migrations/sqlite/0029_rating_bands.sql"),
                ),
                (
                    30,
                    "conditional moves",
                    include_str!("../../migrations/sqlite/0030_conditional_moves.sql"),
                ),
                (
                    31,
                    "chat and moderation details",
                    include_str!("../../migrations/sqlite/0031_chat_details.sql"),
                ),
                (
                    32,
                    "tournaments followed: rounds asked, notices linked",
                    include_str!("../../migrations/sqlite/0032_tournaments_followed.sql"),
                ),
            ],
            Backend::Postgres => &[
                (
                    1,
                    "schema",
                    include_str!("../../migrations/postgres/0001_schema.sql"),
                ),
                (
                    2,
                    "invitations",
                    include_str!("../../migrations/postgres/0002_invitations.sql"),
                ),
                (
                    3,
                    "clocks and live",
                    include_str!("../../migrations/postgres/0003_clocks_and_live.sql"),
                ),
                (
                    4,
                    "invites, rematches and reviews",
                    include_str!("../../migrations/postgres/0004_invites_rematch.sql"),
                ),
                (
                    5,
                    "rooms",
                    include_str!("../../migrations/postgres/0005_rooms.sql"),
                ),
                (
                    6,
                    "name skeletons",
                    include_str!("../../migrations/postgres/0006_name_skeletons.sql"),
                ),
                (
                    7,
                    "ratings",
                    include_str!("../../migrations/postgres/0007_ratings.sql"),
                ),
                (
                    8,
                    "admin",
                    include_str!("../../migrations/postgres/0008_admin.sql"),
                ),
                (
                    9,
                    "notifications",
                    include_str!("../../migrations/postgres/0009_notifications.sql"),
                ),
                (
                    10,
                    "puzzles",
                    include_str!("../../migrations/postgres/0010_puzzles.sql"),
                ),
                (
                    11,
                    "tournaments",
                    include_str!("../../migrations/postgres/0011_tournaments.sql"),
                ),
                (
                    12,
                    "vacation, password resets and push",
                    include_str!("../../migrations/postgres/0012_vacation_reset_push.sql"),
                ),
                (
                    13,
                    "guests and lessons",
                    include_str!("../../migrations/postgres/0013_guests_and_lessons.sql"),
                ),
                (
                    14,
                    "operators",
                    include_str!("../../migrations/postgres/0014_operators.sql"),
                ),
                (
                    15,
                    "web push",
                    include_str!("../../migrations/postgres/0015_push.sql"),
                ),
                (
                    16,
                    "chat",
                    include_str!("../../migrations/postgres/0016_chat.sql"),
                ),
                (
                    17,
                    "AI jobs",
                    include_str!("../../migrations/postgres/0017_ai_jobs.sql"),
                ),
                (
                    18,
                    "Swap 61 skills and bot accounts",
                    include_str!("../../migrations/postgres/0018_room_skills_and_bots.sql"),
                ),
                (
                    19,
                    "tournaments forbidding vacation",
                    include_str!("../../migrations/postgres/0019_tournament_vacation.sql"),
                ),
                (
                    20,
                    "adjudication",
                    include_str!("../../migrations/postgres/0020_adjudication.sql"),
                ),
                (
                    21,
                    "the guests' sweep",
                    include_str!("../../migrations/postgres/0021_guest_sweep.sql"),
                ),
                (
                    22,
                    "analyses and reviews as AI jobs",
                    include_str!("../../migrations/postgres/0022_analysis_jobs.sql"),
                ),
                (
                    23,
                    "instances",
                    include_str!("../../migrations/postgres/0023_instances.sql"),
                ),
                (
                    24,
                    "AI turns by account",
                    include_str!("../../migrations/postgres/0024_ai_turns.sql"),
                ),
                (
                    25,
                    "the outbox's due rows indexed apart",
                    include_str!("../../migrations/postgres/0025_outbox_due.sql"),
                ),
                (
                    26,
                    "deadlines in the games' rows",
                    include_str!("../../migrations/postgres/0026_deadlines_in_games.sql"),
                ),
                (
                    27,
                    "challenges declined, cancelled, expired",
                    include_str!("../../migrations/postgres/0027_challenges.sql"),
                ),
                (
                    28,
                    "timed bans, moderators' notes",
                    include_str!("../../migrations/postgres/0028_moderation.sql"),
                ),
                (
                    29,
                    "rating pools by size band",
                    include_str!("../../migrations/postgres/0029_rating_bands.sql"),
                ),
                (
                    30,
                    "conditional moves",
                    include_str!("../../migrations/postgres/0030_conditional_moves.sql"),
                ),
                (
                    31,
                    "chat and moderation details",
                    include_str!("../../migrations/postgres/0031_chat_details.sql"),
                ),
                (
                    32,
                    "tournaments followed: rounds asked, notices linked",
                    include_str!("../../migrations/postgres/0032_tournaments_followed.sql"),
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

/// The PostgreSQL connections a store keeps unless told otherwise (`--db-connections`).
pub const POSTGRES_CONNECTIONS: u32 = 16;

/// What opening a store does with the migrations this binary has and the database lacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Migrations {
    /// Applies them, unless an instance that expects an older schema is running on the
    /// database (it would go on writing the old way): what `serve` does by default.
    #[default]
    Auto,
    /// Applies them whatever runs (`swapboard migrate`, `serve --migrate always`).
    Always,
    /// Applies none, and refuses a database behind this binary: the admin commands and the
    /// AI workers, which leave the schema to `serve` and `swapboard migrate`.
    Never,
}

/// How a store is opened beyond its URL.
#[derive(Clone, Debug, Default)]
pub struct StoreOptions {
    /// SQLite only: the most pages (4 KiB each) the database may grow to (`PRAGMA
    /// max_page_count`), a quota below the disk's size. Past it writes fail as on a full
    /// disk (503 `storage_full`) until rows are deleted.
    pub sqlite_max_pages: Option<u32>,
    /// The wall clock (the system's by default; a manual one in tests).
    pub clock: Clock,
    /// Whether the schema may be brought up to date (by default, as `serve` does).
    pub migrations: Migrations,
    /// PostgreSQL only: the most connections the pool keeps ([`POSTGRES_CONNECTIONS`] when
    /// `None`).
    pub max_connections: Option<u32>,
}

impl Store {
    /// Opens a write transaction. On SQLite it takes the write lock at once (`BEGIN
    /// IMMEDIATE`): a transaction that read first and wrote later could otherwise fail on a
    /// snapshot another writer made stale, without waiting.
    pub(super) async fn begin_write(&self) -> sqlx::Result<Transaction<'static, Any>> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// Runs one writing statement that returns a row (`... RETURNING`) in a transaction of
    /// its own, committed before the row is given back.
    ///
    /// On its own (autocommit), SQLite commits such a statement only when it is stepped to
    /// its end: a caller that takes the first row and stops never sees that commit fail,
    /// and on a full disk the row came back while the write was lost (an account answered
    /// 201 that did not exist). An explicit commit reports its failure.
    pub(super) async fn write_returning<'q>(
        &self,
        query: sqlx::query::Query<'q, Any, AnyArguments<'q>>,
    ) -> sqlx::Result<Option<AnyRow>> {
        let mut tx = self.begin_write().await?;
        let row = query.fetch_optional(&mut *tx).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Connects to `url` (`postgres://...` or `sqlite:FILE`) and brings its schema up to
    /// date.
    pub async fn open(url: &str) -> anyhow::Result<Store> {
        Store::open_with(url, StoreOptions::default()).await
    }

    /// Connects to the database at `url`, which must exist and be at this binary's schema
    /// (it is neither created nor migrated): what the admin commands and the AI workers
    /// open, leaving the schema to `serve` and `swapboard migrate`.
    pub async fn open_as_is(url: &str) -> anyhow::Result<Store> {
        let options = StoreOptions {
            migrations: Migrations::Never,
            ..StoreOptions::default()
        };
        Store::open_with(url, options).await
    }

    /// [`Store::open`] with options.
    pub async fn open_with(url: &str, store_options: StoreOptions) -> anyhow::Result<Store> {
        let backend = Backend::of_url(url)?;
        sqlx::any::install_default_drivers();
        // A command that may not migrate has no use for a new, empty database either.
        let url = if store_options.migrations == Migrations::Never {
            Cow::Borrowed(url)
        } else {
            creating(url)
        };
        if let Some(file) = sqlite_file(&url)
            && store_options.migrations != Migrations::Never
        {
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
            Backend::Postgres => AnyPoolOptions::new().max_connections(
                store_options
                    .max_connections
                    .unwrap_or(POSTGRES_CONNECTIONS),
            ),
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
        let found_schema = bring_up_to_date(&pool, backend, &store_options).await?;
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
            ended: tokio::sync::broadcast::channel(ENDED_CREDENTIALS_BUFFER).0,
            clock: store_options.clock,
            found_schema,
        };
        store
            .fill_name_skeletons()
            .await
            .map_err(|e| anyhow::anyhow!("cannot prepare the {} database: {e}", backend.name()))?;
        store
            .place_in_bands()
            .await
            .map_err(|e| anyhow::anyhow!("cannot rerate the {} database: {e}", backend.name()))?;
        Ok(store)
    }

    /// Milliseconds since the Unix epoch by the store's clock, as stored.
    pub(crate) fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The wall clock this store reads.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The pool's connections now, and how many of them are idle (for the metrics).
    pub(crate) fn pool_use(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
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

    /// Sends each of `payloads` to the instances listening on its topic's channel
    /// ([`notify_channel`]), in one statement (PostgreSQL only).
    pub(crate) async fn notify(&self, payloads: &[String]) -> anyhow::Result<()> {
        let sql = format!("SELECT {}", notify_calls(1, payloads.len()));
        let channels: Vec<String> = payloads.iter().map(|p| notify_channel(p)).collect();
        bind_notifications(sqlx::query(&sql), &channels, payloads)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Sends `payload` on `channel` (PostgreSQL only): how an instance wakes its own
    /// listener.
    pub(crate) async fn notify_on(&self, channel: &str, payload: &str) -> anyhow::Result<()> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// The payload that announces the stored ply `ply` of the game whose topic payload is
/// `topic` (its id): written here for the move's transaction, read back by the live hub.
pub(crate) fn move_payload(topic: &str, ply: u32) -> String {
    format!("{topic} move {ply}")
}

/// The channel an announcement goes on: its topic's shard (the topic is the payload's first
/// word), `swapboard_changes_N` with N from FNV-1a of the topic, the same on every instance
/// and every version.
pub(crate) fn notify_channel(payload: &str) -> String {
    let topic = payload.split(' ').next().unwrap_or_default();
    let hash = topic.bytes().fold(0x811c_9dc5_u32, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    });
    format!("swapboard_changes_{}", hash % NOTIFY_SHARDS)
}

/// `count` calls of `pg_notify`, the k-th (from 0) on the channel bound at
/// `$(first + 2k)` with the payload bound right after it ([`bind_notifications`]): what a
/// statement adds to tell the other instances of a change.
pub(crate) fn notify_calls(first: usize, count: usize) -> String {
    let calls: Vec<String> = (0..count)
        .map(|k| format!("pg_notify(${}, ${})", first + 2 * k, first + 2 * k + 1))
        .collect();
    calls.join(", ")
}

/// Binds each payload after its channel, in the order [`notify_calls`] numbers them.
pub(crate) fn bind_notifications<'q>(
    query: sqlx::query::Query<'q, Any, AnyArguments<'q>>,
    channels: &'q [String],
    payloads: &'q [String],
) -> sqlx::query::Query<'q, Any, AnyArguments<'q>> {
    channels
        .iter()
        .zip(payloads)
        .fold(query, |query, (channel, payload)| {
            query.bind(channel.as_str()).bind(payload.as_str())
        })
}

/// Checks the database's schema against this binary's and applies the missing migrations
/// as `options` allow; an error of one sentence naming both when it may not. The schema
/// the database was at.
async fn bring_up_to_date(
    pool: &AnyPool,
    backend: Backend,
    options: &StoreOptions,
) -> anyhow::Result<i64> {
    let ours = schema_of(backend);
    let theirs = applied_schema(pool, backend).await?;
    let name = backend.name();
    if theirs > ours {
        let by = newest_version(pool, theirs)
            .await
            .map_or_else(String::new, |version| format!(" (by swapboard {version})"));
        anyhow::bail!(
            "the {name} database was migrated to schema {theirs}{by}, newer than this swapboard \
             {VERSION} knows (schema {ours}): run the newer version, or restore the backup \
             taken before the upgrade (docs/DEPLOY.md, \"Upgrades\")"
        );
    }
    if theirs == ours {
        return Ok(theirs);
    }
    match options.migrations {
        Migrations::Never => anyhow::bail!(
            "the {name} database is at schema {theirs}, older than this swapboard {VERSION} \
             expects ({ours}): run `swapboard migrate` first (docs/DEPLOY.md, \"Upgrades\")"
        ),
        Migrations::Auto => {
            let now = options.clock.now_ms();
            if let Some(older) = running_older(pool, theirs, ours, now).await?.first() {
                anyhow::bail!(
                    "an instance of swapboard {} (schema {}) is running on the {name} database: \
                     stop every older instance before this one migrates it to schema {ours}, or \
                     migrate under it with `serve --migrate always` (docs/DEPLOY.md, \
                     \"Upgrades\")",
                    older.version,
                    older.schema
                );
            }
        }
        Migrations::Always => {}
    }
    tracing::info!("migrating the {name} database from schema {theirs} to {ours}");
    backend
        .migrator()
        .run(pool)
        .await
        .map_err(|e| anyhow::anyhow!("cannot migrate the {name} database: {e}"))?;
    Ok(theirs)
}

/// The schema this binary expects on `backend`: the number of its last migration.
pub(crate) fn schema_of(backend: Backend) -> i64 {
    backend
        .migrator()
        .iter()
        .map(|migration| migration.version)
        .max()
        .unwrap_or(0)
}

/// The last migration applied to the database (0 for a new one).
pub(crate) async fn applied_schema(pool: &AnyPool, backend: Backend) -> anyhow::Result<i64> {
    let exists = match backend {
        Backend::Sqlite => {
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"
        }
        Backend::Postgres => {
            "SELECT count(*) FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_name = '_sqlx_migrations'"
        }
    };
    let found: i64 = sqlx::query_scalar(exists).fetch_one(pool).await?;
    if found == 0 {
        return Ok(0);
    }
    let last: Option<i64> =
        sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success = TRUE")
            .fetch_one(pool)
            .await?;
    Ok(last.unwrap_or(0))
}

/// A running instance that expects another schema.
#[derive(Debug)]
struct Instance {
    /// Its version (`0.1.0`).
    version: String,
    /// The schema it expects.
    schema: i64,
}

/// The running instances (seen within [`ALIVE_FOR`] of `now_ms`) that expect a schema older
/// than `ours`, on a database at schema `theirs` (before 23 it keeps no instances).
async fn running_older(
    pool: &AnyPool,
    theirs: i64,
    ours: i64,
    now_ms: i64,
) -> anyhow::Result<Vec<Instance>> {
    if theirs < FIRST_SCHEMA {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(
        "SELECT version, schema FROM instances \
         WHERE stopped_ms IS NULL AND seen_ms > $1 AND schema < $2 ORDER BY seen_ms DESC",
    )
    .bind(now_ms.saturating_sub(millis(ALIVE_FOR)))
    .bind(ours)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Instance {
                version: row.try_get(0)?,
                schema: row.try_get(1)?,
            })
        })
        .collect()
}

/// The version of the last instance recorded with `schema`, if any (a newer binary that
/// migrated the database to it).
async fn newest_version(pool: &AnyPool, schema: i64) -> Option<String> {
    sqlx::query_scalar(
        "SELECT version FROM instances WHERE schema = $1 ORDER BY started_ms DESC LIMIT 1",
    )
    .bind(schema)
    .fetch_optional(pool)
    .await
    .ok()
    .flatten()
}

/// The migration that made the `instances` table.
const FIRST_SCHEMA: i64 = 23;
