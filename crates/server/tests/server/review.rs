//! A game shown move by move, and the lists of games, over real HTTP on both backends.

use serde_json::{Value, json};

use crate::common::{Client, TestDb, bearer, generous, on_both, start};

async fn shown(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let created = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "open", "colour": "first"}),
            &[("authorization", &ann)],
        )
        .await;
    let id = created.json["id"].as_str().unwrap().to_owned();

    // Waiting: in the lobby's open list and in ann's waiting games.
    let lobby = client.get("/api/lobby", &[]).await;
    assert_eq!(lobby.status, 200, "{}", lobby.text);
    let ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids(&lobby.json["open"]), [id.as_str()]);
    assert!(ids(&lobby.json["playing"]).is_empty());
    let waiting = client
        .get("/api/accounts/ANN/games?status=waiting", &[])
        .await;
    assert_eq!(ids(&waiting.json["games"]), [id.as_str()]);

    client
        .post(
            &format!("/api/games/{id}/join"),
            &json!({}),
            &[("authorization", &bob)],
        )
        .await;
    for (ply, (text, who)) in [("c3", &ann), ("d4", &bob), ("b2", &ann)]
        .into_iter()
        .enumerate()
    {
        let played = client
            .post(
                &format!("/api/games/{id}/moves"),
                &json!({"move": text, "ply": ply}),
                &[("authorization", who.as_str())],
            )
            .await;
        assert_eq!(played.status, 200, "{}", played.text);
    }
    let lobby = client.get("/api/lobby", &[]).await;
    assert!(ids(&lobby.json["open"]).is_empty());
    assert_eq!(ids(&lobby.json["playing"]), [id.as_str()]);

    // The board after each ply, with the move that made it in words.
    let start_view = client
        .get(&format!("/api/games/{id}/view?ply=0"), &[])
        .await;
    assert_eq!(start_view.status, 200, "{}", start_view.text);
    assert_eq!(start_view.json["ply"], 0);
    assert_eq!(start_view.json["move"], Value::Null);
    assert_eq!(start_view.json["board"]["size"], 5);
    let cells = start_view.json["board"]["cells"].as_array().unwrap();
    assert!(cells.iter().all(Value::is_null), "an empty board");
    let second = client
        .get(&format!("/api/games/{id}/view?ply=2"), &[])
        .await;
    assert_eq!(second.json["move"], "d4");
    // The board view speaks the API's words (snake_case), like the rest of the API.
    let board = &second.json["board"];
    assert_eq!(board["to_move"], "first");
    assert_eq!(board["sides"], json!(["top_bottom", "left_right"]));
    assert!(
        board["marks"]
            .as_array()
            .unwrap()
            .contains(&json!(["d4", "placed"])),
        "{board}"
    );
    assert!(second.json["description"].as_str().unwrap().contains("d4"));
    let now = client.get(&format!("/api/games/{id}/view"), &[]).await;
    assert_eq!(
        (now.json["ply"].as_u64(), now.json["move"].as_str()),
        (Some(3), Some("b2"))
    );
    for bad in ["ply=4", "ply=-1", "ply=x", "turn=1"] {
        client
            .get(&format!("/api/games/{id}/view?{bad}"), &[])
            .await
            .assert_error(400, "bad_request");
    }
    client
        .get("/api/games/nope/view", &[])
        .await
        .assert_error(404, "not_found");

    let moves = client.get(&format!("/api/games/{id}/moves"), &[]).await;
    assert_eq!(moves.status, 200, "{}", moves.text);
    let list = moves.json["moves"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(
        (
            list[1]["ply"].as_u64(),
            list[1]["move"].as_str(),
            list[1]["colour"].as_str()
        ),
        (Some(2), Some("d4"), Some("B"))
    );
    assert!(
        list.iter()
            .all(|m| !m["description"].as_str().unwrap().is_empty())
    );

    // ann resigns: the record says so, and the game is among her finished ones.
    client
        .post(
            &format!("/api/games/{id}/resign"),
            &json!({}),
            &[("authorization", &ann)],
        )
        .await;
    let record = client.get(&format!("/api/games/{id}/record"), &[]).await;
    assert_eq!(record.status, 200);
    assert!(
        record.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    assert!(
        record.text.contains("[Termination \"resigned\"]"),
        "{}",
        record.text
    );
    assert!(
        record.text.contains("[Players \"ann vs bob\"]"),
        "{}",
        record.text
    );
    assert!(
        record.text.contains("1. c3 2. d4 3. b2 B"),
        "{}",
        record.text
    );
    let read = swapboard_play::record::read_records(&record.text).unwrap();
    assert_eq!(read[0].moves, ["c3", "d4", "b2"]);
    let ending = client.get(&format!("/api/games/{id}/moves"), &[]).await;
    assert!(ending.json["ending"].as_str().unwrap().contains("resign"));

    let svg = client.get(&format!("/api/games/{id}/svg?ply=2"), &[]).await;
    assert_eq!(svg.status, 200);
    assert!(
        svg.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("image/svg+xml")
    );
    assert!(svg.text.starts_with("<svg") || svg.text.starts_with("<?xml"));
    assert!(svg.text.contains("after ply 2 of 3: d4"), "{}", svg.text);

    let finished = client
        .get("/api/accounts/ann/games?status=finished", &[])
        .await;
    assert_eq!(ids(&finished.json["games"]), [id.as_str()]);
    let all = client.get("/api/accounts/bob/games", &[]).await;
    assert_eq!(ids(&all.json["games"]), [id.as_str()]);
    client
        .get("/api/accounts/ann/games?status=lost", &[])
        .await
        .assert_error(400, "bad_request");
    client
        .get("/api/accounts/nobody/games", &[])
        .await
        .assert_error(404, "not_found");
    server.stop().await.unwrap();
    db
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_shown_ply_by_ply_and_listed() {
    on_both(shown).await;
}
