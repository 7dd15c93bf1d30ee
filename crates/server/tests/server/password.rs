//! A forgotten password reset by mail, over real HTTP and a real SMTP conversation on both
//! backends: the same answer whether or not an account was found, the link mailed through
//! the outbox to a confirmed address only, at most one mail a minute per account, the
//! link good once and for an hour, the new password set and every credential ended; too
//! many requests from one address refused.

use std::time::Duration;

use serde_json::json;
use swapboard_server::Rate;
use swapboard_testkit::{
    Client, TestDb, auth, bearer, confirmed_address, each_database, generous, inbox, next_mail,
    on_manual_clock, options, smtp_sink, unfolded,
};

/// The token of a reset mail's link.
fn reset_token(text: &str) -> String {
    unfolded(text)
        .split("http://swapboard.test/reset-password?token=")
        .nth(1)
        .expect("the reset link")
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

async fn resets(db: TestDb) -> TestDb {
    let (smtp, mut mails) = smtp_sink().await;
    let mut limits = generous();
    limits.login_per_address = Rate::new(12, Duration::from_secs(3_600));
    let mut options = options(&db, limits);
    let clock = on_manual_clock(&mut options);
    options.smtp = Some(smtp);
    options.mail_from = Some("swapboard <noreply@swapboard.test>".to_owned());
    options.public_url = Some("http://swapboard.test/".to_owned());
    let server = swapboard_server::Server::start(&options).await.unwrap();
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    confirmed_address(&client, &mut mails, &ann, "ann@example.test").await;
    let forgot = |body: serde_json::Value| {
        let client = &client;
        async move { client.post("/api/password/forgot", &body, &[]).await }
    };

    // Every request is answered alike, whether or not a mail goes.
    let nobody = forgot(json!({"name": "nobody"})).await;
    assert_eq!(nobody.status, 202, "{}", nobody.text);
    let unconfirmed = forgot(json!({"name": "bob"})).await;
    let asked = forgot(json!({"name": "ANN"})).await;
    assert_eq!(asked.status, 202);
    assert_eq!(asked.json, nobody.json);
    assert_eq!(unconfirmed.json, nobody.json);
    forgot(json!({})).await.assert_error(400, "bad_request");
    forgot(json!({"name": "ann", "email": "ann@example.test"}))
        .await
        .assert_error(400, "bad_request");

    // One mail, to ann's address, with a one-time link; none for bob (no address).
    let mail = next_mail(&mut mails, Duration::from_secs(10))
        .await
        .expect("the reset mail");
    assert_eq!(mail.to, ["ann@example.test"]);
    let first = reset_token(&mail.text);
    // Within the minute, asking again by address mails nothing more.
    let again = forgot(json!({"email": "Ann@Example.test"})).await;
    assert_eq!(again.json, nobody.json);
    assert!(
        next_mail(&mut mails, Duration::from_secs(2))
            .await
            .is_none(),
        "a second mail within the minute"
    );
    // The inbox says a reset was asked for, and holds no secret.
    let told = inbox(&client, &ann).await;
    let notice = &told["notifications"][0];
    assert_eq!(notice["kind"], "password_reset", "{told}");
    assert!(!told.to_string().contains(&first));

    let reset = |token: String, password: &str| {
        let client = &client;
        let body = json!({"token": token, "password": password});
        async move { client.post("/api/password/reset", &body, &[]).await }
    };
    reset("0".repeat(64), "a new password")
        .await
        .assert_error(404, "not_found");
    reset(first.clone(), "short")
        .await
        .assert_error(400, "bad_request");

    // An hour later (on the server's clock) the link works no more, and ann may ask again
    // (by address): a new link.
    clock.advance(Duration::from_secs(3_600));
    reset(first.clone(), "a new password")
        .await
        .assert_error(404, "not_found");
    forgot(json!({"email": "ann@example.test"})).await;
    let mail = next_mail(&mut mails, Duration::from_secs(10))
        .await
        .expect("the second reset mail");
    let second = reset_token(&mail.text);
    assert_ne!(first, second);
    let done = reset(second.clone(), "a new password").await;
    assert_eq!(done.status, 200, "{}", done.text);
    assert_eq!(done.json, json!({"name": "ann", "guest": false}));
    reset(second, "another password")
        .await
        .assert_error(404, "not_found");

    // ann's token ended; the old password is refused, the new one logs in; bob's token
    // goes on.
    client
        .get("/api/me/credentials", &auth(&ann))
        .await
        .assert_error(401, "unauthenticated");
    client
        .post(
            "/api/tokens",
            &json!({"name": "ann", "password": "correct horse"}),
            &[],
        )
        .await
        .assert_error(401, "unauthenticated");
    let token = client
        .post(
            "/api/tokens",
            &json!({"name": "ann", "password": "a new password"}),
            &[],
        )
        .await;
    assert_eq!(token.status, 201, "{}", token.text);
    assert_eq!(client.get("/api/me", &auth(&bob)).await.json["name"], "bob");

    // Too many requests from one address: refused, whatever the name.
    let mut refused = false;
    for _ in 0..12 {
        let answer = forgot(json!({"name": "nobody"})).await;
        if answer.status == 429 {
            refused = true;
            break;
        }
        assert_eq!(answer.status, 202, "{}", answer.text);
    }
    assert!(refused, "a limit on forgotten passwords per address");
    server.stop().await.unwrap();
    db
}

each_database!(a_forgotten_password_is_reset_by_a_mailed_link, resets);
