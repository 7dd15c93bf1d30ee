//! A player's record over real HTTP on both backends (issue 26): games played, won, lost and
//! drawn (a draw declared by an administrator) per game on the profile; a player's games filtered by game, result, rating and
//! opponent; two players' head-to-head; refusals of filters that cannot be read.

use serde_json::json;
use swapboard_play::AnyPosition;
use swapboard_server::api::{GameList, RecordView, VersusView};
use swapboard_server::store::{Role, Store};
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, game_between, generous, start,
};

/// Plays two moves of a Flipstop game (so that it can no longer be aborted), then `loser`
/// resigns it.
async fn win_by_resignation(client: &Client, id: &str, players: [&str; 2], loser: &str) {
    let moves = format!("/api/games/{id}/moves");
    for (ply, mover) in players.iter().enumerate() {
        let game = client.get(&format!("/api/games/{id}"), &[]).await.json;
        let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
        let text = position.legal_moves(usize::MAX).unwrap()[0].clone();
        let played = client
            .post(&moves, &json!({"move": text, "ply": ply}), &auth(mover))
            .await;
        assert_eq!(played.status, 200, "{}", played.text);
    }
    let resigned = client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(loser))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    assert_eq!(resigned.json["result"]["termination"], "resigned");
}

/// The ids of a player's games that `query` lets through, sorted (games changed in the
/// same millisecond have no order of their own).
async fn listed(client: &Client, name: &str, query: &str) -> Vec<String> {
    let answer = client
        .get(&format!("/api/accounts/{name}/games{query}"), &[])
        .await;
    assert_eq!(answer.status, 200, "{query}: {}", answer.text);
    let mut ids: Vec<String> = answer
        .read::<GameList>()
        .games
        .into_iter()
        .map(|g| g.id)
        .collect();
    ids.sort();
    ids
}

/// `ids`, sorted.
fn set(ids: &[&String]) -> Vec<String> {
    let mut ids: Vec<String> = ids.iter().map(|id| (*id).clone()).collect();
    ids.sort();
    ids
}

fn record(played: u32, won: u32, lost: u32) -> RecordView {
    RecordView {
        played,
        won,
        lost,
        drawn: played - won - lost,
    }
}

async fn records_and_filters(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let cy = bearer(&client, "cy").await;

    // Ann beats Bob, then loses to him (both rated, the default between people); beats Cy
    // in an unrated game; a fourth game with Bob is called off; a fifth is being played.
    let won = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    win_by_resignation(&client, &won, [&ann, &bob], &bob).await;
    let lost = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    win_by_resignation(&client, &lost, [&ann, &bob], &ann).await;
    let body = json!({"game": "swaptimum", "size": 5, "opponent": "user:cy",
                      "colour": "first", "rated": false});
    let created = client.post("/api/games", &body, &auth(&ann)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let unrated = created.json["id"].as_str().unwrap().to_owned();
    let joined = client
        .post(
            &format!("/api/games/{unrated}/join"),
            &json!({}),
            &auth(&cy),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    win_by_resignation(&client, &unrated, [&ann, &cy], &cy).await;
    let aborted = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let resigned = client
        .post(
            &format!("/api/games/{aborted}/resign"),
            &json!({}),
            &auth(&bob),
        )
        .await;
    assert_eq!(resigned.json["result"]["termination"], "aborted");
    let playing = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    // And one an administrator declares drawn.
    let referee = bearer(&client, "referee").await;
    let store = Store::open(&db.url).await.unwrap();
    store
        .grant_role("referee", Role::Admin, "operator")
        .await
        .unwrap();
    store.close().await;
    let drawn = game_between(&client, "flipstop", 5, &ann, (&bob, "bob")).await;
    let decided = client
        .post(
            &format!("/api/admin/games/{drawn}/adjudicate"),
            &json!({"result": "draw", "reason": "both agreed"}),
            &auth(&referee),
        )
        .await;
    assert_eq!(decided.status, 200, "{}", decided.text);

    // The profile's record: finished games only, the called-off one not among them.
    let account = client.get("/api/accounts/ann", &[]).await;
    assert_eq!(account.status, 200, "{}", account.text);
    assert_eq!(
        account.json["record"],
        json!({"flipstop": record(3, 1, 1), "swaptimum": record(1, 1, 0)}),
        "{}",
        account.text
    );
    let account = client.get("/api/accounts/bob", &[]).await;
    assert_eq!(account.json["record"], json!({"flipstop": record(3, 1, 1)}));
    let nobody = client.get("/api/accounts/dee", &[]).await;
    nobody.assert_error(404, "not_found");

    // Filters, alone and together.
    let all = listed(&client, "ann", "").await;
    assert_eq!(all.len(), 6, "{all:?}");
    assert_eq!(
        listed(&client, "ann", "?result=won").await,
        set(&[&unrated, &won])
    );
    assert_eq!(listed(&client, "ann", "?result=lost").await, set(&[&lost]));
    assert_eq!(
        listed(&client, "ann", "?result=drawn").await,
        set(&[&drawn])
    );
    assert_eq!(
        listed(&client, "bob", "?result=drawn").await,
        set(&[&drawn])
    );
    assert_eq!(listed(&client, "bob", "?result=won").await, set(&[&lost]));
    assert_eq!(
        listed(&client, "ann", "?rated=false").await,
        set(&[&unrated])
    );
    assert_eq!(
        listed(&client, "ann", "?game=swaptimum").await,
        set(&[&unrated])
    );
    assert_eq!(
        listed(&client, "ann", "?opponent=cy").await,
        set(&[&unrated])
    );
    assert_eq!(
        listed(&client, "ann", "?opponent=bob&status=finished").await,
        set(&[&aborted, &lost, &won, &drawn])
    );
    assert_eq!(
        listed(
            &client,
            "ann",
            "?opponent=bob&game=flipstop&rated=true&status=playing"
        )
        .await,
        set(&[&playing])
    );
    assert_eq!(
        listed(&client, "ann", "?result=won&rated=true").await,
        set(&[&won])
    );
    assert!(listed(&client, "cy", "?opponent=bob").await.is_empty());

    // Head-to-head, from each side.
    let versus: VersusView = client.get("/api/accounts/ann/versus/bob", &[]).await.read();
    assert_eq!(
        (versus.name.as_str(), versus.opponent.as_str()),
        ("ann", "bob")
    );
    assert_eq!(versus.total, record(3, 1, 1));
    assert_eq!(versus.record.len(), 1);
    assert_eq!(versus.record["flipstop"], record(3, 1, 1));
    let mut ids: Vec<String> = versus.games.iter().map(|g| g.id.clone()).collect();
    ids.sort();
    assert_eq!(ids, set(&[&playing, &aborted, &lost, &won, &drawn]));
    let versus: VersusView = client.get("/api/accounts/cy/versus/ann", &[]).await.read();
    assert_eq!(versus.total, record(1, 0, 1));
    assert_eq!(versus.record["swaptimum"], record(1, 0, 1));
    let versus: VersusView = client.get("/api/accounts/cy/versus/bob", &[]).await.read();
    assert_eq!(versus.total, RecordView::default());
    assert!(versus.games.is_empty() && versus.record.is_empty());

    // What cannot be read is refused, named.
    for (query, named) in [
        ("?result=tie", "result"),
        ("?rated=yes", "rated"),
        ("?game=chess", "game"),
        ("?status=over", "status"),
    ] {
        let answer = client
            .get(&format!("/api/accounts/ann/games{query}"), &[])
            .await;
        answer.assert_error(400, "bad_request");
        assert!(
            answer.message().starts_with(named),
            "{query}: {}",
            answer.text
        );
    }
    let answer = client
        .get("/api/accounts/ann/games?colour=first", &[])
        .await;
    answer.assert_error(400, "bad_request");
    let answer = client
        .get("/api/accounts/ann/games?opponent=dee", &[])
        .await;
    answer.assert_error(404, "not_found");
    assert!(answer.message().contains("dee"), "{}", answer.text);
    let answer = client.get("/api/accounts/ann/versus/ann", &[]).await;
    answer.assert_error(400, "bad_request");
    for path in [
        "/api/accounts/ann/versus/dee",
        "/api/accounts/dee/versus/ann",
    ] {
        let answer = client.get(path, &[]).await;
        answer.assert_error(404, "not_found");
        assert!(answer.message().contains("dee"), "{}", answer.text);
    }
    server.stop().await.unwrap();
    db
}

each_database!(
    a_profile_counts_finished_games_and_lists_filter_them,
    records_and_filters
);
