//! `swapboard backup` and `swapboard restore`: a consistent copy of a live database, and a
//! copy put back into an empty one.
//!
//! SQLite: `VACUUM INTO` writes the database as one read transaction sees it, while the
//! server goes on writing (WAL), into a new file created 0600 (it holds credential hashes);
//! a restore copies that file to a path where no database is yet. PostgreSQL: `pg_dump
//! --format=custom` (one snapshot, the server goes on) and `pg_restore` into a database with
//! no tables, both from Debian's `postgresql-client`.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Context as _;
use sqlx::Connection as _;

use crate::store::{Backend, Store, create_private, creating, default_sqlite_url, sqlite_file};

/// The options of `swapboard backup`.
#[derive(Clone, Debug, clap::Args)]
pub struct BackupOptions {
    /// The database to copy (default: $DATABASE_URL, else swapboard.db here).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// The backup file to write; it must not exist yet.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// The options of `swapboard restore`.
#[derive(Clone, Debug, clap::Args)]
pub struct RestoreOptions {
    /// The backup file (made by `swapboard backup`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The database to restore into: a SQLite file that does not exist yet, or a PostgreSQL
    /// database with no tables (default: $DATABASE_URL, else swapboard.db here).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
}

/// The database URL a command names, else `$DATABASE_URL`, else the default SQLite file.
pub(crate) fn database_url(named: Option<&str>) -> String {
    named
        .map(str::to_owned)
        .or_else(|| {
            std::env::var("DATABASE_URL")
                .ok()
                .filter(|url| !url.is_empty())
        })
        .unwrap_or_else(default_sqlite_url)
}

/// Runs `swapboard backup` on a runtime of its own.
pub fn backup(options: BackupOptions) -> anyhow::Result<()> {
    let url = database_url(options.database.as_deref());
    runtime()?.block_on(backup_to(&url, &options.file))?;
    eprintln!("backup written to {}", options.file.display());
    Ok(())
}

/// Runs `swapboard restore` on a runtime of its own.
pub fn restore(options: RestoreOptions) -> anyhow::Result<()> {
    let url = database_url(options.database.as_deref());
    runtime()?.block_on(restore_from(&options.file, &url))?;
    eprintln!("restored {}", options.file.display());
    Ok(())
}

/// A runtime for a command that runs one database job.
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

/// Writes a consistent copy of the database at `url` to `file` (which must not exist) while
/// the database is in use.
pub async fn backup_to(url: &str, file: &Path) -> anyhow::Result<()> {
    match Backend::of_url(url)? {
        Backend::Sqlite => {
            let source = sqlite_file(url).context("a SQLite URL names its file: sqlite:FILE")?;
            anyhow::ensure!(
                source.exists(),
                "no SQLite database at {}",
                source.display()
            );
            // The empty file first, 0600: VACUUM INTO fills an empty file and keeps its mode.
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            options.open(file).map_err(|e| {
                anyhow::anyhow!("cannot create the backup file {}: {e}", file.display())
            })?;
            let target = file
                .to_str()
                .context("the backup file's path is not UTF-8")?;
            let mut conn = sqlx::SqliteConnection::connect(url)
                .await
                .map_err(|e| anyhow::anyhow!("cannot open the SQLite database: {e}"))?;
            let done = sqlx::query("VACUUM INTO $1")
                .bind(target)
                .execute(&mut conn)
                .await;
            conn.close().await.ok();
            if let Err(e) = done {
                let _ = std::fs::remove_file(file);
                anyhow::bail!("VACUUM INTO failed: {e}");
            }
            Ok(())
        }
        Backend::Postgres => {
            anyhow::ensure!(!file.exists(), "{} exists already", file.display());
            let status = Command::new("pg_dump")
                .arg("--format=custom")
                .arg("--no-owner")
                .arg("--file")
                .arg(file)
                .arg(url)
                .status()
                .map_err(|e| {
                    anyhow::anyhow!(
                        "cannot run pg_dump (Debian: apt-get install postgresql-client): {e}"
                    )
                })?;
            anyhow::ensure!(status.success(), "pg_dump failed ({status})");
            #[cfg(unix)]
            std::fs::set_permissions(file, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
            Ok(())
        }
    }
}

/// Puts the backup `file` into the empty database at `url`, then opens it as the server
/// would (migrating it if the backup is older than the server).
pub async fn restore_from(file: &Path, url: &str) -> anyhow::Result<()> {
    let mut head = [0u8; 16];
    std::fs::File::open(file)
        .map_err(|e| anyhow::anyhow!("cannot read the backup {}: {e}", file.display()))?
        .read_exact(&mut head)
        .map_err(|e| anyhow::anyhow!("the backup is too short to be one: {e}"))?;
    let backend = Backend::of_url(url)?;
    match backend {
        Backend::Sqlite => {
            anyhow::ensure!(
                head == *b"SQLite format 3\0",
                "{} is not a SQLite backup",
                file.display()
            );
            let target = sqlite_file(url).context("a SQLite URL names its file: sqlite:FILE")?;
            anyhow::ensure!(
                !target.exists() || std::fs::metadata(&target)?.len() == 0,
                "{} exists already: a restore goes into a new database",
                target.display()
            );
            create_private(&target)?;
            std::fs::copy(file, &target)
                .map_err(|e| anyhow::anyhow!("cannot copy the backup: {e}"))?;
            let mut conn = sqlx::SqliteConnection::connect(&creating(url)).await?;
            let check: String = sqlx::query_scalar("PRAGMA integrity_check")
                .fetch_one(&mut conn)
                .await?;
            conn.close().await.ok();
            anyhow::ensure!(check == "ok", "the restored database is damaged: {check}");
        }
        Backend::Postgres => {
            anyhow::ensure!(
                head.starts_with(b"PGDMP"),
                "{} is not a pg_dump backup",
                file.display()
            );
            let mut conn = sqlx::PgConnection::connect(url).await?;
            let tables: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
            )
            .fetch_one(&mut conn)
            .await?;
            conn.close().await.ok();
            anyhow::ensure!(
                tables == 0,
                "the database has {tables} tables: a restore goes into an empty one"
            );
            let status = Command::new("pg_restore")
                .arg("--no-owner")
                .arg("--exit-on-error")
                .arg("--dbname")
                .arg(url)
                .arg(file)
                .status()
                .map_err(|e| {
                    anyhow::anyhow!(
                        "cannot run pg_restore (Debian: apt-get install postgresql-client): {e}"
                    )
                })?;
            anyhow::ensure!(status.success(), "pg_restore failed ({status})");
        }
    }
    Store::open(url).await?.close().await;
    Ok(())
}
