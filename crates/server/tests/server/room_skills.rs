//! Swap 61 ratings over real HTTP on both backends: a room played to its end rates the
//! accounts seated in it (not the bots) from their final ranks, once; the profile, the
//! history and the Swap 61 leaderboard show it; a rerate gives the same numbers; an account
//! marked a bot says so everywhere.

use serde_json::{Value, json};
use swapboard_league::multiplayer::{Skill, rate_room};
use swapboard_server::api::{RoomView, RoomsPlayed};
use swapboard_server::store::Store;
use swapboard_testkit::{Client, TestDb, auth, bearer, each_database, generous, start};

/// The players seated by accounts (the other seats are bots).
const PLAYERS: [&str; 3] = ["ada", "ben", "cy"];

async fn room_view(client: &Client, id: &str, token: &str) -> RoomView {
    let answer = client.get(&format!("/api/rooms/{id}"), &auth(token)).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.read()
}

/// Whether a JSON number is `expected` (JSON's text may round the last bit).
fn near(shown: &Value, expected: f64) -> bool {
    shown.as_f64().is_some_and(|x| (x - expected).abs() < 1e-9)
}

async fn profile(client: &Client, name: &str) -> Value {
    let answer = client.get(&format!("/api/accounts/{name}"), &[]).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.json
}

/// A ten-seat room with the three players and seven bots, resolved round by round by its
/// game master to the end (the players bid nothing; the bots do). The seat of each of
/// [`PLAYERS`], whose tokens `players` are.
async fn play_room(client: &Client, master: &str, players: &[String]) -> (String, Vec<u8>) {
    let body = json!({"seats": 10, "round5": "theme", "round_hours": 24, "seed": 11});
    let created = client.post("/api/rooms", &body, &auth(master)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let created: RoomView = created.read();
    let invite = created.invite.expect("the game master's invite");
    for token in players {
        let path = format!("/api/rooms/{}/join", created.id);
        let joined = client
            .post(&path, &json!({ "invite": invite }), &auth(token))
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
    }
    let path = format!("/api/rooms/{}/start", created.id);
    let started = client
        .post(&path, &json!({"fill_with_bots": true}), &auth(master))
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    for round in 0..=5 {
        let path = format!("/api/rooms/{}/resolve?round={round}", created.id);
        let resolved = client.post(&path, &json!({}), &auth(master)).await;
        assert_eq!(resolved.status, 200, "{}", resolved.text);
    }
    let over = room_view(client, &created.id, master).await;
    assert_eq!(over.status, "finished");
    let seats = PLAYERS
        .iter()
        .map(|name| {
            let seat = over.seats.iter().find(|s| s.name == *name);
            seat.expect("a player's seat").seat
        })
        .collect();
    (created.id, seats)
}

async fn rated_rooms(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let master = bearer(&client, "gm").await;
    let mut players = Vec::new();
    for name in PLAYERS {
        players.push(bearer(&client, name).await);
    }
    // Before any room: no skill, and an empty Swap 61 leaderboard.
    assert_eq!(profile(&client, "ada").await["swap61"], Value::Null);
    let board = client.get("/api/leaderboards/swap61", &[]).await;
    assert_eq!(board.json["players"], json!([]), "{}", board.text);

    // Ada's account is a program's: marked for good, and a second mark is the same answer.
    for _ in 0..2 {
        let marked = client
            .post("/api/me/bot", &json!({}), &auth(&players[0]))
            .await;
        assert_eq!(marked.status, 204, "{}", marked.text);
    }
    client
        .post("/api/me/bot", &json!({}), &[])
        .await
        .assert_error(401, "unauthenticated");

    let (id, seats) = play_room(&client, &master, &players).await;
    let over = room_view(&client, &id, &master).await;
    // The expected skills: the players ranked among themselves by their totals, every one
    // new, through the league's rate_room.
    let totals: Vec<u32> = seats
        .iter()
        .map(|s| over.totals[usize::from(*s) - 1])
        .collect();
    let ranks: Vec<usize> = totals
        .iter()
        .map(|mine| 1 + totals.iter().filter(|other| *other > mine).count())
        .collect();
    let input: Vec<(Skill, usize)> = ranks.iter().map(|r| (Skill::default(), *r)).collect();
    let expected = rate_room(&input).unwrap();
    let mut shown = Vec::new();
    for ((name, skill), rank) in PLAYERS.iter().zip(&expected).zip(&ranks) {
        let account = profile(&client, name).await;
        let swap61 = &account["swap61"];
        assert_eq!(swap61["rooms"], 1, "{account}");
        assert!(near(&swap61["mu"], skill.rating), "{account}");
        assert!(near(&swap61["sigma"], skill.uncertainty), "{account}");
        assert!(near(&swap61["rating"], skill.ordinal()), "{account}");
        assert_eq!(account["bot"], *name == "ada", "{account}");
        let history = client
            .get(&format!("/api/accounts/{name}/ratings/swap61"), &[])
            .await;
        assert_eq!(history.status, 200, "{}", history.text);
        let points = history.json["points"].as_array().unwrap().clone();
        assert_eq!(points.len(), 1, "{}", history.text);
        assert_eq!(points[0]["game_id"], json!(id));
        assert_eq!(points[0]["rank"], json!(rank));
        assert!(
            near(&points[0]["rating"], skill.ordinal()),
            "{}",
            history.text
        );
        shown.push(account);
    }
    // Nobody else was rated: the game master and the bots' seats have no skill.
    assert_eq!(profile(&client, "gm").await["swap61"], Value::Null);

    // Each player's rooms played: this room, its seat and its rank; a room in its lobby
    // (Ben joined a second one) comes first, with no rank yet. The game master sat in none.
    let body = json!({"seats": 9, "round5": "theme", "round_hours": 24});
    let lobby: RoomView = client
        .post("/api/rooms", &body, &auth(&master))
        .await
        .read();
    let path = format!("/api/rooms/{}/join", lobby.id);
    let joined = client
        .post(
            &path,
            &json!({ "invite": lobby.invite }),
            &auth(&players[1]),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    for ((name, seat), rank) in PLAYERS.iter().zip(&seats).zip(&ranks) {
        let played: RoomsPlayed = client
            .get(&format!("/api/accounts/{name}/rooms"), &[])
            .await
            .read();
        let rooms: Vec<(&str, &str, Option<u32>)> = played
            .rooms
            .iter()
            .map(|r| (r.id.as_str(), r.status.as_str(), r.rank))
            .collect();
        let finished = (id.as_str(), "finished", Some(u32::try_from(*rank).unwrap()));
        if *name == "ben" {
            assert_eq!(rooms, [(lobby.id.as_str(), "lobby", None), finished]);
        } else {
            assert_eq!(rooms, [finished]);
        }
        let this = played.rooms.iter().find(|r| r.id == id).unwrap();
        assert_eq!((this.seat, this.seats, this.round), (*seat, 10, 6));
        assert_eq!(this.master, "gm");
    }
    let played: RoomsPlayed = client.get("/api/accounts/gm/rooms", &[]).await.read();
    assert!(played.rooms.is_empty(), "{played:?}");
    client
        .get("/api/accounts/nobody/rooms", &[])
        .await
        .assert_error(404, "not_found");

    // The leaderboards: the two people, best conservative skill first; the bot on the bots'.
    let board = client.get("/api/leaderboards/swap61", &[]).await;
    assert_eq!(board.status, 200, "{}", board.text);
    let listed = board.json["players"].as_array().unwrap();
    assert_eq!(listed.len(), 2, "{}", board.text);
    let ordinals: Vec<f64> = listed
        .iter()
        .map(|p| p["rating"].as_f64().unwrap())
        .collect();
    assert!(ordinals.windows(2).all(|w| w[0] >= w[1]), "{ordinals:?}");
    let bots = client.get("/api/leaderboards/swap61?bots=true", &[]).await;
    assert_eq!(bots.status, 200, "{}", bots.text);
    let bot_rows = bots.json["players"].as_array().unwrap();
    assert_eq!(bot_rows.len(), 1, "{}", bots.text);
    for row in listed.iter().chain(bot_rows) {
        assert_eq!(row["bot"], row["name"] == "ada", "{row}");
        assert_eq!(row["games"], 1, "{row}");
    }
    assert_eq!(bot_rows[0]["name"], "ada");
    // A pool nobody has: still 400 with the game named.
    client
        .get("/api/leaderboards/chess", &[])
        .await
        .assert_error(400, "bad_request");

    // Rerating from scratch gives the live numbers again, to the bit.
    server.stop().await.unwrap();
    let store = Store::open(&db.url).await.unwrap();
    assert_eq!(store.rerate_rooms().await.unwrap(), 1);
    store.close().await;
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    for (name, before) in PLAYERS.iter().zip(&shown) {
        assert_eq!(&profile(&client, name).await, before);
    }
    server.stop().await.unwrap();
    db
}

each_database!(
    a_finished_room_rates_its_players_once_and_rerating_agrees,
    rated_rooms
);
