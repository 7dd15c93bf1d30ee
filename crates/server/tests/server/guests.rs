//! Playing without an account (issue 25): a guest's session, what a guest may and may not
//! do, the rate of guests per address, and a sign-up from the guest's session that keeps its
//! games.

use std::time::Duration;

use serde_json::json;
use swapboard_server::api::{Account, GameList, GameView};
use swapboard_server::store::Store;
use swapboard_server::{DAY_MS, Limits, Rate};
use swapboard_testkit::{Client, TestDb, auth, bearer, each_database, execute, generous, start};

const SAME_ORIGIN: (&str, &str) = ("sec-fetch-site", "same-origin");

/// Starts a guest's session: its account and the `cookie` header value.
async fn guest(client: &Client) -> (Account, String) {
    let started = client
        .post("/api/session/guest", &json!({}), &[SAME_ORIGIN])
        .await;
    assert_eq!(started.status, 201, "{}", started.text);
    let set_cookie = started.headers["set-cookie"].to_str().unwrap();
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    (started.read::<Account>(), cookie)
}

async fn guests(db: TestDb) -> TestDb {
    let limits = Limits {
        guests_per_address: Rate::new(3, Duration::from_secs(3600)),
        ..generous()
    };
    let server = start(&db, limits).await;
    let client = Client::new(&server);
    let (account, cookie) = guest(&client).await;
    assert!(account.guest);
    let suffix = account.name.strip_prefix("guest-").expect("a guest's name");
    assert!(suffix.len() == 8 && suffix.chars().all(|c| c.is_ascii_hexdigit()));
    let me = client.get("/api/me", &[("cookie", &cookie)]).await;
    let me_read = me.read::<Account>();
    assert_eq!(
        (me_read.name.as_str(), me_read.guest),
        (account.name.as_str(), true)
    );

    // A guest plays the AI at once and moves.
    let as_guest = [("cookie", cookie.as_str()), SAME_ORIGIN];
    let created = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "ai:1", "colour": "first"}),
            &as_guest,
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let game = created.read::<GameView>();
    assert!(!game.rated);
    let moved = client
        .post(
            &format!("/api/games/{}/moves", game.id),
            &json!({"move": "c3", "ply": 0}),
            &as_guest,
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);

    // A guest challenges no person, joins no game and no room, and runs none.
    for opponent in ["open", "invite", "user:ann"] {
        let body = json!({"game": "swaptimum", "opponent": opponent});
        let refused = client.post("/api/games", &body, &as_guest).await;
        refused.assert_error(403, "forbidden");
        assert!(refused.message().contains("sign up"), "{}", refused.text);
    }
    let ann = bearer(&client, "ann").await;
    let open = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "opponent": "open"}),
            &auth(&ann),
        )
        .await
        .read::<GameView>();
    client
        .post(
            &format!("/api/games/{}/join", open.id),
            &json!({}),
            &as_guest,
        )
        .await
        .assert_error(403, "forbidden");
    client
        .post("/api/rooms", &json!({"seats": 9}), &as_guest)
        .await
        .assert_error(403, "forbidden");
    // Nobody challenges a guest by name either.
    let invite = json!({"game": "swaptimum", "opponent": format!("user:{}", account.name)});
    client
        .post("/api/games", &invite, &auth(&ann))
        .await
        .assert_error(403, "forbidden");
    // A guest has no password: no login, no token, under its name.
    let login = json!({"name": account.name, "password": "anything at all"});
    assert_eq!(client.post("/api/tokens", &login, &[]).await.status, 401);

    // Guests' names are theirs alone.
    client
        .post(
            "/api/accounts",
            &json!({"name": "Guest-1234", "password": "correct horse"}),
            &[],
        )
        .await
        .assert_error(400, "bad_request");

    // Signing up from the guest's session keeps the game, under the new name, and the
    // session goes on as the new account.
    let credentials = json!({"name": "newcomer", "password": "correct horse"});
    let signed = client.post("/api/accounts", &credentials, &as_guest).await;
    assert_eq!(signed.status, 201, "{}", signed.text);
    assert!(!signed.read::<Account>().guest);
    let me = client
        .get("/api/me", &[("cookie", &cookie)])
        .await
        .read::<Account>();
    assert_eq!((me.name.as_str(), me.guest), ("newcomer", false));
    let mine = client.get("/api/accounts/newcomer/games", &[]).await;
    assert_eq!(mine.status, 200, "{}", mine.text);
    let ids: Vec<&str> = mine.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, [game.id.as_str()]);
    let shown = client
        .get(&format!("/api/games/{}", game.id), &[])
        .await
        .read::<GameView>();
    assert!(
        shown
            .players
            .iter()
            .any(|p| p.name.as_deref() == Some("newcomer"))
    );
    assert!(
        !shown
            .players
            .iter()
            .any(|p| p.name.as_deref() == Some(account.name.as_str()))
    );
    // The new account logs in with its password, and may now challenge a person.
    assert_eq!(
        client.post("/api/tokens", &credentials, &[]).await.status,
        201
    );
    let open_now = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "opponent": "open"}),
            &as_guest,
        )
        .await;
    assert_eq!(open_now.status, 201, "{}", open_now.text);
    // A second sign-up from the same cookie makes an account of its own.
    let other = json!({"name": "second", "password": "correct horse"});
    assert_eq!(
        client.post("/api/accounts", &other, &as_guest).await.status,
        201
    );
    let me = client
        .get("/api/me", &[("cookie", &cookie)])
        .await
        .read::<Account>();
    assert_eq!(me.name, "newcomer");

    // Another site cannot start a guest's session; guests per address are limited.
    client
        .post(
            "/api/session/guest",
            &json!({}),
            &[("sec-fetch-site", "cross-site")],
        )
        .await
        .assert_error(403, "forbidden");
    guest(&client).await;
    guest(&client).await;
    client
        .post("/api/session/guest", &json!({}), &[SAME_ORIGIN])
        .await
        .assert_error(429, "rate_limited");
    server.stop().await.unwrap();
    db
}

each_database!(
    a_guest_plays_the_ai_and_keeps_the_game_on_signing_up,
    guests
);

async fn old_guests(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    // A guest who plays the AI, tries a puzzle and mutes a chat, then never comes back;
    // another who signs up after a game of its own.
    let (gone, cookie) = guest(&client).await;
    let as_gone = [("cookie", cookie.as_str()), SAME_ORIGIN];
    let body = json!({"game": "swaptimum", "size": 5, "opponent": "ai:1", "colour": "first"});
    let game = client.post("/api/games", &body, &as_gone).await;
    assert_eq!(game.status, 201, "{}", game.text);
    let game = game.read::<GameView>();
    let moved = client
        .post(
            &format!("/api/games/{}/moves", game.id),
            &json!({"move": "c3", "ply": 0}),
            &as_gone,
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let puzzle = client.get("/api/puzzles?limit=1", &[]).await.json["puzzles"][0].clone();
    let position: swapboard_play::AnyPosition =
        puzzle["position"].as_str().unwrap().parse().unwrap();
    let first = position.legal_moves(usize::MAX).unwrap()[0].clone();
    let tried = client
        .post(
            &format!("/api/puzzles/{}/attempt", puzzle["id"].as_str().unwrap()),
            &json!({ "move": first }),
            &as_gone,
        )
        .await;
    assert_eq!(tried.status, 200, "{}", tried.text);
    // It also muted its game's spectators' chat: a row of its own that goes with it.
    let muted = client
        .send(
            reqwest::Method::PUT,
            &format!("/api/me/muted-chats/game:{}:spectators", game.id),
            &as_gone,
            None,
        )
        .await;
    assert_eq!(muted.status, 200, "{}", muted.text);
    let (_, kept_cookie) = guest(&client).await;
    let as_kept = [("cookie", kept_cookie.as_str()), SAME_ORIGIN];
    let kept_game = client
        .post("/api/games", &body, &as_kept)
        .await
        .read::<GameView>();
    let signed = client
        .post(
            "/api/accounts",
            &json!({"name": "stayer", "password": "correct horse"}),
            &as_kept,
        )
        .await;
    assert_eq!(signed.status, 201, "{}", signed.text);
    server.stop().await.unwrap();

    // The sweep, at chosen times: nothing while the guest is inside the retention period or
    // its session is still valid (30 days); then the guest and its game, and only those.
    let store = Store::open(&db.url).await.unwrap();
    let now = store.clock().now_ms();
    assert_eq!(
        store
            .remove_old_guests(now + DAY_MS, now - 29 * DAY_MS, 100)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .remove_old_guests(now + 29 * DAY_MS, now + DAY_MS, 100)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .remove_old_guests(now + 31 * DAY_MS, now + DAY_MS, 100)
            .await
            .unwrap(),
        1
    );
    // A second sweep (another instance's) finds nothing left.
    assert_eq!(
        store
            .remove_old_guests(now + 31 * DAY_MS, now + DAY_MS, 100)
            .await
            .unwrap(),
        0
    );
    store.close().await;

    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    client
        .get(&format!("/api/games/{}", game.id), &[])
        .await
        .assert_error(404, "not_found");
    client
        .get(&format!("/api/accounts/{}", gone.name), &[])
        .await
        .assert_error(404, "not_found");
    let kept = client
        .get(&format!("/api/games/{}", kept_game.id), &[])
        .await;
    assert_eq!(kept.status, 200, "{}", kept.text);
    let mine = client
        .get("/api/accounts/stayer/games", &[])
        .await
        .read::<GameList>();
    assert_eq!(mine.games.len(), 1);
    server.stop().await.unwrap();
    db
}

each_database!(
    a_guest_that_never_came_back_is_removed_with_its_games,
    old_guests
);

async fn kept_out_of_tournaments(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    // The oldest guest is named by a tournament's pairing from before guests were kept out
    // (written here as such a row would be); the next one is invited to ann's open seat; the
    // last has nothing of anyone else's.
    let (paired, paired_cookie) = guest(&client).await;
    let (invited, _) = guest(&client).await;
    let (plain, _) = guest(&client).await;
    let as_paired = [("cookie", paired_cookie.as_str()), SAME_ORIGIN];

    // A tournament pairs people in rated games: a guest may neither make nor enter one.
    let soon = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    let body = json!({"game": "flipstop", "size": 5, "clock": {"days_per_move": 3},
        "starts_at": soon.format(&time::format_description::well_known::Rfc3339).unwrap(),
        "format": "round_robin", "min_players": 2, "max_players": 8});
    client
        .post("/api/tournaments", &body, &as_paired)
        .await
        .assert_error(403, "forbidden");
    let made = client.post("/api/tournaments", &body, &auth(&ann)).await;
    assert_eq!(made.status, 201, "{}", made.text);
    let tournament = made.json["id"].as_str().unwrap().to_owned();
    client
        .post(
            &format!("/api/tournaments/{tournament}/join"),
            &json!({}),
            &as_paired,
        )
        .await
        .assert_error(403, "forbidden");
    let open = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "open"}),
            &auth(&ann),
        )
        .await;
    assert_eq!(open.status, 201, "{}", open.text);
    let open = open.read::<GameView>();
    server.stop().await.unwrap();
    let id_of = |name: &str| format!("(SELECT id FROM accounts WHERE name = '{name}')");
    execute(
        &db,
        &format!(
            "INSERT INTO tournament_games (tournament_id, round, first_id, second_id) \
             VALUES ('{tournament}', 1, {}, {})",
            id_of(&paired.name),
            id_of("ann")
        ),
    )
    .await;
    execute(
        &db,
        &format!(
            "UPDATE seats SET invited_id = {} WHERE game_id = '{}' AND account_id IS NULL",
            id_of(&invited.name),
            open.id
        ),
    )
    .await;

    // Past their sessions and the retention period: the sweep removes the two it can and
    // keeps the one other people's records name, without failing on it.
    let store = Store::open(&db.url).await.unwrap();
    let now = store.clock().now_ms();
    let removed = store
        .remove_old_guests(now + 31 * DAY_MS, now + DAY_MS, 100)
        .await
        .unwrap();
    assert_eq!(removed, 2);
    store.close().await;
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    for (name, status) in [
        (&paired.name, 200),
        (&invited.name, 404),
        (&plain.name, 404),
    ] {
        let found = client.get(&format!("/api/accounts/{name}"), &[]).await;
        assert_eq!(found.status, status, "{name}: {}", found.text);
    }
    // ann's game stays, its seat open to anyone now.
    let game = client.get(&format!("/api/games/{}", open.id), &[]).await;
    assert_eq!(game.status, 200, "{}", game.text);
    server.stop().await.unwrap();
    db
}

each_database!(
    a_guest_is_kept_out_of_tournaments_and_no_guest_blocks_the_sweep,
    kept_out_of_tournaments
);
