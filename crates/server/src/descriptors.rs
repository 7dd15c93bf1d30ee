//! The process's limit of open files (RLIMIT_NOFILE): every HTTP connection and every live
//! socket holds a file descriptor, so 10,000 sockets need a limit far above the 1,024 a
//! process is often started with (its soft limit; the hard limit is usually much higher).

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

use crate::limits::Limits;

/// The descriptors kept for what is neither a connection nor a socket: the listeners, the
/// database's files and its `LISTEN` connection, the log, the AI workers' and mail's
/// connections.
const RESERVE: u64 = 64;

/// Raises the soft limit of open files to the hard one (which an unprivileged process may
/// do), logs the limit it got at info, and warns when it is below what `limits` may hold
/// open with `db_connections` to the database.
pub(crate) fn raise_open_files(limits: &Limits, db_connections: u32) {
    let before = getrlimit(Resource::Nofile);
    if let (Some(soft), Some(hard)) = (before.current, before.maximum)
        && soft < hard
    {
        let raised = Rlimit {
            current: Some(hard),
            maximum: Some(hard),
        };
        if let Err(e) = setrlimit(Resource::Nofile, raised) {
            tracing::warn!("open files: cannot raise the limit from {soft} to {hard}: {e}");
        }
    }
    let Some(limit) = getrlimit(Resource::Nofile).current else {
        tracing::info!("open files: no limit");
        return;
    };
    match before.current {
        Some(was) if was < limit => {
            tracing::info!("open files: at most {limit} (the soft limit raised from {was})");
        }
        _ => tracing::info!("open files: at most {limit}"),
    }
    let needed = u64::from(limits.connections)
        + u64::from(limits.sockets)
        + u64::from(db_connections)
        + RESERVE;
    if limit < needed {
        tracing::warn!(
            "open files: the limit, {limit}, is below the {needed} that --limit-connections \
             ({}) and --limit-sockets ({}) may hold open with the database's connections: \
             raise it (systemd: LimitNOFILE) or lower them, or past it connections fail",
            limits.connections,
            limits.sockets
        );
    }
}
