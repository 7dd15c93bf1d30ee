//! Live games and rooms: the WebSockets of docs/API.md and the fan-out that feeds them.
//! A socket listens to a [`Topic`], a game or a Swap 61 room; what it is sent is rendered by
//! the hub's [`Render`] (the messages themselves, [`messages::LiveMessage`], are the game
//! and room views, so they are rendered above this module, which knows neither).
//!
//! Every committed change of a topic is announced once ([`Hub::announce`]). With SQLite (one
//! instance) the announcement goes straight to this process's sockets; with PostgreSQL it
//! goes through `NOTIFY`, and every instance, this one included, hears it on its `LISTEN`
//! connection and feeds its own sockets. An announcement carries only the topic and what
//! changed; each instance reads the game or room once and sends the same message to all its
//! sockets of that topic, so the work per change does not grow with the watchers.
//!
//! A socket's messages pass through a bounded broadcast channel: a reader too slow to keep
//! up loses its place, and is sent the whole game again instead (it resyncs by ply), so it
//! never holds up a move or another watcher.
//!
//! The hub owns what it needs (the store, the renderer, the shutdown flag): it takes no
//! handler's state, so this module imports nothing of the server but the store and errors.

pub(crate) mod messages;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use tokio::sync::{broadcast, oneshot, watch};
use tokio::time::{Instant, MissedTickBehavior};

use crate::error::{ApiError, ApiResult};
use crate::instruments;
use crate::limits::http::{PING_EVERY, SEND_LIMIT, SILENT_LIMIT};
use crate::secret::random_secret;
use crate::store::{Channel, ChatRef, CredentialKey, Store, move_payload, notify_channel};

/// Messages a socket may fall behind by before it is resynced with the whole game.
const SOCKET_BUFFER: usize = 32;

/// The longest a new socket waits for its topic's channel to be listened to.
const LISTEN_WAIT: Duration = Duration::from_secs(5);
/// The close code of a socket whose credentials have ended (a ban, a password change, a
/// log-out everywhere): the client may reconnect, as the public, or log in again.
pub(crate) const CREDENTIALS_ENDED: u16 = 4001;

/// The account that opened a socket, and the credential it proved itself with: the socket
/// closes when that credential ends.
#[derive(Clone, Debug)]
pub(crate) struct Viewer {
    /// The account (the chats it muted are not sent to it).
    pub(crate) account: i64,
    /// The token or session the socket was opened with.
    pub(crate) credential: CredentialKey,
}

/// What a socket listens to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Topic {
    /// A game, by id.
    Game(String),
    /// A Swap 61 room, by id.
    Room(String),
    /// An account's inbox (`GET /api/me/notifications/socket`), by the account's id.
    Inbox(i64),
    /// A tournament, by id.
    Tournament(String),
}

impl Topic {
    /// The prefix of a room's id in an announcement's payload (a game's id goes bare).
    const ROOM_PAYLOAD: &str = "room:";
    /// The prefix of an inbox's account id in an announcement's payload.
    const INBOX_PAYLOAD: &str = "inbox:";
    /// The prefix of a tournament's id in an announcement's payload.
    const TOURNAMENT_PAYLOAD: &str = "tournament:";

    /// The topic in an announcement's payload.
    fn payload(&self) -> String {
        match self {
            Topic::Game(id) => id.clone(),
            Topic::Room(id) => format!("{}{id}", Topic::ROOM_PAYLOAD),
            Topic::Inbox(account) => format!("{}{account}", Topic::INBOX_PAYLOAD),
            Topic::Tournament(id) => format!("{}{id}", Topic::TOURNAMENT_PAYLOAD),
        }
    }

    /// Reads a topic back from an announcement's payload.
    fn of_payload(word: &str) -> Option<Topic> {
        if let Some(account) = word.strip_prefix(Topic::INBOX_PAYLOAD) {
            return account.parse().ok().map(Topic::Inbox);
        }
        if let Some(id) = word.strip_prefix(Topic::TOURNAMENT_PAYLOAD) {
            return Some(Topic::Tournament(id.to_owned()));
        }
        Some(match word.strip_prefix(Topic::ROOM_PAYLOAD) {
            Some(room) => Topic::Room(room.to_owned()),
            None => Topic::Game(word.to_owned()),
        })
    }

    /// The topic's id, for the logs.
    fn id(&self) -> String {
        match self {
            Topic::Game(id) | Topic::Room(id) | Topic::Tournament(id) => id.clone(),
            Topic::Inbox(account) => format!("inbox of {account}"),
        }
    }
}

/// What changed in a game, for its watchers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The move that made this ply was played.
    Move(u32),
    /// Anything else: a join, a resignation, a timeout, an abort.
    State,
    /// A message was written in one of the topic's chats (`docs/CHAT.md`).
    Chat {
        /// Which chat.
        channel: Channel,
        /// The message's id.
        message: i64,
    },
}

impl Change {
    /// The change of a topic as an announcement's payload: `GAME_ID move PLY`,
    /// `GAME_ID state` or `room:ROOM_ID state`.
    fn payload(self, topic: &Topic) -> String {
        let topic = topic.payload();
        match self {
            Change::Move(ply) => move_payload(&topic, ply),
            Change::State => format!("{topic} state"),
            Change::Chat { channel, message } => {
                format!("{topic} chat {} {message}", channel.word())
            }
        }
    }

    /// The key of the chat a change wrote in, for the mutes (`None`: no chat's change).
    fn chat_key(self, topic: &Topic) -> Option<String> {
        let Change::Chat { channel, .. } = self else {
            return None;
        };
        let (Topic::Game(place) | Topic::Room(place)) = topic else {
            return None;
        };
        Some(
            ChatRef {
                place: place.clone(),
                channel,
            }
            .key(),
        )
    }

    /// Reads an announcement's payload back; `None` for one this version does not know.
    fn of_payload(payload: &str) -> Option<(Topic, Change)> {
        let mut words = payload.split(' ');
        let topic = Topic::of_payload(words.next()?)?;
        let change = match (words.next()?, words.next()) {
            ("move", Some(ply)) => Change::Move(ply.parse().ok()?),
            ("state", None) => Change::State,
            ("chat", Some(word)) => Change::Chat {
                channel: Channel::of_word(word)?,
                message: words.next()?.parse().ok()?,
            },
            _ => return None,
        };
        words.next().is_none().then_some((topic, change))
    }
}

/// A rendering under way: what [`Render`]'s methods answer.
pub(crate) type Rendering<'a, T> = Pin<Box<dyn Future<Output = ApiResult<T>> + Send + 'a>>;

/// The first messages of a new socket, each rendered as it goes out.
pub(crate) type Greeting = Box<dyn Iterator<Item = ApiResult<Utf8Bytes>> + Send>;

/// What the hub sends: the messages of a topic as JSON text, read from the store.
pub(crate) trait Render: Send + Sync {
    /// The message that tells a topic's sockets of a change.
    fn change<'a>(
        &'a self,
        store: &'a Store,
        topic: &'a Topic,
        change: Change,
    ) -> Rendering<'a, Utf8Bytes>;

    /// The first messages of a new socket: what it missed after ply `since` (a game's
    /// moves), then the whole state.
    fn greeting<'a>(
        &'a self,
        store: &'a Store,
        topic: &'a Topic,
        since: Option<u32>,
    ) -> Rendering<'a, Greeting>;
}

/// One message of a topic's sockets: its text, and for a chat's message the chat's key (a
/// socket of an account that muted that chat skips it).
#[derive(Clone, Debug)]
struct Outgoing {
    chat: Option<Arc<str>>,
    text: Utf8Bytes,
}

/// This instance's sockets, by topic, and what feeds them.
pub(crate) struct Hub {
    store: Store,
    render: Box<dyn Render>,
    /// Turns true when the server begins to shut down: the sockets close then, so that
    /// the graceful shutdown, which waits for every connection, can end.
    closing: watch::Receiver<bool>,
    /// How often a socket opened with credentials checks them again, for those ended by
    /// another process (this one's own end its sockets at once).
    recheck: Duration,
    topics: Mutex<HashMap<Topic, broadcast::Sender<Outgoing>>>,
    /// Where changes cross instances (PostgreSQL): the channels this instance's listener
    /// listens to, and those its sockets asked for since.
    shards: Mutex<Shards>,
    /// This instance's own channel, on which it wakes its listener to listen to more.
    control: String,
}

/// The announcement channels of one instance's listener ([`listen`]).
#[derive(Debug, Default)]
struct Shards {
    /// Listened to (again at each reconnection).
    listened: HashSet<String>,
    /// Asked for by new sockets, each waiting for its LISTEN to be in place.
    asked: Vec<(String, oneshot::Sender<()>)>,
}

impl fmt::Debug for Hub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hub").finish_non_exhaustive()
    }
}

impl Hub {
    /// A hub reading the store and rendering with `render`, whose sockets close when
    /// `closing` turns true, and whose sockets opened with credentials check them every
    /// `recheck`.
    pub(crate) fn new(
        store: Store,
        render: Box<dyn Render>,
        closing: watch::Receiver<bool>,
        recheck: Duration,
    ) -> Hub {
        Hub {
            store,
            render,
            closing,
            recheck,
            topics: Mutex::default(),
            shards: Mutex::default(),
            // 16 hex digits of a random secret: unique, and short of PostgreSQL's 63 bytes.
            control: format!("swapboard_instance_{}", &random_secret()[..16]),
        }
    }

    fn shards(&self) -> std::sync::MutexGuard<'_, Shards> {
        self.shards.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes sure this instance hears the other instances' announcements of `topic`: where
    /// they cross through the database, its listener LISTENs to the topic's channel before
    /// this returns (a socket then reads the topic knowing no later change can pass it by).
    /// Bounded: after [`LISTEN_WAIT`] it goes on, logged, and the socket resyncs on its next
    /// reconnection at worst.
    async fn hear(&self, topic: &Topic) {
        if !self.store.fans_out_through_database() {
            return;
        }
        let channel = notify_channel(&topic.payload());
        let confirmed = {
            let mut shards = self.shards();
            if shards.listened.contains(&channel) {
                return;
            }
            let (confirm, confirmed) = oneshot::channel();
            shards.asked.push((channel, confirm));
            confirmed
        };
        if let Err(e) = self.store.notify_on(&self.control, "listen").await {
            tracing::warn!("live: cannot wake the listener: {e:#}");
        }
        if !matches!(
            tokio::time::timeout(LISTEN_WAIT, confirmed).await,
            Ok(Ok(()))
        ) {
            tracing::warn!(
                topic = %topic.id(),
                "live: the listener did not LISTEN to the topic's channel in time"
            );
        }
    }

    /// LISTENs to the channels new sockets asked for, and tells them.
    async fn listen_asked(&self, listener: &mut sqlx::postgres::PgListener) -> sqlx::Result<()> {
        let asked = std::mem::take(&mut self.shards().asked);
        let mut asked = asked.into_iter();
        while let Some((channel, confirm)) = asked.next() {
            if !self.shards().listened.contains(&channel) {
                if let Err(e) = listener.listen(&channel).await {
                    // Asked again after the reconnection.
                    let mut shards = self.shards();
                    shards.asked.push((channel, confirm));
                    shards.asked.extend(asked);
                    return Err(e);
                }
                self.shards().listened.insert(channel);
            }
            let _ = confirm.send(());
        }
        Ok(())
    }

    /// Tells every watcher of the topic, on every instance, what changed. Called after the
    /// change is committed; a failure to announce is logged (the watchers resync on their
    /// next message or reconnect), never the caller's.
    pub(crate) async fn announce(&self, topic: &Topic, change: Change) {
        self.announce_all(&[(topic.clone(), change)]).await;
    }

    /// [`Hub::announce`] for several changes at once: on PostgreSQL one statement tells
    /// every instance of them all.
    pub(crate) async fn announce_all(&self, changes: &[(Topic, Change)]) {
        if changes.is_empty() {
            return;
        }
        if self.store.fans_out_through_database() {
            let payloads: Vec<String> = changes
                .iter()
                .map(|(topic, change)| change.payload(topic))
                .collect();
            if let Err(e) = self.store.notify(&payloads).await {
                tracing::warn!(
                    changes = payloads.len(),
                    "live: cannot notify the other instances: {e:#}"
                );
            }
        } else {
            for (topic, change) in changes {
                self.deliver(topic, *change).await;
            }
        }
    }

    /// Tells the watchers of a change whose transaction announced it already where live
    /// messages cross instances through the database (PostgreSQL: the move's transaction
    /// sent the notification, `Store::play_move`): nothing is left to do there; on SQLite
    /// this instance's sockets are told now.
    pub(crate) async fn announce_committed(&self, topic: &Topic, change: Change) {
        if !self.store.fans_out_through_database() {
            self.deliver(topic, change).await;
        }
    }

    /// Sends a change to this instance's sockets of the topic (none: nothing is read).
    async fn deliver(&self, topic: &Topic, change: Change) {
        let Some(sender) = self.sender(topic) else {
            return;
        };
        // Real time, not the server's clock: the fan-out's duration, for the metrics.
        let began = Instant::now();
        match self.render.change(&self.store, topic, change).await {
            // Nobody listening any more is not an error.
            Ok(text) => {
                let chat = change.chat_key(topic).map(Arc::from);
                drop(sender.send(Outgoing { chat, text }));
                instruments::fanout(began.elapsed());
            }
            Err(e) => tracing::warn!(topic = %topic.id(), "live: cannot read it: {e:?}"),
        }
    }

    /// The channel of a topic's sockets on this instance, if any are open.
    fn sender(&self, topic: &Topic) -> Option<broadcast::Sender<Outgoing>> {
        let topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        topics.get(topic).cloned()
    }

    /// A receiver of a topic's messages for a new socket.
    fn subscribe(&self, topic: &Topic) -> broadcast::Receiver<Outgoing> {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        topics
            .entry(topic.clone())
            .or_insert_with(|| broadcast::channel(SOCKET_BUFFER).0)
            .subscribe()
    }

    /// Forgets a topic's channel once its last socket has closed.
    fn unsubscribe(&self, topic: &Topic, receiver: broadcast::Receiver<Outgoing>) {
        drop(receiver);
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        if topics
            .get(topic)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            topics.remove(topic);
        }
    }

    /// Turns a request into a socket of the topic, sent the moves after `since` first,
    /// and holding `tickets` (its place in the counts of open sockets) while it is open;
    /// `viewer` is who opened it, if anyone: the chats it muted are not sent, and the
    /// socket closes when its credential ends.
    pub(crate) fn upgrade(
        self: &Arc<Hub>,
        topic: Topic,
        since: Option<u32>,
        viewer: Option<Viewer>,
        upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
        tickets: impl Send + 'static,
    ) -> ApiResult<Response> {
        let upgrade = upgrade.map_err(|e| {
            ApiError::BadRequest(format!("this endpoint is a WebSocket: {}", e.body_text()))
        })?;
        let hub = Arc::clone(self);
        // Small buffers: a socket's messages are a few KiB and go out one at a time, and
        // tungstenite's defaults (128 KiB each way) would cost a quarter of a megabyte per
        // watcher.
        Ok(upgrade
            .read_buffer_size(4 * 1024)
            .write_buffer_size(0)
            .max_message_size(1024)
            .on_upgrade(move |socket| async move {
                hub.watch(topic, since, viewer, socket).await;
                drop(tickets);
            }))
    }

    /// Serves one socket until it closes, falls silent, cannot keep up, or its viewer's
    /// credential ends.
    async fn watch(
        &self,
        topic: Topic,
        since: Option<u32>,
        viewer: Option<Viewer>,
        mut socket: WebSocket,
    ) {
        // Subscribed (and the topic's channel heard) before the topic is read, so no change
        // between the two is missed.
        let mut receiver = self.subscribe(&topic);
        self.hear(&topic).await;
        let mut ended = viewer.as_ref().map(|_| self.store.ended_credentials());
        // The socket's timers run on real time, not the server's clock: they pace network
        // traffic (pings, the silence that closes a dead peer, credential rechecks of an
        // open connection), and nothing they measure is stored.
        let mut recheck = tokio::time::interval_at(Instant::now() + self.recheck, self.recheck);
        recheck.set_missed_tick_behavior(MissedTickBehavior::Delay);
        if let Err(e) = self.greet(&topic, since, &mut socket).await {
            tracing::debug!(topic = %topic.id(), "live: greeting failed: {e:#}");
            self.unsubscribe(&topic, receiver);
            return;
        }
        let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
        ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut heard = Instant::now();
        let mut closing = self.closing.clone();
        loop {
            let outgoing = tokio::select! {
                // The flag only ever turns true (or its sender goes with the server).
                _ = closing.changed() => {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
                batch = next_ended(&mut ended) => {
                    let Some(viewer) = &viewer else { continue };
                    let gone = match batch {
                        Ok(batch) => batch.contains(&viewer.credential),
                        Err(broadcast::error::RecvError::Lagged(_)) => !self.holds(viewer).await,
                        Err(broadcast::error::RecvError::Closed) => {
                            ended = None;
                            false
                        }
                    };
                    if !gone {
                        continue;
                    }
                    credentials_ended()
                }
                _ = recheck.tick(), if viewer.is_some() => {
                    match &viewer {
                        Some(viewer) if !self.holds(viewer).await => credentials_ended(),
                        _ => continue,
                    }
                }
                received = receiver.recv() => match received {
                    Ok(outgoing) => {
                        let account = viewer.as_ref().map(|v| v.account);
                        if self.muted(account, outgoing.chat.as_deref()).await {
                            continue;
                        }
                        Message::Text(outgoing.text)
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        match self.render.change(&self.store, &topic, Change::State).await {
                            Ok(text) => Message::Text(text),
                            Err(_) => break,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                incoming = socket.recv() => match incoming {
                    // The client has nothing to say but pongs; any message proves it alive.
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {
                        heard = Instant::now();
                        continue;
                    }
                },
                _ = ping.tick() => {
                    if heard.elapsed() > SILENT_LIMIT {
                        break;
                    }
                    Message::Ping(Default::default())
                }
            };
            let last = matches!(outgoing, Message::Close(_));
            match tokio::time::timeout(SEND_LIMIT, socket.send(outgoing)).await {
                Ok(Ok(())) if !last => {}
                _ => break,
            }
        }
        self.unsubscribe(&topic, receiver);
    }

    /// Whether the viewer's credential still acts for it (a failed read says yes: the
    /// next check asks again).
    async fn holds(&self, viewer: &Viewer) -> bool {
        let (hash, kind) = &viewer.credential;
        match self.store.holder_of(hash, *kind).await {
            Ok(holder) => holder.is_some_and(|h| h.account_id == viewer.account),
            Err(e) => {
                tracing::debug!("live: cannot check a socket's credential: {e:#}");
                true
            }
        }
    }

    /// Whether the viewer muted this chat (a read that fails sends the message).
    async fn muted(&self, viewer: Option<i64>, chat: Option<&str>) -> bool {
        let (Some(viewer), Some(chat)) = (viewer, chat) else {
            return false;
        };
        self.store.chat_muted(viewer, chat).await.unwrap_or(false)
    }

    /// The first messages of a socket, as the renderer's greeting says.
    async fn greet(
        &self,
        topic: &Topic,
        since: Option<u32>,
        socket: &mut WebSocket,
    ) -> anyhow::Result<()> {
        let failed = |e: ApiError| anyhow::anyhow!("{e:?}");
        let greeting = self
            .render
            .greeting(&self.store, topic, since)
            .await
            .map_err(failed)?;
        for text in greeting {
            socket.send(Message::Text(text.map_err(failed)?)).await?;
        }
        Ok(())
    }
}

/// The close message of a socket whose credential has ended.
fn credentials_ended() -> Message {
    Message::Close(Some(CloseFrame {
        code: CREDENTIALS_ENDED,
        reason: "your credentials have ended".into(),
    }))
}

/// The next batch of ended credentials, for a socket that listens to them (`None`: one
/// opened without credentials, which waits forever).
async fn next_ended(
    ended: &mut Option<broadcast::Receiver<Arc<[CredentialKey]>>>,
) -> Result<Arc<[CredentialKey]>, broadcast::error::RecvError> {
    match ended {
        Some(ended) => ended.recv().await,
        None => std::future::pending().await,
    }
}

/// Listens for other instances' announcements (PostgreSQL) on the channels of the topics this
/// instance's sockets watch, and feeds its sockets, reconnecting after a lost connection,
/// until the server stops. A notification on the instance's own channel means that sockets
/// asked for more channels ([`Hub::hear`]).
pub(crate) async fn listen(hub: Arc<Hub>, url: String) {
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                if let Err(e) = hear_and_deliver(&hub, &mut listener).await {
                    tracing::warn!("live: the LISTEN connection failed: {e}");
                }
            }
            Err(e) => tracing::warn!("live: cannot connect to listen: {e}"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// One connection's life of [`listen`]: its LISTENs, then each notification in turn.
async fn hear_and_deliver(
    hub: &Hub,
    listener: &mut sqlx::postgres::PgListener,
) -> sqlx::Result<()> {
    listener.listen(&hub.control).await?;
    let listened: Vec<String> = hub.shards().listened.iter().cloned().collect();
    if !listened.is_empty() {
        listener
            .listen_all(listened.iter().map(String::as_str))
            .await?;
    }
    hub.listen_asked(listener).await?;
    loop {
        let notification = listener.recv().await?;
        if notification.channel() == hub.control {
            hub.listen_asked(listener).await?;
        } else if let Some((topic, change)) = Change::of_payload(notification.payload()) {
            instruments::heard();
            hub.deliver(&topic, change).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcements_read_back_and_strange_ones_are_ignored() {
        let game = Topic::Game("abc123".to_owned());
        let room = Topic::Room("def456".to_owned());
        let inbox = Topic::Inbox(42);
        let tournament = Topic::Tournament("0123abcd".to_owned());
        for (topic, change) in [
            (&game, Change::Move(12)),
            (&game, Change::State),
            (&room, Change::State),
            (&inbox, Change::State),
            (&tournament, Change::State),
            (
                &game,
                Change::Chat {
                    channel: Channel::Spectators,
                    message: 7,
                },
            ),
            (
                &room,
                Change::Chat {
                    channel: Channel::Thread(3),
                    message: 8,
                },
            ),
        ] {
            let payload = change.payload(topic);
            assert_eq!(Change::of_payload(&payload), Some((topic.clone(), change)));
        }
        // The payloads other instances of this version and the last one write.
        assert_eq!(Change::State.payload(&room), "room:def456 state");
        assert_eq!(Change::Move(3).payload(&game), "abc123 move 3");
        for bad in [
            "",
            "abc",
            "abc move",
            "abc move x",
            "abc state 3",
            "abc jump 1",
            "a move 1 2",
            "inbox:x state",
            "abc chat",
            "abc chat players",
            "abc chat nowhere 1",
            "abc chat players x",
            "abc chat players 1 2",
        ] {
            assert_eq!(Change::of_payload(bad), None, "{bad:?}");
        }
    }
}
