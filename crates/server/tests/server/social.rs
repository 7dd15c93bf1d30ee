//! Invite links, rematches and the per-account (and analysis) rate limits, over real HTTP
//! and real WebSockets on a real SQLite file and a real PostgreSQL database.

use std::time::Duration;

use serde_json::{Value, json};
use swapboard_play::AnyPosition;
use swapboard_server::{Limits, Rate};
use swapboard_testkit::{
    Client, TestDb, auth, bearer, connect, each_database, generous, next_message, start, until,
};

/// The first legal move of a game as the API shows it.
fn a_move(game: &Value) -> String {
    let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
    position.legal_moves(1_000).unwrap().remove(0)
}

async fn invite_links(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cat = bearer(&client, "cat").await;

    let created = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "size": 5, "opponent": "invite", "colour": "first"}),
            &auth(&ann),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    let invite = created.json["invite"].as_str().unwrap().to_owned();
    assert_eq!(invite.len(), 64, "32 random bytes in hex: {invite}");
    assert!(invite.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(created.json["status"], "waiting");
    assert_eq!(
        created.json["players"][1],
        json!({"name": null, "colour": "B", "seated": false})
    );
    assert_eq!(created.json["rematch"], Value::Null);

    // The creator sees the secret again; nobody else does, nor the socket.
    let path = format!("/api/games/{id}");
    let mine = client.get(&path, &auth(&ann)).await;
    assert_eq!(mine.json["invite"], invite.as_str(), "{}", mine.text);
    for headers in [&auth(&bob)[..], &[]] {
        let other = client.get(&path, headers).await;
        assert_eq!(other.status, 200, "{}", other.text);
        assert_eq!(other.json["invite"], Value::Null, "{}", other.text);
    }
    // A bearer token that acts for nobody is told so, rather than shown the public view.
    let stale = client.get(&path, &auth("Bearer not-a-token")).await;
    assert_eq!(stale.status, 401, "{}", stale.text);
    assert!(!stale.text.contains(&invite));
    let mut socket = connect(&client, &format!("/api/games/{id}/socket")).await;
    let greeting = next_message(&mut socket, Duration::from_secs(10)).await;
    assert_eq!(greeting["game"]["id"], id.as_str());
    assert!(!greeting.to_string().contains(&invite));

    // Not in the lobby, unlike an open challenge.
    let open = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "opponent": "open"}),
            &auth(&ann),
        )
        .await;
    let lobby = client.get("/api/lobby", &[]).await;
    let listed: Vec<&str> = lobby.json["open"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [open.json["id"].as_str().unwrap()]);
    assert!(!lobby.text.contains(&invite));

    // Joined with the secret only.
    let join = format!("/api/games/{id}/join");
    client
        .send(reqwest::Method::POST, &join, &auth(&bob), None)
        .await
        .assert_error(403, "forbidden");
    client
        .post(&join, &json!({}), &auth(&bob))
        .await
        .assert_error(403, "forbidden");
    let mut wrong = invite.clone().into_bytes();
    wrong[0] = if wrong[0] == b'0' { b'1' } else { b'0' };
    let wrong = String::from_utf8(wrong).unwrap();
    client
        .post(&join, &json!({"invite": wrong}), &auth(&bob))
        .await
        .assert_error(403, "forbidden");
    client
        .post(&join, &json!({"invite": 5}), &auth(&bob))
        .await
        .assert_error(400, "bad_request");
    client
        .post(&join, &json!({"invite": invite}), &auth(&ann))
        .await
        .assert_error(409, "conflict");
    let joined = client
        .post(&join, &json!({"invite": invite}), &auth(&bob))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.json["status"], "playing");
    assert_eq!(joined.json["players"][1]["name"], "bob");
    assert_eq!(joined.json["invite"], Value::Null);
    let started = until(&mut socket, Duration::from_secs(10), |g| {
        g["status"] == "playing"
    })
    .await;
    assert!(!started.to_string().contains(&invite));
    // The link has done its work: forgotten, and the seat is taken.
    assert_eq!(
        client.get(&path, &auth(&ann)).await.json["invite"],
        Value::Null
    );
    client
        .post(&join, &json!({"invite": invite}), &auth(&cat))
        .await
        .assert_error(409, "conflict");
    // A game being played is listed in the lobby as any other.
    let lobby = client.get("/api/lobby", &[]).await;
    assert!(
        lobby.json["playing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    );
    server.stop().await.unwrap();
    db
}

each_database!(an_invite_game_is_joined_by_its_link_only, invite_links);

async fn rematches(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cat = bearer(&client, "cat").await;

    let first = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "size": 5, "opponent": "user:bob", "colour": "first",
                    "clock": {"days_per_move": 2}}),
            &auth(&ann),
        )
        .await;
    let id = first.json["id"].as_str().unwrap().to_owned();
    let rematch = format!("/api/games/{id}/rematch");
    client
        .post(&rematch, &json!({}), &auth(&ann))
        .await
        .assert_error(409, "conflict");
    let game = client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(&bob))
        .await
        .json;
    let moved = client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": a_move(&game), "ply": 0}),
            &auth(&ann),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    client
        .post(&rematch, &json!({}), &auth(&ann))
        .await
        .assert_error(409, "conflict");
    let resigned = client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&bob))
        .await;
    assert_eq!(resigned.json["status"], "finished");
    assert_eq!(resigned.json["rematch"], Value::Null);

    client
        .post(&rematch, &json!({}), &auth(&cat))
        .await
        .assert_error(403, "forbidden");
    client
        .post(&rematch, &json!({}), &[])
        .await
        .assert_error(401, "unauthenticated");
    client
        .post("/api/games/nosuchgame/rematch", &json!({}), &auth(&ann))
        .await
        .assert_error(404, "not_found");

    // Ann offers it; her opponent's page hears of it on the finished game's socket.
    let mut socket = connect(&client, &format!("/api/games/{id}/socket?since=1")).await;
    let offered = client.post(&rematch, &json!({}), &auth(&ann)).await;
    assert_eq!(offered.status, 201, "{}", offered.text);
    let new_id = offered.json["id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, id);
    assert_eq!(offered.json["game"], "flipstop");
    assert_eq!(offered.json["size"], 5);
    assert_eq!(offered.json["clock"], json!({"days_per_move": 2}));
    assert_eq!(offered.json["status"], "waiting");
    // The colours swapped: bob plays first now, his seat kept for him; the challenge shows
    // its challenger's rating (the first game was aborted: a new player's).
    assert_eq!(
        offered.json["players"],
        json!([{"name": "bob", "colour": "R", "seated": false},
               {"name": "ann", "colour": "B", "seated": true,
                "rating": {"before": 1500.0, "change": null, "provisional": true}}])
    );
    let heard = until(&mut socket, Duration::from_secs(10), |g| {
        g["rematch"] == new_id.as_str()
    })
    .await;
    assert_eq!(heard["type"], "state");
    let path = format!("/api/games/{id}");
    assert_eq!(
        client.get(&path, &[]).await.json["rematch"],
        new_id.as_str()
    );

    // Asked again: the same game, still waiting for bob.
    let again = client.post(&rematch, &json!({}), &auth(&ann)).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json["id"], new_id.as_str());
    assert_eq!(again.json["status"], "waiting");
    // Bob's call takes his seat, and the game starts with its clock.
    let taken = client.post(&rematch, &json!({}), &auth(&bob)).await;
    assert_eq!(taken.status, 200, "{}", taken.text);
    assert_eq!(taken.json["id"], new_id.as_str());
    assert_eq!(taken.json["status"], "playing");
    assert_eq!(taken.json["to_move"], "bob");
    assert!(
        taken.json["clocks"]["deadline_ms"].is_u64(),
        "{}",
        taken.text
    );
    let once_more = client.post(&rematch, &json!({}), &auth(&bob)).await;
    assert_eq!(once_more.status, 200);
    assert_eq!(once_more.json["id"], new_id.as_str());
    client
        .post(&rematch, &json!({}), &auth(&cat))
        .await
        .assert_error(403, "forbidden");

    // Against the AI the rematch starts at once, colours swapped.
    let ai = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "ai:1", "colour": "first"}),
            &auth(&ann),
        )
        .await;
    let ai_id = ai.json["id"].as_str().unwrap();
    client
        .post(
            &format!("/api/games/{ai_id}/resign"),
            &json!({}),
            &auth(&ann),
        )
        .await;
    let offered = client
        .post(
            &format!("/api/games/{ai_id}/rematch"),
            &json!({}),
            &auth(&ann),
        )
        .await;
    assert_eq!(offered.status, 201, "{}", offered.text);
    assert_eq!(offered.json["status"], "playing");
    assert_eq!(offered.json["players"][0]["name"], "ai:1");
    assert_eq!(offered.json["players"][1]["name"], "ann");
    server.stop().await.unwrap();
    db
}

each_database!(
    a_rematch_is_offered_once_and_taken_by_the_other_player,
    rematches
);

async fn account_limits(db: TestDb) -> TestDb {
    let minute = Duration::from_secs(60);
    let limits = Limits {
        moves_per_account: Rate::new(3, minute),
        challenges_per_account: Rate::new(2, minute),
        analyses_per_address: Rate::new(1, minute),
        ..generous()
    };
    let server = start(&db, limits).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;

    // 6x6: the analysis below is one search, without the solver that settles 5x5 boards.
    let challenge =
        json!({"game": "flipstop", "size": 6, "opponent": "user:bob", "colour": "first"});
    let game = client.post("/api/games", &challenge, &auth(&ann)).await;
    assert_eq!(game.status, 201, "{}", game.text);
    let id = game.json["id"].as_str().unwrap().to_owned();
    assert_eq!(
        client
            .post("/api/games", &challenge, &auth(&ann))
            .await
            .status,
        201
    );
    let refused = client.post("/api/games", &challenge, &auth(&ann)).await;
    refused.assert_error(429, "rate_limited");
    let retry: u64 = refused.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=30).contains(&retry), "{retry}");
    // Per account: bob, from the same address, has his own.
    let mut game = client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(&bob))
        .await
        .json;
    assert_eq!(game["status"], "playing");

    // Three moves each, then ann's fourth waits.
    let moves = format!("/api/games/{id}/moves");
    for ply in 0..6 {
        let mover = if ply % 2 == 0 { &ann } else { &bob };
        let played = client
            .post(
                &moves,
                &json!({"move": a_move(&game), "ply": ply}),
                &auth(mover),
            )
            .await;
        assert_eq!(played.status, 200, "{}", played.text);
        game = played.json;
    }
    let limited = client
        .post(
            &moves,
            &json!({"move": a_move(&game), "ply": 6}),
            &auth(&ann),
        )
        .await;
    limited.assert_error(429, "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
    // Refused before it was looked at: the game is where it was.
    assert_eq!(
        client.get(&format!("/api/games/{id}"), &[]).await.json["ply"],
        6
    );

    // One analysis a minute from this address: the second waits, and so does a review; the
    // first, stored, is answered again without counting.
    client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&ann))
        .await;
    let analysis = format!("/api/games/{id}/analysis?level=1");
    let first = client.get(&analysis, &[]).await;
    assert_eq!(first.status, 200, "{}", first.text);
    let again = client.get(&analysis, &[]).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json, first.json);
    client
        .get(&format!("/api/games/{id}/analysis?level=2"), &[])
        .await
        .assert_error(429, "rate_limited");
    client
        .get(&format!("/api/games/{id}/review"), &[])
        .await
        .assert_error(429, "rate_limited");
    server.stop().await.unwrap();
    db
}

each_database!(moves_and_challenges_are_limited_per_account, account_limits);
