//! Who watches a game live: a signed-in account's game socket is recorded in the database
//! (every instance's sockets alike) while it is open, so the delivery worker mails no
//! "your turn" to a player looking at the board. It imports only the store and secrets, so
//! the game's socket route can hold one without joining the handlers' imports.

use std::time::Duration;

use tokio::task::JoinHandle;

use crate::secret::random_secret;
use crate::store::Store;

/// How often an open socket's row is refreshed: well inside the minute after which a row
/// is taken for a dead instance's (`store::outbox::WATCH_STALE_MS`).
const REFRESH: Duration = Duration::from_secs(20);

/// An open game socket of an account, recorded while it lives.
#[derive(Debug)]
pub(crate) struct Watching {
    store: Store,
    socket_id: String,
    refresh: JoinHandle<()>,
}

impl Watching {
    /// Records that the account watches the game (before the socket opens, so a move
    /// right after finds it), and keeps the record fresh until dropped.
    pub(crate) async fn start(
        store: &Store,
        account_id: i64,
        game_id: &str,
    ) -> anyhow::Result<Watching> {
        let socket_id = random_secret();
        store.watching(&socket_id, account_id, game_id).await?;
        let refresh = {
            let (store, socket_id, game_id) =
                (store.clone(), socket_id.clone(), game_id.to_owned());
            tokio::spawn(async move {
                // Refreshed on the store's clock too: a test that moves it past
                // the staleness still finds an open socket watching.
                let mut tick = store.clock().ticker(REFRESH);
                // The first tick is at once, and the record was just written.
                tick.tick().await;
                loop {
                    tick.tick().await;
                    if let Err(e) = store.watching(&socket_id, account_id, &game_id).await {
                        tracing::warn!("notifications: cannot record a watcher: {e:#}");
                    }
                }
            })
        };
        Ok(Watching {
            store: store.clone(),
            socket_id,
            refresh,
        })
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.refresh.abort();
        let (store, socket_id) = (self.store.clone(), std::mem::take(&mut self.socket_id));
        // A socket closes on a runtime; should none be left (the server stopping), the row
        // ages out in a minute.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(e) = store.stop_watching(&socket_id).await {
                    tracing::warn!("notifications: cannot forget a watcher: {e:#}");
                }
            });
        }
    }
}
