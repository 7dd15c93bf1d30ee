//! The load test's HTTP client: its accounts, each speaking from an address of its own,
//! and the refusals it meets, counted by status.

use std::collections::BTreeMap;

use anyhow::Context as _;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::{Value, json};
use swapboard_server::{GameView, NewToken};

/// An account of the load test, and the client address it speaks from.
#[derive(Clone, Debug)]
pub(crate) struct Account {
    name: String,
    /// `Bearer <token>`.
    bearer: String,
    /// Sent as `X-Forwarded-For`: believed only by a server that trusts this client's
    /// address as a proxy (`--trusted-proxy 127.0.0.1`, as the server this process starts
    /// does), so that each account is a client of its own for the per-address limits.
    address: String,
}

/// The `n`th client address of the run: 10.0.0.1 on.
pub(crate) fn client_address(n: u32) -> String {
    std::net::Ipv4Addr::from(0x0A00_0001u32.wrapping_add(n)).to_string()
}

/// A request the server refused (or never answered: status 0).
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) status: u16,
    pub(crate) detail: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            0 => write!(f, "no answer: {}", self.detail),
            status => write!(f, "{status}: {}", self.detail),
        }
    }
}

impl std::error::Error for Refused {}

/// Refused requests, by HTTP status (0: no answer).
#[derive(Debug, Default)]
pub(crate) struct Refusals(BTreeMap<u16, u64>);

impl Refusals {
    pub(crate) fn count(&mut self, refused: &Refused) {
        *self.0.entry(refused.status).or_default() += 1;
    }

    pub(crate) fn add(&mut self, other: Refusals) {
        for (status, count) in other.0 {
            *self.0.entry(status).or_default() += count;
        }
    }

    pub(crate) fn total(&self) -> u64 {
        self.0.values().sum()
    }
}

impl std::fmt::Display for Refusals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return write!(f, "none");
        }
        let mut first = true;
        for (status, count) in &self.0 {
            let sep = if first { "" } else { ", " };
            first = false;
            match status {
                0 => write!(f, "{sep}{count} unanswered")?,
                status => write!(f, "{sep}{count} x {status}")?,
            }
        }
        Ok(())
    }
}

/// A client of the server under test.
#[derive(Clone)]
pub(crate) struct Client {
    pub(crate) base: String,
    pub(crate) http: reqwest::Client,
}

impl Client {
    /// Posts `body` as `account` (`None`: anonymous, from the first client address); the
    /// answer, read as `T`, or why it was refused.
    pub(crate) async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        account: Option<&Account>,
        body: &Value,
    ) -> Result<T, Refused> {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(account) = account {
            request = request
                .header("authorization", &account.bearer)
                .header("x-forwarded-for", &account.address);
        }
        Self::answer(path, request).await
    }

    /// Sends a request; its answer read as `T`, or why there is none.
    async fn answer<T: DeserializeOwned>(
        path: &str,
        request: reqwest::RequestBuilder,
    ) -> Result<T, Refused> {
        let unanswered = |e: reqwest::Error| Refused {
            status: 0,
            detail: format!("{path}: {e}"),
        };
        let response = request.send().await.map_err(unanswered)?;
        let status = response.status();
        let text = response.text().await.map_err(unanswered)?;
        if !status.is_success() {
            return Err(Refused {
                status: status.as_u16(),
                detail: format!("{path}: {text}"),
            });
        }
        serde_json::from_str(&text).map_err(|e| Refused {
            status: status.as_u16(),
            detail: format!("{path}: the answer {text}: {e}"),
        })
    }

    /// Signs up an account named `name`, speaking from client address `n`, with its token.
    pub(crate) async fn account(&self, name: &str, n: u32) -> anyhow::Result<Account> {
        let address = client_address(n);
        let credentials = json!({"name": name, "password": "load-test-password"});
        let anonymous = |path: &str| {
            self.http
                .post(format!("{}{path}", self.base))
                .header("x-forwarded-for", &address)
                .json(&credentials)
        };
        Self::answer::<IgnoredAny>("/api/accounts", anonymous("/api/accounts"))
            .await
            .with_context(|| format!("signing up {name}"))?;
        let token: NewToken = Self::answer("/api/tokens", anonymous("/api/tokens"))
            .await
            .with_context(|| format!("a token for {name}"))?;
        Ok(Account {
            name: name.to_owned(),
            bearer: format!("Bearer {}", token.token),
            address,
        })
    }

    /// Plays a move as `account`; the game after it.
    pub(crate) async fn play(
        &self,
        id: &str,
        account: &Account,
        ply: impl Into<u64>,
        text: &str,
    ) -> Result<GameView, Refused> {
        let body = json!({"move": text, "ply": ply.into()});
        self.post(&format!("/api/games/{id}/moves"), Some(account), &body)
            .await
    }

    /// The position of a game now.
    pub(crate) async fn position(&self, id: &str) -> Result<String, Refused> {
        let path = format!("/api/games/{id}");
        let request = self.http.get(format!("{}{path}", self.base));
        let game: GameView = Self::answer(&path, request).await?;
        Ok(game.position)
    }

    /// A new game between the two accounts, started; its id.
    pub(crate) async fn game(&self, players: &[Account; 2]) -> Result<String, Refused> {
        let body = json!({"game": "swaptimum", "size": 13,
                          "opponent": format!("user:{}", players[1].name), "colour": "first"});
        let game: GameView = self.post("/api/games", Some(&players[0]), &body).await?;
        let join = format!("/api/games/{}/join", game.id);
        self.post::<GameView>(&join, Some(&players[1]), &json!({}))
            .await?;
        Ok(game.id)
    }
}
