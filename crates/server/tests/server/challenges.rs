//! Challenges like a club expects them (issue 49): a direct challenge is its challenged
//! account's alone (not in the lobby), who may decline it with a reason; the challenger may
//! cancel it; nobody joins it once it is over or past its time (an hour for a live clock,
//! two weeks else, on the server's clock); a ban calls off the banned account's challenges.
//! Each end tells the other side.

use std::time::Duration;

use serde_json::{Value, json};
use swapboard_server::api::{ChallengeList, GameView};
use swapboard_server::store::BanOrder;
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, generous, inbox, staff, start_on_manual_clock,
};

/// A challenge from the holder of `from`, against `opponent` (`user:NAME` or `open`), with
/// this clock: the new game.
async fn challenge(client: &Client, from: &str, opponent: &str, clock: Value) -> GameView {
    let body = json!({"game": "swaptimum", "size": 5, "opponent": opponent,
        "colour": "first", "clock": clock});
    let created = client.post("/api/games", &body, &auth(from)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    created.read::<GameView>()
}

/// The ids of the lobby's open challenges.
async fn lobby(client: &Client) -> Vec<String> {
    let lobby = client.get("/api/lobby", &[]).await;
    lobby.json["open"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["id"].as_str().unwrap().to_owned())
        .collect()
}

/// The game as anyone sees it.
async fn shown_to_anyone(client: &Client, id: &str) -> GameView {
    client
        .get(&format!("/api/games/{id}"), &[])
        .await
        .read::<GameView>()
}

/// The messages of the caller's inbox.
async fn messages(client: &Client, token: &str) -> Vec<String> {
    inbox(client, token).await["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|notice| notice["message"].as_str().unwrap().to_owned())
        .collect()
}

async fn answered(db: TestDb) -> TestDb {
    let (server, clock) = start_on_manual_clock(&db, generous()).await;
    let client = Client::new(&server);
    // ann is an admin (and bob a moderator): ann bans below.
    let (ann, bob, store) = staff(&client, &db).await;
    let carl = bearer(&client, "carl").await;
    let days = json!({"days_per_move": 3});

    // A direct challenge is bob's alone; an open one is in the lobby.
    let direct = challenge(&client, &ann, "user:bob", days.clone()).await;
    let open = challenge(&client, &ann, "open", days.clone()).await;
    assert_eq!(direct.status, "waiting");
    assert!(direct.expires_at.is_some(), "a waiting game's expiry");
    let listed = lobby(&client).await;
    assert!(listed.contains(&open.id), "{listed:?}");
    assert!(!listed.contains(&direct.id), "{listed:?}");
    // bob sees it among his challenges, ann among hers; carl sees neither.
    let of = |token: &str| {
        let (client, token) = (&client, token.to_owned());
        async move {
            client
                .get("/api/me/challenges", &auth(&token))
                .await
                .read::<ChallengeList>()
        }
    };
    // Sorted: both were made at the same instant of the test's clock.
    let ids = |games: &[GameView]| {
        let mut ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
        ids.sort();
        ids
    };
    let bobs = of(&bob).await;
    assert_eq!(
        (ids(&bobs.incoming), ids(&bobs.outgoing)),
        (vec![direct.id.clone()], vec![])
    );
    let anns = of(&ann).await;
    assert_eq!(ids(&anns.incoming), Vec::<String>::new());
    let mut made = vec![open.id.clone(), direct.id.clone()];
    made.sort();
    assert_eq!(ids(&anns.outgoing), made);
    let carls = of(&carl).await;
    assert!(carls.incoming.is_empty() && carls.outgoing.is_empty());

    // Only bob declines it, in at most 200 characters; ann is told why.
    let (path, reason) = (
        format!("/api/games/{}/decline", direct.id),
        json!({"reason": "not today"}),
    );
    client
        .post(&path, &reason, &auth(&carl))
        .await
        .assert_error(403, "forbidden");
    client
        .post(&path, &reason, &auth(&ann))
        .await
        .assert_error(403, "forbidden");
    client
        .post(&path, &json!({"reason": "x".repeat(201)}), &auth(&bob))
        .await
        .assert_error(400, "bad_request");
    let declined = client.post(&path, &reason, &auth(&bob)).await;
    assert_eq!(declined.status, 200, "{}", declined.text);
    let declined = declined.read::<GameView>();
    assert_eq!(declined.status, "declined");
    assert_eq!(declined.decline_reason.as_deref(), Some("not today"));
    assert_eq!(declined.expires_at, None);
    // Over: nobody joins it, nobody declines or cancels it again.
    let join = format!("/api/games/{}/join", direct.id);
    client
        .post(&join, &json!({}), &auth(&bob))
        .await
        .assert_error(409, "conflict");
    client
        .post(&path, &reason, &auth(&bob))
        .await
        .assert_error(409, "conflict");
    client
        .post(
            &format!("/api/games/{}/cancel", direct.id),
            &json!({}),
            &auth(&ann),
        )
        .await
        .assert_error(409, "conflict");
    // Stored finished, it is no game to have a rematch of.
    client
        .post(
            &format!("/api/games/{}/rematch", direct.id),
            &json!({}),
            &auth(&ann),
        )
        .await
        .assert_error(409, "conflict");
    let told = messages(&client, &ann).await;
    assert!(
        told.iter()
            .any(|m| m.contains("bob declined your challenge") && m.contains("not today")),
        "{told:?}"
    );

    // Only ann cancels hers; bob is told.
    let withdrawn = challenge(&client, &ann, "user:bob", days.clone()).await;
    let cancel = format!("/api/games/{}/cancel", withdrawn.id);
    client
        .post(&cancel, &json!({}), &auth(&bob))
        .await
        .assert_error(403, "forbidden");
    let cancelled = client.post(&cancel, &json!({}), &auth(&ann)).await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.text);
    assert_eq!(cancelled.read::<GameView>().status, "cancelled");
    let told = messages(&client, &bob).await;
    assert!(
        told.iter()
            .any(|m| m.contains("ann withdrew their challenge")),
        "{told:?}"
    );

    // A live clock's challenge waits an hour: past it, it is expired (before the sweep
    // too), cannot be joined, and leaves the lobby.
    let live = challenge(
        &client,
        &ann,
        "open",
        json!({"initial_s": 300, "increment_s": 5}),
    )
    .await;
    assert!(lobby(&client).await.contains(&live.id));
    clock.advance(Duration::from_secs(3_599));
    assert!(
        lobby(&client).await.contains(&live.id),
        "an hour is not over"
    );
    clock.advance(Duration::from_secs(2));
    assert_eq!(shown_to_anyone(&client, &live.id).await.status, "expired");
    client
        .post(
            &format!("/api/games/{}/join", live.id),
            &json!({}),
            &auth(&carl),
        )
        .await
        .assert_error(409, "conflict");
    assert!(!lobby(&client).await.contains(&live.id));
    // The correspondence challenge still waits, and carl may take it.
    let joined = client
        .post(
            &format!("/api/games/{}/join", open.id),
            &json!({}),
            &auth(&carl),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let started = joined.read::<GameView>();
    assert_eq!(
        (started.status.as_str(), started.expires_at),
        ("playing", None)
    );
    // Before the second move, giving up calls the game off: the server says so.
    assert!(started.abortable);
    assert!(
        !shown_to_anyone(&client, &direct.id).await.abortable,
        "over"
    );

    // A ban calls off the banned account's waiting challenges, made or received.
    let to_carl = challenge(&client, &bob, "user:carl", days.clone()).await;
    let from_carl = challenge(&client, &carl, "open", days).await;
    store
        .set_banned("carl", BanOrder::Ban { until_ms: None }, "operator", "test")
        .await
        .unwrap();
    for id in [&to_carl.id, &from_carl.id] {
        assert_eq!(
            shown_to_anyone(&client, id).await.status,
            "cancelled",
            "{id}"
        );
    }
    store.close().await;
    server.stop().await.unwrap();
    db
}

each_database!(
    a_challenge_is_declined_cancelled_or_expires_and_a_ban_calls_it_off,
    answered
);
