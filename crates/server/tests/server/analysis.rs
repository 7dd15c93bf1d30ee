//! The AI's analysis of finished games and their reviews, over real HTTP on a real SQLite
//! file and a real PostgreSQL database.

use serde_json::{Value, json};
use swapboard_play::AnyPosition;
use swapboard_testkit::{Client, TestDb, auth, bearer, each_database, generous, reviewed, start};

async fn analyses(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let created = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 6, "opponent": "user:bob", "colour": "first"}),
            &auth(&ann),
        )
        .await;
    let id = created.json["id"].as_str().unwrap().to_owned();
    let analysis = format!("/api/games/{id}/analysis");
    let review = format!("/api/games/{id}/review");
    // Waiting, then being played: nobody consults the AI.
    client
        .get(&analysis, &[])
        .await
        .assert_error(409, "conflict");
    let mut game = client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(&bob))
        .await
        .json;
    let mut played = Vec::new();
    for ply in 0..6u32 {
        let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
        let moves = position.legal_moves(10_000).unwrap();
        // Different moves each game, the same in every run.
        let mv = moves[(ply as usize * 7) % moves.len()].clone();
        let mover = if ply % 2 == 0 { &ann } else { &bob };
        let answer = client
            .post(
                &format!("/api/games/{id}/moves"),
                &json!({"move": mv, "ply": ply}),
                &auth(mover),
            )
            .await;
        assert_eq!(answer.status, 200, "{}", answer.text);
        game = answer.json;
        played.push(mv);
    }
    client
        .get(&analysis, &[])
        .await
        .assert_error(409, "conflict");
    client.get(&review, &[]).await.assert_error(409, "conflict");
    client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&bob))
        .await;

    // Any position: the AI's best moves, legal, best first, for the player to move.
    let origin: AnyPosition = created.json["position"].as_str().unwrap().parse().unwrap();
    let at_start = client.get(&format!("{analysis}?ply=0&level=4"), &[]).await;
    assert_eq!(at_start.status, 200, "{}", at_start.text);
    assert_eq!(at_start.json["ply"], 0);
    assert_eq!(at_start.json["to_move"], "R");
    assert!(at_start.json["nodes"].as_u64().unwrap() > 0);
    let lines = at_start.json["lines"].as_array().unwrap();
    assert!((1..=5).contains(&lines.len()), "{}", at_start.text);
    for line in lines {
        let mv = line["move"].as_str().unwrap();
        origin.clone().play_text(mv).unwrap();
        assert_eq!(line["pv"][0], mv);
        let rate = line["win_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{line}");
        assert!(line["visits"].as_u64().unwrap() > 0);
        assert!(matches!(
            line["proven"].as_str(),
            None | Some("win" | "loss" | "draw")
        ));
    }
    let last = client.get(&analysis, &[]).await;
    assert_eq!(last.status, 200, "{}", last.text);
    assert_eq!(last.json["ply"], 6);
    for bad in ["?ply=7", "?level=0", "?level=9", "?ply=-1", "?depth=3"] {
        client
            .get(&format!("{analysis}{bad}"), &[])
            .await
            .assert_error(400, "bad_request");
    }
    client
        .get("/api/games/nosuchgame/analysis", &[])
        .await
        .assert_error(404, "not_found");

    // The review: started by the first request, then done, every move judged.
    let first = client.get(&review, &[]).await;
    assert_eq!(first.status, 202, "{}", first.text);
    assert_eq!(first.json["total"], 7);
    let done = reviewed(&client, &id).await;
    assert_eq!(done["status"], "done");
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    for (k, entry) in moves.iter().enumerate() {
        assert_eq!(entry["ply"], k + 1);
        assert_eq!(entry["move"], played[k].as_str());
        assert_eq!(entry["colour"], if k % 2 == 0 { "R" } else { "B" });
        let before = entry["win_before"].as_f64().unwrap();
        let after = entry["win_after"].as_f64().unwrap();
        let loss = entry["loss"].as_f64().unwrap();
        for chance in [before, after, loss] {
            assert!((0.0..=1.0).contains(&chance), "{entry}");
        }
        assert!(
            (loss - (before - after).max(0.0)).abs() <= 0.0015,
            "{entry}"
        );
        if entry["basis"] == "proven" {
            // A proven judgement is a blunder exactly when a proven win became a proven
            // loss, and none otherwise.
            let blunder = entry["judgement"] == "blunder";
            assert!(blunder || entry["judgement"].is_null(), "{entry}");
            assert!(!blunder || (before, after) == (1.0, 0.0), "{entry}");
        } else {
            assert_eq!(entry["basis"], "estimated", "{entry}");
            // The AI's preferred move is judged like any other.
            let expected = if loss >= 0.3 {
                Some("blunder")
            } else if loss >= 0.2 {
                Some("mistake")
            } else if loss >= 0.1 {
                Some("inaccuracy")
            } else {
                None
            };
            // The loss is rounded to three decimals: a loss at a threshold may fall either
            // side.
            let near = [0.1, 0.2, 0.3].iter().any(|t| (loss - t).abs() < 0.001);
            if !near {
                assert_eq!(entry["judgement"].as_str(), expected, "{entry}");
            }
        }
        assert!(entry["best"].is_string(), "{entry}");
        // The line the AI expected from the position before the move starts with its best move.
        assert_eq!(entry["best_line"][0], entry["best"], "{entry}");
    }

    // On a 4x4 board Blue's fourth-ply a1 throws away a proven win: a proven blunder, all
    // of it lost.
    let small = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 4, "opponent": "user:bob", "colour": "first"}),
            &auth(&ann),
        )
        .await;
    let small = small.json["id"].as_str().unwrap().to_owned();
    client
        .post(&format!("/api/games/{small}/join"), &json!({}), &auth(&bob))
        .await;
    for (ply, mv) in ["b3", "b2", "c2", "a1"].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &ann } else { &bob };
        let answer = client
            .post(
                &format!("/api/games/{small}/moves"),
                &json!({"move": mv, "ply": ply}),
                &auth(mover),
            )
            .await;
        assert_eq!(answer.status, 200, "{}", answer.text);
    }
    client
        .post(
            &format!("/api/games/{small}/resign"),
            &json!({}),
            &auth(&ann),
        )
        .await;
    let thrown = reviewed(&client, &small).await;
    let blunder = &thrown["moves"][3];
    assert_eq!(blunder["move"], "a1", "{thrown}");
    assert_eq!(blunder["colour"], "B");
    assert_eq!(blunder["win_before"], 1.0, "{thrown}");
    assert_eq!(blunder["win_after"], 0.0, "{thrown}");
    assert_eq!(blunder["judgement"], "blunder", "{thrown}");
    assert_eq!(blunder["basis"], "proven", "{thrown}");
    assert_ne!(blunder["best"], "a1");
    // Red's c2 was played in a proven-lost position (Blue was winning until a1): not judged.
    let lost = &thrown["moves"][2];
    assert_eq!(lost["judgement"], Value::Null, "{thrown}");
    assert_eq!(lost["basis"], "proven", "{thrown}");
    // The analysis answers proven lines first: Blue to move before a1 has a proven win.
    let won = client
        .get(&format!("/api/games/{small}/analysis?ply=3"), &[])
        .await;
    assert_eq!(won.json["proven"], "win", "{}", won.text);
    assert_eq!(won.json["lines"][0]["proven"], "win", "{}", won.text);
    assert_eq!(won.json["lines"][0]["win_rate"], 1.0, "{}", won.text);
    server.stop().await.unwrap();

    // Stored once: another server on the database answers it at once.
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let again = client.get(&review, &[]).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json, done);
    server.stop().await.unwrap();
    db
}

each_database!(finished_games_are_analysed_and_reviewed_once, analyses);
