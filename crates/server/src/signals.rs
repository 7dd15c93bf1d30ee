//! The signals that stop a process of the server's: `serve` and `ai-worker`.

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// Resolves on SIGTERM or Ctrl-C. SIGHUP, which would end the process at once (a closed
/// terminal, or an operator's habit of "reload"), is logged and ignored: the log goes to
/// standard error, so there is no file to reopen, and options are read only at the start.
pub(crate) async fn termination() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(unix)]
    let hangup = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
            Ok(mut signal) => {
                while signal.recv().await.is_some() {
                    tracing::info!("SIGHUP ignored: stop with SIGTERM, then start again");
                }
            }
            Err(e) => tracing::warn!("SIGHUP cannot be caught (it would stop the process): {e}"),
        }
        std::future::pending::<()>().await;
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    #[cfg(not(unix))]
    let hangup = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
        () = hangup => {}
    }
}

/// What the log at `level` keeps: everything of the server's at that level and above, but
/// sqlx's statements (each one logged at debug) only at trace, so that `--log debug` reads
/// as requests rather than SQL, and PostgreSQL's notices (`relation exists, skipping` at
/// each start) only when they are warnings.
fn log_filter(level: tracing::Level) -> Targets {
    let statements = if level == tracing::Level::TRACE {
        LevelFilter::TRACE
    } else {
        LevelFilter::WARN
    };
    Targets::new()
        .with_default(level)
        .with_target("sqlx::query", statements)
        .with_target(
            "sqlx::postgres::notice",
            LevelFilter::WARN.min(level.into()),
        )
}

/// Runs `work` to its end on a multi-threaded tokio runtime of its own, logging at `level`
/// to standard error: what `serve` and `ai-worker` run on.
pub(crate) fn logged_runtime(
    level: tracing::Level,
    work: impl std::future::Future<Output = anyhow::Result<()>>,
) -> anyhow::Result<()> {
    // A caller that set up its own subscriber keeps it.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_max_level(level)
        .finish()
        .with(log_filter(level))
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(work)
}
