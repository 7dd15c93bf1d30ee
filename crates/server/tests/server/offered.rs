//! `serve --games`: a server that leaves games out offers nothing new of them (catalogue,
//! games, rematches' kind, tournaments, rules, lessons, puzzles, rooms), on both backends.

use serde_json::{Value, json};
use swapboard_server::Server;
use swapboard_testkit::{Client, TestDb, auth, bearer, each_database, generous, options};

fn ids(list: &Value, key: &str, field: &str) -> Vec<String> {
    list[key]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|item| item[field].as_str().unwrap().to_owned())
        .collect()
}

async fn two_games_only(db: TestDb) -> TestDb {
    let mut serve = options(&db, generous());
    serve.games = Some("flipstop,swaptimum".parse().unwrap());
    let server = Server::start(&serve).await.unwrap();
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;

    let catalogue = client.get("/api/games/catalogue", &[]).await;
    assert_eq!(
        ids(&catalogue.json, "games", "id"),
        ["swaptimum", "flipstop"]
    );
    let rules = client.get("/api/rules", &[]).await;
    assert_eq!(ids(&rules.json, "games", "id"), ["swaptimum", "flipstop"]);
    let lessons = client.get("/api/lessons", &[]).await;
    assert_eq!(
        ids(&lessons.json, "lessons", "game"),
        ["swaptimum", "flipstop"]
    );
    let puzzles = client.get("/api/puzzles?limit=200", &[]).await;
    let games = ids(&puzzles.json, "puzzles", "game");
    assert!(!games.is_empty(), "{}", puzzles.text);
    assert!(
        games.iter().all(|g| g == "swaptimum" || g == "flipstop"),
        "{games:?}"
    );
    let daily = client.get("/api/puzzles/daily", &[]).await;
    assert_eq!(daily.status, 200, "{}", daily.text);
    assert!(["swaptimum", "flipstop"].contains(&daily.json["game"].as_str().unwrap()));

    // Whatever is left out is 404, named.
    for path in [
        "/api/rules/scware",
        "/api/rules/swap61",
        "/api/lessons/rapid-transit",
        "/api/puzzles?game=scware",
    ] {
        let answer = client.get(path, &[]).await;
        assert_eq!(answer.status, 404, "{path}: {}", answer.text);
    }
    let refused = client
        .post(
            "/api/games",
            &json!({"game": "scware", "opponent": "ai:1"}),
            &auth(&ann),
        )
        .await;
    refused.assert_error(404, "not_found");
    assert!(
        refused.message().contains("does not offer scware"),
        "{}",
        refused.text
    );
    client
        .post("/api/rooms", &json!({"seats": 10}), &auth(&ann))
        .await
        .assert_error(404, "not_found");
    let soon = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    let soon = soon
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let tournament = json!({"game": "rapid-transit", "format": "swiss", "rounds": 3,
        "clock": {"days_per_move": 3}, "starts_at": soon, "min_players": 2, "max_players": 8});
    client
        .post("/api/tournaments", &tournament, &auth(&ann))
        .await
        .assert_error(404, "not_found");
    // What is offered still works.
    let made = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "size": 5, "opponent": "ai:1"}),
            &auth(&ann),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    server.stop().await.unwrap();
    db
}

each_database!(
    a_server_offers_only_the_games_its_operator_lists,
    two_games_only
);
