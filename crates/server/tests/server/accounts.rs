//! The accounts part of the API contract over real HTTP, on a real SQLite file and a real
//! PostgreSQL database: one test body per behaviour, run on both backends.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::{Connection as _, Row as _};
use swapboard_server::{Limits, Rate};
use swapboard_testkit::{Client, TestDb, each_database, generous, sign_up_and_token, start};

const SAME_ORIGIN: (&str, &str) = ("sec-fetch-site", "same-origin");

fn ann() -> Value {
    json!({"name": "ann", "password": "correct horse"})
}

async fn contract(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);

    let health = client.get("/healthz", &[]).await;
    assert_eq!((health.status.as_u16(), health.text.as_str()), (200, "ok"));

    // Sign-up: 201 with the name; names are unique regardless of case.
    let created = client.post("/api/accounts", &ann(), &[]).await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.json, json!({"name": "ann", "guest": false}));
    let again = client
        .post(
            "/api/accounts",
            &json!({"name": "ANN", "password": "12345678"}),
            &[],
        )
        .await;
    again.assert_error(409, "conflict");
    assert!(again.message().contains("name"), "{}", again.text);

    // Bad bodies: 400 naming the field.
    for (body, field) in [
        (json!({"name": "a", "password": "12345678"}), "name"),
        (json!({"name": "ann bob", "password": "12345678"}), "name"),
        (json!({"name": "bob", "password": "1234567"}), "password"),
        (
            json!({"name": "bob", "password": "x".repeat(129)}),
            "password",
        ),
        (json!({"name": "bob"}), "password"),
        (json!({"password": "12345678"}), "name"),
        (json!({"name": 7, "password": "12345678"}), "name"),
    ] {
        let refused = client.post("/api/accounts", &body, &[]).await;
        refused.assert_error(400, "bad_request");
        assert!(
            refused.message().contains(field),
            "{body}: {}",
            refused.text
        );
    }
    let not_json = client
        .send(
            Method::POST,
            "/api/accounts",
            &[("content-type", "application/json")],
            Some("{\"name\":"),
        )
        .await;
    not_json.assert_error(400, "bad_request");
    let no_type = client
        .send(Method::POST, "/api/accounts", &[], Some(&ann().to_string()))
        .await;
    no_type.assert_error(400, "bad_request");
    assert!(
        no_type.message().contains("Content-Type"),
        "{}",
        no_type.text
    );
    let huge = json!({"name": "bob", "password": "x".repeat(20_000)});
    let too_big = client.post("/api/accounts", &huge, &[]).await;
    too_big.assert_error(400, "bad_request");
    assert!(too_big.message().contains("bytes"), "{}", too_big.text);

    // Tokens: wrong password and unknown name answer alike.
    let wrong = client
        .post(
            "/api/tokens",
            &json!({"name": "ann", "password": "wrong horse"}),
            &[],
        )
        .await;
    wrong.assert_error(401, "unauthenticated");
    let nobody = client
        .post(
            "/api/tokens",
            &json!({"name": "nobody", "password": "wrong horse"}),
            &[],
        )
        .await;
    nobody.assert_error(401, "unauthenticated");
    assert_eq!(wrong.message(), nobody.message());
    let token = client
        .post(
            "/api/tokens",
            &json!({"name": "Ann", "password": "correct horse"}),
            &[],
        )
        .await;
    assert_eq!(token.status, 201, "{}", token.text);
    let token = token.json["token"].as_str().unwrap().to_owned();
    assert_eq!(token.len(), 64);
    let bearer = format!("Bearer {token}");
    let me = client.get("/api/me", &[("authorization", &bearer)]).await;
    assert_eq!(
        (me.status.as_u16(), &me.json),
        (200, &json!({"name": "ann", "guest": false, "roles": []}))
    );

    // Only the token's SHA-256 is stored.
    let stored = stored_secrets(&db.url).await;
    assert_eq!(stored.len(), 1);
    assert!(!stored.contains(&token));
    assert_eq!(stored[0].len(), 64);

    // No credentials: the public, 200 with null (a page's probe logs no 401). A bearer
    // token unknown or malformed: 401.
    let public = client.get("/api/me", &[]).await;
    assert_eq!((public.status.as_u16(), &public.json), (200, &Value::Null));
    client
        .get("/api/me", &[("authorization", "Bearer 00")])
        .await
        .assert_error(401, "unauthenticated");
    client
        .get("/api/me", &[("authorization", "Basic YW5uOng=")])
        .await
        .assert_error(401, "unauthenticated");

    // A second token is independent of the first; revoking one leaves the other.
    let second = format!(
        "Bearer {}",
        client.post("/api/tokens", &ann(), &[]).await.json["token"]
            .as_str()
            .unwrap()
    );
    let revoked = client
        .delete("/api/tokens/current", &[("authorization", &bearer)])
        .await;
    assert_eq!(revoked.status, 204, "{}", revoked.text);
    client
        .get("/api/me", &[("authorization", &bearer)])
        .await
        .assert_error(401, "unauthenticated");
    client
        .delete("/api/tokens/current", &[("authorization", &bearer)])
        .await
        .assert_error(401, "unauthenticated");
    assert_eq!(
        client
            .get("/api/me", &[("authorization", &second)])
            .await
            .status,
        200
    );

    // Browser sessions: a login from another site is refused.
    client
        .post("/api/session", &ann(), &[])
        .await
        .assert_error(403, "forbidden");
    client
        .post("/api/session", &ann(), &[("sec-fetch-site", "cross-site")])
        .await
        .assert_error(403, "forbidden");
    let session = client.post("/api/session", &ann(), &[SAME_ORIGIN]).await;
    assert_eq!(
        (session.status.as_u16(), &session.json),
        (200, &json!({"name": "ann", "guest": false}))
    );
    let set_cookie = session.headers["set-cookie"].to_str().unwrap().to_owned();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(set_cookie.contains(part), "{set_cookie}");
    }
    assert!(
        !set_cookie.contains("Secure"),
        "no TLS, no Secure: {set_cookie}"
    );
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let me = client.get("/api/me", &[("cookie", &cookie)]).await;
    assert_eq!(
        (me.status.as_u16(), &me.json),
        (200, &json!({"name": "ann", "guest": false, "roles": []}))
    );
    // A cookie does not revoke a bearer token, and cross-site logouts are refused.
    client
        .delete("/api/tokens/current", &[("cookie", &cookie), SAME_ORIGIN])
        .await
        .assert_error(401, "unauthenticated");
    client
        .delete(
            "/api/session",
            &[("cookie", &cookie), ("sec-fetch-site", "cross-site")],
        )
        .await
        .assert_error(403, "forbidden");
    let host = server.addr().to_string();
    let origin = format!("http://{host}");
    client
        .delete(
            "/api/session",
            &[("cookie", &cookie), ("origin", "http://evil.example")],
        )
        .await
        .assert_error(403, "forbidden");
    let out = client
        .delete("/api/session", &[("cookie", &cookie), ("origin", &origin)])
        .await;
    assert_eq!(out.status, 204, "{}", out.text);
    assert!(
        out.headers["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    // The ended session is the public again.
    let ended = client.get("/api/me", &[("cookie", &cookie)]).await;
    assert_eq!((ended.status.as_u16(), &ended.json), (200, &Value::Null));
    // A bearer request needs no same-site proof.
    client
        .delete("/api/session", &[("authorization", &second)])
        .await
        .assert_error(401, "unauthenticated");

    // Unknown endpoints and methods.
    client
        .get("/api/nothing", &[])
        .await
        .assert_error(404, "not_found");
    let method = client.send(Method::PUT, "/api/accounts", &[], None).await;
    assert_eq!(method.status, 405);

    // The OpenAPI document lists the endpoints served.
    let doc = client.get("/api/openapi.json", &[]).await;
    assert_eq!(doc.status, 200);
    assert!(
        doc.json["paths"]["/api/tokens/current"]["delete"].is_object(),
        "{}",
        doc.text
    );

    server.stop().await.unwrap();
    db
}

/// The stored credentials' secrets, read straight from the database.
async fn stored_secrets(url: &str) -> Vec<String> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    let rows = sqlx::query("SELECT secret_hash FROM credentials")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    rows.iter().map(|row| row.get::<String, _>(0)).collect()
}

each_database!(accounts_tokens_and_sessions_follow_the_contract, contract);

async fn rate_limits(db: TestDb) -> TestDb {
    let minute = Duration::from_secs(60);
    let limits = Limits {
        login_failures_per_client: Rate::new(3, minute),
        login_failures_per_name: Rate::new(4, Duration::from_secs(3600)),
        login_per_address: Rate::new(6, minute),
        signup_per_address: Rate::new(2, Duration::from_secs(3600)),
        writes_per_address: Rate::new(1000, minute),
        request_time: minute,
        ..generous()
    };
    let server = start(&db, limits).await;
    let client = Client::new(&server);
    let bob = json!({"name": "bob", "password": "correct horse"});
    assert_eq!(client.post("/api/accounts", &ann(), &[]).await.status, 201);
    assert_eq!(client.post("/api/accounts", &bob, &[]).await.status, 201);
    let third = client
        .post(
            "/api/accounts",
            &json!({"name": "cy", "password": "12345678"}),
            &[],
        )
        .await;
    third.assert_error(429, "rate_limited");
    let retry: u64 = third.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=1800).contains(&retry), "{retry}");

    // Per name and address: three wrong passwords for ann from here, then even the right
    // one waits, here.
    let wrong = json!({"name": "ann", "password": "wrong horse"});
    for _ in 0..3 {
        client
            .post("/api/tokens", &wrong, &[])
            .await
            .assert_error(401, "unauthenticated");
    }
    let limited = client.post("/api/tokens", &ann(), &[]).await;
    limited.assert_error(429, "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
    client
        .post("/api/session", &ann(), &[SAME_ORIGIN])
        .await
        .assert_error(429, "rate_limited");
    // Per name from anywhere only slows: two more failures from another address put ann's
    // name past its rate, and ann, from a third, still logs in, a quarter second later.
    let base = format!("http://{}", server.addr());
    let elsewhere = Client::from(&base, "127.0.0.2".parse().unwrap());
    for _ in 0..2 {
        elsewhere
            .post("/api/tokens", &wrong, &[])
            .await
            .assert_error(401, "unauthenticated");
    }
    let owner = Client::from(&base, "127.0.0.3".parse().unwrap());
    let started = std::time::Instant::now();
    assert_eq!(owner.post("/api/tokens", &ann(), &[]).await.status, 201);
    let waited = started.elapsed();
    assert!(
        (Duration::from_millis(250)..Duration::from_secs(5)).contains(&waited),
        "{waited:?}"
    );
    // Per address: bob has attempts left, the address does not for long.
    assert_eq!(client.post("/api/tokens", &bob, &[]).await.status, 201);
    client
        .post("/api/tokens", &bob, &[])
        .await
        .assert_error(429, "rate_limited");
    server.stop().await.unwrap();

    // Writes per address: the fourth write waits; reads go on.
    let limits = Limits {
        writes_per_address: Rate::new(3, minute),
        ..generous()
    };
    let server = start(&db, limits).await;
    let client = Client::new(&server);
    for _ in 0..3 {
        assert_eq!(client.post("/api/tokens", &bob, &[]).await.status, 201);
    }
    client
        .post("/api/tokens", &bob, &[])
        .await
        .assert_error(429, "rate_limited");
    client
        .delete("/api/session", &[])
        .await
        .assert_error(429, "rate_limited");
    assert_eq!(client.get("/healthz", &[]).await.status, 200);
    server.stop().await.unwrap();
    db
}

each_database!(logins_sign_ups_and_writes_are_rate_limited, rate_limits);

async fn concurrent_sign_ups(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = std::sync::Arc::new(Client::new(&server));
    // Twenty racers for one name in different cases: exactly one account.
    let racers = (0..20).map(|i| {
        let client = client.clone();
        let name = if i % 2 == 0 { "Dora" } else { "dORA" };
        tokio::spawn(async move {
            client
                .post(
                    "/api/accounts",
                    &json!({"name": name, "password": "12345678"}),
                    &[],
                )
                .await
                .status
                .as_u16()
        })
    });
    let mut statuses = Vec::new();
    for racer in racers.collect::<Vec<_>>() {
        statuses.push(racer.await.unwrap());
    }
    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 409).count(),
        19,
        "{statuses:?}"
    );
    let token = sign_up_and_token(&client, &json!({"name": "eve", "password": "12345678"})).await;
    assert_eq!(
        client
            .get("/api/me", &[("authorization", &format!("Bearer {token}"))])
            .await
            .json["name"],
        "eve"
    );
    server.stop().await.unwrap();
    db
}

each_database!(
    racing_sign_ups_for_one_name_make_one_account,
    concurrent_sign_ups
);
