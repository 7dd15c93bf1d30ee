//! The router (each area's routes merged, and the layers every request passes) and the
//! server's life: start, serve, shut down.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tower_http::trace::TraceLayer;
use tracing::Span;
use utoipa::OpenApi as _;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::accounts;
use crate::admin;
use crate::ai::{self, players::AiPlayers};
use crate::ai_worker::{self, WorkerOptions};
use crate::analysis;
use crate::chat;
use crate::clocks;
use crate::descriptors;
use crate::edge::ClientAddr;
use crate::error::{ApiError, ApiResult};
use crate::games;
use crate::instruments;
use crate::lessons;
use crate::limits::http::BODY_LIMIT;
use crate::limits::instances::HEARTBEAT;
use crate::listen::{Acceptor, Census};
use crate::lists;
use crate::live::messages::Views;
use crate::live::{self, Hub};
use crate::notify::{self, mail::Mailer, webpush::Pusher, worker::Deliveries};
use crate::offered::Offered;
use crate::openapi;
use crate::options::ServeOptions;
use crate::passwords::Passwords;
use crate::positions;
use crate::proxy::TrustedProxies;
use crate::puzzles;
use crate::ratings;
use crate::resets;
use crate::review;
use crate::rooms;
use crate::rules;
use crate::secret::random_secret;
use crate::signals::termination;
use crate::state::{AppState, Limiters};
use crate::store::{Store, StoreOptions, default_sqlite_url};
use crate::tournaments;
use crate::vacation;
use crate::version::VERSION;
use crate::web;

/// Every route of the API, with its OpenAPI entry: each area registers its own (`router()`
/// in its module), declared once with its handler's `#[utoipa::path]`.
pub(crate) fn api() -> OpenApiRouter<AppState> {
    let server = OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz));
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .merge(server)
        .merge(openapi::router())
        .merge(accounts::router())
        .merge(games::router())
        .merge(live::messages::router())
        .merge(review::router())
        .merge(lists::router())
        .merge(analysis::router())
        .merge(rules::router())
        .merge(positions::router())
        .merge(puzzles::router())
        .merge(lessons::router())
        .merge(ratings::router())
        .merge(rooms::router())
        .merge(tournaments::router())
        .merge(admin::router())
        .merge(chat::router())
        .merge(notify::router())
        .merge(vacation::router())
        .merge(resets::router())
}

fn router(state: AppState) -> Router {
    let (api, _) = api().split_for_parts();
    let api = api
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    api.layer(middleware::from_fn_with_state(state.clone(), limit_writes))
        .layer(middleware::from_fn_with_state(state.clone(), limit_time))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // Outside the limits, so that their refusals are timed and counted too.
        .layer(middleware::from_fn(record_request))
        .layer(
            TraceLayer::new_for_http()
                // Method and path only: bodies, queries and headers may hold names, passwords
                // and tokens.
                .make_span_with(|request: &Request| {
                    let client = request.extensions().get::<ClientAddr>().map(|addr| addr.0);
                    let route = request.extensions().get::<MatchedPath>();
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        route = route.map_or("unmatched", MatchedPath::as_str),
                        path = request.uri().path(),
                        client = client.map(tracing::field::display),
                    )
                })
                .on_request(())
                .on_response(|response: &Response, latency: Duration, _: &Span| {
                    let status = response.status().as_u16();
                    // Milliseconds to a tenth: short to read, enough to see a slow route.
                    let ms = (latency.as_secs_f64() * 10_000.0).round() / 10.0;
                    // The access log: one line per request at info (a busy site logs at
                    // warn); a server error always, as an error.
                    if response.status().is_server_error() {
                        tracing::error!(status, ms, "answered");
                    } else {
                        tracing::info!(status, ms, "answered");
                    }
                })
                .on_failure(()),
        )
        // Outermost, so that the trace's span and every limit see the client's address.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            resolve_client,
        ))
        .with_state(state)
}

/// Records each request's latency by its route's template (never the path itself, which
/// holds ids: one series per route, whatever is asked).
async fn record_request(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let method = request.method().clone();
    // Real time, not the server's clock: the request's latency, for the metrics.
    let began = Instant::now();
    let response = next.run(request).await;
    instruments::request(
        method.as_str(),
        &route,
        response.status().as_u16(),
        began.elapsed(),
    );
    response
}

/// Puts the client's address ([`ClientAddr`]) into the request's extensions: the TCP peer, or
/// behind a trusted proxy the address its forwarding headers give (`crate::proxy`).
async fn resolve_client(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    if let Some(peer) = peer {
        let client = state.proxies.client(peer, request.headers());
        request.extensions_mut().insert(ClientAddr(client));
    }
    next.run(request).await
}

/// Refuses writes beyond the per-address rate before any handler runs.
async fn limit_writes(
    State(state): State<AppState>,
    addr: ClientAddr,
    request: Request,
    next: Next,
) -> Response {
    let writes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if writes
        && let Err(wait) = state
            .limits
            .writes_per_address
            .check(&addr.0.to_string(), state.clock.now_ms())
    {
        return ApiError::RateLimited(wait).into_response();
    }
    next.run(request).await
}

/// Answers 408 to a request not done in the time the limits give, body included: a client
/// that sends its body slowly must not hold a worker, or a graceful shutdown, for ever.
async fn limit_time(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let limit = state.request_time;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(limit).into_response(),
    }
}

/// The web client's files and pages, and for the API's unknown paths a JSON 404.
async fn not_found(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    web::answer(&method, &uri, &headers)
        .unwrap_or_else(|| ApiError::NotFound("no such endpoint".to_owned()).into_response())
}

async fn method_not_allowed() -> Response {
    let body = axum::Json(serde_json::json!({"error": {
        "code": "method_not_allowed",
        "message": "this endpoint does not take this method",
    }}));
    (StatusCode::METHOD_NOT_ALLOWED, body).into_response()
}

/// Whether the server and its database answer.
#[utoipa::path(get, path = "/healthz", tag = "server",
    responses(
        (status = 200, description = "The server and its database answer", body = String),
        (status = 500, description = "The database does not answer", body = crate::error::ErrorBody),
    ))]
pub(crate) async fn healthz(State(state): State<AppState>) -> ApiResult<&'static str> {
    state.store.ping().await.context("health check")?;
    Ok("ok")
}

/// Whether the server can take writes: its database stores and deletes a row now. A load
/// balancer sends no traffic to an instance answering 503 here (a full disk: `storage_full`).
#[utoipa::path(get, path = "/readyz", tag = "server",
    responses(
        (status = 200, description = "The database accepts writes", body = String),
        (status = 503, description = "`storage_full`: the disk or the database's quota is full", body = crate::error::ErrorBody),
        (status = 500, description = "The database does not answer", body = crate::error::ErrorBody),
    ))]
pub(crate) async fn readyz(State(state): State<AppState>) -> ApiResult<&'static str> {
    state.store.probe_write().await.context("write check")?;
    Ok("ok")
}

/// A server running on a tokio runtime: its address, and the way to stop it.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    metrics_addr: Option<SocketAddr>,
    stop: watch::Sender<bool>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Server {
    /// Opens the database (migrating it), binds the address and serves until [`Server::stop`]
    /// or SIGTERM or Ctrl-C.
    pub async fn start(options: &ServeOptions) -> anyhow::Result<Server> {
        descriptors::raise_open_files(&options.limits, options.db_connections);
        // Before the database is opened: a mail setting missing is the operator's to fix.
        let mail = match (&options.smtp, &options.mail_from, &options.public_url) {
            (Some(smtp), Some(from), Some(url)) => Some(Arc::new(Mailer::new(smtp, from, url)?)),
            (Some(_), _, _) => anyhow::bail!("--smtp needs --mail-from and --public-url"),
            _ => None,
        };
        let url = options
            .database
            .clone()
            .or_else(|| {
                std::env::var("DATABASE_URL")
                    .ok()
                    .filter(|url| !url.is_empty())
            })
            .unwrap_or_else(default_sqlite_url);
        let store = Store::open_with(
            &url,
            StoreOptions {
                // 256 pages of 4 KiB to the MiB.
                sqlite_max_pages: options.sqlite_max_mib.map(|mib| mib.saturating_mul(256)),
                clock: options.clock.clone(),
                migrations: options.migrate,
                max_connections: Some(options.db_connections),
            },
        )
        .await?;
        // Recorded, so that a newer instance does not migrate the schema under this one.
        let instance = random_secret()[..16].to_owned();
        store
            .register_instance(&instance, VERSION, store.schema())
            .await?;
        puzzles::seed(&store).await?;
        let parallel = std::thread::available_parallelism().map_or(1, |n| n.get());
        let searches = options
            .ai_searches
            .map_or_else(|| parallel.saturating_sub(1).max(1), usize::from);
        let push = Arc::new(
            Pusher::load(&store, options.public_url.as_deref(), options.push_loopback).await?,
        );
        let (closing, closing_seen) = watch::channel(false);
        let (ai_players, ai_wakeups) = AiPlayers::new(searches);
        let loopback = options.addr.ip().is_loopback();
        let offered = Offered::resolve(options.games.as_ref(), loopback);
        if let Some(notice) = offered.reserved_notice(options.games.is_some(), loopback) {
            tracing::warn!("{notice}");
        }
        let state = AppState {
            clock: store.clock().clone(),
            store: store.clone(),
            passwords: Passwords::new(parallel).await?,
            limits: Arc::new(Limiters::new(&options.limits)),
            secure_cookies: options.behind_tls,
            request_time: options.limits.request_time,
            ai: Arc::new(ai_players),
            live: Arc::new(Hub::new(
                store.clone(),
                Box::new(Views),
                closing_seen,
                options.limits.socket_credential_time,
            )),
            proxies: Arc::new(TrustedProxies::new(
                &options.trusted_proxies,
                options.forwarded_header,
            )),
            sockets_per_address: Census::new(
                options.limits.sockets_per_address,
                options.limits.sockets,
            ),
            sockets_per_account: Census::new(options.limits.sockets_per_account, u32::MAX),
            mail,
            push,
            vacation_days: u32::from(options.vacation_days),
            guest_days: options.guest_days,
            offered: Arc::new(offered),
        };
        // The work no request starts: the clocks, the AI's turns left from before a
        // restart, and (PostgreSQL) the other instances' live messages.
        let deliveries = Deliveries {
            store: store.clone(),
            live: Arc::clone(&state.live),
            mailer: state.mail.clone(),
            pusher: Arc::clone(&state.push),
        };
        let mut background = vec![
            tokio::spawn(heartbeat(store.clone(), instance.clone())),
            tokio::spawn(clocks::run(state.clone())),
            tokio::spawn(ai::serve(state.clone(), ai_wakeups)),
            tokio::spawn(notify::worker::run(deliveries)),
        ];
        if store.fans_out_through_database() {
            background.push(tokio::spawn(live::listen(
                Arc::clone(&state.live),
                url.clone(),
            )));
        }
        let resumed = ai::resume_all(&store).await?;
        if resumed > 0 {
            tracing::info!("resuming {resumed} games with an AI seat");
        }
        if options.no_ai_worker {
            tracing::info!("no embedded AI worker: the AI's moves wait for `swapboard ai-worker`");
        } else {
            let crew = ai_worker::Crew::new(
                &store,
                Arc::clone(&state.live),
                state.ai.permits(),
                Some(state.ai.ready()),
                &WorkerOptions {
                    database: url.clone(),
                    threads: u16::try_from(searches).unwrap_or(u16::MAX),
                    lease_s: ai_worker::DEFAULT_LEASE_S,
                    // Jobs written here wake it at once; the poll finds other instances' jobs.
                    poll_ms: 1000,
                    log: options.log,
                },
            );
            background.extend(ai_worker::spawn(&crew, searches));
        }
        let listener = TcpListener::bind(options.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", options.addr))?;
        let addr = listener.local_addr()?;
        let (stop, mut stopped) = watch::channel(false);
        let acceptor = Acceptor {
            connections: Census::new(
                options.limits.connections_per_address,
                options.limits.connections,
            ),
            header_time: options.limits.header_time,
            proxies: Arc::clone(&state.proxies),
        };
        let metrics_addr = match options.metrics_addr {
            Some(wanted) => Some(
                serve_metrics(
                    wanted,
                    &state,
                    Arc::clone(&acceptor.connections),
                    stop.subscribe(),
                )
                .await?,
            ),
            None => None,
        };
        let app = router(state);
        let task = tokio::spawn(async move {
            let shutdown = async move {
                tokio::select! {
                    _ = stopped.wait_for(|&stop| stop) => {}
                    () = termination() => {}
                }
                tracing::info!("shutting down: finishing the requests under way");
                // Live sockets would otherwise keep their connections, and the shutdown, open.
                let _ = closing.send(true);
            };
            acceptor.serve(listener, app, shutdown).await;
            for task in &background {
                task.abort();
            }
            // An aborted task lets go of its database connection only once it is dropped:
            // wait for that, so that closing the pool closes every connection (SQLite's
            // journal files are gone when `stop` returns).
            for task in background {
                drop(task.await);
            }
            if let Err(e) = store.instance_stopped(&instance).await {
                tracing::warn!("cannot record that this instance stopped: {e:#}");
            }
            store.close().await;
            Ok(())
        });
        tracing::info!("swapboard {VERSION} listening on http://{addr}");
        Ok(Server {
            addr,
            metrics_addr,
            stop,
            task,
        })
    }

    /// The address the server listens on (the real port when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The address of the metrics' listener, if `--metrics-addr` asked for one.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// Waits until the server has stopped (after SIGTERM, Ctrl-C or [`Server::stop`]).
    pub async fn wait(self) -> anyhow::Result<()> {
        self.task.await.context("the server task failed")?
    }

    /// Stops accepting connections, lets the requests under way finish, and waits.
    pub async fn stop(self) -> anyhow::Result<()> {
        // The receiver is gone only when the server has stopped already.
        let _ = self.stop.send(true);
        self.wait().await
    }
}

/// Records every `HEARTBEAT` that this instance (`id`) still runs, until the server stops.
async fn heartbeat(store: Store, id: String) {
    let mut tick = store.clock().ticker(HEARTBEAT);
    loop {
        tick.tick().await;
        if let Err(e) = store.instance_seen(&id).await {
            tracing::warn!("cannot record that this instance runs: {e:#}");
        }
    }
}

/// Starts the metrics' listener at `wanted`, sampling the pool, the connections and the live
/// sockets at each scrape, until the server stops; the address it listens on.
async fn serve_metrics(
    wanted: SocketAddr,
    state: &AppState,
    connections: Arc<Census<std::net::IpAddr>>,
    mut stopped: watch::Receiver<bool>,
) -> anyhow::Result<SocketAddr> {
    let handle = instruments::install()?;
    let listener = TcpListener::bind(wanted)
        .await
        .map_err(|e| anyhow::anyhow!("--metrics-addr: cannot listen on {wanted}: {e}"))?;
    let addr = listener.local_addr()?;
    let store = state.store.clone();
    let sockets = Arc::clone(&state.sockets_per_address);
    let sample = move || {
        let (size, idle) = store.pool_use();
        instruments::pool(size, idle);
        instruments::connections(connections.open(), connections.refused(), sockets.open());
        instruments::process();
        let store = store.clone();
        async move {
            match store.ai_jobs_waiting().await {
                Ok(kinds) => {
                    for (kind, waiting) in kinds {
                        let waiting = u32::try_from(waiting).unwrap_or(u32::MAX);
                        instruments::ai_jobs(kind, waiting);
                    }
                }
                Err(e) => tracing::warn!("metrics: cannot count the AI's jobs: {e:#}"),
            }
            match store.outbox_pending().await {
                Ok(pending) => {
                    instruments::outbox_pending(u32::try_from(pending).unwrap_or(u32::MAX))
                }
                Err(e) => tracing::warn!("metrics: cannot count the pending notifications: {e:#}"),
            }
        }
    };
    let shutdown = async move {
        let _ = stopped.wait_for(|&stop| stop).await;
    };
    tokio::spawn(instruments::serve(listener, handle, sample, shutdown));
    tracing::info!("metrics on http://{addr}/metrics");
    Ok(addr)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The paths an axum router serves, read from its route table as `Debug` shows it
    /// (axum keeps the table private; its version is pinned in the workspace).
    fn served_paths(router: &Router<AppState>) -> BTreeSet<String> {
        let table = format!("{router:?}");
        // The served routes' table comes first, the fallback's own (`/`) after it.
        let routes = table.split("fallback_router").next().unwrap_or_default();
        routes
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|text| text.starts_with('/'))
            .map(str::to_owned)
            .collect()
    }

    /// Every path the server serves is in its OpenAPI document, and the document names no
    /// path the server does not serve.
    #[test]
    fn every_served_route_is_documented() {
        let (router, document) = api().split_for_parts();
        let served = served_paths(&router);
        let documented: BTreeSet<String> = document.paths.paths.keys().cloned().collect();
        assert!(
            served.len() > 40,
            "the route table was not read: {served:?}"
        );
        assert_eq!(served, documented);
        for (path, item) in &document.paths.paths {
            let operations = [&item.get, &item.post, &item.put, &item.delete, &item.patch];
            assert!(
                operations.iter().any(|operation| operation.is_some()),
                "{path} has no operation"
            );
        }
    }
}
