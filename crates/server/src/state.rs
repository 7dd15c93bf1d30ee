//! What every handler shares ([`AppState`]): the store, the password hasher, the rate
//! limiters, the AI's seats, the live hub and the counts of open sockets.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::ai::players::AiPlayers;
use crate::clock::Clock;
use crate::edge::ClientAddr;
use crate::error::{ApiError, ApiResult};
use crate::limits::{Limiter, Limits};
use crate::listen::{Census, Ticket};
use crate::live::Hub;
use crate::notify::mail::Mailer;
use crate::notify::webpush::Pusher;
use crate::offered::Offered;
use crate::passwords::Passwords;
use crate::proxy::TrustedProxies;
use crate::store::Store;

/// The rate limiters of one server.
#[derive(Debug)]
pub(crate) struct Limiters {
    pub(crate) login_failures_per_client: Limiter,
    pub(crate) login_failures_per_name: Limiter,
    pub(crate) login_per_address: Limiter,
    pub(crate) signup_per_address: Limiter,
    pub(crate) guests_per_address: Limiter,
    pub(crate) writes_per_address: Limiter,
    pub(crate) moves_per_account: Limiter,
    pub(crate) challenges_per_account: Limiter,
    pub(crate) analyses_per_address: Limiter,
    pub(crate) chat_per_account: Limiter,
    pub(crate) reports_per_account: Limiter,
}

impl Limiters {
    /// The limiters of these limits.
    pub(crate) fn new(limits: &Limits) -> Limiters {
        Limiters {
            login_failures_per_client: Limiter::new(
                "login_failures_per_client",
                limits.login_failures_per_client,
            ),
            login_failures_per_name: Limiter::new(
                "login_failures_per_name",
                limits.login_failures_per_name,
            ),
            login_per_address: Limiter::new("login_per_address", limits.login_per_address),
            signup_per_address: Limiter::new("signup_per_address", limits.signup_per_address),
            guests_per_address: Limiter::new("guests_per_address", limits.guests_per_address),
            writes_per_address: Limiter::new("writes_per_address", limits.writes_per_address),
            moves_per_account: Limiter::new("moves_per_account", limits.moves_per_account),
            challenges_per_account: Limiter::new(
                "challenges_per_account",
                limits.challenges_per_account,
            ),
            analyses_per_address: Limiter::new("analyses_per_address", limits.analyses_per_address),
            chat_per_account: Limiter::new("chat_per_account", limits.chat_per_account),
            reports_per_account: Limiter::new("reports_per_account", limits.reports_per_account),
        }
    }
}

/// What every handler shares.
#[derive(Clone, Debug)]
pub(crate) struct AppState {
    pub(crate) store: Store,
    /// The wall clock, the store's own ([`Store::clock`]): handlers and background
    /// workers read the time here.
    pub(crate) clock: Clock,
    pub(crate) passwords: Passwords,
    pub(crate) limits: Arc<Limiters>,
    /// Whether cookies are marked `Secure` (the server is reached through TLS).
    pub(crate) secure_cookies: bool,
    /// The longest a request may take.
    pub(crate) request_time: Duration,
    /// The AI's seats: its searches and the games it is thinking on.
    pub(crate) ai: Arc<AiPlayers>,
    /// This instance's live sockets.
    pub(crate) live: Arc<Hub>,
    /// Whose forwarding headers are believed (`--trusted-proxy`).
    pub(crate) proxies: Arc<TrustedProxies>,
    /// The days of vacation each account has a year (`--vacation-days`).
    pub(crate) vacation_days: u32,
    /// The days a guest that never came back is kept (`--guest-days`).
    pub(crate) guest_days: u16,
    /// The games offered (`--games`).
    pub(crate) offered: Arc<Offered>,
    /// How mail is sent (`--smtp`), if it is.
    pub(crate) mail: Option<Arc<Mailer>>,
    /// How web pushes are sent: the VAPID key.
    pub(crate) push: Arc<Pusher>,
    /// Live WebSockets per client address (and in all: `--limit-sockets`), and per account.
    pub(crate) sockets_per_address: Arc<Census<IpAddr>>,
    pub(crate) sockets_per_account: Arc<Census<i64>>,
}

/// A live WebSocket's place in the counts per address and per account: held as long as the
/// socket is open.
#[derive(Debug)]
pub(crate) struct SocketTickets {
    _address: Ticket<IpAddr>,
    _account: Option<Ticket<i64>>,
}

impl AppState {
    /// Counts one more live WebSocket for this address and account, or answers 429 when
    /// either has too many open already.
    pub(crate) fn admit_socket(
        &self,
        addr: ClientAddr,
        account: Option<i64>,
    ) -> ApiResult<SocketTickets> {
        // A socket is freed when its page closes: a few seconds is a fair wait.
        let refused = || ApiError::RateLimited(Duration::from_secs(5));
        let Some(address) = self.sockets_per_address.admit(Some(addr.0)) else {
            // The instance's own cap, not a client's: the operator's to know.
            if self.sockets_per_address.full() && self.sockets_per_address.time_to_warn() {
                tracing::warn!(
                    open = self.sockets_per_address.open(),
                    refused_so_far = self.sockets_per_address.refused(),
                    "live socket refused: this instance holds as many as --limit-sockets allows"
                );
            }
            return Err(refused());
        };
        let account = match account {
            Some(id) => Some(
                self.sockets_per_account
                    .admit(Some(id))
                    .ok_or_else(refused)?,
            ),
            None => None,
        };
        Ok(SocketTickets {
            _address: address,
            _account: account,
        })
    }
}
