//! Accepting connections so that no client can exhaust the server: caps on open HTTP
//! connections per client address and in total, a time limit on reading a request's headers
//! (which also closes idle keep-alive connections), and the counts kept while a connection,
//! or the WebSocket it became, is open.
//!
//! A connection that becomes a WebSocket leaves the HTTP connections' counts the moment its
//! upgrade is answered (101): from then on it is one of the sockets, which have caps of their
//! own (`--limit-sockets`, `--limit-sockets-per-address`, counted by the handlers before the
//! upgrade). So however many sockets are open, a new HTTP request finds a place.
//!
//! axum's own `serve` sets no header timeout and no cap: a client that opens connections and
//! sends nothing, or trickles its headers, kept every one open until the process ran out of
//! file descriptors. This accept loop serves each connection with hyper's HTTP/1.1 server,
//! its header-read timer on, and closes at once a connection over a cap.

use std::collections::HashMap;
use std::hash::Hash;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use axum::response::Response;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::Layer as _;
use tower::util::MapResponseLayer;

use crate::proxy::TrustedProxies;

/// Open things (connections, WebSockets) counted per key, with a cap per key and in total.
#[derive(Debug)]
pub(crate) struct Census<K: Hash + Eq> {
    per_key: u32,
    total: u32,
    open: Mutex<Open<K>>,
    /// How many were refused, for the log and the metrics.
    refused: AtomicU64,
    /// When a refusal was last logged (real time, not the server's clock: it only spaces
    /// out log lines).
    last_warning: Mutex<Option<Instant>>,
}

#[derive(Debug)]
struct Open<K> {
    total: u32,
    by_key: HashMap<K, u32>,
}

/// One counted connection or WebSocket: uncounted when dropped.
#[derive(Debug)]
pub(crate) struct Ticket<K: Hash + Eq + Copy> {
    census: Arc<Census<K>>,
    /// `None`: counted in the total only (a trusted proxy's connections, which are many
    /// clients').
    key: Option<K>,
}

impl<K: Hash + Eq + Copy> Census<K> {
    pub(crate) fn new(per_key: u32, total: u32) -> Arc<Census<K>> {
        Arc::new(Census {
            per_key,
            total,
            open: Mutex::new(Open {
                total: 0,
                by_key: HashMap::new(),
            }),
            refused: AtomicU64::new(0),
            last_warning: Mutex::new(None),
        })
    }

    /// Counts one more for `key` (`None`: for the total only), or refuses when a cap is
    /// reached. The map holds only keys with something open, so it is as large as what is
    /// open, which the total caps.
    pub(crate) fn admit(self: &Arc<Self>, key: Option<K>) -> Option<Ticket<K>> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let over_key =
            key.is_some_and(|k| open.by_key.get(&k).copied().unwrap_or(0) >= self.per_key);
        if open.total >= self.total || over_key {
            drop(open);
            self.refused.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        open.total += 1;
        if let Some(k) = key {
            *open.by_key.entry(k).or_insert(0) += 1;
        }
        Some(Ticket {
            census: Arc::clone(self),
            key,
        })
    }

    /// How many are open now.
    pub(crate) fn open(&self) -> u32 {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).total
    }

    /// How many were refused since the start.
    pub(crate) fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Whether the total cap is reached.
    pub(crate) fn full(&self) -> bool {
        self.open() >= self.total
    }

    /// Whether a refusal is to be logged now: one in every [`REFUSAL_LOG_EVERY`] at most
    /// (each line gives the count so far), so that a flood does not flood the log.
    pub(crate) fn time_to_warn(&self) -> bool {
        let now = Instant::now();
        let mut last = self.last_warning.lock().unwrap_or_else(|p| p.into_inner());
        let due = last.is_none_or(|at| now.duration_since(at) >= REFUSAL_LOG_EVERY);
        if due {
            *last = Some(now);
        }
        due
    }
}

impl<K: Hash + Eq + Copy> Drop for Ticket<K> {
    fn drop(&mut self) {
        let mut open = self.census.open.lock().unwrap_or_else(|p| p.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(k) = self.key
            && let Some(count) = open.by_key.get_mut(&k)
        {
            *count -= 1;
            if *count == 0 {
                open.by_key.remove(&k);
            }
        }
    }
}

/// A connection's place in the HTTP connections' counts: left when the connection becomes a
/// WebSocket, or when it closes, whichever comes first.
#[derive(Clone, Debug)]
struct Place(Arc<Mutex<Option<Ticket<IpAddr>>>>);

impl Place {
    fn new(ticket: Ticket<IpAddr>) -> Place {
        Place(Arc::new(Mutex::new(Some(ticket))))
    }

    /// Gives the place up (its ticket uncounts it); once is enough.
    fn leave(&self) {
        let ticket = self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(ticket);
    }
}

/// A TCP stream that holds its place in the counts as long as it is open and still speaks
/// HTTP (hyper hands this very stream to a WebSocket, which gives the place up).
struct Counted {
    stream: TcpStream,
    place: Place,
}

impl Drop for Counted {
    // The per-connection service holds the place too, and may outlive the stream a moment.
    fn drop(&mut self) {
        self.place.leave();
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// How connections are accepted.
#[derive(Clone, Debug)]
pub(crate) struct Acceptor {
    /// The open HTTP connections (not those become WebSockets), per TCP peer and in total.
    pub(crate) connections: Arc<Census<IpAddr>>,
    /// The longest a client may take to send a request's headers, counted from the moment
    /// the connection waits for a request: so also how long an idle keep-alive connection
    /// stays open.
    pub(crate) header_time: Duration,
    /// Whose connections are not capped per address (a proxy's carry many clients).
    pub(crate) proxies: Arc<TrustedProxies>,
}

/// How often at most a refusal is logged at warn (the count is in each line).
const REFUSAL_LOG_EVERY: Duration = Duration::from_secs(10);

impl Acceptor {
    /// Serves `router` on `listener` until `shutdown` resolves, then lets the requests under
    /// way finish (`graceful_shutdown` on every connection) and returns when all have closed.
    pub(crate) async fn serve(
        self,
        listener: TcpListener,
        router: Router,
        shutdown: impl Future<Output = ()>,
    ) {
        let (signal, signalled) = watch::channel(false);
        let (closed, all_closed) = watch::channel(());
        let mut shutdown = pin!(shutdown);
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = &mut shutdown => break,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    // Out of file descriptors (EMFILE) or memory: wait for some to be freed
                    // rather than spin.
                    tracing::error!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let ip = peer.ip().to_canonical();
            let key = (!self.proxies.trusts(ip)).then_some(ip);
            let Some(ticket) = self.connections.admit(key) else {
                // Closed at once, unanswered: writing a 503 could block on a client that
                // does not read, which is what this cap guards against.
                drop(stream);
                if self.connections.time_to_warn() {
                    tracing::warn!(
                        client = %ip,
                        open = self.connections.open(),
                        refused_so_far = self.connections.refused(),
                        "connection refused: too many open connections from this address or in all"
                    );
                }
                continue;
            };
            let _ = stream.set_nodelay(true);
            let io = Counted {
                stream,
                place: Place::new(ticket),
            };
            tokio::spawn(serve_connection(
                io,
                peer,
                router.clone(),
                self.header_time,
                signalled.clone(),
                all_closed.clone(),
            ));
        }
        drop(listener);
        let _ = signal.send(true);
        drop(all_closed);
        closed.closed().await;
    }
}

/// Serves one connection with hyper's HTTP/1.1 server until it closes.
async fn serve_connection(
    io: Counted,
    peer: SocketAddr,
    router: Router,
    header_time: Duration,
    mut shutdown: watch::Receiver<bool>,
    _open: watch::Receiver<()>,
) {
    // The extension `ConnectInfo` is what axum's own serve adds: the edge reads the peer there.
    let place = io.place.clone();
    let switching = MapResponseLayer::new(move |response: Response| {
        // Answered 101, the connection is a WebSocket's now, counted with the sockets.
        if response.status() == StatusCode::SWITCHING_PROTOCOLS {
            place.leave();
        }
        response
    });
    let service =
        TowerToHyperService::new(switching.layer(axum::Extension(ConnectInfo(peer)).layer(router)));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_time)
        .keep_alive(true);
    let mut connection = pin!(
        builder
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades()
    );
    let mut shutting_down = false;
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(client = %peer.ip(), "connection ended: {e}");
                }
                return;
            }
            changed = shutdown.wait_for(|&stop| stop), if !shutting_down => {
                shutting_down = true;
                if changed.is_ok() {
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_per_key_and_in_total_and_free_on_drop() {
        let census = Census::<u8>::new(2, 3);
        let a1 = census.admit(Some(1)).unwrap();
        let a2 = census.admit(Some(1)).unwrap();
        assert!(census.admit(Some(1)).is_none(), "per key");
        let b1 = census.admit(Some(2)).unwrap();
        assert!(census.admit(Some(3)).is_none(), "in total");
        assert!(census.admit(None).is_none(), "in total, uncapped key too");
        assert_eq!(census.refused(), 3);
        assert!(census.full());
        // The first refusal is logged, the next ones within the time are not.
        assert!(census.time_to_warn());
        assert!(!census.time_to_warn());
        drop(a1);
        assert_eq!(census.open(), 2);
        let _a3 = census.admit(Some(1)).unwrap();
        drop((a2, b1));
        assert_eq!(census.open(), 1);
        // Keys with nothing open are forgotten: the map is as large as what is open.
        assert_eq!(census.open.lock().unwrap().by_key.len(), 1);
    }
}
