//! The vacation bank over real HTTP on both backends: a correspondence clock that runs out
//! spends a day of the player's bank instead (shown with the game and in the bank's log),
//! whether the scheduler finds the deadline or a late move does, until the 21st day; days
//! taken on purpose carry every game on; a live clock is never saved. Time is moved on the
//! server's manual clock, set in March (never by sleeping); once the stored turn's start and
//! deadline are moved back instead, so that a late move, not the scheduler woken by a move
//! of the clock, is first to find a fallen flag.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sqlx::Connection as _;
use swapboard_server::{Clock, Server};

use swapboard_server::DAY_MS;
use swapboard_testkit::{
    Client, TestDb, any_move, auth, bearer, each_database, generous, start_on_manual_clock, started,
};

/// Noon on 2 March 2026, in ms since the Unix epoch: where the tests set the server's
/// clock, far from the end of a year (a bank is a calendar year's), whatever day they run.
const MID_YEAR_MS: i64 = 1_772_452_800_000;

/// A server on a manual clock set to [`MID_YEAR_MS`].
async fn start_mid_year(db: &TestDb) -> (Server, Clock) {
    let (server, clock) = start_on_manual_clock(db, generous()).await;
    clock.set(MID_YEAR_MS);
    (server, clock)
}

/// Moves a game's running turn (and its deadline) `ms` into the past, as if that much
/// time had gone by.
async fn age_turn(db: &TestDb, id: &str, ms: i64) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    sqlx::query("UPDATE games SET turn_started_ms = turn_started_ms - $1 WHERE id = $2")
        .bind(ms)
        .bind(id)
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query("UPDATE games SET due_ms = due_ms - $1 WHERE id = $2")
        .bind(ms)
        .bind(id)
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

/// A game of Flipstop on a 5x5 board between `first` and the account `second_name` under
/// `clock`, two moves in (past the moves that only abort a game): its id, `first` to move.
async fn game_at_ply_two(
    client: &Client,
    first: &str,
    (second, second_name): (&str, &str),
    clock: Value,
) -> String {
    let body = json!({"game": "flipstop", "size": 5, "opponent": format!("user:{second_name}"),
        "colour": "first", "clock": clock});
    let created = client.post("/api/games", &body, &auth(first)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    let joined = client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(second))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    any_move(client, &id, 0, first).await;
    any_move(client, &id, 1, second).await;
    id
}

/// The game as anyone sees it.
async fn game(client: &Client, id: &str) -> Value {
    let answer = client.get(&format!("/api/games/{id}"), &[]).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.json
}

/// The days of vacation a seat spent in a game (the field is left out while none were).
fn spent(view: &Value, seat: usize) -> u64 {
    view["players"][seat]["vacation_days"].as_u64().unwrap_or(0)
}

/// The caller's bank.
async fn bank(client: &Client, token: &str) -> Value {
    let answer = client.get("/api/me/vacation", &auth(token)).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.json
}

/// Waits (up to 10 s: the scheduler looks twice a second) until `done` holds of the game.
async fn game_until(client: &Client, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let view = game(client, id).await;
        if done(&view) {
            return view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the game never got there: {view}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the first seat has spent `days` in the game, which is still being played.
async fn saved_with(client: &Client, id: &str, days: u64) -> Value {
    let view = game_until(client, id, |view| {
        spent(view, 0) == days || view["status"] != "playing"
    })
    .await;
    assert_eq!(view["status"], "playing", "{view}");
    view
}

async fn the_bank(db: TestDb) -> TestDb {
    let (server, clock) = start_mid_year(&db).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let fresh = bank(&client, &ann).await;
    assert_eq!(fresh["days_per_year"], 20);
    assert_eq!(fresh["days_left"], 20);
    assert_eq!(fresh["away_until_ms"], Value::Null);
    assert_eq!(fresh["log"], json!([]));

    let id = game_at_ply_two(&client, &ann, (&bob, "bob"), json!({"days_per_move": 1})).await;
    let before = game(&client, &id).await;
    assert_eq!(spent(&before, 0), 0);
    let deadline = before["clocks"]["deadline_ms"].as_i64().unwrap();

    // A day and an hour go by: ann's clock ran out an hour ago, and a day of her bank
    // carries it a day on.
    clock.advance(Duration::from_secs(86_400 + 3_600));
    let saved = saved_with(&client, &id, 1).await;
    let moved_on = saved["clocks"]["deadline_ms"].as_i64().unwrap();
    assert_eq!(moved_on, deadline + DAY_MS, "{saved}");
    let after_one = bank(&client, &ann).await;
    assert_eq!(after_one["days_left"], 19);
    assert_eq!(
        after_one["log"][0]["game"], id,
        "the day is logged with its game"
    );
    assert_eq!(after_one["log"][0]["reason"], "clock");
    assert_eq!(after_one["log"][0]["days"], 1);
    assert_eq!(bank(&client, &bob).await["days_left"], 20, "bob spent none");

    // Eighteen days and a half more: eighteen more days, spent at once (a server down
    // that long finds them all due).
    clock.advance(Duration::from_secs(18 * 86_400 + 43_200));
    saved_with(&client, &id, 19).await;
    assert_eq!(bank(&client, &ann).await["days_left"], 1);

    // The twentieth day: a late move finds the flag fallen, the bank carries the clock
    // on, and the move is played. The turn is aged in the database rather than on the
    // clock, whose move would wake the scheduler to find the flag first.
    age_turn(&db, &id, DAY_MS).await;
    any_move(&client, &id, 2, &ann).await;
    let moved = game(&client, &id).await;
    assert_eq!(moved["ply"], 3, "{moved}");
    assert_eq!(spent(&moved, 0), 20);
    assert_eq!(bank(&client, &ann).await["days_left"], 0);

    // bob plays; ann lets her turn run out once more. The 21st day is not in the bank:
    // she loses on time.
    any_move(&client, &id, 3, &bob).await;
    clock.advance(Duration::from_secs(86_400 + 1));
    let lost = game_until(&client, &id, |view| view["status"] == "finished").await;
    assert_eq!(lost["result"]["termination"], "timeout", "{lost}");
    assert_eq!(lost["result"]["winner"], "bob");
    assert_eq!(spent(&lost, 0), 20);
    let empty = bank(&client, &ann).await;
    assert_eq!(empty["days_left"], 0);
    assert_eq!(
        empty["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["days"].as_i64().unwrap())
            .sum::<i64>(),
        20
    );

    // A live clock is never saved: the game is lost on time with days in the bank.
    let live = game_at_ply_two(
        &client,
        &bob,
        (&ann, "ann"),
        json!({"initial_s": 600, "increment_s": 0}),
    )
    .await;
    clock.advance(Duration::from_secs(3_600));
    let flagged = game_until(&client, &live, |view| view["status"] == "finished").await;
    assert_eq!(flagged["result"]["termination"], "timeout", "{flagged}");
    assert_eq!(spent(&flagged, 0), 0);
    assert_eq!(bank(&client, &bob).await["days_left"], 20);

    server.stop().await.unwrap();
    db
}

each_database!(
    the_bank_saves_a_correspondence_clock_until_the_21st_day,
    the_bank
);

async fn days_taken(db: TestDb) -> TestDb {
    let (server, clock) = start_mid_year(&db).await;
    let client = Client::new(&server);
    let cat = bearer(&client, "cat").await;
    let dan = bearer(&client, "dan").await;
    let take = |days: Value| {
        let (client, cat) = (&client, &cat);
        async move {
            client
                .post("/api/me/vacation", &json!({ "days": days }), &auth(cat))
                .await
        }
    };
    take(json!(0)).await.assert_error(400, "bad_request");
    take(json!(-1)).await.assert_error(400, "bad_request");
    take(json!(367)).await.assert_error(400, "bad_request");
    take(json!(21)).await.assert_error(409, "conflict");
    let id = game_at_ply_two(&client, &cat, (&dan, "dan"), json!({"days_per_move": 2})).await;
    let taken = take(json!(5)).await;
    assert_eq!(taken.status, 200, "{}", taken.text);
    assert_eq!(taken.json["days_left"], 15);
    assert_eq!(taken.json["log"][0]["reason"], "taken");
    assert_eq!(taken.json["log"][0]["game"], Value::Null);
    let away = taken.json["away_until_ms"].as_i64().unwrap();
    assert_eq!(away, clock.now_ms() + 5 * DAY_MS, "{}", taken.text);

    // Three days go by on the server's clock while cat is away: her turn's time ran out a
    // day ago, and restarts when she is back, a whole period then; no more days are spent.
    clock.advance(Duration::from_secs(3 * 86_400));
    let view = game_until(&client, &id, |view| {
        view["clocks"]["deadline_ms"].as_i64() == Some(away + 2 * DAY_MS)
            || view["status"] != "playing"
    })
    .await;
    assert_eq!(view["status"], "playing", "{view}");
    assert_eq!(spent(&view, 0), 0);
    assert_eq!(bank(&client, &cat).await["days_left"], 15);

    // More days go on from the end of those taken.
    let more = take(json!(2)).await;
    assert_eq!(more.json["days_left"], 13);
    assert_eq!(more.json["away_until_ms"], away + 2 * DAY_MS);
    server.stop().await.unwrap();
    db
}

each_database!(days_taken_on_purpose_carry_every_game, days_taken);

/// A two-player round robin of Flipstop 5x5 at a day a move, started, whose vacation rule is
/// `vacation`: its first game, two moves in, and the token of the player to move.
async fn tournament_game(
    client: &Client,
    players: [(&str, &str); 2],
    vacation: bool,
    clock: &Clock,
) -> (String, String) {
    let soon = time::OffsetDateTime::from_unix_timestamp_nanos(
        i128::from(clock.now_ms() + 3_600_000) * 1_000_000,
    )
    .unwrap();
    let soon = soon
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let body = json!({"game": "flipstop", "size": 5, "format": "round_robin",
        "clock": {"days_per_move": 1}, "starts_at": soon, "min_players": 2, "max_players": 2,
        "vacation": vacation});
    let created = client
        .post("/api/tournaments", &body, &auth(players[0].1))
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.json["vacation"], vacation);
    let id = created.json["id"].as_str().unwrap().to_owned();
    for (_, token) in players {
        let path = format!("/api/tournaments/{id}/join");
        let joined = client.post(&path, &json!({}), &auth(token)).await;
        assert_eq!(joined.status, 200, "{}", joined.text);
    }
    let t = started(client, &id, players[0].1).await;
    let pairing = &t.rounds[0].games[0];
    let game = pairing
        .id
        .clone()
        .expect("round 1's game is made at the start");
    let token_of = |name: &str| {
        let (_, token) = players.iter().find(|(n, _)| name == *n).unwrap();
        (*token).to_owned()
    };
    let (first, second) = (token_of(&pairing.first), token_of(&pairing.second));
    any_move(client, &game, 0, &first).await;
    any_move(client, &game, 1, &second).await;
    (game, first)
}

async fn tournaments_forbidding(db: TestDb) -> TestDb {
    let (server, clock) = start_mid_year(&db).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let players = [("ann", ann.as_str()), ("bob", bob.as_str())];
    let (allowed, saved_mover) = tournament_game(&client, players, true, &clock).await;
    let (forbidden, mover) = tournament_game(&client, players, false, &clock).await;
    // A day and an hour go by in both games, on the server's clock.
    clock.advance(Duration::from_secs(86_400 + 3_600));
    // Where the tournament allows it, the bank carries the clock on ...
    saved_with(&client, &allowed, 1).await;
    // ... where it forbids it, the player to move loses on time, and keeps their days.
    let lost = game_until(&client, &forbidden, |view| view["status"] == "finished").await;
    assert_eq!(lost["result"]["termination"], "timeout", "{lost}");
    assert_eq!(spent(&lost, 0) + spent(&lost, 1), 0, "{lost}");
    // Only the allowed game's day was spent, by whoever was to move there.
    let left = if saved_mover == mover { 19 } else { 20 };
    assert_eq!(bank(&client, &mover).await["days_left"], left);
    server.stop().await.unwrap();
    db
}

each_database!(
    a_tournament_that_forbids_vacation_lets_a_clock_run_out,
    tournaments_forbidding
);
