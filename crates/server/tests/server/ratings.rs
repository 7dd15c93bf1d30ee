//! Ratings over real HTTP on a real SQLite file and a real PostgreSQL database (issue 26): a
//! rated game changes both players' ratings as `swapboard_league` computes them, once, in
//! the transaction that ends it; aborted, AI and unrated games change nothing; the history,
//! the leaderboard's eligibility and a rerate's numbers.

use serde_json::{Value, json};
use sqlx::Connection as _;
use swapboard_league::glicko2::{Change, Outcome, Params, PlayerRating, rate_game};
use swapboard_play::AnyPosition;
use swapboard_server::store::Store;
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, game_between, game_made, generous, start,
};

const PARAMS: Params = Params::LICHESS;

/// Equal to within float printing and parsing (serde_json may miss the last bit).
fn close(answer: &Value, expected: f64) -> bool {
    answer
        .as_f64()
        .is_some_and(|got| (got - expected).abs() <= 1e-9 * expected.abs().max(1.0))
}

/// Plays the first two moves of a Flipstop game (so that it can no longer be aborted).
async fn two_moves(client: &Client, id: &str, first: &str, second: &str) {
    let moves = format!("/api/games/{id}/moves");
    let played = client
        .post(&moves, &json!({"move": "c3", "ply": 0}), &auth(first))
        .await;
    assert_eq!(played.status, 200, "{}", played.text);
    let position: AnyPosition = played.json["position"].as_str().unwrap().parse().unwrap();
    let reply = position.legal_moves(usize::MAX).unwrap()[0].clone();
    let replied = client
        .post(&moves, &json!({"move": reply, "ply": 1}), &auth(second))
        .await;
    assert_eq!(replied.status, 200, "{}", replied.text);
}

/// Plays a game to its end by the rules, each player to move playing its first legal move:
/// the winner's name (`null` for a draw).
async fn play_out(client: &Client, id: &str, players: [(&str, &str); 2]) -> Value {
    let moves = format!("/api/games/{id}/moves");
    let mut game = client.get(&format!("/api/games/{id}"), &[]).await.json;
    while game["status"] == "playing" {
        let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
        let text = position.legal_moves(usize::MAX).unwrap()[0].clone();
        let (_, mover) = players
            .into_iter()
            .find(|(name, _)| game["to_move"] == *name)
            .unwrap();
        let body = json!({"move": text, "ply": game["ply"]});
        let played = client.post(&moves, &body, &auth(mover)).await;
        assert_eq!(played.status, 200, "{}", played.text);
        game = played.json;
    }
    assert_eq!(game["result"]["termination"], "rules", "{game}");
    game["result"]["winner"].clone()
}

async fn resign(client: &Client, id: &str, who: &str) -> Value {
    let resigned = client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(who))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    resigned.json
}

async fn ratings(client: &Client, name: &str) -> Value {
    let account = client.get(&format!("/api/accounts/{name}"), &[]).await;
    assert_eq!(account.status, 200, "{}", account.text);
    assert_eq!(account.json["name"], name);
    account.json["ratings"].clone()
}

async fn history(client: &Client, name: &str) -> Vec<Value> {
    let answer = client
        .get(&format!("/api/accounts/{name}/ratings/flipstop"), &[])
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.json["points"].as_array().unwrap().clone()
}

/// The game view's rating of each player, and whether the game is rated.
async fn game_ratings(client: &Client, id: &str) -> (Value, [Value; 2]) {
    let game = client.get(&format!("/api/games/{id}"), &[]).await;
    assert_eq!(game.status, 200, "{}", game.text);
    let players = &game.json["players"];
    (
        game.json["rated"].clone(),
        [players[0]["rating"].clone(), players[1]["rating"].clone()],
    )
}

/// Checks the game view's and the history's record of a change against league's.
fn assert_change(shown: &Value, point: &Value, id: &str, change: &Change) {
    assert!(close(&shown["before"], change.before.rating), "{shown}");
    assert!(close(&shown["change"], change.delta()), "{shown}");
    assert_eq!(
        shown["provisional"],
        change.before.rd >= PARAMS.provisional_rd
    );
    assert_eq!(point["game_id"], id);
    assert!(
        close(&point["rating"], change.after.glicko.rating),
        "{point}"
    );
    assert!(close(&point["rd"], change.after.glicko.rd), "{point}");
}

/// The account's shown rating in Flipstop equals league's record shown now (RD grows by the
/// seconds since the game: a hundredth of a point at most here).
fn assert_record(shown: &Value, record: &PlayerRating) {
    assert!(close(&shown["rating"], record.glicko.rating), "{shown}");
    assert!(
        close(&shown["volatility"], record.glicko.volatility),
        "{shown}"
    );
    let rd = shown["rd"].as_f64().unwrap();
    assert!(
        (record.glicko.rd..record.glicko.rd + 0.01).contains(&rd),
        "{shown}"
    );
    assert_eq!(shown["games"], record.games);
    assert_eq!(shown["provisional"], rd >= PARAMS.provisional_rd);
}

fn at_seconds(point: &Value) -> i64 {
    point["at_ms"].as_i64().unwrap().div_euclid(1000)
}

async fn live_updates(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cat = bearer(&client, "cat").await;
    assert_eq!(ratings(&client, "ann").await, json!({}));

    // A rated game (the default between accounts) ended by resignation: bob wins.
    // While it is played, each player's rating now and no change: two new players' 1500,
    // provisional.
    let first = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let new_player = json!({"before": 1500.0, "change": null, "provisional": true});
    assert_eq!(
        game_ratings(&client, &first).await,
        (json!(true), [new_player.clone(), new_player.clone()])
    );
    two_moves(&client, &first, &ann, &bob).await;
    let ended = resign(&client, &first, &ann).await;
    assert_eq!(ended["result"]["winner"], "bob");
    let bob_points = history(&client, "bob").await;
    assert_eq!(bob_points.len(), 1);
    let at = at_seconds(&bob_points[0]);
    let new = PlayerRating::new(&PARAMS);
    let (ann_first, bob_first) = rate_game(&new, &new, Outcome::Loss, at, &PARAMS).unwrap();
    let (rated, shown) = game_ratings(&client, &first).await;
    assert_eq!(rated, true);
    assert!(shown[0]["change"].as_f64().unwrap() < 0.0);
    let ann_points = history(&client, "ann").await;
    assert_change(&shown[0], &ann_points[0], &first, &ann_first);
    assert_change(&shown[1], &bob_points[0], &first, &bob_first);
    assert_record(&ratings(&client, "ann").await["flipstop"], &ann_first.after);
    assert_record(&ratings(&client, "bob").await["flipstop"], &bob_first.after);

    // Ended once: resigning again is refused and rates nothing.
    client
        .post(
            &format!("/api/games/{first}/resign"),
            &json!({}),
            &auth(&bob),
        )
        .await
        .assert_error(409, "conflict");

    // Aborted (resigned before the second move): nothing changes.
    let aborted = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let ended = resign(&client, &aborted, &bob).await;
    assert_eq!(ended["result"]["termination"], "aborted");
    assert_eq!(
        game_ratings(&client, &aborted).await.1,
        [Value::Null, Value::Null]
    );

    // Unrated by choice: nothing changes, and the view says so.
    let body = json!({"game": "flipstop", "size": 5, "opponent": "user:bob",
                      "colour": "first", "rated": false});
    let created = client.post("/api/games", &body, &auth(&ann)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.json["rated"], false);
    let unrated = created.json["id"].as_str().unwrap().to_owned();
    let joined = client
        .post(
            &format!("/api/games/{unrated}/join"),
            &json!({}),
            &auth(&bob),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    two_moves(&client, &unrated, &ann, &bob).await;
    resign(&client, &unrated, &bob).await;
    assert_eq!(
        game_ratings(&client, &unrated).await,
        (json!(false), [Value::Null, Value::Null])
    );

    // Against the AI: asking for a rated game is refused with the field named; the default
    // is unrated, and its end changes nothing.
    let refused = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "size": 5, "opponent": "ai:1", "rated": true}),
            &auth(&ann),
        )
        .await;
    refused.assert_error(400, "bad_request");
    assert!(refused.message().starts_with("rated:"), "{}", refused.text);
    let created = client
        .post(
            "/api/games",
            &json!({"game": "flipstop", "size": 5, "opponent": "ai:1", "colour": "first"}),
            &auth(&ann),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.json["rated"], false);
    let against_ai = created.json["id"].as_str().unwrap().to_owned();
    let moves = format!("/api/games/{against_ai}/moves");
    let played = client
        .post(&moves, &json!({"move": "c3", "ply": 0}), &auth(&ann))
        .await;
    assert_eq!(played.status, 200, "{}", played.text);
    // The AI answers on its own; past the second move a resignation is a loss.
    let mut waited = 0;
    while client
        .get(&format!("/api/games/{against_ai}"), &[])
        .await
        .json["ply"]
        == 1
    {
        assert!(waited < 600, "the AI did not answer in 60 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        waited += 1;
    }
    let ended = resign(&client, &against_ai, &ann).await;
    assert_eq!(ended["result"]["termination"], "resigned");

    // None of those moved a rating: one point each, the same records.
    assert_eq!(history(&client, "ann").await.len(), 1);
    assert_eq!(history(&client, "bob").await.len(), 1);
    assert_record(&ratings(&client, "ann").await["flipstop"], &ann_first.after);
    assert_record(&ratings(&client, "bob").await["flipstop"], &bob_first.after);

    // A second rated game: cat (first) resigns after two moves and ann wins, rated from her
    // record after the first game.
    // While it is played, cat is a new player and ann shows her record now, unchanged by the
    // unrated, aborted and AI games.
    let second = game_between(&client, "flipstop", 5, &cat, (&ann, "ann")).await;
    two_moves(&client, &second, &cat, &ann).await;
    let (_, playing) = game_ratings(&client, &second).await;
    assert_eq!(playing[0], new_player);
    assert!(
        close(&playing[1]["before"], ann_first.after.glicko.rating),
        "{}",
        playing[1]
    );
    assert_eq!(playing[1]["change"], Value::Null);
    let ann_now = &ratings(&client, "ann").await["flipstop"];
    assert_eq!(playing[1]["provisional"], ann_now["provisional"]);
    resign(&client, &second, &cat).await;
    let ann_points = history(&client, "ann").await;
    assert_eq!(ann_points.len(), 2);
    assert_eq!(ann_points[0]["game_id"], first.as_str());
    let at = at_seconds(&ann_points[1]);
    let (cat_second, ann_second) =
        rate_game(&new, &ann_first.after, Outcome::Loss, at, &PARAMS).unwrap();
    let (_, shown) = game_ratings(&client, &second).await;
    assert!(shown[1]["change"].as_f64().unwrap() > 0.0);
    assert_change(
        &shown[0],
        &history(&client, "cat").await[0],
        &second,
        &cat_second,
    );
    assert_change(&shown[1], &ann_points[1], &second, &ann_second);
    assert_record(
        &ratings(&client, "ann").await["flipstop"],
        &ann_second.after,
    );

    // A third, played to its end by the rules (the move pipeline's end): bob first, cat
    // second, each from the record the games above left.
    let third = game_between(&client, "flipstop", 5, &bob, (&cat, "cat")).await;
    let winner = play_out(&client, &third, [("bob", &bob), ("cat", &cat)]).await;
    let outcome = match winner.as_str() {
        Some("bob") => Outcome::Win,
        Some(_) => Outcome::Loss,
        None => Outcome::Draw,
    };
    let bob_points = history(&client, "bob").await;
    let at = at_seconds(&bob_points[1]);
    let (bob_third, cat_third) =
        rate_game(&bob_first.after, &cat_second.after, outcome, at, &PARAMS).unwrap();
    let (_, shown) = game_ratings(&client, &third).await;
    assert_change(&shown[0], &bob_points[1], &third, &bob_third);
    assert_change(
        &shown[1],
        &history(&client, "cat").await[1],
        &third,
        &cat_third,
    );
    assert_record(&ratings(&client, "cat").await["flipstop"], &cat_third.after);

    client
        .get("/api/accounts/ann/ratings/chess", &[])
        .await
        .assert_error(400, "bad_request");
    client
        .get("/api/accounts/nobody", &[])
        .await
        .assert_error(404, "not_found");

    // Rerating from scratch gives the live numbers again, to the bit.
    let before: Vec<_> = [
        game_ratings(&client, &first).await,
        game_ratings(&client, &second).await,
        game_ratings(&client, &third).await,
    ]
    .into();
    let records = [
        ratings(&client, "ann").await["flipstop"]["rating"].clone(),
        ratings(&client, "bob").await["flipstop"]["rating"].clone(),
        ratings(&client, "cat").await["flipstop"]["rating"].clone(),
    ];
    let points = history(&client, "ann").await;
    server.stop().await.unwrap();
    let store = Store::open(&db.url).await.unwrap();
    assert_eq!(store.rerate().await.unwrap(), 3);
    store.close().await;
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let after: Vec<_> = [
        game_ratings(&client, &first).await,
        game_ratings(&client, &second).await,
        game_ratings(&client, &third).await,
    ]
    .into();
    assert_eq!(after, before);
    assert_eq!(
        [
            ratings(&client, "ann").await["flipstop"]["rating"].clone(),
            ratings(&client, "bob").await["flipstop"]["rating"].clone(),
            ratings(&client, "cat").await["flipstop"]["rating"].clone(),
        ],
        records
    );
    assert_eq!(history(&client, "ann").await, points);
    server.stop().await.unwrap();
    db
}

each_database!(
    rated_games_change_ratings_once_and_rerating_agrees,
    live_updates
);

/// Puts a record straight into the database: the leaderboard's cases need RDs and dates
/// that months of games would make.
async fn put_record(db: &TestDb, name: &str, rating: f64, rd: f64, days_ago: i64) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    sqlx::query(
        "INSERT INTO ratings (account_id, game, rating, rd, volatility, games, last_game_ms) \
         SELECT id, 'flipstop', $1, $2, 0.06, 40, $3 FROM accounts WHERE name = $4",
    )
    .bind(rating)
    .bind(rd)
    .bind(now_ms - days_ago * 86_400_000)
    .bind(name)
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
}

async fn leaderboards(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    // name, rating, stored RD, days since the last rated game.
    let cases = [
        ("eve", 1900.0, 60.0, 1),
        // Too long ago.
        ("fay", 2100.0, 50.0, 100),
        // RD too wide.
        ("gus", 2000.0, 80.0, 1),
        ("hal", 1700.0, 74.0, 0),
        // Recent enough and stored RD 70, but 80 days grow it past 75.
        ("ivy", 2050.0, 70.0, 80),
        ("jo", 1950.0, 45.0, 30),
    ];
    for (name, rating, rd, days) in cases {
        bearer(&client, name).await;
        put_record(&db, name, rating, rd, days).await;
    }
    // A new player after one rated game (RD near 290) is not listed either.
    let kim = bearer(&client, "kim").await;
    let lee = bearer(&client, "lee").await;
    let game = game_between(&client, "flipstop", 5, &kim, (&lee, "lee")).await;
    two_moves(&client, &game, &kim, &lee).await;
    resign(&client, &game, &kim).await;

    let board = client.get("/api/leaderboards/flipstop", &[]).await;
    assert_eq!(board.status, 200, "{}", board.text);
    let names: Vec<_> = board.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["jo", "eve", "hal"]);
    assert_eq!(board.json["players"][0]["rank"], 1);
    assert_eq!(board.json["players"][2]["rank"], 3);
    // Each case as league decides it.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    for (name, rating, rd, days) in cases {
        let record = PlayerRating {
            glicko: swapboard_league::glicko2::Glicko2 {
                rating,
                rd,
                volatility: 0.06,
            },
            games: 40,
            last_game_at: Some(now - days * 86_400),
        };
        assert_eq!(
            record.on_leaderboard(now, &PARAMS).unwrap(),
            names.iter().any(|listed| listed == name),
            "{name}"
        );
    }
    let empty = client.get("/api/leaderboards/scware", &[]).await;
    assert_eq!(empty.json["players"], json!([]));
    // Swap 61's pool is the rooms' (tests/server/room_skills.rs); a game that is no pool is 400.
    client
        .get("/api/leaderboards/hex", &[])
        .await
        .assert_error(400, "bad_request");
    server.stop().await.unwrap();
    db
}

each_database!(the_leaderboard_lists_only_eligible_players, leaderboards);

/// Plays one live game to its end by a resignation sent through `racer` (another instance)
/// `delay_ms` after the second move, racing the scheduler's flag on either instance: the
/// game's termination.
async fn race(client: &Client, racer: &Client, ann: &str, bob: &str, delay_ms: u64) -> String {
    let body = json!({"game": "flipstop", "size": 5, "opponent": "user:bob",
                      "colour": "first", "clock": {"initial_s": 2, "increment_s": 0}});
    let id = game_made(client, &body, ann, bob).await;
    two_moves(client, &id, ann, bob).await;
    tokio::time::sleep(std::time::Duration::from_millis(delay_ms)).await;
    let resigned = racer
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(ann))
        .await;
    // Either the resignation ended it, or the flag did first.
    assert!(
        [200, 409].contains(&resigned.status.as_u16()),
        "{}",
        resigned.text
    );
    // The flag comes at most a poll after the deadline.
    for _ in 0..100 {
        let game = client.get(&format!("/api/games/{id}"), &[]).await;
        if game.json["status"] == "finished" {
            let termination = game.json["result"]["termination"].as_str().unwrap();
            return termination.to_owned();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("game {id} did not end");
}

#[tokio::test]
async fn two_instances_racing_flag_and_resignation_rate_a_game_once() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let one = start(&db, generous()).await;
    let two = start(&db, generous()).await;
    let client = Client::new(&one);
    let racer = Client::new(&two);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    // Around the 2 s deadline, on both sides of it; games run at once, so both players'
    // records are also updated by several games ending together.
    let delays = [1700, 1850, 1950, 2000, 2050, 2150, 2300, 2500];
    let terminations = futures_util::future::join_all(
        delays.map(|delay| race(&client, &racer, &ann, &bob, delay)),
    )
    .await;
    let rated = terminations
        .iter()
        .filter(|termination| *termination != "aborted")
        .count();
    assert!(rated > 0, "{terminations:?}");
    for name in ["ann", "bob"] {
        assert_eq!(
            history(&client, name).await.len(),
            rated,
            "{terminations:?}"
        );
        assert_eq!(ratings(&client, name).await["flipstop"]["games"], rated);
    }
    one.stop().await.unwrap();
    two.stop().await.unwrap();
    db.drop_it().await;
}
