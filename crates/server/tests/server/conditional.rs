//! Conditional moves (issue 50) on both backends: a plan set while the opponent is to move,
//! checked by the rules; the opponent's move that matches a line, in any spelling, gets
//! exactly one reply in its own transaction (marked in the moves); a deviation clears the
//! plan; nobody else reads it; two instances taking the same move play the reply once.

use serde_json::{Value, json};
use swapboard_server::api::{GameView, MoveList};
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, game_between, generous, start,
};

/// Plays `text` at `ply` for the holder of `token`: the answer.
async fn play(
    client: &Client,
    id: &str,
    ply: u32,
    text: &str,
    token: &str,
) -> swapboard_testkit::Answer {
    client
        .post(
            &format!("/api/games/{id}/moves"),
            &json!({"move": text, "ply": ply}),
            &auth(token),
        )
        .await
}

/// The plan the holder of `token` keeps in game `id`.
async fn plan(client: &Client, id: &str, token: &str) -> Value {
    let answer = client
        .get(&format!("/api/games/{id}/conditional"), &auth(token))
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.json["lines"].clone()
}

/// Sets the plan of the holder of `token` in game `id`: the answer.
async fn set(client: &Client, id: &str, lines: Value, token: &str) -> swapboard_testkit::Answer {
    client
        .send(
            reqwest::Method::PUT,
            &format!("/api/games/{id}/conditional"),
            &[
                ("authorization", token),
                ("content-type", "application/json"),
            ],
            Some(&json!({"lines": lines}).to_string()),
        )
        .await
}

each_database!(
    a_matching_move_gets_one_reply_and_a_deviation_clears_the_plan,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let ann = bearer(&client, "ann").await;
        let bob = bearer(&client, "bob").await;
        let carl = bearer(&client, "carl").await;
        let id = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
        // ann's own turn: nothing to plan yet.
        set(&client, &id, json!([["a1", "e5"]]), &ann)
            .await
            .assert_error(409, "conflict");
        assert_eq!(play(&client, &id, 0, "c3", &ann).await.status, 200);

        // Refusals name what is wrong; a spectator neither sets nor reads a plan.
        let illegal = set(&client, &id, json!([["a1", "a1"]]), &ann).await;
        illegal.assert_error(400, "bad_request");
        assert!(
            illegal.message().contains("line 1, move 2"),
            "{}",
            illegal.text
        );
        set(&client, &id, json!([["a1"]]), &ann)
            .await
            .assert_error(400, "bad_request");
        set(&client, &id, json!([["a1", "e5"], ["a1", "e4"]]), &ann)
            .await
            .assert_error(400, "bad_request");
        let many: Vec<Value> = (0..33).map(|_| json!(["a1", "e5"])).collect();
        set(&client, &id, json!(many), &ann)
            .await
            .assert_error(400, "bad_request");
        set(&client, &id, json!([["a1", "e5"]]), &carl)
            .await
            .assert_error(403, "forbidden");
        client
            .get(&format!("/api/games/{id}/conditional"), &auth(&carl))
            .await
            .assert_error(403, "forbidden");

        let lines = json!([
            ["a1", "e5", "a2", "e4"],
            ["a1", "e5", "b4", "d4"],
            ["d2", "b4"]
        ]);
        let kept = set(&client, &id, lines.clone(), &ann).await;
        assert_eq!(kept.status, 200, "{}", kept.text);
        assert_eq!(kept.json["lines"], lines);
        assert_eq!(plan(&client, &id, &ann).await, lines);
        // bob's own plan is empty: he never reads ann's.
        assert_eq!(plan(&client, &id, &bob).await, json!([]));

        // bob plays a1 (in capitals): ann's e5 comes in the same answer.
        let moved = play(&client, &id, 1, "A1", &bob).await;
        assert_eq!(moved.status, 200, "{}", moved.text);
        let game: GameView = moved.read();
        assert_eq!(game.ply, 3, "bob's move and ann's reply");
        let moves: MoveList = client
            .get(&format!("/api/games/{id}/moves"), &[])
            .await
            .read();
        let marked: Vec<(String, bool)> = moves
            .moves
            .iter()
            .map(|m| (m.text.clone(), m.by_condition))
            .collect();
        assert_eq!(
            marked,
            [("c3", false), ("a1", false), ("e5", true)].map(|(t, b)| (t.to_owned(), b))
        );
        assert_eq!(
            plan(&client, &id, &ann).await,
            json!([["a2", "e4"], ["b4", "d4"]])
        );

        // bob deviates (c1): no reply, and the plan is gone.
        let deviated = play(&client, &id, 3, "c1", &bob).await;
        assert_eq!(deviated.status, 200, "{}", deviated.text);
        assert_eq!(deviated.read::<GameView>().ply, 4);
        assert_eq!(plan(&client, &id, &ann).await, json!([]));
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    two_instances_taking_one_move_play_the_reply_once,
    |db: TestDb| async move {
        let one = start(&db, generous()).await;
        let two = start(&db, generous()).await;
        let (first, second) = (Client::new(&one), Client::new(&two));
        let ann = bearer(&first, "ann").await;
        let bob = bearer(&first, "bob").await;
        let id = game_between(&first, "flipstop", 5, &ann, (&bob, "bob")).await;
        assert_eq!(play(&first, &id, 0, "c3", &ann).await.status, 200);
        let kept = set(&second, &id, json!([["a1", "e5"]]), &ann).await;
        assert_eq!(kept.status, 200, "{}", kept.text);
        // The same move sent to both instances at once: one plays it with the reply, the
        // other finds it played (the same move again) or the game moved on.
        let (a, b) = tokio::join!(
            play(&first, &id, 1, "a1", &bob),
            play(&second, &id, 1, "a1", &bob)
        );
        let statuses = [a.status.as_u16(), b.status.as_u16()];
        assert!(
            statuses.contains(&200),
            "{statuses:?}: {} {}",
            a.text,
            b.text
        );
        assert!(
            statuses.iter().all(|s| [200, 409].contains(s)),
            "{statuses:?}"
        );
        let moves: MoveList = first
            .get(&format!("/api/games/{id}/moves"), &[])
            .await
            .read();
        let texts: Vec<&str> = moves.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["c3", "a1", "e5"]);
        assert_eq!(plan(&second, &id, &ann).await, json!([]));
        one.stop().await.unwrap();
        two.stop().await.unwrap();
        db
    }
);
