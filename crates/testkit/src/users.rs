//! What users do over HTTP, as a user does it: accounts, games, moves, staff, tournaments
//! started, reviews and inboxes waited for.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use swapboard_server::api::{GameView, NewToken, TournamentView};
use swapboard_server::store::{Role, Store};

use crate::{Client, TestDb};

/// Signs an account up with these credentials and returns a new bearer token of it.
pub async fn sign_up_and_token(client: &Client, credentials: &Value) -> String {
    let created = client.post("/api/accounts", credentials, &[]).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let token = client.post("/api/tokens", credentials, &[]).await;
    assert_eq!(token.status, 201, "{}", token.text);
    token.read::<NewToken>().token
}

/// Signs up an account of this name (password `correct horse`); the `Authorization` value
/// of a new bearer token of it.
pub async fn bearer(client: &Client, name: &str) -> String {
    let credentials = json!({"name": name, "password": "correct horse"});
    format!("Bearer {}", sign_up_and_token(client, &credentials).await)
}

/// The `Authorization` header of a bearer value.
pub fn auth(bearer: &str) -> [(&str, &str); 1] {
    [("authorization", bearer)]
}

/// A game of `game` on side `size` that the holder of `creator` made, in the first seat,
/// for the account `joiner_name`, who joined it with `joiner`: its id, once being played.
pub async fn game_between(
    client: &Client,
    game: &str,
    size: u32,
    creator: &str,
    (joiner, joiner_name): (&str, &str),
) -> String {
    let body = json!({"game": game, "size": size,
        "opponent": format!("user:{joiner_name}"), "colour": "first"});
    game_made(client, &body, creator, joiner).await
}

/// A game the holder of `creator` made with `body` (`POST /api/games`), which the holder of
/// `joiner` then joined: its id, once being played.
pub async fn game_made(client: &Client, body: &Value, creator: &str, joiner: &str) -> String {
    let created = client.post("/api/games", body, &auth(creator)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.read::<GameView>().id;
    let joined = client
        .post(&format!("/api/games/{id}/join"), &json!({}), &auth(joiner))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.read::<GameView>().status, "playing");
    id
}

/// Plays a legal move for the player to move at `ply` (the first cell of a 5x5 board the
/// rules take).
pub async fn any_move(client: &Client, id: &str, ply: u32, token: &str) {
    for file in ['c', 'b', 'd', 'a', 'e'] {
        for rank in 1..=5 {
            let body = json!({"move": format!("{file}{rank}"), "ply": ply});
            let answer = client
                .post(&format!("/api/games/{id}/moves"), &body, &auth(token))
                .await;
            if answer.status == 200 {
                return;
            }
            assert_eq!(answer.status, 422, "{}", answer.text);
        }
    }
    panic!("no move of a 5x5 board was legal at ply {ply}");
}

/// Signs up ann, an admin, and bob, a moderator (granted as the operator does): their
/// bearers, and the store the roles were granted through.
pub async fn staff(client: &Client, db: &TestDb) -> (String, String, Store) {
    let ann = bearer(client, "ann").await;
    let bob = bearer(client, "bob").await;
    let store = Store::open(&db.url)
        .await
        .expect("opening the test's store");
    store
        .grant_role("ann", Role::Admin, "operator")
        .await
        .expect("granting the admin's role");
    store
        .grant_role("bob", Role::Moderator, "operator")
        .await
        .expect("granting the moderator's role");
    (ann, bob, store)
}

/// The caller's inbox.
pub async fn inbox(client: &Client, token: &str) -> Value {
    let answer = client.get("/api/me/notifications", &auth(token)).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.json
}

/// Waits until the caller's newest notification of `kind` about `game` has been delivered
/// (its delivery no longer `pending` or `sending`), and returns it.
pub async fn delivered(client: &Client, token: &str, kind: &str, game: &str) -> Value {
    let started = Instant::now();
    loop {
        let inbox = inbox(client, token).await;
        let found = inbox["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["kind"] == kind && n["game_id"] == game)
            .cloned();
        if let Some(notice) = found
            && notice["delivery"] != "pending"
            && notice["delivery"] != "sending"
        {
            return notice;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{inbox}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Polls the review of a game until it is done.
pub async fn reviewed(client: &Client, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let answer = client.get(&format!("/api/games/{id}/review"), &[]).await;
        match answer.status.as_u16() {
            200 => return answer.json,
            202 => {
                assert_eq!(answer.json["status"], "running", "{}", answer.text);
                let done = answer.json["done"].as_u64().unwrap();
                assert!(done <= answer.json["total"].as_u64().unwrap());
                assert!(Instant::now() < deadline, "the review takes too long");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            _ => panic!("{}", answer.text),
        }
    }
}

/// Starts tournament `id` as the holder of `bearer` (its creator): the view the start
/// answered.
pub async fn started(client: &Client, id: &str, bearer: &str) -> TournamentView {
    let answer = client
        .post(
            &format!("/api/tournaments/{id}/start"),
            &json!({}),
            &auth(bearer),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.read()
}
