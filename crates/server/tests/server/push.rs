//! Web push over real HTTP on both backends: a local push service on loopback receives the
//! push of an opponent's move, which decrypts (RFC 8291, written here with ring) with the
//! subscription's keys to the game's link, signed by a VAPID JWT that verifies with
//! `GET /api/push/key`; a 410 removes the subscription; bad subscriptions are refused.

use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::agreement::{self, ECDH_P256, EphemeralPrivateKey, UnparsedPublicKey};
use ring::rand::{SecureRandom as _, SystemRandom};
use ring::{aead, hkdf, signature};
use serde_json::{Value, json};
use swapboard_testkit::{
    Client, TestDb, any_move, auth, bearer, delivered, each_database, game_between, generous,
    inbox, start, start_on_manual_clock,
};
use tokio::sync::mpsc;

/// A push the local push service received: whose (the endpoint's last segment), its
/// headers and its body.
struct Pushed {
    who: String,
    headers: HeaderMap,
    body: Bytes,
}

/// What the local push service answers, and where it hands what it receives.
#[derive(Clone)]
struct Service {
    status: Arc<AtomicU16>,
    received: mpsc::UnboundedSender<Pushed>,
}

async fn receive(
    State(service): State<Service>,
    Path(who): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    // A "steady" endpoint always takes its push.
    let status = if who.starts_with("steady") {
        201
    } else {
        service.status.load(Ordering::SeqCst)
    };
    service
        .received
        .send(Pushed { who, headers, body })
        .unwrap();
    StatusCode::from_u16(status).unwrap()
}

/// A push service on loopback answering `201 Created` until told otherwise (but always on
/// `/push/steady...`): its base URL, the status it answers, and the pushes.
async fn push_service() -> (String, Arc<AtomicU16>, mpsc::UnboundedReceiver<Pushed>) {
    let (sender, received) = mpsc::unbounded_channel();
    let status = Arc::new(AtomicU16::new(201));
    let app = axum::Router::new()
        .route("/push/{who}", axum::routing::post(receive))
        .with_state(Service {
            status: Arc::clone(&status),
            received: sender,
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, status, received)
}

/// A browser's side of a subscription: its ECDH key (used once, to decrypt) and secret.
struct Browser {
    key: EphemeralPrivateKey,
    public: Vec<u8>,
    secret: [u8; 16],
}

impl Browser {
    fn new() -> Browser {
        let random = SystemRandom::new();
        let key = EphemeralPrivateKey::generate(&ECDH_P256, &random).unwrap();
        let public = key.compute_public_key().unwrap().as_ref().to_vec();
        let mut secret = [0u8; 16];
        random.fill(&mut secret).unwrap();
        Browser {
            key,
            public,
            secret,
        }
    }

    /// The subscription's JSON as `PushSubscription.toJSON()` gives it.
    fn subscription(&self, endpoint: &str) -> Value {
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(&self.public),
                "auth": URL_SAFE_NO_PAD.encode(self.secret),
            },
        })
    }

    /// Decrypts an `aes128gcm` body (RFC 8291 section 3.4, RFC 8188 section 2).
    fn decrypt(self, body: &[u8]) -> Vec<u8> {
        let salt = &body[..16];
        let record_size = u32::from_be_bytes(body[16..20].try_into().unwrap());
        assert_eq!(record_size, 4096);
        let id_len = usize::from(body[20]);
        let sender = &body[21..21 + id_len];
        let ciphertext = &body[21 + id_len..];
        let shared = agreement::agree_ephemeral(
            self.key,
            &UnparsedPublicKey::new(&ECDH_P256, sender),
            <[u8]>::to_vec,
        )
        .unwrap();
        let mut info = b"WebPush: info\0".to_vec();
        info.extend_from_slice(&self.public);
        info.extend_from_slice(sender);
        let ikm = hkdf(&self.secret, &shared, &info, 32);
        let cek = hkdf(salt, &ikm, b"Content-Encoding: aes128gcm\0", 16);
        let nonce = hkdf(salt, &ikm, b"Content-Encoding: nonce\0", 12);
        let key = aead::LessSafeKey::new(aead::UnboundKey::new(&aead::AES_128_GCM, &cek).unwrap());
        let mut record = ciphertext.to_vec();
        let plain = key
            .open_in_place(
                aead::Nonce::try_assume_unique_for_key(&nonce).unwrap(),
                aead::Aad::empty(),
                &mut record,
            )
            .unwrap();
        // The last record ends with 2, then any padding of zeros.
        let end = plain.iter().rposition(|&b| b != 0).unwrap();
        assert_eq!(plain[end], 2);
        plain[..end].to_vec()
    }
}

struct Len(usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

fn hkdf(salt: &[u8], ikm: &[u8], info: &[u8], length: usize) -> Vec<u8> {
    let mut out = vec![0; length];
    hkdf::Salt::new(hkdf::HKDF_SHA256, salt)
        .extract(ikm)
        .expand(&[info], Len(length))
        .unwrap()
        .fill(&mut out)
        .unwrap();
    out
}

/// The next push, within 10 seconds.
async fn next_push(received: &mut mpsc::UnboundedReceiver<Pushed>) -> Pushed {
    tokio::time::timeout(Duration::from_secs(10), received.recv())
        .await
        .expect("no push within 10 s")
        .unwrap()
}

/// Checks a push's VAPID header (RFC 8292): the key is the server's, the JWT's signature
/// verifies with it, its audience is the push service's origin and it expires within a day.
fn check_vapid(headers: &HeaderMap, server_key: &str, origin: &str) {
    let authorization = headers["authorization"].to_str().unwrap();
    let rest = authorization.strip_prefix("vapid t=").unwrap();
    let (jwt, key) = rest.split_once(", k=").unwrap();
    assert_eq!(key, server_key);
    let (unsigned, signed) = jwt.rsplit_once('.').unwrap();
    let public = URL_SAFE_NO_PAD.decode(server_key).unwrap();
    signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, &public)
        .verify(
            unsigned.as_bytes(),
            &URL_SAFE_NO_PAD.decode(signed).unwrap(),
        )
        .expect("the VAPID JWT's signature verifies with GET /api/push/key");
    let (header, claims) = unsigned.split_once('.').unwrap();
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(header).unwrap()).unwrap();
    assert_eq!(header["alg"], "ES256");
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).unwrap()).unwrap();
    assert_eq!(claims["aud"], origin);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let exp = claims["exp"].as_u64().unwrap();
    assert!(exp > now && exp <= now + 24 * 3600, "{claims}");
    assert!(claims["sub"].as_str().is_some(), "{claims}");
}

/// The caller's subscriptions' endpoints, as the settings list them.
async fn endpoints(client: &Client, token: &str) -> Vec<String> {
    let settings = client
        .get("/api/me/notifications/settings", &auth(token))
        .await;
    assert_eq!(settings.status, 200, "{}", settings.text);
    settings.json["push"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["endpoint"].as_str().unwrap().to_owned())
        .collect()
}

async fn pushes(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let (base, status, mut received) = push_service().await;
    let key = client.get("/api/push/key", &[]).await;
    assert_eq!(key.status, 200, "{}", key.text);
    let key = key.json["key"].as_str().unwrap().to_owned();
    assert_eq!(URL_SAFE_NO_PAD.decode(&key).unwrap().len(), 65);

    let game = game_between(&client, "swaptimum", 5, &ann, (&bob, "bob")).await;
    // The challenge is Bob's inbox's only: it was delivered before his browser subscribed.
    delivered(&client, &bob, "challenge", &game).await;
    let bobs = Browser::new();
    let stored = client
        .post(
            "/api/me/push",
            &bobs.subscription(&format!("{base}/push/bob")),
            &auth(&bob),
        )
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text);
    assert_eq!(stored.json["subscriptions"].as_array().unwrap().len(), 1);
    let anns = Browser::new();
    let ann_endpoint = format!("{base}/push/ann");
    let stored = client
        .post(
            "/api/me/push",
            &anns.subscription(&ann_endpoint),
            &auth(&ann),
        )
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text);

    let export = client.get("/api/me/export", &auth(&bob)).await;
    assert_eq!(export.status, 200, "{}", export.text);
    assert_eq!(
        export.json["notifications"]["push"][0]["endpoint"],
        format!("{base}/push/bob")
    );

    // Ann moves: Bob's browser is told, encrypted to its key, signed by the server's.
    any_move(&client, &game, 0, &ann).await;
    let push = next_push(&mut received).await;
    assert_eq!(push.who, "bob");
    assert_eq!(push.headers["content-encoding"], "aes128gcm");
    assert!(
        push.headers["ttl"]
            .to_str()
            .unwrap()
            .parse::<u32>()
            .unwrap()
            > 0
    );
    check_vapid(&push.headers, &key, &base);
    let payload: Value = serde_json::from_slice(&bobs.decrypt(&push.body)).unwrap();
    assert_eq!(payload["url"], format!("/games/{game}"), "{payload}");
    // The title names the game and the opponent, as a mail's subject does.
    assert!(
        payload["title"]
            .as_str()
            .unwrap()
            .starts_with("swapboard: Your turn in Swaptimum"),
        "{payload}"
    );
    assert!(
        payload["body"].as_str().unwrap().contains("against ann"),
        "{payload}"
    );

    // Ann's push service says her subscription is gone: it is deleted, and not retried.
    status.store(410, Ordering::SeqCst);
    assert_eq!(endpoints(&client, &ann).await, vec![ann_endpoint.clone()]);
    any_move(&client, &game, 1, &bob).await;
    let push = next_push(&mut received).await;
    assert_eq!(push.who, "ann");
    let started = std::time::Instant::now();
    while !endpoints(&client, &ann).await.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "a 410 left the subscription"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Bob's subscription is Bob's: deleted by its endpoint, once.
    let gone = client
        .send(
            reqwest::Method::DELETE,
            "/api/me/push",
            &[
                ("authorization", bob.as_str()),
                ("content-type", "application/json"),
            ],
            Some(&json!({"endpoint": format!("{base}/push/bob")}).to_string()),
        )
        .await;
    assert_eq!(gone.status, 200, "{}", gone.text);
    assert_eq!(gone.json["subscriptions"], json!([]));
    let again = client
        .send(
            reqwest::Method::DELETE,
            "/api/me/push",
            &[
                ("authorization", bob.as_str()),
                ("content-type", "application/json"),
            ],
            Some(&json!({"endpoint": format!("{base}/push/bob")}).to_string()),
        )
        .await;
    again.assert_error(404, "not_found");
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(received.try_recv().is_err(), "a push was sent twice");
    db
}

each_database!(
    a_push_names_the_game_and_a_410_removes_the_subscription,
    pushes
);

async fn refusals(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let browser = Browser::new();
    let good = browser.subscription("https://push.example/send/abc");
    let cases = [
        ("endpoint", json!("ftp://push.example/x")),
        ("endpoint", json!("http://push.example/x")),
        ("endpoint", json!("not a url")),
        ("endpoint", json!("https://10.0.0.1/push")),
        ("endpoint", json!("https://[fd00::1]/push")),
        (
            "endpoint",
            json!(format!("https://push.example/{}", "x".repeat(2100))),
        ),
        (
            "keys.p256dh",
            json!({"p256dh": "AAAA", "auth": good["keys"]["auth"]}),
        ),
        (
            "keys.p256dh",
            json!({"p256dh": "!!", "auth": good["keys"]["auth"]}),
        ),
        (
            "keys.auth",
            json!({"p256dh": good["keys"]["p256dh"], "auth": "AAAA"}),
        ),
    ];
    for (field, value) in cases {
        let mut body = good.clone();
        let member = if field == "endpoint" {
            "endpoint"
        } else {
            "keys"
        };
        body[member] = value;
        let answer = client.post("/api/me/push", &body, &auth(&ann)).await;
        answer.assert_error(400, "bad_request");
        assert!(answer.message().contains(field), "{field}: {}", answer.text);
    }
    let missing = client
        .post(
            "/api/me/push",
            &json!({"endpoint": "https://push.example/x"}),
            &auth(&ann),
        )
        .await;
    missing.assert_error(400, "bad_request");
    assert!(missing.message().contains("keys"), "{}", missing.text);
    let anonymous = client.post("/api/me/push", &good, &[]).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    // At most 10 browsers per account; the same endpoint again replaces its row.
    for k in 0..10 {
        let body = browser.subscription(&format!("https://push.example/send/{k}"));
        let stored = client.post("/api/me/push", &body, &auth(&ann)).await;
        assert_eq!(stored.status, 201, "{}", stored.text);
    }
    let again = browser.subscription("https://push.example/send/3");
    let stored = client.post("/api/me/push", &again, &auth(&ann)).await;
    assert_eq!(stored.status, 201, "{}", stored.text);
    let eleventh = client.post("/api/me/push", &good, &auth(&ann)).await;
    eleventh.assert_error(409, "conflict");
    assert_eq!(endpoints(&client, &ann).await.len(), 10);
    let all = client.delete("/api/me/push", &auth(&ann)).await;
    assert_eq!(all.status, 200, "{}", all.text);
    assert!(endpoints(&client, &ann).await.is_empty());
    db
}

each_database!(bad_subscriptions_are_refused_naming_the_field, refusals);

/// Waits until the caller's your-turn notification about `game` waits for another try:
/// `pending` again once its pushes were sent (the caller saw them arrive).
async fn until_retried(client: &Client, token: &str, game: &str) {
    for _ in 0..200 {
        let inbox = inbox(client, token).await;
        let waiting = inbox["notifications"].as_array().unwrap().iter().any(|n| {
            n["kind"] == "your_turn" && n["game_id"] == game && n["delivery"] == "pending"
        });
        if waiting {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the failed push was never put back to wait");
}

async fn retries(db: TestDb) -> TestDb {
    let (server, clock) = start_on_manual_clock(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let (base, status, mut received) = push_service().await;
    let game = game_between(&client, "swaptimum", 5, &ann, (&bob, "bob")).await;
    delivered(&client, &bob, "challenge", &game).await;
    let (steady, flaky) = (Browser::new(), Browser::new());
    for (browser, who) in [(&steady, "steady"), (&flaky, "flaky")] {
        let body = browser.subscription(&format!("{base}/push/{who}"));
        let stored = client.post("/api/me/push", &body, &auth(&bob)).await;
        assert_eq!(stored.status, 201, "{}", stored.text);
    }
    // One push service fails: the other browser has its push at once, and only the failed
    // one is tried again, after the backoff.
    status.store(503, Ordering::SeqCst);
    any_move(&client, &game, 0, &ann).await;
    let mut first: Vec<String> = Vec::new();
    for _ in 0..2 {
        first.push(next_push(&mut received).await.who);
    }
    first.sort();
    assert_eq!(first, ["flaky", "steady"]);
    status.store(201, Ordering::SeqCst);
    // The failure is recorded (the row waits for its next try) before the clock moves:
    // the backoff is counted from the server's clock when the push service answered.
    until_retried(&client, &bob, &game).await;
    // Not before the backoff (10 s after the first try, on the server's clock): a move of
    // the clock short of it makes the worker look, and it sends nothing.
    clock.advance(Duration::from_millis(9_500));
    assert!(
        tokio::time::timeout(Duration::from_millis(700), received.recv())
            .await
            .is_err(),
        "tried again before the backoff"
    );
    clock.advance(Duration::from_millis(500));
    let again = tokio::time::timeout(Duration::from_secs(30), received.recv())
        .await
        .expect("the failed push is tried again once the backoff passed")
        .unwrap();
    assert_eq!(again.who, "flaky");
    let payload: Value = serde_json::from_slice(&flaky.decrypt(&again.body)).unwrap();
    assert_eq!(payload["url"], format!("/games/{game}"));
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(received.try_recv().is_err(), "a browser was pushed twice");
    assert_eq!(endpoints(&client, &bob).await.len(), 2);
    db
}

each_database!(
    a_failed_push_is_retried_and_no_browser_is_pushed_twice,
    retries
);
