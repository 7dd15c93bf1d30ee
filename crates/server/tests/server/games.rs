//! The two-player games of the API contract over real HTTP, on a real SQLite file and a real
//! PostgreSQL database: creating, joining, watching and moving, with who may do what.

use serde_json::{Value, json};
use swapboard_core::Player;
use swapboard_play::AnyPosition;
use swapboard_server::api::GameView;
use swapboard_testkit::{
    Answer, Client, TestDb, auth, bearer, each_database, game_between, generous, start,
};

async fn create(client: &Client, bearer: &str, body: Value) -> Value {
    let created = client.post("/api/games", &body, &auth(bearer)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    created.json
}

async fn send(client: &Client, path: &str, bearer: &str, text: &str, ply: u32) -> Answer {
    let body = json!({"move": text, "ply": ply});
    client.post(path, &body, &auth(bearer)).await
}

async fn creation(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cat = bearer(&client, "cat").await;

    // The catalogue, for anyone: each game from its engine, its author credited.
    let catalogue = client.get("/api/games/catalogue", &[]).await;
    assert_eq!(catalogue.status, 200, "{}", catalogue.text);
    let games = catalogue.json["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["swaptimum", "flipstop", "scware", "rapid-transit"]);
    assert_eq!(games[2]["author"], "Christian Freeling");
    assert_eq!(games[2]["default_size"], 11);
    assert_eq!(games[3]["sizes"], json!([4, 6, 8, 10, 12, 14, 16]));
    assert_eq!(games[3]["colours"], json!(["Red", "Cyan"]));

    let unauthenticated = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "opponent": "open"}),
            &[],
        )
        .await;
    unauthenticated.assert_error(401, "unauthenticated");
    for (body, field) in [
        (json!({"game": "chess", "opponent": "open"}), "game"),
        (
            json!({"game": "flipstop", "size": 99, "opponent": "open"}),
            "size",
        ),
        (
            json!({"game": "flipstop", "size": -1, "opponent": "open"}),
            "size",
        ),
        (
            json!({"game": "rapid-transit", "size": 5, "opponent": "open"}),
            "size",
        ),
        (json!({"game": "flipstop", "opponent": "ai:9"}), "ai:9"),
        (
            json!({"game": "flipstop", "opponent": "open", "colour": "blue"}),
            "blue",
        ),
        (
            json!({"game": "flipstop", "opponent": "open", "clock": {"days_per_move": 0}}),
            "days_per_move",
        ),
        (
            json!({"game": "flipstop", "opponent": "open", "clock": {"initial_s": 0, "increment_s": 0}}),
            "initial_s",
        ),
        (
            json!({"game": "flipstop", "opponent": "user:ann"}),
            "yourself",
        ),
        (
            json!({"game": "flipstop", "opponent": "open", "extra": 1}),
            "extra",
        ),
    ] {
        let refused = client.post("/api/games", &body, &auth(&ann)).await;
        refused.assert_error(400, "bad_request");
        assert!(
            refused.message().contains(field),
            "{body}: {}",
            refused.text
        );
    }
    let nobody = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "opponent": "user:nobody"}),
            &auth(&ann),
        )
        .await;
    nobody.assert_error(404, "not_found");

    // The default size, a random colour, no clock; the AI's seat is filled at once.
    let ai = create(
        &client,
        &ann,
        json!({"game": "swaptimum", "opponent": "ai:3"}),
    )
    .await;
    assert_eq!(ai["status"], "playing");
    assert_eq!(ai["ply"], 0);
    assert_eq!(ai["moves"], json!([]));
    assert_eq!(ai["clock"], Value::Null);
    assert_eq!(ai["result"], Value::Null);
    let names: Vec<&str> = ai["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        names == ["ann", "ai:3"] || names == ["ai:3", "ann"],
        "{names:?}"
    );
    let start: AnyPosition = ai["position"].as_str().unwrap().parse().unwrap();
    assert_eq!(ai["size"].as_u64().unwrap() as usize, start.size());

    // Open to anyone: waits, then the first joiner plays.
    let open = create(
        &client,
        &ann,
        json!({"game": "flipstop", "size": 5, "opponent": "open", "colour": "second",
               "clock": {"initial_s": 300, "increment_s": 3}}),
    )
    .await;
    let id = open["id"].as_str().unwrap();
    assert_eq!(open["status"], "waiting");
    assert_eq!(open["clock"], json!({"initial_s": 300, "increment_s": 3}));
    assert_eq!(
        open["players"][0],
        json!({"name": null, "colour": "R", "seated": false})
    );
    assert_eq!(open["players"][1]["name"], "ann");
    assert_eq!(open["players"][1]["colour"], "B");
    assert_eq!(open["to_move"], Value::Null);
    assert_eq!(open["seat_to_move"], Value::Null);
    // The game tells its caller their own seat: no client reads it from names or the position.
    assert_eq!(open["your_seat"], "second");
    let early = client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": "c3", "ply": 0}),
            &auth(&ann),
        )
        .await;
    early.assert_error(409, "conflict");
    let join = format!("/api/games/{id}/join");
    client
        .post(&join, &json!({}), &auth(&ann))
        .await
        .assert_error(409, "conflict");
    client
        .post(&join, &json!({}), &[])
        .await
        .assert_error(401, "unauthenticated");
    let joined = client.post(&join, &json!({}), &auth(&bob)).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.json["status"], "playing");
    assert_eq!(joined.json["players"][0]["name"], "bob");
    assert_eq!(joined.json["to_move"], "bob");
    assert_eq!(joined.json["seat_to_move"], "first");
    assert_eq!(joined.json["your_seat"], "first");
    client
        .post(&join, &json!({}), &auth(&cat))
        .await
        .assert_error(409, "conflict");
    // The live clock started when bob sat down: 300 s each, bob's running.
    let clocks = &joined.json["clocks"];
    assert_eq!(clocks["remaining_ms"][1], 300_000);
    let bob_left = clocks["remaining_ms"][0].as_u64().unwrap();
    assert!((299_000..=300_000).contains(&bob_left), "{clocks}");
    let deadline = clocks["deadline_ms"].as_u64().unwrap();
    let now = clocks["server_now_ms"].as_u64().unwrap();
    assert_eq!(deadline - now, bob_left);
    let watched = client.get(&format!("/api/games/{id}"), &[]).await;
    assert_eq!(watched.status, 200);
    // A watcher sits nowhere; the creator reads their own seat.
    assert_eq!(watched.json["your_seat"], Value::Null);
    let by_ann = client.get(&format!("/api/games/{id}"), &auth(&ann)).await;
    assert_eq!(by_ann.json["your_seat"], "second");
    let without_clocks = |game: &Value| {
        let mut game = game.clone();
        game["clocks"] = Value::Null;
        game["your_seat"] = Value::Null;
        game
    };
    assert_eq!(without_clocks(&watched.json), without_clocks(&joined.json));
    assert_eq!(watched.json["clocks"]["deadline_ms"], deadline);

    // Kept for bob: nobody else may take the seat.
    let invite = create(
        &client,
        &ann,
        json!({"game": "scware", "opponent": "user:bob", "colour": "first", "clock": {"days_per_move": 3}}),
    )
    .await;
    assert_eq!(invite["status"], "waiting");
    assert_eq!(invite["players"][1]["name"], "bob");
    assert_eq!(invite["players"][1]["seated"], false);
    assert_eq!(invite["clock"], json!({"days_per_move": 3}));
    let join = format!("/api/games/{}/join", invite["id"].as_str().unwrap());
    client
        .post(&join, &json!({}), &auth(&cat))
        .await
        .assert_error(403, "forbidden");
    let joined = client.post(&join, &json!({}), &auth(&bob)).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.json["status"], "playing");
    assert_eq!(joined.json["players"][1]["seated"], true);

    client
        .get("/api/games/nope", &[])
        .await
        .assert_error(404, "not_found");
    client
        .post("/api/games/nope/join", &json!({}), &auth(&cat))
        .await
        .assert_error(404, "not_found");
    server.stop().await.unwrap();
    db
}

each_database!(games_are_created_joined_and_watched, creation);

async fn moves(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cat = bearer(&client, "cat").await;
    let game = create(
        &client,
        &ann,
        json!({"game": "flipstop", "size": 5, "opponent": "user:bob", "colour": "first"}),
    )
    .await;
    let id = game["id"].as_str().unwrap();
    let join = client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(&bob))
        .await;
    assert_eq!(join.status, 200, "{}", join.text);
    let path = format!("/api/games/{id}/moves");

    send(&client, &path, &cat, "c3", 0)
        .await
        .assert_error(403, "forbidden");
    client
        .post(&path, &json!({"move": "c3", "ply": 0}), &[])
        .await
        .assert_error(401, "unauthenticated");
    send(&client, &path, &bob, "c3", 0)
        .await
        .assert_error(403, "not_your_turn");
    let unreadable = send(&client, &path, &ann, "z9", 0).await;
    unreadable.assert_error(422, "illegal_move");
    assert_eq!(unreadable.json["error"]["rule"], "unreadable");
    client
        .post(&path, &json!({"move": "c3", "ply": -1}), &auth(&ann))
        .await
        .assert_error(400, "bad_request");

    let played = send(&client, &path, &ann, "C3", 0).await;
    assert_eq!(played.status, 200, "{}", played.text);
    let view: GameView = played.read();
    assert_eq!(view.ply, 1);
    assert_eq!(view.moves, ["c3"]);
    assert_eq!(view.to_move.as_deref(), Some("bob"));
    assert_eq!(view.seat_to_move, Some(Player::Second));
    assert_eq!(view.your_seat, Some(Player::First));
    // A retry of the stored move answers the game as it is; nothing is played twice.
    let retry = send(&client, &path, &ann, "c3", 0).await;
    assert_eq!(retry.status, 200, "{}", retry.text);
    assert_eq!(retry.json, played.json);
    // Another move at a ply gone by is stale, whoever sends it.
    send(&client, &path, &bob, "d4", 0)
        .await
        .assert_error(409, "conflict");
    send(&client, &path, &ann, "d4", 0)
        .await
        .assert_error(409, "conflict");
    send(&client, &path, &bob, "d4", 7)
        .await
        .assert_error(409, "conflict");
    let taken = send(&client, &path, &bob, "c3", 1).await;
    taken.assert_error(422, "illegal_move");
    assert_eq!(taken.json["error"]["rule"], "occupied");

    // Played to its end: the first legal move each turn, by whoever's turn it is.
    let mut game = played.json;
    while game["status"] == "playing" {
        let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
        let next = position.legal_moves(usize::MAX).unwrap()[0].clone();
        let bearer = if game["to_move"] == "ann" { &ann } else { &bob };
        let ply = u32::try_from(game["ply"].as_u64().unwrap()).unwrap();
        let answer = send(&client, &path, bearer, &next, ply).await;
        assert_eq!(answer.status, 200, "{}", answer.text);
        game = answer.json;
        assert!(game["ply"].as_u64().unwrap() < 200, "the game does not end");
    }
    let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
    let outcome = position.outcome().expect("a finished game has an outcome");
    let winner = outcome.winner().map(|p| ["ann", "bob"][p.index()]);
    assert_eq!(
        game["result"],
        json!({"winner": winner, "termination": "rules", "how": "by connection"})
    );
    assert_eq!(game["to_move"], Value::Null);
    assert_eq!(game["seat_to_move"], Value::Null);
    assert_eq!(
        game["moves"].as_array().unwrap().len() as u64,
        game["ply"].as_u64().unwrap()
    );
    let ply = u32::try_from(game["ply"].as_u64().unwrap()).unwrap();
    send(&client, &path, &ann, "a1", ply)
        .await
        .assert_error(409, "conflict");
    let watched = client.get(&format!("/api/games/{id}"), &[]).await;
    // A watcher reads the game its players were answered, but for a seat of their own.
    game["your_seat"] = Value::Null;
    assert_eq!(watched.json, game);
    server.stop().await.unwrap();
    db
}

each_database!(moves_follow_the_rules_the_turn_and_the_ply, moves);

async fn turn_ids(client: &Client, bearer: &str) -> Vec<String> {
    let turn = client.get("/api/me/turn", &auth(bearer)).await;
    assert_eq!(turn.status, 200, "{}", turn.text);
    turn.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn endings(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cat = bearer(&client, "cat").await;
    client
        .get("/api/me/turn", &[])
        .await
        .assert_error(401, "unauthenticated");

    // Aborted before the second move: nobody wins.
    let first = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    assert_eq!(turn_ids(&client, &ann).await, [first.as_str()]);
    assert!(turn_ids(&client, &bob).await.is_empty());
    let moves = format!("/api/games/{first}/moves");
    let played = send(&client, &moves, &ann, "c3", 0).await;
    assert_eq!(played.status, 200, "{}", played.text);
    assert!(turn_ids(&client, &ann).await.is_empty());
    assert_eq!(turn_ids(&client, &bob).await, [first.as_str()]);
    let resign = format!("/api/games/{first}/resign");
    client
        .post(&resign, &json!({}), &auth(&cat))
        .await
        .assert_error(403, "forbidden");
    client
        .post(&resign, &json!({}), &[])
        .await
        .assert_error(401, "unauthenticated");
    let aborted = client.post(&resign, &json!({}), &auth(&bob)).await;
    assert_eq!(aborted.status, 200, "{}", aborted.text);
    assert_eq!(aborted.json["status"], "finished");
    assert_eq!(
        aborted.json["result"],
        json!({"winner": null, "termination": "aborted", "how": "aborted"})
    );
    client
        .post(&resign, &json!({}), &auth(&ann))
        .await
        .assert_error(409, "conflict");
    assert!(turn_ids(&client, &bob).await.is_empty());

    // Resigned after it: the other player wins.
    let second = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let moves = format!("/api/games/{second}/moves");
    let played = send(&client, &moves, &ann, "c3", 0).await;
    let position: AnyPosition = played.json["position"].as_str().unwrap().parse().unwrap();
    let reply = position.legal_moves(usize::MAX).unwrap()[0].clone();
    assert_eq!(send(&client, &moves, &bob, &reply, 1).await.status, 200);
    let resigned = client
        .post(
            &format!("/api/games/{second}/resign"),
            &json!({}),
            &auth(&ann),
        )
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    assert_eq!(
        resigned.json["result"],
        json!({"winner": "bob", "termination": "resigned", "how": "by resignation"})
    );
    send(&client, &moves, &ann, "a1", 2)
        .await
        .assert_error(409, "conflict");
    assert!(turn_ids(&client, &ann).await.is_empty());
    client
        .post("/api/games/nope/resign", &json!({}), &auth(&ann))
        .await
        .assert_error(404, "not_found");
    server.stop().await.unwrap();
    db
}

each_database!(resigning_aborting_and_the_turn_list, endings);

async fn drafts(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cat = bearer(&client, "cat").await;
    let id = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let draft = format!("/api/games/{id}/draft");
    let c3 = json!({"cells": ["c3"]});
    let ready = client.post(&draft, &c3, &auth(&ann)).await;
    assert_eq!(ready.status, 200, "{}", ready.text);
    assert_eq!(ready.json["verdict"], "complete");
    assert_eq!(ready.json["move"], "c3");
    let empty = client
        .post(&draft, &json!({"cells": []}), &auth(&ann))
        .await;
    assert_eq!(empty.status, 200, "{}", empty.text);
    assert_eq!(empty.json["verdict"], "more");
    assert_eq!(empty.json["more"], true);
    client
        .post(&draft, &json!({"cells": ["??"]}), &auth(&ann))
        .await
        .assert_error(400, "bad_request");
    client
        .post(&draft, &c3, &auth(&bob))
        .await
        .assert_error(403, "not_your_turn");
    client
        .post(&draft, &c3, &auth(&cat))
        .await
        .assert_error(403, "forbidden");
    client
        .post(&draft, &c3, &[])
        .await
        .assert_error(401, "unauthenticated");
    let moves = format!("/api/games/{id}/moves");
    assert_eq!(send(&client, &moves, &ann, "c3", 0).await.status, 200);
    let taken = client.post(&draft, &c3, &auth(&bob)).await;
    assert_eq!(taken.status, 200, "{}", taken.text);
    assert_eq!(taken.json["verdict"], "refused");
    assert!(!taken.json["reason"].as_str().unwrap().is_empty());
    client
        .post(&draft, &c3, &auth(&ann))
        .await
        .assert_error(403, "not_your_turn");
    server.stop().await.unwrap();
    db
}

each_database!(the_move_builder_answers_the_player_to_move_only, drafts);

/// The moves of a 4x4 Rapid Transit game from its start whose last move leaves the other
/// player only a pass, after which the mover can still swap (found by seeded random play,
/// so the test needs no hand-made game).
fn moves_to_a_forced_pass() -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    for seed in 0..1_000u64 {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = AnyPosition::start(swapboard_play::GameId::RapidTransit, 4).unwrap();
        let mut moves = Vec::new();
        while pos.outcome().is_none() && moves.len() < 60 {
            let legal = pos.legal_moves(usize::MAX).unwrap();
            if legal == ["pass"] {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())].clone();
            pos.play_text(&mv).unwrap();
            moves.push(mv);
            if pos.outcome().is_none() && pos.legal_moves(2) == Some(vec!["pass".to_owned()]) {
                pos.play_text("pass").unwrap();
                if pos.legal_moves(1).is_none() {
                    return moves;
                }
                break;
            }
        }
    }
    panic!("no forced pass in a thousand random 4x4 games");
}

async fn forced_passes(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let game = create(
        &client,
        &ann,
        json!({"game": "rapid-transit", "size": 4, "opponent": "user:bob", "colour": "first",
               "clock": {"initial_s": 600, "increment_s": 0}}),
    )
    .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let join = client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(&bob))
        .await;
    assert_eq!(join.status, 200, "{}", join.text);
    // At the start of a turn the builder marks exactly the movable terminal pieces.
    let draft = format!("/api/games/{id}/draft");
    let start = client
        .post(&draft, &json!({"cells": []}), &auth(&ann))
        .await;
    assert_eq!(start.status, 200, "{}", start.text);
    let first = AnyPosition::start(swapboard_play::GameId::RapidTransit, 4).unwrap();
    let mut terminals: Vec<String> = first
        .legal_moves(usize::MAX)
        .unwrap()
        .iter()
        .map(|m| m.split(['-', ':']).next().unwrap().to_owned())
        .collect();
    terminals.sort();
    terminals.dedup();
    let mut offered: Vec<String> = start.json["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    offered.sort();
    assert_eq!(offered, terminals, "{}", start.text);
    assert_eq!(start.json["actions"], json!([]));

    let moves = moves_to_a_forced_pass();
    let path = format!("/api/games/{id}/moves");
    let mut answer = Value::Null;
    for (ply, mv) in moves.iter().enumerate() {
        let who = if ply % 2 == 0 { &ann } else { &bob };
        let sent = send(&client, &path, who, mv, ply as u32).await;
        assert_eq!(sent.status, 200, "{mv} at {ply}: {}", sent.text);
        answer = sent.json;
    }
    // The answer to the last move already holds the pass the rules forced after it.
    let n = moves.len();
    assert_eq!(answer["ply"], json!(n + 1), "{answer}");
    assert_eq!(answer["moves"][n], "pass", "{answer}");
    let mover = if n % 2 == 1 { "ann" } else { "bob" };
    assert_eq!(
        answer["to_move"], mover,
        "the same player moves again: {answer}"
    );
    let clocks = &answer["clocks"]["remaining_ms"];
    assert!(clocks[0].as_u64().unwrap() > 0 && clocks[1].as_u64().unwrap() > 0);
    // Stored as a ply of its own, in words, and read back the same after the caches.
    let words = client.get(&path, &[]).await;
    assert_eq!(words.status, 200, "{}", words.text);
    let described = words.json["moves"][n]["description"].as_str().unwrap();
    assert!(described.ends_with("cannot swap: pass"), "{described}");
    // The one who passed cannot move now; the mover plays on at the ply after the pass.
    let passer = if n % 2 == 1 { &bob } else { &ann };
    client
        .post(&draft, &json!({"cells": []}), &auth(passer))
        .await
        .assert_error(403, "not_your_turn");
    server.stop().await.unwrap();
    db
}

each_database!(
    a_pass_the_rules_force_is_played_by_the_server_as_a_ply_of_its_own,
    forced_passes
);
