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
    Answer, Client, TestDb, auth, bearer, each_database, execute, game_between, game_made,
    generous, start,
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

/// The account's ratings in the small band (the 5x5 boards these tests play), by game, as
/// its `pools` give them.
async fn ratings(client: &Client, name: &str) -> Value {
    let account = client.get(&format!("/api/accounts/{name}"), &[]).await;
    assert_eq!(account.status, 200, "{}", account.text);
    assert_eq!(account.json["name"], name);
    let mut small = serde_json::Map::new();
    for pool in account.json["pools"].as_array().unwrap() {
        if pool["band"] == "small" {
            small.insert(pool["game"].as_str().unwrap().to_owned(), pool.clone());
        }
    }
    Value::Object(small)
}

async fn history(client: &Client, name: &str) -> Vec<Value> {
    let answer = client
        .get(
            &format!("/api/accounts/{name}/ratings/flipstop?band=small"),
            &[],
        )
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
        "INSERT INTO ratings (account_id, game, band, rating, rd, volatility, games, \
         last_game_ms) SELECT id, 'flipstop', 'standard', $1, $2, 0.06, 40, $3 FROM accounts \
         WHERE name = $4",
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

/// Plays two moves of a game of side `size` (c3, then the first legal reply) and has `loser`
/// resign: a rated loss, not an abort.
async fn won_by(client: &Client, id: &str, [first, second]: [&str; 2], loser: &str) {
    two_moves(client, id, first, second).await;
    let ended = resign(client, id, loser).await;
    assert_eq!(ended["result"]["termination"], "resigned", "{ended}");
}

/// One account's pools, by game and band.
async fn pools(client: &Client, name: &str) -> Vec<Value> {
    let account = client.get(&format!("/api/accounts/{name}"), &[]).await;
    assert_eq!(account.status, 200, "{}", account.text);
    account.json["pools"].as_array().unwrap().clone()
}

/// Creates a game with `body` as `creator`: the answer.
async fn create(client: &Client, body: &Value, creator: &str) -> Answer {
    client.post("/api/games", body, &auth(creator)).await
}

async fn bands(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;

    // The usual 9x9 board: ann wins. Then a 5x5 board (the small band): ann loses.
    let standard = game_between(&client, "flipstop", 9, &ann, (&bob, "bob")).await;
    won_by(&client, &standard, [&ann, &bob], &bob).await;
    let after_standard = pools(&client, "ann").await;
    assert_eq!(after_standard.len(), 1);
    assert_eq!(after_standard[0]["band"], "standard");
    assert_eq!(after_standard[0]["sizes"], json!([8, 11]));
    let small = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    // ann comes to the small band from her standard record: the same rating, RD at least
    // 250; so does bob.
    let (_, playing) = game_ratings(&client, &small).await;
    assert!(
        close(
            &playing[0]["before"],
            after_standard[0]["rating"].as_f64().unwrap()
        ),
        "{}",
        playing[0]
    );
    won_by(&client, &small, [&ann, &bob], &ann).await;
    let now = pools(&client, "ann").await;
    let bands: Vec<_> = now
        .iter()
        .map(|p| (p["game"].clone(), p["band"].clone()))
        .collect();
    assert_eq!(
        bands,
        [
            (json!("flipstop"), json!("small")),
            (json!("flipstop"), json!("standard"))
        ]
    );
    // The small game moved the small pool only: the standard record is as it was.
    assert_eq!(now[1]["rating"], after_standard[0]["rating"]);
    assert_eq!(now[1]["games"], 1);
    assert_eq!(
        (now[0]["games"].clone(), now[0]["sizes"].clone()),
        (json!(1), json!([3, 7]))
    );
    // Its start was the prior of the standard band as league computes it.
    let small_points = client
        .get("/api/accounts/ann/ratings/flipstop?band=small", &[])
        .await;
    assert_eq!(small_points.json["band"], "small");
    let point = &small_points.json["points"][0];
    let standard_points = client.get("/api/accounts/ann/ratings/flipstop", &[]).await;
    assert_eq!(standard_points.json["band"], "standard");
    let first = &standard_points.json["points"][0];
    let standard_record = PlayerRating {
        glicko: swapboard_league::glicko2::Glicko2 {
            rating: first["rating"].as_f64().unwrap(),
            rd: first["rd"].as_f64().unwrap(),
            volatility: now[1]["volatility"].as_f64().unwrap(),
        },
        games: 1,
        last_game_at: Some(at_seconds(first)),
    };
    let from =
        swapboard_league::glicko2::prior([&standard_record], at_seconds(point), &PARAMS).unwrap();
    let (_, shown) = game_ratings(&client, &small).await;
    assert!(
        close(&shown[0]["before"], from.glicko.rating),
        "{}",
        shown[0]
    );
    // `ratings` keeps the pool of the usual size.
    let account = client.get("/api/accounts/ann", &[]).await;
    assert_eq!(
        account.json["ratings"]["flipstop"]["rating"],
        now[1]["rating"]
    );
    client
        .get("/api/accounts/ann/ratings/flipstop?band=tiny", &[])
        .await
        .assert_error(400, "bad_request");

    // A board proved from the start: rated:true is refused with the reason, and left out
    // the game is unrated; a tournament there too.
    for size in [3, 4, 5] {
        let refused = create(
            &client,
            &json!({"game": "swaptimum", "size": size, "opponent": "user:bob", "rated": true}),
            &ann,
        )
        .await;
        refused.assert_error(400, "bad_request");
        assert!(
            refused.message().starts_with("rated:") && refused.message().contains("solved"),
            "{}",
            refused.text
        );
    }
    let proven_body =
        json!({"game": "swaptimum", "size": 4, "opponent": "user:bob", "colour": "first"});
    let proven = game_made(&client, &proven_body, &ann, &bob).await;
    assert_eq!(game_ratings(&client, &proven).await.0, false);
    won_by(&client, &proven, [&ann, &bob], &bob).await;
    assert!(
        pools(&client, "ann")
            .await
            .iter()
            .all(|p| p["game"] != "swaptimum")
    );
    let tournament = json!({"game": "swaptimum", "size": 5, "format": "swiss",
        "clock": {"days_per_move": 3}, "starts_at": "2099-01-01T00:00:00Z", "rated": true});
    let refused = client
        .post("/api/tournaments", &tournament, &auth(&ann))
        .await;
    refused.assert_error(400, "bad_request");
    assert!(refused.message().starts_with("rated:"), "{}", refused.text);
    // The catalogue names the proven sides and the bands.
    let catalogue = client.get("/api/games/catalogue", &[]).await;
    assert_eq!(catalogue.json["games"][0]["proven_sizes"], json!([3, 4, 5]));
    assert_eq!(
        catalogue.json["games"][0]["bands"][1],
        json!({"band": "standard", "sizes": [8, 11]})
    );

    // A person and a bot: unrated unless both ask.
    let bot = bearer(&client, "robo").await;
    let marked = client.post("/api/me/bot", &json!({}), &auth(&bot)).await;
    assert_eq!(marked.status, 204, "{}", marked.text);
    let to_bot = json!({"game": "flipstop", "size": 9, "opponent": "user:robo", "colour": "first"});
    let created = create(&client, &to_bot, &ann).await;
    assert_eq!(created.json["rated"], false, "{}", created.text);
    let asked = json!({"game": "flipstop", "size": 9, "opponent": "user:robo", "colour": "first", "rated": true});
    let one_side = game_made(&client, &asked, &ann, &bot).await;
    assert_eq!(game_ratings(&client, &one_side).await.0, false);
    let created = create(&client, &asked, &ann).await;
    let both = created.json["id"].as_str().unwrap().to_owned();
    let joined = client
        .post(
            &format!("/api/games/{both}/join"),
            &json!({"rated": true}),
            &auth(&bot),
        )
        .await;
    assert_eq!(joined.json["rated"], true, "{}", joined.text);
    won_by(&client, &both, [&ann, &bot], &bot).await;
    // An open challenge (rated by default) that a bot takes: unrated.
    let open = json!({"game": "flipstop", "size": 9, "opponent": "open", "colour": "first"});
    let taken = game_made(&client, &open, &ann, &bot).await;
    assert_eq!(game_ratings(&client, &taken).await.0, false);
    // Two people: rated by default, as before.
    let cy = bearer(&client, "cy").await;
    let people = game_made(&client, &open, &ann, &cy).await;
    assert_eq!(game_ratings(&client, &people).await.0, true);

    // The list of players: those who finished a game, a bot marked; cy has not yet.
    let list = client.get("/api/players", &[]).await;
    assert_eq!(list.status, 200, "{}", list.text);
    let mut names: Vec<(String, bool)> = list.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_owned(), p["bot"] == true))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("ann".to_owned(), false),
            ("bob".to_owned(), false),
            ("robo".to_owned(), true)
        ]
    );

    // As before migration 0029: rated changes with no band, no records, and a game on a
    // proven board that was rated then. The next start places each game in its band, with
    // the live numbers, and unrates the proven one.
    let before_ann = pools(&client, "ann").await;
    let before_history = client
        .get("/api/accounts/ann/ratings/flipstop?band=small", &[])
        .await
        .json;
    server.stop().await.unwrap();
    execute(&db, "UPDATE rating_changes SET band = NULL").await;
    execute(&db, "DELETE FROM ratings").await;
    execute(
        &db,
        &format!("UPDATE games SET rated = 1 WHERE id = '{proven}'"),
    )
    .await;
    execute(
        &db,
        &format!(
            "INSERT INTO rating_changes (game_id, seat, account_id, game, at_ms, before_rating, \
             before_rd, before_volatility, rating, rd, volatility) \
             SELECT '{proven}', s.seat, s.account_id, 'swaptimum', 1, 1500, 500, 0.09, 1500, 400, 0.09 \
             FROM seats s WHERE s.game_id = '{proven}'"
        ),
    )
    .await;
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    // The same records: RD, shown as of now, has grown by the seconds of the restart.
    let after_ann = pools(&client, "ann").await;
    assert_eq!(after_ann.len(), before_ann.len());
    for (after, before) in after_ann.iter().zip(&before_ann) {
        let rd = |pool: &Value| pool["rd"].as_f64().unwrap();
        assert!(
            (rd(before)..rd(before) + 0.01).contains(&rd(after)),
            "{after} {before}"
        );
        let without_rd = |pool: &Value| {
            let mut pool = pool.clone();
            pool.as_object_mut().unwrap().remove("rd");
            pool
        };
        assert_eq!(without_rd(after), without_rd(before));
    }
    assert_eq!(
        client
            .get("/api/accounts/ann/ratings/flipstop?band=small", &[])
            .await
            .json,
        before_history
    );
    assert_eq!(
        game_ratings(&client, &proven).await,
        (json!(false), [Value::Null, Value::Null])
    );
    server.stop().await.unwrap();
    db
}

each_database!(
    bands_are_pools_apart_proven_boards_and_bots_are_unrated_and_the_migration_rerates,
    bands
);

/// The names a leaderboard lists, best first, and the answer.
async fn listed(client: &Client, query: &str) -> (Vec<String>, Value) {
    let board = client.get(&format!("/api/leaderboards/{query}"), &[]).await;
    assert_eq!(board.status, 200, "{}", board.text);
    let names = board.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["name"].as_str().unwrap().to_owned())
        .collect();
    (names, board.json)
}

async fn leaderboards(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    // name, rating, stored RD, days since the last rated game (standard band).
    let cases = [
        ("eve", 1900.0, 60.0, 1),
        // Too long ago.
        ("fay", 2100.0, 50.0, 100),
        // RD past 75: listed only while the pool is small.
        ("gus", 2000.0, 80.0, 1),
        ("hal", 1700.0, 74.0, 0),
        // Recent enough and stored RD 70, but 80 days grow it past 75.
        ("ivy", 2050.0, 70.0, 80),
        ("jo", 1950.0, 45.0, 30),
        // RD past even a small pool's 300.
        ("max", 2200.0, 320.0, 1),
    ];
    for (name, rating, rd, days) in cases {
        bearer(&client, name).await;
        put_record(&db, name, rating, rd, days).await;
    }
    // A new player after one rated game (RD near 400) is not listed either, and the game,
    // on a 5x5 board, is in the small band's pool, not the standard one's.
    let kim = bearer(&client, "kim").await;
    let lee = bearer(&client, "lee").await;
    let game = game_between(&client, "flipstop", 5, &kim, (&lee, "lee")).await;
    two_moves(&client, &game, &kim, &lee).await;
    resign(&client, &game, &kim).await;
    // A bot is on the bots' leaderboard only.
    execute(&db, "UPDATE accounts SET bot = 1 WHERE name = 'eve'").await;

    // A club's pool (5 active people): RD up to 300 qualifies, and the RD is shown.
    let (names, board) = listed(&client, "flipstop").await;
    assert_eq!(names, ["ivy", "gus", "jo", "hal"]);
    assert_eq!(board["band"], "standard");
    assert_eq!(board["sizes"], json!([8, 11]));
    assert_eq!(board["bots"], false);
    assert_eq!(
        (board["active"].clone(), board["max_rd"].clone()),
        (json!(5), json!(300.0))
    );
    assert_eq!(board["players"][0]["rank"], 1);
    assert!(
        board["players"][1]["rd"].as_f64().unwrap() >= 80.0,
        "{board}"
    );
    let (bots, board) = listed(&client, "flipstop?bots=true").await;
    assert_eq!(bots, ["eve"]);
    assert_eq!(board["players"][0]["bot"], true);
    assert_eq!(board["active"], 1);
    let (small, board) = listed(&client, "flipstop?band=small").await;
    assert!(small.is_empty(), "{board}");
    assert_eq!(board["active"], 2);

    // Thirty more active people make a large pool: lichess's 75 again.
    for k in 0..30 {
        let name = format!("p{k}");
        bearer(&client, &name).await;
        put_record(&db, &name, 1000.0 + f64::from(k), 60.0, 2).await;
    }
    let (names, board) = listed(&client, "flipstop").await;
    assert_eq!(&names[..2], ["jo", "hal"]);
    assert_eq!(names.len(), 32);
    assert_eq!(
        (board["active"].clone(), board["max_rd"].clone()),
        (json!(35), json!(75.0))
    );
    // Each case as league decides it for a pool of 35.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let large = Params {
        leaderboard_rd: PARAMS.leaderboard_rd_for(35),
        ..PARAMS
    };
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
            record.on_leaderboard(now, &large).unwrap() && name != "eve",
            names.iter().any(|listed| listed == name),
            "{name}"
        );
    }
    let (empty, _) = listed(&client, "scware").await;
    assert!(empty.is_empty());
    // Swap 61's pool is the rooms' (tests/server/room_skills.rs); a game that is no pool, a
    // band that is none and a bots flag that is no boolean are 400, named.
    for (query, field) in [
        ("hex", "game"),
        ("flipstop?band=huge", "band"),
        ("flipstop?bots=yes", "bots"),
        ("swap61?band=small", "band"),
    ] {
        let refused = client.get(&format!("/api/leaderboards/{query}"), &[]).await;
        refused.assert_error(400, "bad_request");
        assert!(refused.message().starts_with(field), "{}", refused.text);
    }
    server.stop().await.unwrap();
    db
}

each_database!(
    the_leaderboard_admits_a_clubs_players_and_lists_people_and_bots_apart,
    leaderboards
);

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
