//! Puzzles over HTTP (issue 25): the shipped puzzles seeded on the first start, listed by
//! game and difficulty without their solutions, the daily puzzle, attempts judged with the
//! line or the refutation and recorded per account, a stored puzzle brought up to date by a
//! newer file; and the stateless positions' builder and moves the puzzle pages use.

use serde_json::json;
use swapboard_play::AnyPosition;
use swapboard_play::puzzles::{self, Puzzle};
use swapboard_testkit::{Client, TestDb, auth, bearer, each_database, execute, generous, start};

/// The shipped puzzles, as the server seeds them.
fn shipped() -> Vec<Puzzle> {
    puzzles::read_lines(puzzles::SHIPPED).unwrap()
}

/// A legal move of `position` that is not the puzzle's solution and leads elsewhere.
fn a_wrong_move(puzzle: &Puzzle) -> String {
    let position: AnyPosition = puzzle.position.parse().unwrap();
    position
        .legal_moves(10_000)
        .unwrap()
        .into_iter()
        .find(|mv| {
            puzzles::judge(puzzle, mv, 4 * puzzles::DEFAULT_BUDGET).is_ok_and(|a| !a.correct)
        })
        .expect("a wrong move")
}

async fn puzzles_served(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let shipped = shipped();

    // Listed by game, easiest first, without solutions; every shipped game is there.
    let all = client.get("/api/puzzles?limit=200", &[]).await;
    assert_eq!(all.status, 200, "{}", all.text);
    let listed = all.json["puzzles"].as_array().unwrap();
    assert_eq!(listed.len(), shipped.len().min(200));
    for game in ["swaptimum", "flipstop"] {
        let answer = client
            .get(&format!("/api/puzzles?game={game}&limit=5"), &[])
            .await;
        let list = answer.json["puzzles"].as_array().unwrap();
        let expected = shipped.iter().filter(|p| p.game.as_str() == game).count();
        assert_eq!(list.len(), expected.min(5), "{game}");
        let difficulties: Vec<u64> = list
            .iter()
            .map(|p| p["difficulty"].as_u64().unwrap())
            .collect();
        assert!(
            difficulties.windows(2).all(|w| w[0] <= w[1]),
            "{difficulties:?}"
        );
        for p in list {
            assert_eq!(p["game"], game);
            assert!(
                p.get("solution").is_none() && p.get("line").is_none(),
                "{p}"
            );
            assert!(p["task"].as_str().unwrap().contains("to move"), "{p}");
            assert_eq!(p["board"]["size"], p["size"]);
        }
    }
    let hard = client
        .get("/api/puzzles?min_difficulty=1500&limit=200", &[])
        .await;
    for p in hard.json["puzzles"].as_array().unwrap() {
        assert!(p["difficulty"].as_u64().unwrap() >= 1500);
    }
    client
        .get("/api/puzzles?game=chess", &[])
        .await
        .assert_error(400, "bad_request");
    client
        .get("/api/puzzles?limit=0", &[])
        .await
        .assert_error(400, "bad_request");

    // The daily puzzle: one of them, the same twice.
    let daily = client.get("/api/puzzles/daily", &[]).await;
    assert_eq!(daily.status, 200, "{}", daily.text);
    assert_eq!(client.get("/api/puzzles/daily", &[]).await.json, daily.json);
    let id = daily.json["id"].as_str().unwrap();
    assert!(shipped.iter().any(|p| p.id == id));

    // A Swaptimum puzzle solved by a guest: the solution and its proven line.
    let puzzle = shipped
        .iter()
        .find(|p| p.game.as_str() == "swaptimum" && p.line.len() > 1)
        .expect("a Swaptimum puzzle of more than one move");
    let path = format!("/api/puzzles/{}/attempt", puzzle.id);
    let shown = client
        .get(&format!("/api/puzzles/{}", puzzle.id), &[])
        .await;
    assert_eq!(shown.json["position"], puzzle.position.as_str());
    let right = client
        .post(&path, &json!({"move": puzzle.solution}), &[])
        .await;
    assert_eq!(right.status, 200, "{}", right.text);
    assert_eq!(right.json["correct"], true);
    assert_eq!(right.json["solution"], puzzle.solution.as_str());
    assert_eq!(right.json["line"], json!(puzzle.line));
    assert_eq!(
        right.json["boards"].as_array().unwrap().len(),
        puzzle.line.len()
    );
    assert_eq!(right.json["record"], serde_json::Value::Null);

    // A wrong move: the refutation and why, and it counts against an account's streak.
    let wrong_move = a_wrong_move(puzzle);
    let token = bearer(&client, "solver").await;
    let signed = auth(&token);
    let wrong = client
        .post(&path, &json!({"move": wrong_move}), &signed)
        .await;
    assert_eq!(wrong.status, 200, "{}", wrong.text);
    assert_eq!(wrong.json["correct"], false);
    assert_eq!(wrong.json["line"][0], wrong_move.as_str());
    assert!(
        wrong.json["why"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{wrong_move} does not win")),
        "{}",
        wrong.text
    );
    assert_eq!(
        wrong.json["record"],
        json!({"solved": 0, "failed": 1, "streak": 0, "best_streak": 0})
    );
    // Only the first attempt at a puzzle counts.
    let again = client
        .post(&path, &json!({"move": puzzle.solution}), &signed)
        .await;
    assert_eq!(again.json["correct"], true);
    assert_eq!(again.json["record"]["failed"], 1);
    assert_eq!(again.json["record"]["solved"], 0);
    // Two others solved: a streak of two.
    for other in shipped.iter().filter(|p| p.id != puzzle.id).take(2) {
        let answer = client
            .post(
                &format!("/api/puzzles/{}/attempt", other.id),
                &json!({"move": other.solution}),
                &signed,
            )
            .await;
        assert_eq!(answer.json["correct"], true, "{}", answer.text);
    }
    let last = client
        .post(&path, &json!({"move": puzzle.solution}), &signed)
        .await;
    assert_eq!(
        last.json["record"],
        json!({"solved": 2, "failed": 1, "streak": 2, "best_streak": 2})
    );

    // Bad attempts: an illegal move with the rule's code, an unreadable one, no puzzle.
    let position: AnyPosition = puzzle.position.parse().unwrap();
    let view = position.view();
    let taken = view.cells.iter().position(Option::is_some).unwrap();
    let cell = format!(
        "{}{}",
        char::from(b'a' + (taken % puzzle.size) as u8),
        taken / puzzle.size + 1
    );
    client
        .post(&path, &json!({"move": cell}), &[])
        .await
        .assert_error(422, "illegal_move");
    client
        .post(&path, &json!({"move": "zz99"}), &[])
        .await
        .assert_error(400, "bad_request");
    client
        .post("/api/puzzles/nope/attempt", &json!({"move": "a1"}), &[])
        .await
        .assert_error(404, "not_found");

    // A restart seeds nothing twice, and brings a puzzle stored otherwise than the file has
    // it (an older binary's line, difficulty and theme) up to date.
    let count = client.get("/api/puzzles?limit=200", &[]).await.json["puzzles"]
        .as_array()
        .unwrap()
        .len();
    server.stop().await.unwrap();
    let finish = shipped
        .iter()
        .find(|p| p.theme == puzzles::Theme::Finish && p.line.len() == 1)
        .expect("a finish");
    execute(
        &db,
        &format!(
            "UPDATE puzzles SET line = 'a1 b1 c1', difficulty = 1, theme = 'combination' \
             WHERE id = '{}'",
            finish.id
        ),
    )
    .await;
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let after = client.get("/api/puzzles?limit=200", &[]).await;
    assert_eq!(after.json["puzzles"].as_array().unwrap().len(), count);
    let shown = client
        .get(&format!("/api/puzzles/{}", finish.id), &[])
        .await;
    assert_eq!(shown.json["theme"], "finish", "{}", shown.text);
    assert_eq!(
        shown.json["difficulty"], finish.difficulty,
        "{}",
        shown.text
    );
    let solved = client
        .post(
            &format!("/api/puzzles/{}/attempt", finish.id),
            &json!({"move": finish.solution}),
            &[],
        )
        .await;
    assert_eq!(solved.json["line"], json!(finish.line), "{}", solved.text);
    server.stop().await.unwrap();
    db
}

each_database!(puzzles_are_seeded_listed_and_judged, puzzles_served);

async fn positions_judged(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let start_text = AnyPosition::start(swapboard_play::GameId::Swaptimum, 5)
        .unwrap()
        .to_string();
    let draft = client
        .post(
            "/api/positions/draft",
            &json!({"position": start_text, "cells": ["c3"]}),
            &[],
        )
        .await;
    assert_eq!(draft.status, 200, "{}", draft.text);
    assert_eq!(draft.json["verdict"], "complete");
    assert_eq!(draft.json["move"], "c3");
    let played = client
        .post(
            "/api/positions/moves",
            &json!({"position": start_text, "move": "C3"}),
            &[],
        )
        .await;
    assert_eq!(played.status, 200, "{}", played.text);
    assert_eq!(played.json["move"], "c3");
    assert_eq!(played.json["ending"], serde_json::Value::Null);
    let after = played.json["position"].as_str().unwrap();
    assert_ne!(after, start_text);
    let taken = client
        .post(
            "/api/positions/moves",
            &json!({"position": after, "move": "c3"}),
            &[],
        )
        .await;
    taken.assert_error(422, "illegal_move");
    client
        .post(
            "/api/positions/draft",
            &json!({"position": "chess 8", "cells": []}),
            &[],
        )
        .await
        .assert_error(400, "bad_request");
    server.stop().await.unwrap();
    db
}

each_database!(positions_are_judged_without_a_game, positions_judged);

/// The games `swapboard puzzles generate --database` examines: a server's finished games of
/// one game and size with their moves, not those called off nor of another size.
async fn finished_games_read(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let mut expected = Vec::new();
    for (size, moves) in [(5, ["c3", "a1"]), (5, ["b2", "e5"]), (6, ["c3", "a1"])] {
        let body =
            json!({"game": "flipstop", "size": size, "opponent": "user:bob", "colour": "first"});
        let id = client.post("/api/games", &body, &auth(&ann)).await.json["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let joined = client
            .post(&format!("/api/games/{id}/join"), &json!({}), &auth(&bob))
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
        for (ply, (mv, who)) in moves.iter().zip([&ann, &bob]).enumerate() {
            let path = format!("/api/games/{id}/moves");
            let played = client
                .post(&path, &json!({"move": mv, "ply": ply}), &auth(who))
                .await;
            assert_eq!(played.status, 200, "{}", played.text);
        }
        let resigned = client
            .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&bob))
            .await;
        assert_eq!(resigned.status, 200, "{}", resigned.text);
        if size == 5 {
            expected.push(moves.map(str::to_owned).to_vec());
        }
    }
    // Called off before its second move: nothing to learn from.
    let body = json!({"game": "flipstop", "size": 5, "opponent": "user:bob", "colour": "first"});
    let id = client.post("/api/games", &body, &auth(&ann)).await.json["id"]
        .as_str()
        .unwrap()
        .to_owned();
    client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(&bob))
        .await;
    client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&ann))
        .await;
    server.stop().await.unwrap();

    let url = db.url.clone();
    let read = tokio::task::spawn_blocking(move || {
        swapboard_server::finished_games(Some(&url), swapboard_play::GameId::Flipstop, 5, 10)
    })
    .await
    .unwrap()
    .unwrap();
    let mut read = read;
    read.sort();
    expected.sort();
    assert_eq!(read, expected);
    let url = db.url.clone();
    let latest = tokio::task::spawn_blocking(move || {
        swapboard_server::finished_games(Some(&url), swapboard_play::GameId::Flipstop, 5, 1)
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(latest.len(), 1);
    db
}

each_database!(
    a_servers_finished_games_are_read_for_puzzles,
    finished_games_read
);
