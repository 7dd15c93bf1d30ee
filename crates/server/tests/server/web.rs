//! The web client served by the server itself: its files, its pages, and the API's JSON
//! answers kept apart from them, on both backends.

use serde_json::json;
use swapboard_testkit::{Client, TestDb, each_database, generous, start};

async fn served(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);

    // Every page URL answers with the client's page, which the browser must revalidate.
    let home = client.get("/", &[]).await;
    assert_eq!(home.status, 200, "{}", home.text);
    assert!(home.text.contains(r#"<div id="app">"#), "{}", home.text);
    assert_eq!(home.headers["content-type"], "text/html; charset=utf-8");
    assert_eq!(home.headers["cache-control"], "no-cache");
    let policy = home.headers["content-security-policy"].to_str().unwrap();
    assert!(policy.starts_with("default-src 'self'"), "{policy}");
    assert!(policy.contains("connect-src 'self'"), "{policy}");
    assert_eq!(home.headers["x-content-type-options"], "nosniff");
    assert_eq!(home.headers["referrer-policy"], "no-referrer");
    for page in [
        "/login",
        "/signup",
        "/new",
        "/games/0123abcd?invite=ff",
        "/players/ann",
        "/no/such/page",
    ] {
        let answer = client.get(page, &[]).await;
        assert_eq!(answer.status, 200, "{page}");
        assert_eq!(answer.text, home.text, "{page}");
    }

    // The push service worker keeps its one URL, so the browser must revalidate it.
    let worker = client.get("/sw.js", &[]).await;
    assert_eq!(worker.status, 200);
    assert_eq!(
        worker.headers["content-type"],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(worker.headers["cache-control"], "no-cache");
    assert!(worker.text.contains("showNotification"), "{}", worker.text);

    // The web app manifest: linked from the page by its one URL, revalidated like it; its
    // icons have hashed names, kept for ever, and are PNG.
    assert!(
        home.text
            .contains(r#"<link rel="manifest" href="/manifest.webmanifest">"#),
        "{}",
        home.text
    );
    let manifest = client.get("/manifest.webmanifest", &[]).await;
    assert_eq!(manifest.status, 200);
    assert_eq!(
        manifest.headers["content-type"],
        "application/manifest+json"
    );
    assert_eq!(manifest.headers["cache-control"], "no-cache");
    assert_eq!(manifest.json["display"], "standalone", "{}", manifest.text);
    let icon = manifest.json["icons"][0]["src"].as_str().unwrap();
    let png = client.get(icon, &[("accept-encoding", "gzip")]).await;
    assert_eq!(png.status, 200, "{icon}");
    assert_eq!(png.headers["content-type"], "image/png");
    assert_eq!(
        png.headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    // A PNG is compressed already: no gzipped copy.
    assert!(!png.headers.contains_key("content-encoding"));

    // The script the page names: a hashed name, kept for ever, gzipped for who takes it.
    let script = home
        .text
        .split(r#"src="/"#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    assert!(
        script.starts_with("main.") && script.ends_with(".js"),
        "{script}"
    );
    let plain = client.get(&format!("/{script}"), &[]).await;
    assert_eq!(plain.status, 200);
    assert_eq!(
        plain.headers["content-type"],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(
        plain.headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(!plain.headers.contains_key("content-encoding"));
    let length = |answer: &swapboard_testkit::Answer| -> usize {
        answer.headers["content-length"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap()
    };
    let gzipped = client
        .get(
            &format!("/{script}"),
            &[("accept-encoding", "br;q=1, gzip;q=0.8")],
        )
        .await;
    assert_eq!(gzipped.headers["content-encoding"], "gzip");
    assert_eq!(gzipped.headers["vary"], "Accept-Encoding");
    assert!(
        length(&gzipped) * 2 < length(&plain),
        "gzip halves the script"
    );
    let refused = client
        .get(&format!("/{script}"), &[("accept-encoding", "gzip;q=0")])
        .await;
    assert!(!refused.headers.contains_key("content-encoding"));
    // The compressed copies are not pages of their own.
    let raw = client.get(&format!("/{script}.gz"), &[]).await;
    assert_eq!(raw.text, home.text);

    // The API keeps its JSON answers: unknown paths, other methods, the health check.
    client
        .get("/api/no-such-thing", &[])
        .await
        .assert_error(404, "not_found");
    client
        .post("/games/0123abcd", &json!({}), &[])
        .await
        .assert_error(404, "not_found");
    let health = client.get("/healthz", &[]).await;
    assert_eq!(health.text, "ok");
    server.stop().await.unwrap();
    db
}

each_database!(the_client_is_served_with_its_pages_and_headers, served);
