//! The metrics' listener (issue 24): served only when `--metrics-addr` asks, never on the
//! public address, in Prometheus's text format, with the moves by outcome, the requests by
//! route template, the pool, the connections and the limits' refusals.

use serde_json::json;

use swapboard_server::{Limits, Rate, Server};
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, game_between, generous, options, sample,
};

each_database!(
    metrics_are_served_apart_and_count_moves_requests_and_refusals,
    |db: TestDb| async move {
        // One move a minute per account: the second move of the same account is refused.
        let limits = Limits {
            moves_per_account: Rate::new(2, std::time::Duration::from_secs(60)),
            ..generous()
        };
        let mut with_metrics = options(&db, limits);
        with_metrics.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        let server = Server::start(&with_metrics).await.unwrap();
        let metrics_addr = server.metrics_addr().expect("a metrics listener");
        assert_ne!(metrics_addr, server.addr());
        let client = Client::new(&server);
        let ann = bearer(&client, "ann").await;
        let bob = bearer(&client, "bob").await;
        let id = game_between(&client, "swaptimum", 5, &ann, (&bob, "bob")).await;
        let moves = format!("/api/games/{id}/moves");
        let played = client
            .post(&moves, &json!({"move": "c3", "ply": 0}), &auth(&ann))
            .await;
        assert_eq!(played.status, 200, "{}", played.text);
        let occupied = client
            .post(&moves, &json!({"move": "c3", "ply": 1}), &auth(&bob))
            .await;
        occupied.assert_error(422, "illegal_move");
        let fine = client
            .post(&moves, &json!({"move": "b2", "ply": 1}), &auth(&bob))
            .await;
        assert_eq!(fine.status, 200, "{}", fine.text);
        let limited = client
            .post(&moves, &json!({"move": "d4", "ply": 2}), &auth(&ann))
            .await;
        assert_eq!(limited.status, 200, "{}", limited.text);
        client
            .post(&moves, &json!({"move": "a1", "ply": 3}), &auth(&ann))
            .await
            .assert_error(429, "rate_limited");

        let wrong = json!({"name": "ann", "password": "wrong horse"});
        client
            .post("/api/tokens", &wrong, &[])
            .await
            .assert_error(401, "unauthenticated");

        // The public listener has no metrics (outside /api/ it serves the browser client).
        let public = client.get("/metrics", &[]).await;
        assert!(!public.text.contains("swapboard_"), "{}", public.text);

        let scrape = reqwest::get(format!("http://{metrics_addr}/metrics"))
            .await
            .unwrap();
        assert_eq!(scrape.status(), 200);
        let kind = scrape.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(kind.starts_with("text/plain"), "{kind}");
        let text = scrape.text().await.unwrap();
        // The recorder is the process's: other tests' servers add to the same counters, so
        // every count is at least this test's.
        let accepted = sample(
            &text,
            "swapboard_moves_total",
            &[r#"outcome="accepted""#, r#"by="player""#],
        );
        assert!(accepted.is_some_and(|n| n >= 3.0), "{text}");
        let refused = sample(&text, "swapboard_moves_total", &[r#"outcome="occupied""#]);
        assert!(refused.is_some_and(|n| n >= 1.0), "{text}");
        let limited = sample(
            &text,
            "swapboard_rate_limited_total",
            &[r#"limit="moves_per_account""#],
        );
        assert!(limited.is_some_and(|n| n >= 1.0), "{text}");
        // Latency by the route's template, never by the path with its id.
        let by_route = sample(
            &text,
            "swapboard_http_request_duration_seconds_count",
            &[
                r#"method="POST""#,
                r#"route="/api/games/{id}/moves""#,
                r#"status="2xx""#,
            ],
        );
        assert!(by_route.is_some_and(|n| n >= 3.0), "{text}");
        assert!(!text.contains(&id), "a game's id in the metrics: {text}");
        assert!(
            sample(&text, "swapboard_db_commit_seconds_count", &[]).is_some_and(|n| n >= 3.0),
            "{text}"
        );
        assert!(
            sample(&text, "swapboard_db_pool_connections", &[r#"state="idle""#]).is_some(),
            "{text}"
        );
        assert!(
            sample(&text, "swapboard_http_connections", &[]).is_some_and(|n| n >= 1.0),
            "{text}"
        );
        assert!(text.contains("# HELP swapboard_moves_total"), "{text}");
        assert!(
            sample(&text, "swapboard_login_failures_total", &[]).is_some_and(|n| n >= 1.0),
            "{text}"
        );
        // Present from the start, before any mail or push: a rate over them works at once.
        for outcome in ["sent", "transient_failure", "permanent_failure"] {
            for channel in ["mail", "push"] {
                let labels = [
                    format!("channel=\"{channel}\""),
                    format!("outcome=\"{outcome}\""),
                ];
                let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
                assert!(
                    sample(&text, "swapboard_deliveries_total", &labels).is_some(),
                    "{channel} {outcome}: {text}"
                );
            }
        }
        assert!(
            sample(&text, "swapboard_notifications_pending", &[]).is_some(),
            "{text}"
        );
        for process in [
            "process_cpu_seconds_total",
            "process_resident_memory_bytes",
            "process_open_fds",
            "process_max_fds",
        ] {
            assert!(
                sample(&text, process, &[]).is_some_and(|n| n > 0.0),
                "{process}: {text}"
            );
        }
        let version = format!("version=\"{}\"", env!("CARGO_PKG_VERSION"));
        assert_eq!(
            sample(&text, "swapboard_build_info", &[&version]),
            Some(1.0),
            "{text}"
        );
        server.stop().await.unwrap();
        db
    }
);

#[tokio::test]
async fn without_the_option_no_metrics_listener_is_opened() {
    let db = TestDb::sqlite();
    let server = Server::start(&options(&db, generous())).await.unwrap();
    assert_eq!(server.metrics_addr(), None);
    server.stop().await.unwrap();
    db.drop_it().await;
}
