//! Live sockets of a server: opened as a visitor or with a credential, and read message by
//! message.

use std::time::Duration;

use futures_util::StreamExt as _;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

use crate::Client;

/// A live socket of the server.
pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Asks `path` for a WebSocket as a plain HTTP request and returns the answer: what a
/// client meets when the server refuses the upgrade (a cap reached: 429).
pub async fn refused_upgrade(client: &Client, path: &str) -> crate::Answer {
    client
        .get(
            path,
            &[
                ("connection", "upgrade"),
                ("upgrade", "websocket"),
                ("sec-websocket-version", "13"),
                ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ],
        )
        .await
}

/// A live socket of `path`, opened as a visitor.
pub async fn connect(client: &Client, path: &str) -> Socket {
    socket(client, path, None).await
}

/// A live socket of `path`, opened with `token`'s credentials (an `Authorization` value)
/// if given.
pub async fn socket(client: &Client, path: &str, token: Option<&str>) -> Socket {
    let mut request = client
        .ws_url(path)
        .into_client_request()
        .expect("a socket's URL");
    if let Some(token) = token {
        request.headers_mut().insert(
            "authorization",
            token.parse().expect("a credential fit for a header"),
        );
    }
    tokio_tungstenite::connect_async(request)
        .await
        .unwrap_or_else(|e| panic!("opening the socket {path}: {e}"))
        .0
}

/// The next JSON message of a socket, within `wait`.
pub async fn next_message(socket: &mut Socket, wait: Duration) -> Value {
    loop {
        let message = tokio::time::timeout(wait, socket.next())
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .expect("a message that reads");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).expect("a JSON message");
        }
    }
}

/// Reads messages until one whose game satisfies `done`.
pub async fn until(socket: &mut Socket, wait: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let message = next_message(socket, left).await;
        if done(&message["game"]) {
            return message;
        }
    }
}

/// Every text message a socket receives until it has been quiet for `quiet`.
pub async fn drain(socket: &mut Socket, quiet: Duration) -> Vec<String> {
    let mut texts = Vec::new();
    while let Ok(Some(Ok(message))) = tokio::time::timeout(quiet, socket.next()).await {
        if let Message::Text(text) = message {
            texts.push(text.to_string());
        }
    }
    texts
}
