//! Swap 61 rooms over real HTTP on both backends: whole games of 9 and 10 seats whose
//! every endpoint (from the OpenAPI document) and socket message is swept for other seats'
//! secrets, every round checked against the swap61 crate's `play_round`, the game master's
//! controls, submissions racing a deadline, and authorization.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::StreamExt as _;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use swapboard_server::api::{CheckView, MyRooms, RoomView};
use swapboard_swap61::{Board, Seat, Swap61Game, bot, play_round};
use swapboard_testkit::{
    Answer, Client, TestDb, bearer, each_database, generous, sign_up_and_token, start,
};
use tokio_tungstenite::tungstenite::Message;

/// The accounts of a test: a game master, ten players and an outsider.
struct People {
    master: String,
    players: Vec<(String, String)>,
    outsider: String,
}

async fn people(client: &Client) -> People {
    let bearer = |name: String| async move {
        let credentials = json!({"name": name, "password": "correct horse"});
        format!("Bearer {}", sign_up_and_token(client, &credentials).await)
    };
    let mut players = Vec::new();
    for i in 1..=10 {
        let name = format!("pl{i}");
        players.push((name.clone(), bearer(name).await));
    }
    People {
        master: bearer("gm".to_owned()).await,
        players,
        outsider: bearer("outsider".to_owned()).await,
    }
}

fn auth(token: &str) -> [(&str, &str); 1] {
    [("authorization", token)]
}

async fn put_text(client: &Client, path: &str, token: &str, text: &str) -> Answer {
    client
        .send(
            Method::PUT,
            path,
            &[("authorization", token), ("content-type", "text/plain")],
            Some(text),
        )
        .await
}

/// The time now, as the server writes deadlines (the same machine's clock).
fn since_1970_ms() -> i64 {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(now.as_millis()).unwrap()
}

fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Creates a room and seats `players` of the people in it (the rest are bots).
async fn room_with(
    client: &Client,
    people: &People,
    body: Value,
    players: usize,
    fill: bool,
) -> String {
    let created = client
        .post("/api/rooms", &body, &auth(&people.master))
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let created: RoomView = created.read();
    let (id, invite) = (
        created.id,
        created.invite.expect("the game master's invite"),
    );
    for (_, token) in &people.players[..players] {
        let joined = client
            .post(
                &format!("/api/rooms/{id}/join"),
                &json!({ "invite": invite }),
                &auth(token),
            )
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
        assert!(
            joined.read::<RoomView>().invite.is_none(),
            "{}",
            joined.text
        );
    }
    let started = client
        .post(
            &format!("/api/rooms/{id}/start"),
            &json!({ "fill_with_bots": fill }),
            &auth(&people.master),
        )
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    assert_eq!(started.read::<RoomView>().status, "playing");
    id
}

/// A seat's distinctive submission for a round: a comment and a rejected line that name
/// it, then the bot's bids for it (valid, so that rounds really swap).
fn distinctive(setup: &swapboard_swap61::Setup, board: &Board, round: usize, seat: Seat) -> String {
    let bids = bot::submission_text(&bot::bids(setup, board, round, seat));
    format!(
        "# secret-{seat}-r{round}-zebra\nQ{}x{round} A1 1\n{bids}",
        seat.number()
    )
}

/// What a seat's secrets look like in any answer: its comment, its rejected cell, its
/// receipt.
fn secrets_of(text: &str, seat: Seat, round: usize) -> Vec<String> {
    vec![
        format!("secret-{seat}-r{round}-zebra"),
        format!("Q{}x{round}", seat.number()),
        sha256(text),
    ]
}

/// The room as one caller sees it.
async fn view(client: &Client, id: &str, token: Option<&str>) -> RoomView {
    let headers: Vec<(&str, &str)> = token.map(|t| ("authorization", t)).into_iter().collect();
    let answer = client.get(&format!("/api/rooms/{id}"), &headers).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.read()
}

/// The game file, exported by the game master.
async fn file(client: &Client, id: &str, master: &str) -> Swap61Game {
    let answer = client
        .get(&format!("/api/rooms/{id}/file"), &auth(master))
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    Swap61Game::from_json(&answer.text).unwrap()
}

fn board_of(view: &RoomView, seats: usize) -> Board {
    Board::parse(&view.grid.join("\n"), seats).unwrap()
}

/// Every operation of the OpenAPI document under `/api/rooms`, with its path filled in.
async fn room_operations(client: &Client, id: &str) -> Vec<(Method, String)> {
    let doc = client.get("/api/openapi.json", &[]).await.json;
    let mut operations = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/rooms") {
            continue;
        }
        let filled = path
            .replace("{id}", id)
            .replace("{seat}", "1")
            .replace("{round}", "0");
        for method in item.as_object().unwrap().keys() {
            let method: Method = method.to_uppercase().parse().unwrap();
            operations.push((method, filled.clone()));
        }
    }
    assert!(operations.len() >= 18, "{operations:?}");
    operations
}

/// Fetches every room operation as every caller but the game master (each player, an
/// outsider, no credentials) and asserts that no answer holds a secret of a seat other
/// than the caller's own. Operations that act on the caller's own seat (submitting,
/// marking final) are left to the players' own calls; everything else is sent, GETs and
/// the game master's writes (refused) alike.
async fn sweep(
    client: &Client,
    people: &People,
    id: &str,
    seat_of: &HashMap<String, Seat>,
    secrets: &HashMap<Seat, Vec<String>>,
) -> usize {
    let operations = room_operations(client, id).await;
    let mut callers: Vec<(Option<Seat>, Option<&str>)> = vec![(None, None)];
    callers.push((None, Some(&people.outsider)));
    for (name, token) in &people.players {
        callers.push((seat_of.get(name).copied(), Some(token)));
    }
    let mut checked = 0;
    for (own, token) in callers {
        for (method, path) in &operations {
            let acts_on_own_seat = path.ends_with("/submission") || path.ends_with("/final");
            if token.is_some() && own.is_some() && acts_on_own_seat {
                continue;
            }
            let mut headers = vec![("content-type", "application/json")];
            if let Some(token) = token {
                headers.push(("authorization", token));
            }
            let answer = client.send(method.clone(), path, &headers, None).await;
            if *method != Method::GET {
                assert!(
                    answer.status.is_client_error(),
                    "{method} {path} as {own:?}: {}",
                    answer.text
                );
            }
            for (seat, marks) in secrets {
                if Some(*seat) == own {
                    continue;
                }
                for mark in marks {
                    assert!(
                        !answer.text.contains(mark.as_str()),
                        "{method} {path} as {own:?} shows {seat}'s {mark}: {}",
                        answer.text
                    );
                }
            }
            checked += 1;
        }
    }
    checked
}

/// Plays a room through all six rounds with distinctive bids, checking every round against
/// `play_round` and, when `sweeping`, every endpoint for leaks before and after each
/// resolution. Returns the room's id.
async fn play_through(
    client: &Client,
    people: &People,
    seats: usize,
    round5: &str,
    sweeping: bool,
    timings: &mut Vec<Duration>,
) -> String {
    let body = json!({"seats": seats, "round5": round5, "round_hours": 24, "seed": 7});
    let id = room_with(client, people, body, seats, false).await;
    let (mut public, _) =
        tokio_tungstenite::connect_async(client.ws_url(&format!("/api/rooms/{id}/socket")))
            .await
            .unwrap();
    let setup = file(client, &id, &people.master).await.setup().clone();
    assert_eq!(setup.rounds[5].variation.to_string(), round5);
    let seat_of: HashMap<String, Seat> = setup
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| (name.clone(), Seat::new(i + 1).unwrap()))
        .collect();
    let token_of: HashMap<&str, &str> = people
        .players
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let mut all_secrets: HashMap<Seat, Vec<String>> = HashMap::new();
    for round in 0..=5usize {
        let before = view(client, &id, Some(&people.master)).await;
        assert_eq!(usize::from(before.round), round);
        let board = board_of(&before, seats);
        let mut texts: Vec<(Seat, String)> = Vec::new();
        for name in &setup.players {
            let seat = seat_of[name];
            let text = distinctive(&setup, &board, round, seat);
            let token = token_of[name.as_str()];
            let path = format!("/api/rooms/{id}/submission?round={round}");
            let check = put_text(client, &path, token, &text).await;
            assert_eq!(check.status, 200, "{}", check.text);
            let checked: CheckView = check.read();
            assert_eq!(usize::from(checked.round), round);
            assert_eq!(checked.receipt, sha256(&text));
            assert_eq!(checked.lines[0].status, "rejected", "{}", check.text);
            let mine = view(client, &id, Some(token))
                .await
                .you
                .expect("the seat's own part");
            assert_eq!(usize::from(mine.seat), seat.number());
            assert_eq!(mine.submission.as_deref(), Some(text.as_str()));
            assert_eq!(mine.check.map(|c| c.receipt), Some(sha256(&text)));
            all_secrets
                .entry(seat)
                .or_default()
                .extend(secrets_of(&text, seat, round));
            texts.push((seat, text));
        }
        let counted = view(client, &id, None).await;
        assert_eq!(counted.submitted as usize, seats);
        assert!(counted.you.is_none() && counted.submissions.is_none());
        let master = view(client, &id, Some(&people.master)).await;
        assert_eq!(master.submissions.map(|s| s.len()), Some(seats));
        if sweeping {
            sweep(client, people, &id, &seat_of, &all_secrets).await;
        }
        // Round 1 resolves by everyone marking final; the others by the game master.
        let asked = Instant::now();
        let after: RoomView = if round == 1 {
            let mut last = None;
            for name in &setup.players {
                let path = format!("/api/rooms/{id}/final?round={round}");
                let marked = client
                    .post(&path, &json!({}), &auth(token_of[name.as_str()]))
                    .await;
                assert_eq!(marked.status, 200, "{}", marked.text);
                last = Some(marked.read());
            }
            last.expect("a seat marked final")
        } else {
            let path = format!("/api/rooms/{id}/resolve?round={round}");
            let resolved = client.post(&path, &json!({}), &auth(&people.master)).await;
            assert_eq!(resolved.status, 200, "{}", resolved.text);
            resolved.read()
        };
        if seats == 10 && round != 1 {
            timings.push(asked.elapsed());
        }
        assert_eq!(usize::from(after.round), round + 1, "{after:?}");
        // The same round by the crate, on the same grid and submissions.
        let subs: Vec<(Seat, &str)> = texts.iter().map(|(s, t)| (*s, t.as_str())).collect();
        let expected = play_round(&board, round, &setup.rounds[round], &subs);
        let resolved = &after.rounds[round];
        assert_eq!(usize::from(resolved.round), round);
        assert_eq!(
            resolved.grid,
            expected.resolution.board.rows(),
            "round {round} ({round5})"
        );
        assert_eq!(resolved.scores, expected.scores);
        if sweeping {
            sweep(client, people, &id, &seat_of, &all_secrets).await;
        }
    }
    let over = view(client, &id, None).await;
    assert_eq!(over.status, "finished");
    // The exported file replays: every stored round is what the rules give.
    let game = file(client, &id, &people.master).await;
    assert!(game.is_over());
    // Every socket message so far is the public view, with no secret in it.
    let mut messages = 0;
    while let Ok(Some(Ok(message))) =
        tokio::time::timeout(Duration::from_millis(300), public.next()).await
    {
        if let Message::Text(text) = message {
            messages += 1;
            for marks in all_secrets.values() {
                for mark in marks {
                    assert!(!text.contains(mark.as_str()), "the socket shows {mark}");
                }
            }
        }
    }
    assert!(messages > 6, "only {messages} socket messages");
    id
}

async fn private_games(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let people = people(&client).await;
    let mut timings = Vec::new();
    let first = play_through(&client, &people, 10, "theme", true, &mut timings).await;
    // A whole game's file (larger than other bodies may be) imports as a finished room.
    let exported = client
        .get(&format!("/api/rooms/{first}/file"), &auth(&people.master))
        .await;
    // Pretty-printed JSON may be indented more: padded past the 16 KiB of other bodies.
    let padded = format!("{}{}", exported.text, " ".repeat(20 * 1024));
    let imported = client
        .send(
            Method::POST,
            "/api/rooms/import",
            &[
                ("authorization", &people.master),
                ("content-type", "application/json"),
            ],
            Some(&padded),
        )
        .await;
    assert_eq!(imported.status, 201, "{}", imported.text);
    let imported: RoomView = imported.read();
    assert_eq!(imported.status, "finished");
    assert_eq!(imported.totals, view(&client, &first, None).await.totals);
    let id = play_through(
        &client,
        &people,
        9,
        "corners+seat-exchange",
        true,
        &mut timings,
    )
    .await;
    for variation in ["corners", "corners-teleport", "network", "seat-exchange"] {
        play_through(&client, &people, 10, variation, false, &mut timings).await;
    }
    timings.sort();
    eprintln!(
        "resolving a 10-seat round by the game master over HTTP, storage and answer included: \
         {} rounds, fastest {:?}, median {:?}, slowest {:?}",
        timings.len(),
        timings[0],
        timings[timings.len() / 2],
        timings[timings.len() - 1]
    );
    // The forum post of a round is public and holds the grid and no submission.
    let post = client
        .get(&format!("/api/rooms/{id}/rounds/3/post"), &[])
        .await;
    assert_eq!(post.status, 200, "{}", post.text);
    assert!(
        post.text.contains("round 3 (Node Network) resolved"),
        "{}",
        post.text
    );
    assert!(!post.text.contains("zebra") && !post.text.contains("reject"));
    let picture = client
        .get(&format!("/api/rooms/{id}/rounds/3/svg"), &[])
        .await;
    assert_eq!(picture.status, 200, "{}", picture.text);
    assert!(picture.text.starts_with("<svg") && picture.text.contains("round 3"));
    client
        .get(&format!("/api/rooms/{id}/rounds/6/svg"), &[])
        .await
        .assert_error(404, "not_found");
    server.stop().await.unwrap();
    db
}

each_database!(rooms_are_played_through_and_no_bid_leaks, private_games);

async fn authorization(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let people = people(&client).await;
    let created = client
        .post("/api/rooms", &json!({"seats": 9}), &auth(&people.master))
        .await;
    let created: RoomView = created.read();
    let (id, invite) = (
        created.id,
        created.invite.expect("the game master's invite"),
    );
    let join = |token: String, invite: String| {
        let path = format!("/api/rooms/{id}/join");
        let client = &client;
        async move {
            client
                .post(&path, &json!({ "invite": invite }), &auth(&token))
                .await
        }
    };
    join(people.players[0].1.clone(), "wrong".to_owned())
        .await
        .assert_error(403, "forbidden");
    join(people.master.clone(), invite.clone())
        .await
        .assert_error(409, "conflict");
    for (_, token) in &people.players[..8] {
        assert_eq!(join(token.clone(), invite.clone()).await.status, 200);
    }
    join(people.players[0].1.clone(), invite.clone())
        .await
        .assert_error(409, "conflict");
    let start_path = format!("/api/rooms/{id}/start");
    client
        .post(&start_path, &json!({}), &auth(&people.players[0].1))
        .await
        .assert_error(403, "forbidden");
    // 8 players: too few without bots.
    client
        .send(Method::POST, &start_path, &auth(&people.master), None)
        .await
        .assert_error(409, "conflict");
    assert_eq!(join(people.players[8].1.clone(), invite).await.status, 200);
    let started = client
        .send(Method::POST, &start_path, &auth(&people.master), None)
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    assert_eq!(started.json["seats"].as_array().unwrap().len(), 9);
    let player = &people.players[0].1;
    for (path, body) in [
        ("resolve", json!({})),
        ("deadline", json!({"seconds": 60})),
        ("pause", json!({})),
        ("undo", json!({})),
        ("invite", json!({})),
    ] {
        client
            .post(&format!("/api/rooms/{id}/{path}"), &body, &auth(player))
            .await
            .assert_error(403, "forbidden");
    }
    client
        .send(
            Method::PUT,
            &format!("/api/rooms/{id}/seats/1"),
            &[
                ("authorization", player),
                ("content-type", "application/json"),
            ],
            Some(r#"{"bot": true}"#),
        )
        .await
        .assert_error(403, "forbidden");
    for path in ["audit", "file"] {
        client
            .get(&format!("/api/rooms/{id}/{path}"), &auth(player))
            .await
            .assert_error(403, "forbidden");
        client
            .get(&format!("/api/rooms/{id}/{path}"), &[])
            .await
            .assert_error(401, "unauthenticated");
    }
    let submission = format!("/api/rooms/{id}/submission");
    put_text(&client, &submission, &people.outsider, "A1 A2 4")
        .await
        .assert_error(403, "forbidden");
    put_text(&client, &submission, &people.players[9].1, "A1 A2 4")
        .await
        .assert_error(403, "forbidden");
    put_text(&client, &format!("{submission}?round=3"), player, "A1 A2 4")
        .await
        .assert_error(409, "conflict");
    put_text(&client, &submission, player, &"#".repeat(5000))
        .await
        .assert_error(400, "bad_request");
    client
        .get("/api/rooms/nosuchroom", &[])
        .await
        .assert_error(404, "not_found");
    client
        .get(&format!("/api/rooms/{id}"), &auth("Bearer nonsense"))
        .await
        .assert_error(401, "unauthenticated");
    let bad = client
        .post("/api/rooms", &json!({"seats": 11}), &auth(&people.master))
        .await;
    bad.assert_error(400, "bad_request");
    assert!(bad.message().contains("seats"), "{}", bad.text);
    client
        .post(
            "/api/rooms",
            &json!({"round_hours": 0.0}),
            &auth(&people.master),
        )
        .await
        .assert_error(400, "bad_request");
    server.stop().await.unwrap();
    db
}

each_database!(
    only_the_game_master_runs_a_room_and_players_act_for_their_own_seat,
    authorization
);

async fn controls(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let people = people(&client).await;
    let body = json!({"seats": 10, "round_hours": 1, "seed": 3});
    let id = room_with(&client, &people, body, 9, true).await;
    let gm = auth(&people.master);
    let master = view(&client, &id, Some(&people.master)).await;
    assert_eq!(master.seats.iter().filter(|s| s.bot).count(), 1);
    // The bot has submitted for the pregame already.
    assert_eq!(master.submitted, 1);
    let deadline = master.deadline_ms.expect("the pregame's deadline");
    let paused = client
        .post(&format!("/api/rooms/{id}/pause?round=0"), &json!({}), &gm)
        .await;
    assert_eq!(paused.status, 200, "{}", paused.text);
    let paused: RoomView = paused.read();
    assert!(paused.deadline_ms.is_none() && paused.paused);
    let extended = client
        .post(
            &format!("/api/rooms/{id}/deadline"),
            &json!({"seconds": 600}),
            &gm,
        )
        .await;
    assert_eq!(extended.status, 200, "{}", extended.text);
    let resumed = client
        .post(&format!("/api/rooms/{id}/resume?round=0"), &json!({}), &gm)
        .await;
    assert_eq!(resumed.status, 200, "{}", resumed.text);
    let new_deadline = resumed.read::<RoomView>().deadline_ms.unwrap();
    assert!(
        new_deadline >= deadline + 590_000,
        "{deadline} {new_deadline}"
    );
    // A player submits; the seat then goes to the outsider, who sees that submission.
    let first = master.seats[0].name.clone();
    let token = &people.players.iter().find(|(n, _)| *n == first).unwrap().1;
    let text = "# mine\n";
    let path = format!("/api/rooms/{id}/submission");
    assert_eq!(put_text(&client, &path, token, text).await.status, 200);
    let replaced = client
        .send(
            Method::PUT,
            &format!("/api/rooms/{id}/seats/1"),
            &[
                ("authorization", &people.master),
                ("content-type", "application/json"),
            ],
            Some(r#"{"account": "outsider"}"#),
        )
        .await;
    assert_eq!(replaced.status, 200, "{}", replaced.text);
    assert_eq!(replaced.read::<RoomView>().seats[0].name, "outsider");
    let theirs = view(&client, &id, Some(&people.outsider))
        .await
        .you
        .unwrap();
    assert_eq!(theirs.submission.as_deref(), Some(text));
    assert!(view(&client, &id, Some(token)).await.you.is_none());
    put_text(&client, &path, token, text)
        .await
        .assert_error(403, "forbidden");
    // Resolve the pregame, then undo it: the grid and the submissions come back.
    let start_grid = master.grid.clone();
    let resolved = client
        .post(&format!("/api/rooms/{id}/resolve"), &json!({}), &gm)
        .await;
    let resolved: RoomView = resolved.read();
    assert_eq!(resolved.round, 1);
    assert_eq!(resolved.submitted, 1, "the bot submits each round");
    // The room's people are told of the rounds that opened and of the results, without a bid.
    let told = |who: &str, kind: &str, words: &str| {
        let (client, id) = (&client, &id);
        let (who, kind, words) = (who.to_owned(), kind.to_owned(), words.to_owned());
        async move {
            let inbox = client.get("/api/me/notifications", &auth(&who)).await.json;
            let notices = inbox["notifications"].as_array().unwrap().clone();
            assert!(
                notices.iter().any(|n| n["kind"] == kind.as_str()
                    && n["room_id"] == id.as_str()
                    && n["message"].as_str().unwrap().contains(&words)),
                "{kind} {words:?}: {inbox}"
            );
            assert!(!inbox.to_string().contains("mine"), "a bid told: {inbox}");
        }
    };
    told(token, "round_opened", "round 0 is open").await;
    told(&people.outsider, "round_opened", "round 1 is open").await;
    told(&people.master, "round_results", "round 0 is resolved").await;
    // A clock change meant for the closed round is refused, not applied to the next.
    for (path, body) in [
        ("pause", json!({})),
        ("deadline", json!({"seconds": 60})),
        ("resume", json!({})),
    ] {
        let late = client
            .post(&format!("/api/rooms/{id}/{path}?round=0"), &body, &gm)
            .await;
        late.assert_error(409, "conflict");
        assert!(
            late.message().contains("round 0 is not open"),
            "{}",
            late.text
        );
    }
    let after = view(&client, &id, Some(&people.master)).await;
    assert!(!after.paused);
    assert_eq!(after.deadline_ms, resolved.deadline_ms);
    let undone = client
        .post(&format!("/api/rooms/{id}/undo"), &json!({}), &gm)
        .await;
    assert_eq!(undone.status, 200, "{}", undone.text);
    let undone: RoomView = undone.read();
    assert_eq!(undone.round, 0);
    assert_eq!(undone.grid, start_grid);
    assert_eq!(undone.submitted, 2);
    client
        .post(&format!("/api/rooms/{id}/undo"), &json!({}), &gm)
        .await
        .assert_error(409, "conflict");
    // The bot takes seat 2 and bids for it at once.
    let botted = client
        .send(
            Method::PUT,
            &format!("/api/rooms/{id}/seats/2"),
            &[
                ("authorization", &people.master),
                ("content-type", "application/json"),
            ],
            Some(r#"{"bot": true}"#),
        )
        .await;
    assert_eq!(botted.status, 200, "{}", botted.text);
    let botted: RoomView = botted.read();
    assert!(botted.seats[1].bot);
    let seats_bidding: Vec<u8> = botted
        .submissions
        .unwrap_or_default()
        .iter()
        .map(|s| s.seat)
        .collect();
    assert!(seats_bidding.contains(&2), "{seats_bidding:?}");
    // A new invite replaces the old; the audit log has it all, in order.
    let invite = client
        .post(&format!("/api/rooms/{id}/invite"), &json!({}), &gm)
        .await;
    assert_eq!(invite.status, 200, "{}", invite.text);
    let audit = client.get(&format!("/api/rooms/{id}/audit"), &gm).await;
    let actions: Vec<&str> = audit.json["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    for action in [
        "created",
        "joined",
        "started",
        "paused",
        "extended",
        "resumed",
        "submitted",
        "seat",
        "resolved",
        "undone",
        "invite",
    ] {
        assert!(
            actions.contains(&action),
            "{action} missing from {actions:?}"
        );
    }
    // Export and import: the file moves to a new room at the same round and grid.
    let exported = client.get(&format!("/api/rooms/{id}/file"), &gm).await;
    let imported = client
        .send(
            Method::POST,
            "/api/rooms/import?round_hours=2",
            &[
                ("authorization", &people.master),
                ("content-type", "application/json"),
            ],
            Some(&exported.text),
        )
        .await;
    assert_eq!(imported.status, 201, "{}", imported.text);
    let imported: RoomView = imported.read();
    assert_eq!(imported.round, 0);
    assert_eq!(imported.grid, start_grid);
    assert_eq!(imported.submitted, 3);
    assert!(imported.invite.is_some());
    assert!(
        imported.seats.iter().any(|s| s.name == first),
        "{imported:?}"
    );
    let new_id = &imported.id;
    let again = client.get(&format!("/api/rooms/{new_id}/file"), &gm).await;
    assert_eq!(
        Swap61Game::from_json(&again.text).unwrap().board(),
        Swap61Game::from_json(&exported.text).unwrap().board()
    );
    client
        .send(
            Method::POST,
            "/api/rooms/import",
            &[
                ("authorization", &people.master),
                ("content-type", "application/json"),
            ],
            Some(r#"{"format": "swapboard-swap61/9"}"#),
        )
        .await
        .assert_error(400, "bad_request");
    server.stop().await.unwrap();
    db
}

each_database!(
    the_game_master_pauses_extends_replaces_undoes_exports_and_imports,
    controls
);

async fn racing_the_deadline(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let people = people(&client).await;
    // Rounds of 2.5 s: the deadline fires while ten players keep replacing.
    let body = json!({"seats": 10, "round_hours": 2.5 / 3600.0});
    let id = room_with(&client, &people, body, 10, false).await;
    let opened = Instant::now();
    let deadline = view(&client, &id, None).await.deadline_ms.unwrap();
    let mut racers = Vec::new();
    for (i, (name, token)) in people.players.clone().into_iter().enumerate() {
        let client = Client::new(&server);
        let id = id.clone();
        racers.push(tokio::spawn(async move {
            let mut last_accepted = None;
            for k in 0.. {
                // The first player marks final between its submissions: both are cut off.
                let marks = i == 0 && k % 2 == 1;
                let text = format!("# {name} try {k}\n");
                let sent = since_1970_ms();
                let answer = if marks {
                    let path = format!("/api/rooms/{id}/final?round=0");
                    client.post(&path, &json!({}), &auth(&token)).await
                } else {
                    let path = format!("/api/rooms/{id}/submission?round=0");
                    put_text(&client, &path, &token, &text).await
                };
                match answer.status.as_u16() {
                    200 => {
                        // The deadline is a hard cut-off, whenever the round is resolved.
                        assert!(
                            sent < deadline,
                            "{name} was answered 200 to a call sent at {sent}, deadline {deadline}"
                        );
                        if !marks {
                            last_accepted = Some(text);
                        }
                    }
                    409 => {
                        let message = answer.message();
                        let closed = message.contains("closed at its deadline")
                            && message.contains(&format!("({deadline} ms since 1970)"));
                        assert!(
                            closed || message.contains("round 0 is not open"),
                            "{message}"
                        );
                        break;
                    }
                    _ => panic!("{}", answer.text),
                }
            }
            (name, last_accepted)
        }));
    }
    let mut last: HashMap<String, Option<String>> = HashMap::new();
    for racer in racers {
        let (name, text) = racer.await.unwrap();
        last.insert(name, text);
    }
    let fired = opened.elapsed();
    assert!(fired < Duration::from_millis(2500 + 1500), "{fired:?}");
    // The racers were cut off at the deadline; the scheduler resolves the round soon after.
    while view(&client, &id, None).await.round == 0 {
        assert!(
            opened.elapsed() < Duration::from_secs(10),
            "round 0 was not resolved"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Every accepted submission is the one the round was resolved with.
    let game = file(&client, &id, &people.master).await;
    let resolved = &game.resolved_submissions()[0];
    for (name, text) in &last {
        let seat = game.seat(name).unwrap();
        assert_eq!(resolved.get(&seat), text.as_ref(), "{name}");
    }
    let audit = client
        .get(&format!("/api/rooms/{id}/audit"), &auth(&people.master))
        .await;
    let resolutions = audit.json["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["action"] == "resolved" && e["detail"].as_str().unwrap().starts_with("round 0")
        })
        .count();
    assert_eq!(resolutions, 1);
    eprintln!("the deadline fired and the racers heard of it {fired:?} after the round opened");
    server.stop().await.unwrap();
    db
}

each_database!(
    submissions_racing_the_deadline_are_resolved_or_refused,
    racing_the_deadline
);

async fn two_instances(db: TestDb) -> TestDb {
    let one = start(&db, generous()).await;
    let other = start(&db, generous()).await;
    let client = Client::new(&one);
    let master =
        sign_up_and_token(&client, &json!({"name": "gm", "password": "correct horse"})).await;
    let master = format!("Bearer {master}");
    // Nine bots and rounds of one second: both instances' schedulers race for every round.
    let created = client
        .post(
            "/api/rooms",
            &json!({"seats": 9, "round_hours": 1.0 / 3600.0}),
            &auth(&master),
        )
        .await;
    let id = created.read::<RoomView>().id;
    let started = client
        .post(
            &format!("/api/rooms/{id}/start"),
            &json!({"fill_with_bots": true}),
            &auth(&master),
        )
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    let begun = Instant::now();
    while view(&client, &id, None).await.status != "finished" {
        assert!(
            begun.elapsed() < Duration::from_secs(20),
            "the rounds stalled"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let audit = client
        .get(&format!("/api/rooms/{id}/audit"), &auth(&master))
        .await;
    for round in 0..=5 {
        let times = audit.json["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| {
                e["action"] == "resolved"
                    && e["detail"]
                        .as_str()
                        .unwrap()
                        .starts_with(&format!("round {round} with 9 submissions"))
            })
            .count();
        assert_eq!(times, 1, "round {round}: {}", audit.text);
    }
    // The game file replays: each round was resolved once, with the bots' bids.
    assert!(file(&client, &id, &master).await.is_over());
    one.stop().await.unwrap();
    other.stop().await.unwrap();
    db
}

each_database!(two_instances_resolve_each_deadline_once, two_instances);

async fn my_rooms(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let master = bearer(&client, "gm").await;
    let player = bearer(&client, "pl").await;
    let outsider = bearer(&client, "out").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let created = client
            .post("/api/rooms", &json!({"seats": 9}), &auth(&master))
            .await;
        assert_eq!(created.status, 201, "{}", created.text);
        let created: RoomView = created.read();
        ids.push((created.id, created.invite.unwrap()));
        // Two rooms of one millisecond would be listed in either order.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (first, invite) = &ids[0];
    let joined = client
        .post(
            &format!("/api/rooms/{first}/join"),
            &json!({ "invite": invite }),
            &auth(&player),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let listed = |token: String| {
        let client = &client;
        async move {
            let answer = client.get("/api/me/rooms", &auth(&token)).await;
            assert_eq!(answer.status, 200, "{}", answer.text);
            answer
                .read::<MyRooms>()
                .rooms
                .into_iter()
                .map(|room| room.id)
                .collect::<Vec<_>>()
        }
    };
    // The game master's, newest first; the player's seat; nothing for an outsider.
    assert_eq!(
        listed(master.clone()).await,
        [ids[1].0.clone(), first.clone()]
    );
    assert_eq!(listed(player.clone()).await, std::slice::from_ref(first));
    assert!(listed(outsider).await.is_empty());
    // Each as `GET /api/rooms/{id}` shows it to the caller: the lobby, never the invite.
    let answer = client.get("/api/me/rooms", &auth(&player)).await;
    let mine = answer.read::<MyRooms>().rooms;
    assert_eq!(mine[0].joined, ["pl"], "{}", answer.text);
    assert!(mine[0].invite.is_none());
    client
        .get("/api/me/rooms", &[])
        .await
        .assert_error(401, "unauthenticated");
    server.stop().await.unwrap();
    db
}

each_database!(
    a_user_lists_the_rooms_it_runs_or_sits_in_newest_first,
    my_rooms
);
