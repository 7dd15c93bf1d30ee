//! The operators' tools (issue 24): roles, bans that end credentials and forfeit games,
//! and the append-only admin log.

use std::time::Duration;

use futures_util::StreamExt as _;
use reqwest::Method;
use serde_json::{Value, json};
use swapboard_server::api::{GameView, RoomView};
use swapboard_server::store::{BanOrder, LogFilter, Role, Store};
use swapboard_testkit::{
    Client, Socket, TestDb, auth, bearer, each_database, game_between, generous, socket, staff,
    start,
};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// The close code of a socket whose credentials ended (`docs/API.md`).
const CREDENTIALS_ENDED: u16 = 4001;

/// Reads a socket until the server closes it: the close code and how long it took, or
/// `None` if it stayed open for `wait`; every text message read on the way is kept.
async fn until_closed(
    socket: &mut Socket,
    wait: Duration,
    texts: &mut Vec<Value>,
) -> Option<(u16, Duration)> {
    let began = Instant::now();
    let deadline = began + wait;
    loop {
        let next = tokio::time::timeout_at(deadline, socket.next())
            .await
            .ok()?;
        match next {
            Some(Ok(Message::Text(text))) => texts.push(serde_json::from_str(&text).unwrap()),
            Some(Ok(Message::Close(frame))) => {
                let code = frame.map_or(0, |f| u16::from(f.code));
                return Some((code, began.elapsed()));
            }
            Some(Ok(_)) => {}
            None | Some(Err(_)) => return Some((0, began.elapsed())),
        }
    }
}

each_database!(
    a_ban_closes_the_accounts_open_sockets_at_once_or_from_another_process_soon,
    |db: TestDb| async move {
        // Sockets check their credentials every 3 s: a ban by this server closes them long
        // before, one by another process (the operator's command) at the next check after
        // the server's cache of the credential expires.
        let mut limits = generous();
        limits.socket_credential_time = Duration::from_secs(3);
        let server = start(&db, limits).await;
        let client = Client::new(&server);
        let (_ann, bob, _store) = staff(&client, &db).await;
        let carl = bearer(&client, "carl").await;
        let dave = bearer(&client, "dave").await;
        let id = game_between(&client, "swaptimum", 6, &carl, (&dave, "dave")).await;
        let game_path = format!("/api/games/{id}/socket");
        let inbox_path = "/api/me/notifications/socket";
        let mut carl_game = socket(&client, &game_path, Some(&carl)).await;
        let mut carl_inbox = socket(&client, inbox_path, Some(&carl)).await;
        let mut public = socket(&client, &game_path, None).await;
        let mut dave_inbox = socket(&client, inbox_path, Some(&dave)).await;
        let mut texts = Vec::new();

        // bob, a moderator, bans carl through the server: both of carl's sockets close
        // with the code that says why, within a second.
        let reason = json!({"reason": "abuse in chat"});
        let banned = client
            .post("/api/admin/accounts/carl/ban", &reason, &auth(&bob))
            .await;
        assert_eq!(banned.status, 200, "{}", banned.text);
        for carls in [&mut carl_game, &mut carl_inbox] {
            let (code, after) = until_closed(carls, Duration::from_secs(2), &mut texts)
                .await
                .expect("carl's socket closed");
            assert_eq!(code, CREDENTIALS_ENDED);
            assert!(after < Duration::from_secs(1), "closed after {after:?}");
        }
        // The public's socket of the same game stays open and is told of the forfeit.
        let mut seen = Vec::new();
        let closed = until_closed(&mut public, Duration::from_secs(2), &mut seen).await;
        assert_eq!(closed, None, "the public's socket stays open");
        assert!(
            seen.iter().any(|m| m["game"]["status"] == "finished"),
            "the forfeit reached the public: {seen:?}"
        );

        // The operator bans dave from another process (a store of its own, as `swapboard
        // admin ban` does): his socket closes within one check after the cache's 5 s.
        let operator = Store::open(&db.url).await.unwrap();
        operator
            .set_banned("dave", BanOrder::Ban { until_ms: None }, "operator", "spam")
            .await
            .unwrap()
            .expect("dave exists");
        let (code, after) = until_closed(&mut dave_inbox, Duration::from_secs(15), &mut texts)
            .await
            .expect("dave's socket closed");
        assert_eq!(code, CREDENTIALS_ENDED);
        assert!(after <= Duration::from_secs(9), "closed after {after:?}");
        drop(public);
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    no_credential_outlives_a_ban_whatever_its_timing,
    |db: TestDb| async move {
        // A login reads the account, spends the password hash's time (tens of milliseconds),
        // then stores its credential: logins started every 5 ms around a ban straddle it.
        // Before the fix, the tokens stored after the ban's commit worked on for good.
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let (_ann, bob, _store) = staff(&client, &db).await;
        bearer(&client, "carl").await;
        let login = json!({"name": "carl", "password": "correct horse"});
        let logins = (0..24u64).map(|i| {
            let (client, login) = (&client, &login);
            async move {
                tokio::time::sleep(Duration::from_millis(5 * i)).await;
                client.post("/api/tokens", login, &[]).await
            }
        });
        let ban = async {
            tokio::time::sleep(Duration::from_millis(40)).await;
            let reason = json!({"reason": "spam"});
            client
                .post("/api/admin/accounts/carl/ban", &reason, &auth(&bob))
                .await
        };
        let (answers, banned) = tokio::join!(futures_util::future::join_all(logins), ban);
        assert_eq!(banned.status, 200, "{}", banned.text);
        let mut issued = 0;
        for answer in &answers {
            match answer.status.as_u16() {
                201 => {
                    issued += 1;
                    let token = format!("Bearer {}", answer.json["token"].as_str().unwrap());
                    let me = client.get("/api/me", &auth(&token)).await;
                    assert_eq!(
                        me.status, 401,
                        "a token issued around the ban acts: {}",
                        me.text
                    );
                }
                403 => assert!(answer.message().contains("banned"), "{}", answer.text),
                status => panic!("a login answered {status}: {}", answer.text),
            }
        }
        // Logins after the ban are refused: the race was run on both sides of it.
        assert!(issued < answers.len(), "every login got a token");
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    a_password_change_closes_the_sockets_of_every_other_credential_only,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let ann = bearer(&client, "ann").await;
        let login = json!({"name": "ann", "password": "correct horse"});
        let other = client.post("/api/tokens", &login, &[]).await;
        assert_eq!(other.status, 201, "{}", other.text);
        let other = format!("Bearer {}", other.json["token"].as_str().unwrap());
        let path = "/api/me/notifications/socket";
        let mut kept = socket(&client, path, Some(&ann)).await;
        let mut ended = socket(&client, path, Some(&other)).await;
        let change = json!({"password": "correct horse", "new_password": "battery staple"});
        let headers = [
            ("authorization", ann.as_str()),
            ("content-type", "application/json"),
        ];
        let changed = client
            .send(
                Method::PUT,
                "/api/me/password",
                &headers,
                Some(&change.to_string()),
            )
            .await;
        assert_eq!(changed.status, 200, "{}", changed.text);
        let mut texts = Vec::new();
        let (code, _) = until_closed(&mut ended, Duration::from_secs(2), &mut texts)
            .await
            .expect("the other token's socket closed");
        assert_eq!(code, CREDENTIALS_ENDED);
        assert_eq!(
            until_closed(&mut kept, Duration::from_secs(1), &mut texts).await,
            None,
            "the socket of the credential that changed the password stays open"
        );
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    a_moderator_bans_an_account_its_credentials_end_and_its_games_are_forfeited,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let ann = bearer(&client, "ann").await;
        let bob = bearer(&client, "bob").await;
        let carl = bearer(&client, "carl").await;
        let dave = bearer(&client, "dave").await;
        let ban = |name: &str| format!("/api/admin/accounts/{name}/ban");
        let reason = json!({"reason": "abuse in chat"});

        // Nobody holds a role yet.
        client
            .post(&ban("dave"), &reason, &auth(&carl))
            .await
            .assert_error(403, "forbidden");
        let store = Store::open(&db.url).await.unwrap();
        assert_eq!(
            store
                .grant_role("Ann", Role::Admin, "operator")
                .await
                .unwrap(),
            Some(true)
        );
        assert_eq!(
            store
                .grant_role("ann", Role::Admin, "operator")
                .await
                .unwrap(),
            Some(false)
        );
        assert_eq!(
            store
                .grant_role("bob", Role::Moderator, "operator")
                .await
                .unwrap(),
            Some(true)
        );
        assert_eq!(
            store
                .grant_role("nobody", Role::Admin, "operator")
                .await
                .unwrap(),
            None
        );

        let id = game_between(&client, "swaptimum", 9, &carl, (&dave, "dave")).await;
        for (ply, (mover, cell)) in [(&carl, "c3"), (&dave, "b2")].into_iter().enumerate() {
            let played = client
                .post(
                    &format!("/api/games/{id}/moves"),
                    &json!({"move": cell, "ply": ply}),
                    &auth(mover),
                )
                .await;
            assert_eq!(played.status, 200, "{}", played.text);
        }

        client
            .post(&ban("carl"), &json!({"reason": "  "}), &auth(&bob))
            .await
            .assert_error(400, "bad_request");
        client
            .post(&ban("bob"), &reason, &auth(&bob))
            .await
            .assert_error(403, "forbidden");
        // A moderator may not ban an admin.
        client
            .post(&ban("ann"), &reason, &auth(&bob))
            .await
            .assert_error(403, "forbidden");
        client
            .post(&ban("zed"), &reason, &auth(&bob))
            .await
            .assert_error(404, "not_found");

        let banned = client.post(&ban("carl"), &reason, &auth(&bob)).await;
        assert_eq!(banned.status, 200, "{}", banned.text);
        assert_eq!(banned.json["banned"], true);
        assert_eq!(banned.json["changed"], true);
        assert_eq!(banned.json["forfeited"], json!([id]));
        let again = client.post(&ban("carl"), &reason, &auth(&bob)).await;
        assert_eq!(again.json["changed"], false, "{}", again.text);

        // The game is over: carl forfeited, dave won.
        let game: GameView = client.get(&format!("/api/games/{id}"), &[]).await.read();
        assert_eq!(game.status, "finished");
        let result = game.result.expect("a result");
        assert_eq!(result.winner.as_deref(), Some("dave"));
        assert_eq!(result.termination, "resigned");

        // carl's token ended, and carl cannot get another.
        client
            .get("/api/me/turn", &auth(&carl))
            .await
            .assert_error(401, "unauthenticated");
        let credentials = json!({"name": "carl", "password": "correct horse"});
        let refused = client.post("/api/tokens", &credentials, &[]).await;
        refused.assert_error(403, "forbidden");
        assert!(refused.message().contains("banned"), "{}", refused.text);
        // A wrong password is told as wrong, not as banned.
        let wrong = json!({"name": "carl", "password": "wrong horse"});
        client
            .post("/api/tokens", &wrong, &[])
            .await
            .assert_error(401, "unauthenticated");

        // The log is the admins' and moderators' only, newest first.
        let erin = bearer(&client, "erin").await;
        client
            .get("/api/admin/log", &auth(&erin))
            .await
            .assert_error(403, "forbidden");
        client
            .get("/api/admin/log?limit=0", &auth(&ann))
            .await
            .assert_error(400, "bad_request");
        let log = client.get("/api/admin/log", &auth(&ann)).await;
        assert_eq!(log.status, 200, "{}", log.text);
        let lines = log.json["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{}", log.text);
        assert_eq!(lines[0]["actor"], "bob");
        assert_eq!(lines[0]["action"], "ban");
        assert_eq!(lines[0]["target"], "carl");
        assert_eq!(lines[0]["detail"], "for good: abuse in chat");
        assert_eq!(lines[2]["action"], "grant");
        assert_eq!(lines[2]["detail"], "admin");

        // The forfeited game was rated; annulled, it no longer counts (admins only).
        let rated: GameView = client.get(&format!("/api/games/{id}"), &[]).await.read();
        assert!(rated.players[1].rating.is_some(), "a rated game's change");
        let annul = format!("/api/admin/games/{id}/annul");
        client
            .post(&annul, &reason, &auth(&bob))
            .await
            .assert_error(403, "forbidden");
        let annulled = client
            .post(&annul, &json!({"reason": "collusion"}), &auth(&ann))
            .await;
        assert_eq!(annulled.status, 200, "{}", annulled.text);
        assert_eq!(annulled.json["rerated"], true);
        let unrated: GameView = client.get(&format!("/api/games/{id}"), &[]).await.read();
        assert!(
            unrated.players.iter().all(|p| p.rating.is_none()),
            "{unrated:?}"
        );
        assert!(!unrated.rated);
        let profile = client.get("/api/accounts/dave", &[]).await;
        assert!(
            profile.json["ratings"]["swaptimum"].is_null(),
            "{}",
            profile.text
        );
        client
            .post("/api/admin/games/nope/annul", &reason, &auth(&ann))
            .await
            .assert_error(404, "not_found");

        let lifted = client
            .post(
                "/api/admin/accounts/carl/unban",
                &json!({"reason": "appeal"}),
                &auth(&ann),
            )
            .await;
        assert_eq!(lifted.status, 200, "{}", lifted.text);
        assert_eq!(lifted.json["banned"], false);
        let token = client.post("/api/tokens", &credentials, &[]).await;
        assert_eq!(token.status, 201, "{}", token.text);

        store.close().await;
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    admins_list_sign_ups_by_address_and_close_a_room,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let (ann, bob, store) = staff(&client, &db).await;
        let carl = bearer(&client, "carl").await;

        // Sign-ups, newest first, each with the address it came from (this test's loopback).
        client
            .get("/api/admin/signups", &auth(&carl))
            .await
            .assert_error(403, "forbidden");
        let listed = client.get("/api/admin/signups", &auth(&bob)).await;
        assert_eq!(listed.status, 200, "{}", listed.text);
        let names: Vec<&str> = listed.json["signups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["carl", "bob", "ann"], "{}", listed.text);
        assert_eq!(listed.json["signups"][0]["address"], "127.0.0.1");
        let elsewhere = client
            .get("/api/admin/signups?address=192.0.2.7", &auth(&ann))
            .await;
        assert_eq!(elsewhere.json["signups"], json!([]), "{}", elsewhere.text);
        let one = client
            .get("/api/admin/signups?address=127.0.0.1&limit=1", &auth(&ann))
            .await;
        assert_eq!(one.json["signups"][0]["name"], "carl", "{}", one.text);
        for bad in ["limit=0", "limit=1001", "address=nowhere", "who=ann"] {
            client
                .get(&format!("/api/admin/signups?{bad}"), &auth(&ann))
                .await
                .assert_error(400, "bad_request");
        }

        // A room closed by an admin is over as it stands; its players can no longer bid.
        let created = client
            .post(
                "/api/rooms",
                &json!({"seats": 9, "round_hours": 1}),
                &auth(&carl),
            )
            .await;
        assert_eq!(created.status, 201, "{}", created.text);
        let room: RoomView = created.read();
        let close = format!("/api/admin/rooms/{}/close", room.id);
        let reason = json!({"reason": "abandoned"});
        client
            .post(&close, &reason, &auth(&bob))
            .await
            .assert_error(403, "forbidden");
        client
            .post(&close, &json!({}), &auth(&ann))
            .await
            .assert_error(400, "bad_request");
        let closed = client.post(&close, &reason, &auth(&ann)).await;
        assert_eq!(closed.status, 200, "{}", closed.text);
        let closed: RoomView = closed.read();
        assert_eq!(closed.status, "finished");
        assert!(closed.closed_ms.is_some() && closed.deadline_ms.is_none());
        client
            .post(&close, &reason, &auth(&ann))
            .await
            .assert_error(409, "conflict");
        client
            .post(
                &format!("/api/rooms/{}/join", room.id),
                &json!({"invite": room.invite.unwrap()}),
                &auth(&bob),
            )
            .await
            .assert_error(409, "conflict");
        client
            .post(
                &format!("/api/rooms/{}/undo", room.id),
                &json!({}),
                &auth(&carl),
            )
            .await
            .assert_error(409, "conflict");
        client
            .post("/api/admin/rooms/nope/close", &reason, &auth(&ann))
            .await
            .assert_error(404, "not_found");
        let audit = client
            .get(&format!("/api/rooms/{}/audit", room.id), &auth(&carl))
            .await;
        assert!(audit.text.contains("abandoned"), "{}", audit.text);
        let log = store.admin_log(&LogFilter::default(), 1).await.unwrap();
        assert_eq!(
            (log[0].action.as_str(), log[0].target.as_str()),
            ("close", room.id.as_str())
        );

        store.close().await;
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    an_admin_makes_a_one_time_reset_link_that_sets_a_new_password_once,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let (ann, bob, _) = staff(&client, &db).await;
        bearer(&client, "carl").await;
        let path = "/api/admin/accounts/Carl/reset-link";
        let reason = json!({"reason": "lost the phone with the password"});
        // Admins only; the account named, the reason required.
        client
            .post(path, &reason, &auth(&bob))
            .await
            .assert_error(403, "forbidden");
        client
            .post(
                "/api/admin/accounts/nobody/reset-link",
                &reason,
                &auth(&ann),
            )
            .await
            .assert_error(404, "not_found");
        client
            .post(path, &json!({"reason": ""}), &auth(&ann))
            .await
            .assert_error(400, "bad_request");
        let made = client.post(path, &reason, &auth(&ann)).await;
        assert_eq!(made.status, 200, "{}", made.text);
        assert_eq!(made.json["name"], "carl");
        // No --public-url here: the path alone.
        let link = made.json["link"].as_str().unwrap();
        let token = link
            .strip_prefix("/reset-password?token=")
            .expect("a reset link's path");
        let reset = json!({"token": token, "password": "a fresh password"});
        let done = client.post("/api/password/reset", &reset, &[]).await;
        assert_eq!(done.status, 200, "{}", done.text);
        client
            .post("/api/password/reset", &reset, &[])
            .await
            .assert_error(404, "not_found");
        let login = json!({"name": "carl", "password": "a fresh password"});
        let token = client.post("/api/tokens", &login, &[]).await;
        assert_eq!(token.status, 201, "{}", token.text);
        // The admin log says who made a link for whom and why, never the link.
        let log = client.get("/api/admin/log", &auth(&ann)).await;
        assert_eq!(log.json["lines"][0]["action"], "reset-link", "{}", log.text);
        assert_eq!(log.json["lines"][0]["actor"], "ann");
        assert_eq!(log.json["lines"][0]["target"], "carl");
        assert!(!log.text.contains(link));
        server.stop().await.unwrap();
        db
    }
);
