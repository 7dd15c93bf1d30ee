//! Hints in games against the AI (issue 25): the player to move gets them; a game between
//! people, a watcher and the public do not.

use serde_json::json;
use swapboard_server::api::GameView;
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, game_between, generous, start,
};

async fn hints(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let body = json!({"game": "swaptimum", "size": 5, "opponent": "ai:1", "colour": "first"});
    let game = client
        .post("/api/games", &body, &auth(&ann))
        .await
        .read::<GameView>();
    let path = format!("/api/games/{}/hint", game.id);
    let hint = client.get(&path, &auth(&ann)).await;
    assert_eq!(hint.status, 200, "{}", hint.text);
    assert_eq!(hint.json["complete"], true);
    assert_eq!(hint.json["threats"], json!([]));
    assert_eq!(hint.json["cells"], json!([]));
    assert_eq!(hint.json["distances"].as_array().map(Vec::len), Some(2));
    let words: Vec<&str> = hint.json["words"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str())
        .collect();
    assert!(
        words.iter().any(|w| w.starts_with("Red is about")),
        "{words:?}"
    );
    // Only the player: not a watcher, not the public.
    client
        .get(&path, &auth(&bob))
        .await
        .assert_error(403, "forbidden");
    assert_eq!(client.get(&path, &[]).await.status, 401);
    // Never in a game between people.
    let between = game_between(&client, "swaptimum", 5, &ann, (&bob, "bob")).await;
    let refused = client
        .get(&format!("/api/games/{between}/hint"), &auth(&ann))
        .await;
    refused.assert_error(403, "forbidden");
    assert!(
        refused.message().contains("against the AI"),
        "{}",
        refused.text
    );
    client
        .get("/api/games/nosuchgame/hint", &auth(&ann))
        .await
        .assert_error(404, "not_found");
    server.stop().await.unwrap();
    db
}

each_database!(hints_are_for_the_player_of_a_game_against_the_ai, hints);
