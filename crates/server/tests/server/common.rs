//! What the server's tests share: a fresh database of each backend, a server started on a
//! free port of 127.0.0.1, and a small JSON client.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use reqwest::{Method, StatusCode};
use serde_json::Value;
use sqlx::Connection as _;
use swapboard_server::api::{ErrorBody, ErrorDetail, GameView, NewToken};
use swapboard_server::{Clock, Limits, ServeOptions, Server};

/// A database of one backend that lives as long as the test.
pub(crate) struct TestDb {
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Dir(PathBuf),
    Database { admin_url: String, name: String },
}

/// A name no other test of this run or another run uses.
fn unique(prefix: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

impl TestDb {
    /// A SQLite file in a new temporary folder.
    pub(crate) fn sqlite() -> TestDb {
        let dir = std::env::temp_dir().join(unique("swapboard_server_test"));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("swapboard.db").display());
        TestDb {
            url,
            cleanup: Cleanup::Dir(dir),
        }
    }

    /// A new database on the PostgreSQL server of `SWAPBOARD_TEST_PG` (default: the local
    /// one). A server that cannot be reached fails the test: it is never skipped.
    pub(crate) async fn postgres() -> TestDb {
        let admin_url = std::env::var("SWAPBOARD_TEST_PG")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let name = unique("swapboard_test");
        let mut admin = sqlx::PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "PostgreSQL is needed by this test and cannot be reached at {admin_url} \
                 (set SWAPBOARD_TEST_PG, or start it: pg_ctlcluster --skip-systemctl-redirect \
                 $(ls /etc/postgresql) main start): {e}"
                )
            });
        let create = format!("CREATE DATABASE {name}");
        sqlx::raw_sql(&create).execute(&mut admin).await.unwrap();
        admin.close().await.unwrap();
        let (server, _) = admin_url
            .rsplit_once('/')
            .expect("a PostgreSQL URL ends with /DATABASE");
        TestDb {
            url: format!("{server}/{name}"),
            cleanup: Cleanup::Database { admin_url, name },
        }
    }

    /// Removes the database (call at the end of the test, after the server stopped).
    pub(crate) async fn drop_it(self) {
        match self.cleanup {
            Cleanup::Dir(dir) => {
                // A task of the stopped server may still be closing its SQLite connection,
                // whose journal files can appear while the folder is being emptied: try
                // again for a few seconds before calling it a failure.
                for attempt in 1.. {
                    match std::fs::remove_dir_all(&dir) {
                        Ok(()) => break,
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                        Err(e) if attempt >= 50 => panic!("removing {}: {e}", dir.display()),
                        Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
                    }
                }
            }
            Cleanup::Database { admin_url, name } => {
                let mut admin = sqlx::PgConnection::connect(&admin_url).await.unwrap();
                let drop = format!("DROP DATABASE {name} WITH (FORCE)");
                sqlx::raw_sql(&drop).execute(&mut admin).await.unwrap();
            }
        }
    }
}

/// Runs one statement on the test's database (the tests' seam for time: a stored instant
/// is moved rather than waited for).
pub(crate) async fn execute(db: &TestDb, statement: &str) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    sqlx::query(statement).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

/// The options of a server on a free port of 127.0.0.1 on `db`, for a test that sets more.
pub(crate) fn options(db: &TestDb, limits: Limits) -> ServeOptions {
    ServeOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        database: Some(db.url.clone()),
        behind_tls: false,
        trusted_proxies: Vec::new(),
        sqlite_max_mib: None,
        log: tracing::Level::INFO,
        ai_searches: Some(1),
        no_ai_worker: false,
        metrics_addr: None,
        smtp: None,
        mail_from: None,
        public_url: None,
        vacation_days: 20,
        guest_days: 30,
        games: Default::default(),
        push_loopback: true,
        limits,
        clock: Clock::real(),
    }
}

/// Starts a server on a free port of 127.0.0.1 on `db`.
pub(crate) async fn start(db: &TestDb, limits: Limits) -> Server {
    Server::start(&options(db, limits)).await.unwrap()
}

/// Puts the server of `options` on a manual clock standing at the system's time now, and
/// gives the clock back: the test moves it ([`Clock::advance`]) instead of waiting, and the
/// server's background workers (the clocks' scheduler, the notifications' worker) make a
/// pass at each move. Servers given clones of one clock share its time.
pub(crate) fn on_manual_clock(options: &mut ServeOptions) -> Clock {
    let clock = Clock::manual_from_now();
    options.clock = clock.clone();
    clock
}

/// [`start`] on a manual clock ([`on_manual_clock`]): the server and its clock.
pub(crate) async fn start_on_manual_clock(db: &TestDb, limits: Limits) -> (Server, Clock) {
    let mut options = options(db, limits);
    let clock = on_manual_clock(&mut options);
    (Server::start(&options).await.unwrap(), clock)
}

/// Limits no test of the contract reaches.
pub(crate) fn generous() -> Limits {
    Limits::generous(100_000)
}

/// An answer: status, headers and the body read as JSON (`Null` when it is not JSON).
pub(crate) struct Answer {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Answer {
    /// The body read as the server's wire type `T` (`swapboard_server::api`): a body the
    /// type cannot read fails the test, so the types and the wire cannot drift apart.
    pub(crate) fn read<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("not a {}: {e}: {}", std::any::type_name::<T>(), self.text))
    }

    /// The error code of an error answer.
    pub(crate) fn code(&self) -> String {
        self.error()
            .map(|e| e.code.into_owned())
            .unwrap_or_default()
    }

    /// The error message of an error answer.
    pub(crate) fn message(&self) -> String {
        self.error().map(|e| e.message).unwrap_or_default()
    }

    fn error(&self) -> Option<ErrorDetail> {
        serde_json::from_str::<ErrorBody>(&self.text)
            .ok()
            .map(|body| body.error)
    }

    /// Asserts an error answer of this status and code.
    pub(crate) fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{}", self.text);
        assert_eq!(self.code(), code, "{}", self.text);
        assert!(!self.message().is_empty(), "{}", self.text);
    }
}

/// A client of one server.
pub(crate) struct Client {
    base: String,
    http: reqwest::Client,
}

impl Client {
    pub(crate) fn new(server: &Server) -> Client {
        Client {
            base: format!("http://{}", server.addr()),
            http: reqwest::Client::new(),
        }
    }

    /// A client of the server at `base` (`http://HOST:PORT`) whose connections come from the
    /// loopback address `from` (Linux answers on all of 127.0.0.0/8): a client apart.
    pub(crate) fn from(base: &str, from: std::net::IpAddr) -> Client {
        Client {
            base: base.to_owned(),
            http: reqwest::Client::builder()
                .local_address(from)
                .build()
                .unwrap(),
        }
    }

    /// The `ws://` URL of a path of the server.
    pub(crate) fn ws_url(&self, path: &str) -> String {
        format!("{}{path}", self.base.replacen("http://", "ws://", 1))
    }

    /// Sends a request with these headers and this raw body (JSON when it parses as JSON).
    pub(crate) async fn send(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> Answer {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        for &(name, value) in headers {
            request = request.header(name, value);
        }
        if let Some(body) = body {
            request = request.body(body.to_owned());
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            text,
            json,
        }
    }

    /// POSTs a JSON body.
    pub(crate) async fn post(&self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Answer {
        let mut all = vec![("content-type", "application/json")];
        all.extend_from_slice(headers);
        self.send(Method::POST, path, &all, Some(&body.to_string()))
            .await
    }

    /// GETs a path.
    pub(crate) async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Answer {
        self.send(Method::GET, path, headers, None).await
    }

    /// DELETEs a path.
    pub(crate) async fn delete(&self, path: &str, headers: &[(&str, &str)]) -> Answer {
        self.send(Method::DELETE, path, headers, None).await
    }
}

/// Runs a test body on a fresh SQLite file, then on a fresh PostgreSQL database.
pub(crate) async fn on_both<F, Fut>(body: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = TestDb>,
{
    body(TestDb::sqlite()).await.drop_it().await;
    body(TestDb::postgres().await).await.drop_it().await;
}

/// Signs an account up with these credentials and returns a new bearer token of it.
pub(crate) async fn sign_up_and_token(client: &Client, credentials: &Value) -> String {
    let created = client.post("/api/accounts", credentials, &[]).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let token = client.post("/api/tokens", credentials, &[]).await;
    assert_eq!(token.status, 201, "{}", token.text);
    token.read::<NewToken>().token
}

/// Signs up an account of this name (password `correct horse`); the `Authorization` value
/// of a new bearer token of it.
pub(crate) async fn bearer(client: &Client, name: &str) -> String {
    let credentials = serde_json::json!({"name": name, "password": "correct horse"});
    format!("Bearer {}", sign_up_and_token(client, &credentials).await)
}

/// The `Authorization` header of a bearer value.
pub(crate) fn auth(bearer: &str) -> [(&str, &str); 1] {
    [("authorization", bearer)]
}

/// A game of `game` on side `size` that the holder of `creator` made, in the first seat,
/// for the account `joiner_name`, who joined it with `joiner`: its id, once being played.
pub(crate) async fn game_between(
    client: &Client,
    game: &str,
    size: u32,
    creator: &str,
    (joiner, joiner_name): (&str, &str),
) -> String {
    let body = serde_json::json!({"game": game, "size": size,
        "opponent": format!("user:{joiner_name}"), "colour": "first"});
    let created = client.post("/api/games", &body, &auth(creator)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.read::<GameView>().id;
    let joined = client
        .post(
            &format!("/api/games/{id}/join"),
            &serde_json::json!({}),
            &auth(joiner),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.read::<GameView>().status, "playing");
    id
}
