//! The notifications of single events, on both backends: the Swap 61 deadline reminders
//! (once per seat and round, none for a seat marked final), the daily digest (held, then
//! one mail at the account's hour, once), the rematch offer and the rating change a rated
//! game's end names.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use swapboard_server::{Clock, DAY_MS};
use swapboard_testkit::{
    Client, TestDb, any_move, auth, bearer, confirmed_address, each_database, execute,
    game_between, generous, inbox, next_mail, on_manual_clock, options, smtp_sink, unfolded,
};

/// Moves the server's clock `by` on: its delivery worker makes a whole pass at once
/// (writing the reminders and sending the digests due), instead of the test waiting for
/// the half-minute pass.
fn pass_after(clock: &Clock, by: Duration) {
    clock.advance(by);
}

/// The caller's notifications of `kind` about the room `room`.
async fn room_notices(client: &Client, token: &str, kind: &str, room: &str) -> Vec<Value> {
    inbox(client, token).await["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == kind && n["room_id"] == room)
        .cloned()
        .collect()
}

/// Waits until the caller has a notification of `kind` about `room` whose message holds
/// `words`.
async fn until_notice(client: &Client, token: &str, kind: &str, room: &str, words: &str) {
    let started = std::time::Instant::now();
    loop {
        let found = room_notices(client, token, kind, room).await;
        if found
            .iter()
            .any(|n| n["message"].as_str().unwrap().contains(words))
        {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no {kind} {words:?} for {room}: {found:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A started room of nine seats, round `round_hours` long, with these players (by bearer)
/// and bots in the other seats: its id.
async fn room_of(client: &Client, master: &str, players: &[&str], round_hours: f64) -> String {
    let body = json!({"seats": 9, "round_hours": round_hours, "seed": 7});
    let created = client.post("/api/rooms", &body, &auth(master)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    let invite = created.json["invite"].as_str().unwrap().to_owned();
    for player in players {
        let joined = client
            .post(
                &format!("/api/rooms/{id}/join"),
                &json!({ "invite": invite }),
                &auth(player),
            )
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
    }
    let started = client
        .post(
            &format!("/api/rooms/{id}/start"),
            &json!({"fill_with_bots": true}),
            &auth(master),
        )
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    id
}

/// The game master resolves the room's open round `round`.
async fn resolve(client: &Client, master: &str, room: &str, round: u8) {
    let resolved = client
        .post(
            &format!("/api/rooms/{room}/resolve?round={round}"),
            &json!({}),
            &auth(master),
        )
        .await;
    assert_eq!(resolved.status, 200, "{}", resolved.text);
    assert_eq!(resolved.json["round"], round + 1, "{}", resolved.text);
}

async fn reminders(db: TestDb) -> TestDb {
    let mut options = options(&db, generous());
    let clock = on_manual_clock(&mut options);
    let server = swapboard_server::Server::start(&options).await.unwrap();
    let client = Client::new(&server);
    let gm = bearer(&client, "gm").await;
    let (ready, late, other) = (
        bearer(&client, "ready").await,
        bearer(&client, "late").await,
        bearer(&client, "other").await,
    );
    // Room A closes its round in a day; `ready` marks final, `late` does not. Room B's
    // rounds, resolved between the passes, show that each pass ran: each of its rounds is
    // reminded once, by the next pass.
    let a = room_of(&client, &gm, &[&ready, &late], 24.0).await;
    let b = room_of(&client, &gm, &[&other], 24.0).await;
    let marked = client
        .post(
            &format!("/api/rooms/{a}/final?round=0"),
            &json!({}),
            &auth(&ready),
        )
        .await;
    assert_eq!(marked.status, 200, "{}", marked.text);
    // Pass 1: the round closes within 24 hours: `late` is reminded, `ready` is not.
    pass_after(&clock, Duration::from_millis(1));
    until_notice(&client, &other, "deadline_24h", &b, "round 0 closes").await;
    until_notice(
        &client,
        &late,
        "deadline_24h",
        &a,
        "round 0 closes in less than 24 hours",
    )
    .await;
    let notice = &room_notices(&client, &late, "deadline_24h", &a).await[0];
    assert!(
        notice["message"]
            .as_str()
            .unwrap()
            .contains("you have not marked your bids final"),
        "{notice}"
    );
    // Pass 2: nothing again for room A's round.
    resolve(&client, &gm, &b, 0).await;
    pass_after(&clock, Duration::from_millis(1));
    until_notice(&client, &other, "deadline_24h", &b, "round 1 closes").await;
    assert_eq!(
        room_notices(&client, &late, "deadline_24h", &a).await.len(),
        1
    );
    assert_eq!(
        room_notices(&client, &ready, "deadline_24h", &a)
            .await
            .len(),
        0
    );
    assert_eq!(
        room_notices(&client, &late, "deadline_1h", &a).await.len(),
        0
    );

    // Twenty-three hours and a half later room A's round closes within the hour; room B's
    // next round opens then, a day long.
    clock.advance(Duration::from_secs(23 * 3600 + 1800));
    resolve(&client, &gm, &b, 1).await;
    pass_after(&clock, Duration::from_millis(1));
    until_notice(&client, &other, "deadline_24h", &b, "round 2 closes").await;
    until_notice(
        &client,
        &late,
        "deadline_1h",
        &a,
        "round 0 closes in less than an hour",
    )
    .await;
    resolve(&client, &gm, &b, 2).await;
    pass_after(&clock, Duration::from_millis(1));
    until_notice(&client, &other, "deadline_24h", &b, "round 3 closes").await;
    assert_eq!(
        room_notices(&client, &late, "deadline_1h", &a).await.len(),
        1
    );
    assert_eq!(
        room_notices(&client, &late, "deadline_24h", &a).await.len(),
        1
    );
    assert_eq!(
        room_notices(&client, &ready, "deadline_1h", &a).await.len(),
        0
    );
    assert_eq!(
        room_notices(&client, &ready, "deadline_24h", &a)
            .await
            .len(),
        0
    );
    // Each of room B's rounds was reminded once.
    assert_eq!(
        room_notices(&client, &other, "deadline_24h", &b)
            .await
            .len(),
        4
    );
    server.stop().await.unwrap();
    db
}

each_database!(
    deadline_reminders_go_once_per_seat_and_round_and_never_to_a_final_seat,
    reminders
);

/// PUTs a JSON body.
async fn put(client: &Client, path: &str, token: &str, body: &Value) -> swapboard_testkit::Answer {
    client
        .send(
            Method::PUT,
            path,
            &[
                ("authorization", token),
                ("content-type", "application/json"),
            ],
            Some(&body.to_string()),
        )
        .await
}

async fn digest(db: TestDb) -> TestDb {
    let (smtp, mut mails) = smtp_sink().await;
    let mut options = options(&db, generous());
    // Noon on the server's clock: the digest's hour is the hour now, and stays so.
    let clock = on_manual_clock(&mut options);
    let today = clock.now_ms() - clock.now_ms().rem_euclid(DAY_MS);
    clock.set(today + 12 * 3_600_000);
    let hour = 12;
    options.smtp = Some(smtp);
    options.mail_from = Some("noreply@swapboard.test".to_owned());
    options.public_url = Some("http://swapboard.test".to_owned());
    let server = swapboard_server::Server::start(&options).await.unwrap();
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    confirmed_address(&client, &mut mails, &bob, "bob@example.test").await;
    let set = put(
        &client,
        "/api/me/notifications",
        &bob,
        &json!({"mail": {"challenge": "digest"}, "digest_hour": hour}),
    )
    .await;
    assert_eq!(set.status, 200, "{}", set.text);
    assert_eq!(set.json["email"]["digest_hour"], hour, "{}", set.text);
    // Today's digest, at this hour, has gone (the worker's stamp, set here): what is held
    // now waits for tomorrow's.
    execute(
        &db,
        &format!(
            "UPDATE email_addresses SET digest_sent_ms = {}",
            clock.now_ms()
        ),
    )
    .await;
    let mut games = Vec::new();
    for _ in 0..2 {
        let body = json!({"game": "swaptimum", "size": 5, "opponent": "user:bob"});
        let created = client.post("/api/games", &body, &auth(&ann)).await;
        assert_eq!(created.status, 201, "{}", created.text);
        games.push(created.json["id"].as_str().unwrap().to_owned());
    }
    for game in &games {
        let held = swapboard_testkit::delivered(&client, &bob, "challenge", game).await;
        assert_eq!(held["delivery"], "digest", "{held}");
    }
    // Nothing is mailed now, nor by a pass later in the same day.
    pass_after(&clock, Duration::from_secs(60));
    if let Some(mail) = next_mail(&mut mails, Duration::from_secs(1)).await {
        panic!("a held notification was mailed: {}", mail.text);
    }
    // A day later, at the hour: one mail holds both challenges, with their links.
    pass_after(&clock, Duration::from_secs(24 * 3600 - 60));
    let mail = next_mail(&mut mails, Duration::from_secs(10))
        .await
        .expect("the digest");
    assert_eq!(mail.to, ["bob@example.test"]);
    let text = unfolded(&mail.text);
    assert!(
        text.contains("Subject: swapboard: your daily digest"),
        "{text}"
    );
    assert_eq!(text.matches("ann challenges you").count(), 2, "{text}");
    for game in &games {
        assert!(
            text.contains(&format!("http://swapboard.test/games/{game}")),
            "{text}"
        );
        assert_eq!(
            swapboard_testkit::delivered(&client, &bob, "challenge", game).await["delivery"],
            "done"
        );
    }
    assert!(
        text.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "{text}"
    );
    // Sent once: the next pass sends nothing.
    pass_after(&clock, Duration::from_millis(1));
    if let Some(mail) = next_mail(&mut mails, Duration::from_secs(1)).await {
        panic!("a second digest: {}", mail.text);
    }
    server.stop().await.unwrap();
    db
}

each_database!(
    a_digest_holds_its_kinds_until_its_hour_and_goes_once,
    digest
);

async fn rematch_and_rating(db: TestDb) -> TestDb {
    let server = swapboard_testkit::start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    // A rated game (the default between accounts): ann resigns after two moves.
    let id = game_between(&client, "swaptimum", 9, &ann, (&bob, "bob")).await;
    any_move(&client, &id, 0, &ann).await;
    any_move(&client, &id, 1, &bob).await;
    let resigned = client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&ann))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let game = client.get(&format!("/api/games/{id}"), &[]).await.json;
    assert_eq!(game["rated"], true, "{game}");
    // Each player's notice names their rating before and after, and the change with its
    // sign, as the game's view has them.
    for (k, token, result) in [
        (0usize, &ann, "you lost by resignation"),
        (1, &bob, "you won by resignation"),
    ] {
        let shown = &game["players"][k]["rating"];
        let before = shown["before"].as_f64().unwrap();
        let change = shown["change"].as_f64().unwrap();
        assert!(if k == 0 { change < 0.0 } else { change > 0.0 }, "{shown}");
        let words = format!(
            "{result}. Rating {before:.0} to {:.0} ({change:+.0}).",
            before + change
        );
        let notice = swapboard_testkit::delivered(&client, token, "game_ended", &id).await;
        assert!(
            notice["message"].as_str().unwrap().ends_with(&words),
            "{words:?}: {notice}"
        );
    }
    // ann offers a rematch: bob is told, with the new game's id; ann is not.
    let offered = client
        .post(&format!("/api/games/{id}/rematch"), &json!({}), &auth(&ann))
        .await;
    assert_eq!(offered.status, 201, "{}", offered.text);
    let rematch = offered.json["id"].as_str().unwrap().to_owned();
    let notice = swapboard_testkit::delivered(&client, &bob, "rematch", &rematch).await;
    assert!(
        notice["message"]
            .as_str()
            .unwrap()
            .starts_with("ann offers you a rematch of Swaptimum"),
        "{notice}"
    );
    let anns = inbox(&client, &ann).await;
    assert!(
        !anns["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["kind"] == "rematch"),
        "{anns}"
    );
    // Asked again, the same offer: told once.
    let again = client
        .post(&format!("/api/games/{id}/rematch"), &json!({}), &auth(&ann))
        .await;
    assert_eq!(again.status, 200, "{}", again.text);
    let bobs = inbox(&client, &bob).await;
    let offers = bobs["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "rematch")
        .count();
    assert_eq!(offers, 1, "{bobs}");
    server.stop().await.unwrap();
    db
}

each_database!(
    a_rematch_offer_and_a_rated_end_s_rating_change_are_told,
    rematch_and_rating
);

async fn seat_invitations(db: TestDb) -> TestDb {
    let server = swapboard_testkit::start(&db, generous()).await;
    let client = Client::new(&server);
    let gm = bearer(&client, "gm").await;
    let player = bearer(&client, "player").await;
    let (carl, dora, eve) = (
        bearer(&client, "carl").await,
        bearer(&client, "dora").await,
        bearer(&client, "eve").await,
    );
    let room = room_of(&client, &gm, &[&player], 24.0).await;
    let give = |seat: u8, name: &'static str| {
        let (client, room, gm) = (&client, room.clone(), gm.clone());
        async move {
            put(
                client,
                &format!("/api/rooms/{room}/seats/{seat}"),
                &gm,
                &json!({ "account": name }),
            )
            .await
        }
    };
    // The game master gives carl a seat: carl is told, in the same transaction.
    let given = give(2, "carl").await;
    assert_eq!(given.status, 200, "{}", given.text);
    let told = room_notices(&client, &carl, "invitation", &room).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        told[0]["message"],
        format!("gm gives you seat P2 of Swap 61 room {room} (round 0).").as_str()
    );
    // A block, made by either of the two, refuses the seat (and tells nobody).
    for (path, token) in [("/api/me/blocks/gm", &dora), ("/api/me/blocks/eve", &gm)] {
        let blocked = client.send(Method::PUT, path, &auth(token), None).await;
        assert_eq!(blocked.status, 200, "{}", blocked.text);
    }
    for (name, token) in [("dora", &dora), ("eve", &eve)] {
        let refused = give(3, name).await;
        refused.assert_error(403, "forbidden");
        assert!(refused.message().contains("blocked"), "{}", refused.text);
        assert!(
            room_notices(&client, token, "invitation", &room)
                .await
                .is_empty()
        );
    }
    let seats = client.get(&format!("/api/rooms/{room}"), &auth(&gm)).await;
    assert!(
        seats.json["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["name"] != "dora" && s["name"] != "eve"),
        "{}",
        seats.text
    );
    // The kind is one the account chooses for.
    let settings = client
        .get("/api/me/notifications/settings", &auth(&carl))
        .await;
    assert_eq!(
        settings.json["mail"]["invitation"], "immediate",
        "{}",
        settings.text
    );
    server.stop().await.unwrap();
    db
}

each_database!(
    a_seat_given_by_the_game_master_is_told_and_refused_across_a_block,
    seat_invitations
);
