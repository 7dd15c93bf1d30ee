//! The server's instruments: counters, gauges and histograms kept by the `metrics` crate and
//! served in Prometheus's text format at `GET /metrics` on a listener of their own
//! (`swapboard serve --metrics-addr`), never on the public one. Without the option nothing is
//! recorded: the `metrics` macros find no recorder and do nothing.
//!
//! Every name is written here once, with its description; the rest of the server calls the
//! functions below. Labels come from closed sets (a route's template, a rule code, a limit's
//! name, a level), so the number of series stays bounded whatever the requests.

use std::sync::OnceLock;
use std::time::Duration;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

const MOVES: &str = "swapboard_moves_total";
const REQUESTS: &str = "swapboard_http_request_duration_seconds";
const CONNECTIONS: &str = "swapboard_http_connections";
const CONNECTIONS_REFUSED: &str = "swapboard_http_connections_refused_total";
const SOCKETS: &str = "swapboard_live_sockets";
const FANOUT: &str = "swapboard_live_fanout_seconds";
const HEARD: &str = "swapboard_live_heard_total";
const FLAG_LAG: &str = "swapboard_clock_flag_lag_seconds";
const AI_QUEUE: &str = "swapboard_ai_searches_waiting";
const AI_JOBS: &str = "swapboard_ai_jobs_waiting";
const AI_SEARCH: &str = "swapboard_ai_search_seconds";
const POOL: &str = "swapboard_db_pool_connections";
const COMMIT: &str = "swapboard_db_commit_seconds";
const RATE_LIMITED: &str = "swapboard_rate_limited_total";
const DELIVERIES: &str = "swapboard_deliveries_total";
const LOGIN_FAILURES: &str = "swapboard_login_failures_total";
const OUTBOX: &str = "swapboard_notifications_pending";
const BUILD: &str = "swapboard_build_info";
const PROCESS_CPU: &str = "process_cpu_seconds_total";
const PROCESS_MEMORY: &str = "process_resident_memory_bytes";
const PROCESS_FDS: &str = "process_open_fds";
const PROCESS_MAX_FDS: &str = "process_max_fds";

/// The channels a notification leaves by, and how a delivery on one ended: the labels of
/// [`DELIVERIES`], every pair present from the start (at zero).
const CHANNELS: [&str; 2] = ["mail", "push"];
const DELIVERY_OUTCOMES: [&str; 3] = ["sent", "transient_failure", "permanent_failure"];

/// Latency buckets, in seconds: from a cached read to a slow search.
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// The recorder of this process, installed by the first server that asks for metrics (the
/// `metrics` crate has one global recorder; servers sharing a process share it).
static RECORDER: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();

/// Installs the recorder (once per process) and describes every instrument.
pub(crate) fn install() -> anyhow::Result<PrometheusHandle> {
    RECORDER
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets(BUCKETS)
                .map_err(|e| e.to_string())?
                .install_recorder()
                .map_err(|e| e.to_string())?;
            describe();
            Ok(handle)
        })
        .clone()
        .map_err(|e| anyhow::anyhow!("metrics: {e}"))
}

fn describe() {
    describe_counter!(
        MOVES,
        "Moves offered, by outcome (accepted, or the rule code that refused them) and by who played (player, ai)"
    );
    describe_histogram!(
        REQUESTS,
        metrics::Unit::Seconds,
        "HTTP request latency, by method, route template and status class"
    );
    describe_gauge!(CONNECTIONS, "Open HTTP connections");
    describe_counter!(
        CONNECTIONS_REFUSED,
        "HTTP connections refused by the per-address or total cap"
    );
    describe_gauge!(SOCKETS, "Open live sockets (WebSockets)");
    describe_histogram!(
        FANOUT,
        metrics::Unit::Seconds,
        "Time to render and hand one change to this instance's live sockets"
    );
    describe_counter!(
        HEARD,
        "Announcements of other instances' changes this instance heard (PostgreSQL): only those of the topics its sockets watch"
    );
    describe_histogram!(
        FLAG_LAG,
        metrics::Unit::Seconds,
        "How long after a player's time ran out the game was ended on time"
    );
    describe_gauge!(
        AI_QUEUE,
        "Searches (AI moves, analyses, reviews) waiting for a permit"
    );
    describe_gauge!(
        AI_JOBS,
        "AI workers' jobs in the database not yet done, by kind (move, analysis, review)"
    );
    describe_histogram!(
        AI_SEARCH,
        metrics::Unit::Seconds,
        "Search time, by kind (move, analysis) and level"
    );
    describe_gauge!(POOL, "Database pool connections, by state (idle, in_use)");
    describe_histogram!(
        COMMIT,
        metrics::Unit::Seconds,
        "Time to commit a move's transaction"
    );
    describe_counter!(RATE_LIMITED, "Requests refused by a rate limit, by limit");
    describe_counter!(
        DELIVERIES,
        "Mails and pushes handed to their server, by channel (mail, push) and outcome (sent, transient_failure, permanent_failure)"
    );
    describe_counter!(
        LOGIN_FAILURES,
        "Logins refused for a wrong name or password"
    );
    describe_gauge!(
        OUTBOX,
        "Notifications waiting to be delivered (the outbox's pending rows)"
    );
    describe_gauge!(BUILD, "Always 1, labelled with the server's version");
    describe_gauge!(
        PROCESS_CPU,
        "CPU time this process has spent, user and system, in seconds (a gauge for its fractions; it only grows)"
    );
    describe_gauge!(PROCESS_MEMORY, "This process's resident memory, in bytes");
    describe_gauge!(
        PROCESS_FDS,
        "File descriptors this process has open (sockets included)"
    );
    describe_gauge!(
        PROCESS_MAX_FDS,
        "The most file descriptors this process may open"
    );
    // Series that would otherwise appear only at their first event: a dashboard or an
    // alert on a rate needs them from the start.
    for channel in CHANNELS {
        for outcome in DELIVERY_OUTCOMES {
            counter!(DELIVERIES, "channel" => channel, "outcome" => outcome).absolute(0);
        }
    }
    counter!(LOGIN_FAILURES).absolute(0);
    counter!(HEARD).absolute(0);
    gauge!(BUILD, "version" => crate::version::VERSION).set(1.0);
}

/// Serves `GET /metrics` at `addr` until `shutdown` resolves; `sample` is awaited before
/// each rendering to set the gauges that are read rather than counted (the pool, the
/// connections, the AI's jobs, the outbox).
pub(crate) async fn serve<S: Future<Output = ()> + Send>(
    listener: TcpListener,
    handle: PrometheusHandle,
    sample: impl Fn() -> S + Clone + Send + Sync + 'static,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let app = Router::new().route(
        "/metrics",
        get(move || {
            let handle = handle.clone();
            let sample = sample.clone();
            async move {
                sample().await;
                (
                    [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
                    handle.render(),
                )
                    .into_response()
            }
        }),
    );
    if let Err(e) = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
    {
        tracing::error!("metrics listener: {e}");
    }
}

/// A move accepted (`rule` is `None`) or refused with a rule code, by a player or the AI.
pub(crate) fn move_offered(rule: Option<&'static str>, by_ai: bool) {
    let by = if by_ai { "ai" } else { "player" };
    counter!(MOVES, "outcome" => rule.unwrap_or("accepted"), "by" => by).increment(1);
}

/// A request answered: its method, route template (`/api/games/{id}`), status and time.
pub(crate) fn request(method: &str, route: &str, status: u16, took: Duration) {
    let class = match status {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    };
    histogram!(REQUESTS, "method" => method.to_owned(), "route" => route.to_owned(), "status" => class)
        .record(took.as_secs_f64());
}

/// The open HTTP connections and live sockets now, and the connections refused so far.
pub(crate) fn connections(open: u32, refused: u64, sockets: u32) {
    gauge!(CONNECTIONS).set(f64::from(open));
    counter!(CONNECTIONS_REFUSED).absolute(refused);
    gauge!(SOCKETS).set(f64::from(sockets));
}

/// One change handed to this instance's sockets.
pub(crate) fn fanout(took: Duration) {
    histogram!(FANOUT).record(took.as_secs_f64());
}

/// An announcement heard from the database (another instance's change, or this one's).
pub(crate) fn heard() {
    counter!(HEARD).increment(1);
}

/// A game ended on time `late` after its player's time ran out.
pub(crate) fn flag_lag(late: Duration) {
    histogram!(FLAG_LAG).record(late.as_secs_f64());
}

/// A search begins to wait for a permit (`+1`) or stops waiting (`-1`).
pub(crate) fn ai_waiting(change: f64) {
    gauge!(AI_QUEUE).increment(change);
}

/// The AI workers' jobs of one kind not yet done, read from the database.
pub(crate) fn ai_jobs(kind: &'static str, waiting: u32) {
    gauge!(AI_JOBS, "kind" => kind).set(f64::from(waiting));
}

/// A search done: what for (`move`, `analysis`) and at which level.
pub(crate) fn ai_search(kind: &'static str, level: u8, took: Duration) {
    histogram!(AI_SEARCH, "kind" => kind, "level" => level.to_string()).record(took.as_secs_f64());
}

/// The database pool now.
pub(crate) fn pool(size: u32, idle: usize) {
    let idle = u32::try_from(idle).unwrap_or(u32::MAX);
    gauge!(POOL, "state" => "idle").set(f64::from(idle));
    gauge!(POOL, "state" => "in_use").set(f64::from(size.saturating_sub(idle)));
}

/// A move's transaction committed in `took`.
pub(crate) fn commit(took: Duration) {
    histogram!(COMMIT).record(took.as_secs_f64());
}

/// A request refused by the limit of this name.
pub(crate) fn rate_limited(limit: &'static str) {
    counter!(RATE_LIMITED, "limit" => limit).increment(1);
}

/// A mail or a push handed to its server: `channel` is `mail` or `push`; the outcome is
/// sent, or a failure the server may retry (`transient`) or not. A failure is logged at
/// warn with its reason, for an operator whose mail server is down to see it.
pub(crate) fn delivered(channel: &'static str, failure: Option<(bool, &str)>) {
    let outcome = match failure {
        None => "sent",
        Some((true, _)) => "transient_failure",
        Some((false, _)) => "permanent_failure",
    };
    if let Some((transient, why)) = failure {
        let kind = if transient { "for now" } else { "for good" };
        tracing::warn!(channel, "a {channel} failed ({kind}): {why}");
    }
    counter!(DELIVERIES, "channel" => channel, "outcome" => outcome).increment(1);
}

/// A login refused for a wrong name or password.
pub(crate) fn login_failed() {
    counter!(LOGIN_FAILURES).increment(1);
}

/// The notifications waiting to be delivered, read from the database.
pub(crate) fn outbox_pending(pending: u32) {
    gauge!(OUTBOX).set(f64::from(pending));
}

/// This process's CPU time, memory and file descriptors, read from Linux's `/proc/self`
/// (the names Prometheus's own clients use); elsewhere nothing is set.
pub(crate) fn process() {
    if let Ok(stat) = std::fs::read_to_string("/proc/self/stat")
        // The fields after the command's name, which may itself hold spaces: state is the
        // 3rd field, utime and stime the 14th and 15th.
        && let Some((_, fields)) = stat.rsplit_once(')')
    {
        let fields: Vec<&str> = fields.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        if let (Some(user), Some(system)) = (ticks(11), ticks(12)) {
            // Linux counts these in USER_HZ, which is 100 on every architecture it exposes.
            let spent = Duration::from_millis((user + system).saturating_mul(10));
            gauge!(PROCESS_CPU).set(spent.as_secs_f64());
        }
    }
    if let Ok(status) = std::fs::read_to_string("/proc/self/status")
        && let Some(kib) = status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
    {
        gauge!(PROCESS_MEMORY).set(kib * 1024.0);
    }
    if let Ok(open) = std::fs::read_dir("/proc/self/fd") {
        let open = u32::try_from(open.count()).unwrap_or(u32::MAX);
        gauge!(PROCESS_FDS).set(f64::from(open));
    }
    if let Ok(limits) = std::fs::read_to_string("/proc/self/limits")
        && let Some(soft) = limits
            .lines()
            .find_map(|line| line.strip_prefix("Max open files"))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<f64>().ok())
    {
        gauge!(PROCESS_MAX_FDS).set(soft);
    }
}
