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

use crate::store::{Backend, Store, create_private, default_sqlite_url, sqlite_file};

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
            let status = postgres_client("pg_dump", url)?
                .arg("--format=custom")
                .arg("--no-owner")
                .arg("--file")
                .arg(file)
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
            restore_sqlite(file, &target).await?;
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
                "the database has {tables} tables: a restore goes into an empty one (a failed \
                 restore leaves none, so this one was filled otherwise: create a new database \
                 or drop its tables)"
            );
            // One transaction: a restore that fails half-way (a damaged file, a full disk)
            // leaves the database empty, ready for the next try.
            let status = postgres_client("pg_restore", url)?
                .arg("--no-owner")
                .arg("--single-transaction")
                .arg(file)
                .status()
                .map_err(|e| {
                    anyhow::anyhow!(
                        "cannot run pg_restore (Debian: apt-get install postgresql-client): {e}"
                    )
                })?;
            anyhow::ensure!(
                status.success(),
                "pg_restore failed ({status}): nothing was restored, the database is still empty"
            );
        }
    }
    Store::open(url).await?.close().await;
    Ok(())
}

/// Restores the SQLite backup `file` as the new database `target`, all or nothing: the copy
/// is made beside it in a file created 0600 (the backup's own mode, whatever it is, is not
/// copied: the database holds credential hashes), synced and checked, then renamed into
/// place. A failure leaves no `target`, so the same restore can simply be run again.
async fn restore_sqlite(file: &Path, target: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        !target.exists() || std::fs::metadata(target)?.len() == 0,
        "{} exists already: a restore goes into a new database (a failed restore leaves \
         none, so this one was made otherwise)",
        target.display()
    );
    let name = target
        .file_name()
        .context("the database's path names no file")?
        .to_string_lossy();
    let partial = target.with_file_name(format!(".{name}.restoring-{}", std::process::id()));
    let copied = copy_checked(file, &partial).await;
    let placed = copied.and_then(|()| {
        std::fs::rename(&partial, target).map_err(|e| {
            anyhow::anyhow!("cannot move the restored copy to {}: {e}", target.display())
        })
    });
    if placed.is_err() {
        for leftover in [
            partial.clone(),
            sqlite_companion(&partial, "-wal"),
            sqlite_companion(&partial, "-shm"),
        ] {
            let _ = std::fs::remove_file(leftover);
        }
    }
    placed
}

/// Copies the backup `file` to the new file `copy` (0600), syncs it and checks it whole.
async fn copy_checked(file: &Path, copy: &Path) -> anyhow::Result<()> {
    let _ = std::fs::remove_file(copy);
    create_private(copy)?;
    let mut source = std::fs::File::open(file)
        .map_err(|e| anyhow::anyhow!("cannot read the backup {}: {e}", file.display()))?;
    let mut written = std::fs::OpenOptions::new().write(true).open(copy)?;
    std::io::copy(&mut source, &mut written)
        .map_err(|e| anyhow::anyhow!("cannot copy the backup: {e}"))?;
    written
        .sync_all()
        .map_err(|e| anyhow::anyhow!("cannot write the restored copy to disk: {e}"))?;
    let url = format!(
        "sqlite:{}",
        copy.to_str().context("the database's path is not UTF-8")?
    );
    let mut conn = sqlx::SqliteConnection::connect(&url).await?;
    let check: Result<String, _> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await;
    conn.close().await.ok();
    let check = check.map_err(|e| anyhow::anyhow!("the backup is damaged: {e}"))?;
    anyhow::ensure!(check == "ok", "the backup is damaged: {check}");
    // Closed cleanly, SQLite folds its write-ahead log into the file and removes it: what
    // is renamed into place is then the whole database.
    anyhow::ensure!(
        !sqlite_companion(copy, "-wal").exists(),
        "the restored copy kept a write-ahead log: not moved into place"
    );
    Ok(())
}

/// The file SQLite keeps beside the database `path` with this suffix (`-wal`, `-shm`).
fn sqlite_companion(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// `program` (pg_dump, pg_restore) set to reach the database at `url`: the URL on its
/// command line without its password, which goes in `PGPASSWORD`, where other users of the
/// machine cannot read it (a command line is visible to all of them in `ps`).
fn postgres_client(program: &str, url: &str) -> anyhow::Result<Command> {
    let mut parsed =
        url::Url::parse(url).map_err(|e| anyhow::anyhow!("the database URL is not a URL: {e}"))?;
    let mut command = Command::new(program);
    if let Some(password) = parsed.password() {
        let password = percent_encoding::percent_decode_str(password)
            .decode_utf8()
            .map_err(|_| anyhow::anyhow!("the database URL's password is not UTF-8"))?
            .into_owned();
        command.env("PGPASSWORD", password);
        parsed
            .set_password(None)
            .map_err(|()| anyhow::anyhow!("the database URL's password cannot be taken out"))?;
    }
    command.arg("--dbname").arg(parsed.as_str());
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_reaches_pg_dump_by_its_environment_never_its_command_line() {
        let command = postgres_client(
            "pg_dump",
            "postgres://ann:s%40cret@db.example:5433/play?sslmode=require",
        )
        .unwrap();
        let args: Vec<_> = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args,
            [
                "--dbname",
                "postgres://ann@db.example:5433/play?sslmode=require"
            ]
        );
        let envs: Vec<_> = command.get_envs().collect();
        assert_eq!(
            envs,
            [(
                std::ffi::OsStr::new("PGPASSWORD"),
                Some(std::ffi::OsStr::new("s@cret"))
            )]
        );
        let bare = postgres_client("pg_restore", "postgres://ann@db.example/play").unwrap();
        assert_eq!(bare.get_envs().count(), 0);
        assert!(postgres_client("pg_dump", "not a url").is_err());
    }
}
