//! A game shown move by move, and the lists of games, over real HTTP on both backends.

use serde_json::json;
use swapboard_server::api::{GameList, GameView, Lobby, MoveList, PlyView};
use swapboard_testkit::{Answer, Client, TestDb, bearer, each_database, generous, start};

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
    let id = created.read::<GameView>().id;

    // Waiting: in the lobby's open list and in ann's waiting games.
    let lobby = client.get("/api/lobby", &[]).await;
    assert_eq!(lobby.status, 200, "{}", lobby.text);
    let ids = |list: &[GameView]| -> Vec<String> { list.iter().map(|g| g.id.clone()).collect() };
    let listed = |answer: &Answer| ids(&answer.read::<GameList>().games);
    let lobby: Lobby = lobby.read();
    assert_eq!(ids(&lobby.open), [id.as_str()]);
    assert!(lobby.playing.is_empty());
    let waiting = client
        .get("/api/accounts/ANN/games?status=waiting", &[])
        .await;
    assert_eq!(listed(&waiting), [id.as_str()]);

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
    let lobby: Lobby = client.get("/api/lobby", &[]).await.read();
    assert!(lobby.open.is_empty());
    assert_eq!(ids(&lobby.playing), [id.as_str()]);

    // The board after each ply, with the move that made it in words.
    let start_view = client
        .get(&format!("/api/games/{id}/view?ply=0"), &[])
        .await;
    assert_eq!(start_view.status, 200, "{}", start_view.text);
    let start_view: PlyView = start_view.read();
    assert_eq!((start_view.ply, start_view.text), (0, None));
    assert_eq!(start_view.board.size, 5);
    assert!(
        start_view.board.cells.iter().all(Option::is_none),
        "an empty board"
    );
    let second = client
        .get(&format!("/api/games/{id}/view?ply=2"), &[])
        .await;
    let second_view: PlyView = second.read();
    assert_eq!(second_view.text.as_deref(), Some("d4"));
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
    assert!(second_view.description.unwrap().contains("d4"));
    let now: PlyView = client
        .get(&format!("/api/games/{id}/view"), &[])
        .await
        .read();
    assert_eq!((now.ply, now.text.as_deref()), (3, Some("b2")));
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
    let list = moves.read::<MoveList>().moves;
    assert_eq!(list.len(), 3);
    assert_eq!(
        (list[1].ply, list[1].text.as_str(), list[1].colour.as_str()),
        (2, "d4", "B")
    );
    assert!(list.iter().all(|m| !m.description.is_empty()));

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
    let ending = ending.read::<MoveList>().ending.unwrap();
    assert!(ending.contains("resign"), "{ending}");

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
    assert_eq!(listed(&finished), [id.as_str()]);
    let all = client.get("/api/accounts/bob/games", &[]).await;
    assert_eq!(listed(&all), [id.as_str()]);
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

each_database!(games_are_shown_ply_by_ply_and_listed, shown);
