//! Chats and the safety around them (issue 27, `docs/CHAT.md`) over real HTTP and sockets on
//! both backends: who reads and writes a game's two chats, a Swap 61 seat's private thread
//! with the game master swept for through every GET path of the OpenAPI document and the
//! room's sockets, blocks, muted chats, reports and the moderators' acts, and the rate.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use swapboard_server::api::{BlocksView, ChatMessageView, ChatView, ReportsView, RoomView};
use swapboard_server::{Limits, Rate, Server};
use swapboard_testkit::{
    Client, TestDb, auth, bearer, drain, each_database, game_between, generous, inbox, socket,
    staff, start,
};

/// The chat messages among a socket's texts.
fn chats(texts: &[String]) -> Vec<Value> {
    texts
        .iter()
        .map(|t| serde_json::from_str::<Value>(t).unwrap())
        .filter(|v| v["type"] == "chat")
        .collect()
}

async fn say(client: &Client, path: &str, body: Value, token: &str) -> reqwest::StatusCode {
    client.post(path, &body, &auth(token)).await.status
}

/// Writes in a game's players' chat; the message written.
async fn write_players(client: &Client, chat: &str, text: &str, token: &str) -> ChatMessageView {
    let sent = client
        .post(
            chat,
            &json!({"channel": "players", "text": text}),
            &auth(token),
        )
        .await;
    assert_eq!(sent.status, 201, "{}", sent.text);
    sent.read()
}

/// Tries to write in a game's players' chat and is refused (403); why.
async fn refused_players(client: &Client, chat: &str, text: &str, token: &str) -> String {
    let refused = client
        .post(
            chat,
            &json!({"channel": "players", "text": text}),
            &auth(token),
        )
        .await;
    refused.assert_error(403, "forbidden");
    refused.message()
}

async fn read_chat(client: &Client, path: &str, token: Option<&str>) -> ChatView {
    let headers: Vec<(&str, &str)> = token.map(|t| ("authorization", t)).into_iter().collect();
    let answer = client.get(path, &headers).await;
    assert_eq!(answer.status, 200, "{path}: {}", answer.text);
    answer.read()
}

fn texts_of(view: &ChatView) -> Vec<Option<String>> {
    view.messages.iter().map(|m| m.text.clone()).collect()
}

each_database!(a_games_two_chats_keep_to_their_readers, game_chats);

async fn game_chats(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let bob = bearer(&client, "bob").await;
    let carl = bearer(&client, "carl").await;
    let id = game_between(&client, "swaptimum", 5, &ann, (&bob, "bob")).await;
    let chat = format!("/api/games/{id}/chat");
    let players = format!("{chat}?channel=players");
    let spectators = format!("{chat}?channel=spectators");
    let mut public = socket(&client, &format!("/api/games/{id}/socket"), None).await;
    drain(&mut public, Duration::from_millis(300)).await;

    // The players' chat: its two players only; the text comes back as written (the client
    // escapes it).
    let hello = "hello bob <b>&amp;</b>\nsecond line";
    let sent = write_players(&client, &chat, hello, &ann).await;
    assert_eq!(
        (sent.author.as_str(), sent.text.as_deref()),
        ("ann", Some(hello))
    );
    let seen = read_chat(&client, &players, Some(&bob)).await;
    assert_eq!(texts_of(&seen), [Some(hello.to_owned())]);
    assert_eq!(seen.chat, format!("game:{id}:players"));
    assert!(seen.writable && !seen.muted);
    for token in [vec![("authorization", carl.as_str())], vec![]] {
        client
            .get(&players, &token)
            .await
            .assert_error(403, "forbidden");
    }
    refused_players(&client, &chat, "hi", &carl).await;

    // The spectators' chat: not its players' while the game is played.
    assert_eq!(
        say(
            &client,
            &chat,
            json!({"channel": "spectators", "text": "carl watches"}),
            &carl
        )
        .await,
        201
    );
    client
        .get(&spectators, &auth(&ann))
        .await
        .assert_error(403, "forbidden");
    let refused = client
        .post(
            &chat,
            &json!({"channel": "spectators", "text": "x"}),
            &auth(&bob),
        )
        .await;
    refused.assert_error(403, "forbidden");
    let watched = read_chat(&client, &spectators, None).await;
    assert_eq!(texts_of(&watched), [Some("carl watches".to_owned())]);
    assert!(!watched.writable);

    // Bad texts and channels are named.
    for (body, field) in [
        (json!({"channel": "players", "text": "  "}), "text"),
        (
            json!({"channel": "players", "text": "é".repeat(501)}),
            "text",
        ),
        (json!({"channel": "players", "text": "bell\u{7}"}), "text"),
        (json!({"channel": "lobby", "text": "hi"}), "channel"),
        (json!({"text": "hi"}), "channel"),
    ] {
        let answer = client.post(&chat, &body, &auth(&ann)).await;
        answer.assert_error(400, "bad_request");
        assert!(answer.message().starts_with(field), "{}", answer.text);
    }
    let long = "é".repeat(500);
    assert_eq!(
        say(
            &client,
            &chat,
            json!({"channel": "players", "text": long}),
            &ann
        )
        .await,
        201
    );

    // The game's public socket was nudged, never told what was said while it is played.
    let heard = drain(&mut public, Duration::from_millis(500)).await;
    let nudges = chats(&heard);
    assert!(nudges.len() >= 3, "{heard:?}");
    for nudge in &nudges {
        assert_eq!(nudge["message"], Value::Null, "{nudge}");
    }
    assert!(
        !heard
            .iter()
            .any(|t| t.contains("hello bob") || t.contains("carl watches"))
    );

    // Once the game ended its players read and write the spectators' chat, and its messages
    // go over the socket; a chat one muted is not pushed to that one's sockets.
    let resigned = client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&bob))
        .await;
    assert_eq!(resigned.json["status"], "finished", "{}", resigned.text);
    let after = read_chat(&client, &spectators, Some(&ann)).await;
    assert_eq!(texts_of(&after), [Some("carl watches".to_owned())]);
    let mut bobs = socket(&client, &format!("/api/games/{id}/socket"), Some(&bob)).await;
    drain(&mut bobs, Duration::from_millis(300)).await;
    drain(&mut public, Duration::from_millis(300)).await;
    assert_eq!(
        say(
            &client,
            &chat,
            json!({"channel": "spectators", "text": "well played"}),
            &ann
        )
        .await,
        201
    );
    let heard = chats(&drain(&mut bobs, Duration::from_millis(500)).await);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(heard[0]["message"]["text"], "well played");
    let key = format!("game:{id}:spectators");
    let muted = client
        .send(
            Method::PUT,
            &format!("/api/me/muted-chats/{key}"),
            &auth(&bob),
            None,
        )
        .await;
    assert_eq!(muted.status, 200, "{}", muted.text);
    assert_eq!(muted.json["chats"], json!([key]));
    assert!(read_chat(&client, &spectators, Some(&bob)).await.muted);
    drain(&mut public, Duration::from_millis(300)).await;
    assert_eq!(
        say(
            &client,
            &chat,
            json!({"channel": "spectators", "text": "gg"}),
            &carl
        )
        .await,
        201
    );
    assert!(chats(&drain(&mut bobs, Duration::from_millis(700)).await).is_empty());
    let heard = chats(&drain(&mut public, Duration::from_millis(500)).await);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(heard[0]["message"]["text"], "gg");
    let unmuted = client
        .delete(&format!("/api/me/muted-chats/{key}"), &auth(&bob))
        .await;
    assert_eq!(unmuted.json["chats"], json!([]), "{}", unmuted.text);
    client
        .send(
            Method::PUT,
            "/api/me/muted-chats/game:x:table",
            &auth(&bob),
            None,
        )
        .await
        .assert_error(400, "bad_request");
    server.stop().await.unwrap();
    db
}

each_database!(blocks_reports_and_moderators, safety);

/// A server and its client, the tokens of an admin (ann), a moderator (bob), and two players
/// (carl, dave) of a game between them, the game's id and the path of its chat.
async fn staffed(db: &TestDb) -> (Server, Client, [String; 4], String, String) {
    let server = start(db, generous()).await;
    let client = Client::new(&server);
    let (ann, bob, store) = staff(&client, db).await;
    store.close().await;
    let carl = bearer(&client, "carl").await;
    let dave = bearer(&client, "dave").await;
    let id = game_between(&client, "swaptimum", 5, &carl, (&dave, "dave")).await;
    let chat = format!("/api/games/{id}/chat");
    (server, client, [ann, bob, carl, dave], id, chat)
}

async fn safety(db: TestDb) -> TestDb {
    let (server, client, [ann, bob, carl, dave], id, chat) = staffed(&db).await;
    let rude = write_players(&client, &chat, "you are rude-zz", &carl).await;

    // dave reports the message and carl's account; the queue is the moderators'.
    let filed = client
        .post(
            "/api/reports",
            &json!({"message": rude.id, "reason": "insults"}),
            &auth(&dave),
        )
        .await;
    assert_eq!(filed.status, 201, "{}", filed.text);
    let filed = client
        .post(
            "/api/reports",
            &json!({"account": "carl", "reason": "insults"}),
            &auth(&dave),
        )
        .await;
    assert_eq!(filed.status, 201, "{}", filed.text);
    for body in [
        json!({"reason": "nothing named"}),
        json!({"message": rude.id, "account": "carl", "reason": "both"}),
        json!({"account": "carl", "reason": ""}),
    ] {
        client
            .post("/api/reports", &body, &auth(&dave))
            .await
            .assert_error(400, "bad_request");
    }
    client
        .post(
            "/api/reports",
            &json!({"message": 999_999, "reason": "x"}),
            &auth(&dave),
        )
        .await
        .assert_error(404, "not_found");
    client
        .get("/api/admin/reports", &auth(&carl))
        .await
        .assert_error(403, "forbidden");
    // Each moderator and admin is told of each report in the inbox; the reporter is not.
    for (staff, token) in [("ann", &ann), ("bob", &bob)] {
        let notices = inbox(&client, token).await;
        let reports = notices["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "report")
            .count();
        assert_eq!(reports, 2, "{staff}: {notices}");
    }
    let dave_inbox = inbox(&client, &dave).await;
    assert!(
        !dave_inbox["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["kind"] == "report"),
        "{dave_inbox}"
    );
    // Newest first, a page at a time: the account's report, then the message's.
    let queue: ReportsView = client.get("/api/admin/reports", &auth(&bob)).await.read();
    assert_eq!(queue.reports.len(), 2);
    assert_eq!(queue.older, None);
    assert_eq!(queue.reports[1].account, "carl");
    assert_eq!(queue.reports[1].reporter, "dave");
    let reported = queue.reports[1].message.as_ref().unwrap();
    assert_eq!(reported.text.as_deref(), Some("you are rude-zz"));
    assert_eq!(queue.reports[0].account, "carl");
    assert!(queue.reports[0].message.is_none());
    let first: ReportsView = client
        .get("/api/admin/reports?limit=1", &auth(&bob))
        .await
        .read();
    assert_eq!(first.reports.len(), 1);
    assert_eq!(first.reports[0].id, queue.reports[0].id);
    let older = first.older.expect("an older page");
    let next: ReportsView = client
        .get(
            &format!("/api/admin/reports?limit=1&before={older}"),
            &auth(&bob),
        )
        .await
        .read();
    assert_eq!(next.reports.len(), 1);
    assert_eq!(next.reports[0].id, queue.reports[1].id);
    assert_eq!(next.older, None);
    for limit in [0, 501] {
        client
            .get(&format!("/api/admin/reports?limit={limit}"), &auth(&bob))
            .await
            .assert_error(400, "bad_request");
    }

    // A moderator hides the message: it shows as hidden, without its text, but to them.
    let hidden = client
        .post(
            &format!("/api/admin/messages/{}/hide", rude.id),
            &json!({"reason": "insults"}),
            &auth(&bob),
        )
        .await;
    assert_eq!(hidden.json["changed"], true, "{}", hidden.text);
    let seen = read_chat(&client, &format!("{chat}?channel=players"), Some(&dave)).await;
    assert_eq!(seen.messages.len(), 1);
    assert!(seen.messages[0].hidden);
    assert_eq!(seen.messages[0].text, None);
    let queue: ReportsView = client.get("/api/admin/reports", &auth(&ann)).await.read();
    let still = queue.reports[1].message.as_ref().unwrap();
    assert!(still.hidden && still.text.as_deref() == Some("you are rude-zz"));

    // A mute for a time: carl writes in no chat until then.
    let path = "/api/admin/accounts/carl/mute";
    for hours in [0, 721] {
        client
            .post(
                path,
                &json!({"hours": hours, "reason": "insults"}),
                &auth(&bob),
            )
            .await
            .assert_error(400, "bad_request");
    }
    client
        .post(
            path,
            &json!({"hours": 2, "reason": "insults"}),
            &auth(&dave),
        )
        .await
        .assert_error(403, "forbidden");
    let muted = client
        .post(path, &json!({"hours": 2, "reason": "insults"}), &auth(&bob))
        .await;
    assert_eq!(muted.status, 200, "{}", muted.text);
    let refused = refused_players(&client, &chat, "again", &carl).await;
    assert!(refused.contains("muted"), "{refused}");

    // Closing a report empties the open queue; every act is in the admin log.
    let first = queue.reports[0].id;
    let closed = client
        .post(
            &format!("/api/admin/reports/{first}/close"),
            &json!({"reason": "hidden and muted"}),
            &auth(&bob),
        )
        .await;
    assert_eq!(closed.json["changed"], true, "{}", closed.text);
    let open: ReportsView = client.get("/api/admin/reports", &auth(&bob)).await.read();
    assert_eq!(open.reports.len(), 1);
    let all: ReportsView = client
        .get("/api/admin/reports?all=true", &auth(&bob))
        .await
        .read();
    assert_eq!(all.reports[0].closed_by.as_deref(), Some("bob"));
    let log = client.get("/api/admin/log", &auth(&ann)).await;
    for action in ["hide", "mute", "close-report"] {
        assert!(
            log.json["lines"]
                .as_array()
                .unwrap()
                .iter()
                .any(|line| line["action"] == action && line["actor"] == "bob"),
            "{action}: {}",
            log.text
        );
    }

    // A block works both ways: no players' chat, no challenge, no rematch, no join.
    let blocked = client
        .send(Method::PUT, "/api/me/blocks/carl", &auth(&dave), None)
        .await;
    assert_eq!(blocked.status, 200, "{}", blocked.text);
    let blocks: BlocksView = blocked.read();
    assert_eq!(blocks.blocks.len(), 1);
    assert_eq!(blocks.blocks[0].name, "carl");
    let listed: BlocksView = client.get("/api/me/blocks", &auth(&dave)).await.read();
    assert_eq!(listed.blocks.len(), 1);
    client
        .send(Method::PUT, "/api/me/blocks/dave", &auth(&dave), None)
        .await
        .assert_error(400, "bad_request");
    client
        .send(Method::PUT, "/api/me/blocks/nobody", &auth(&dave), None)
        .await
        .assert_error(404, "not_found");
    refused_players(&client, &chat, "sorry", &dave).await;
    assert!(
        !read_chat(&client, &format!("{chat}?channel=players"), Some(&dave))
            .await
            .writable
    );
    for (from, to) in [(&carl, "dave"), (&dave, "carl")] {
        let body = json!({"game": "swaptimum", "size": 5, "opponent": format!("user:{to}")});
        let refused = client.post("/api/games", &body, &auth(from)).await;
        refused.assert_error(403, "forbidden");
        assert!(refused.message().contains("blocked"), "{}", refused.text);
    }
    let open = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "open"}),
            &auth(&carl),
        )
        .await;
    assert_eq!(open.status, 201, "{}", open.text);
    let open_id = open.json["id"].as_str().unwrap().to_owned();
    client
        .post(
            &format!("/api/games/{open_id}/join"),
            &json!({}),
            &auth(&dave),
        )
        .await
        .assert_error(403, "forbidden");
    let resigned = client
        .post(&format!("/api/games/{id}/resign"), &json!({}), &auth(&carl))
        .await;
    assert_eq!(resigned.json["status"], "finished", "{}", resigned.text);
    for token in [&carl, &dave] {
        client
            .post(
                &format!("/api/games/{id}/rematch"),
                &json!({}),
                &auth(token),
            )
            .await
            .assert_error(403, "forbidden");
    }

    // Unblocked, they may play again.
    let unblocked = client.delete("/api/me/blocks/carl", &auth(&dave)).await;
    assert_eq!(unblocked.json["blocks"], json!([]), "{}", unblocked.text);
    let joined = client
        .post(
            &format!("/api/games/{open_id}/join"),
            &json!({}),
            &auth(&dave),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    server.stop().await.unwrap();
    db
}

each_database!(
    messages_are_rate_limited_per_account,
    |db: TestDb| async move {
        let limits = Limits {
            chat_per_account: Rate::new(3, Duration::from_secs(60)),
            ..generous()
        };
        let server = start(&db, limits).await;
        let client = Client::new(&server);
        let ann = bearer(&client, "ann").await;
        let bob = bearer(&client, "bob").await;
        let id = game_between(&client, "swaptimum", 5, &ann, (&bob, "bob")).await;
        let chat = format!("/api/games/{id}/chat");
        let body = json!({"channel": "players", "text": "hi"});
        for _ in 0..3 {
            assert_eq!(say(&client, &chat, body.clone(), &ann).await, 201);
        }
        client
            .post(&chat, &body, &auth(&ann))
            .await
            .assert_error(429, "rate_limited");
        // Another account has its own rate.
        assert_eq!(say(&client, &chat, body, &bob).await, 201);
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    a_seats_thread_with_the_game_master_is_never_seen_by_another,
    threads
);

async fn threads(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let gm = bearer(&client, "gm").await;
    let pl1 = bearer(&client, "pl1").await;
    let pl2 = bearer(&client, "pl2").await;
    let outsider = bearer(&client, "outsider").await;
    let body = json!({"seats": 9, "round5": "theme", "round_hours": 24, "seed": 7});
    let created = client.post("/api/rooms", &body, &auth(&gm)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let created: RoomView = created.read();
    let (id, invite) = (created.id, created.invite.unwrap());
    for token in [&pl1, &pl2] {
        let joined = client
            .post(
                &format!("/api/rooms/{id}/join"),
                &json!({ "invite": invite }),
                &auth(token),
            )
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
    }
    let started = client
        .post(
            &format!("/api/rooms/{id}/start"),
            &json!({"fill_with_bots": true}),
            &auth(&gm),
        )
        .await;
    assert_eq!(started.status, 200, "{}", started.text);
    let (seat1, seat2) = (
        seat_in(&client, &id, &pl1).await,
        seat_in(&client, &id, &pl2).await,
    );
    let room_socket = format!("/api/rooms/{id}/socket");
    let mut sockets = vec![
        socket(&client, &room_socket, None).await,
        socket(&client, &room_socket, Some(&pl2)).await,
        socket(&client, &room_socket, Some(&outsider)).await,
    ];
    for socket in &mut sockets {
        drain(socket, Duration::from_millis(300)).await;
    }

    // pl1 and the game master talk in pl1's thread; pl2 says something at the table.
    let thread1 = format!("/api/rooms/{id}/seats/{seat1}/thread");
    let thread2 = format!("/api/rooms/{id}/seats/{seat2}/thread");
    assert_eq!(
        say(&client, &thread1, json!({"text": "secret-zebra ask"}), &pl1).await,
        201
    );
    assert_eq!(
        say(
            &client,
            &thread1,
            json!({"text": "secret-zebra reply"}),
            &gm
        )
        .await,
        201
    );
    assert_eq!(
        say(&client, &thread2, json!({"text": "pl2 to gm"}), &pl2).await,
        201
    );
    let table = format!("/api/rooms/{id}/chat");
    assert_eq!(
        say(&client, &table, json!({"text": "good luck all"}), &pl2).await,
        201
    );
    assert_eq!(say(&client, &table, json!({"text": "hi"}), &gm).await, 201);
    client
        .post(&table, &json!({"text": "let me in"}), &auth(&outsider))
        .await
        .assert_error(403, "forbidden");
    for token in [&pl2, &outsider] {
        client
            .post(&thread1, &json!({"text": "me too"}), &auth(token))
            .await
            .assert_error(403, "forbidden");
        client
            .get(&thread1, &auth(token))
            .await
            .assert_error(403, "forbidden");
    }
    client
        .get(&thread1, &[])
        .await
        .assert_error(401, "unauthenticated");
    client
        .get(&format!("/api/rooms/{id}/seats/10/thread"), &auth(&gm))
        .await
        .assert_error(404, "not_found");

    // Its two ends read it; the game master's audit log holds it.
    let mine = read_chat(&client, &thread1, Some(&pl1)).await;
    let expected = [
        Some("secret-zebra ask".to_owned()),
        Some("secret-zebra reply".to_owned()),
    ];
    assert_eq!(texts_of(&mine), expected);
    assert_eq!(
        texts_of(&read_chat(&client, &thread1, Some(&gm)).await),
        expected
    );
    // A thread's message is reported only by those who read it: to anyone else it does not
    // exist (and moderators would read it on their word).
    let secret = json!({"message": mine.messages[0].id, "reason": "spam"});
    for token in [&pl2, &outsider] {
        client
            .post("/api/reports", &secret, &auth(token))
            .await
            .assert_error(404, "not_found");
    }
    let filed = client.post("/api/reports", &secret, &auth(&pl1)).await;
    assert_eq!(filed.status, 201, "{}", filed.text);
    let audit = client
        .get(&format!("/api/rooms/{id}/audit"), &auth(&gm))
        .await;
    assert!(audit.text.contains("secret-zebra ask"), "{}", audit.text);

    // The game master is told of each seat's thread in the inbox: one unread notice per
    // thread however many messages, never one for their own; a new one once it was read.
    let pl1_says = |text: &'static str| say(&client, &thread1, json!({ "text": text }), &pl1);
    for _ in 0..2 {
        assert_eq!(pl1_says("secret-zebra more").await, 201);
    }
    let told = notices_of(&client, &gm, "thread_message").await;
    assert_eq!(told.len(), 2, "{told:?}");
    for seat in [seat1, seat2] {
        let words = format!("thread of seat {seat} of your Swap 61 room");
        let of_seat: Vec<&Value> = told
            .iter()
            .filter(|n| n["message"].as_str().unwrap().contains(&words))
            .collect();
        assert_eq!(of_seat.len(), 1, "seat {seat}: {told:?}");
        assert_eq!(of_seat[0]["room_id"], id.as_str());
        assert!(
            !of_seat[0]["message"]
                .as_str()
                .unwrap()
                .contains("secret-zebra")
        );
    }
    for token in [&pl1, &pl2] {
        assert!(
            notices_of(&client, token, "thread_message")
                .await
                .is_empty()
        );
    }
    let read = client
        .send(Method::POST, "/api/me/notifications/read", &auth(&gm), None)
        .await;
    assert_eq!(read.status, 200, "{}", read.text);
    assert_eq!(pl1_says("secret-zebra again").await, 201);
    let told = notices_of(&client, &gm, "thread_message").await;
    assert_eq!(told.len(), 3, "{told:?}");
    assert!(
        told[0]["read"] == false && told[1]["read"] == true,
        "{told:?}"
    );
    // A burst at once from the other seat (racing past the unread check on PostgreSQL):
    // still one new notice for its thread.
    let burst = (0..4).map(|_| say(&client, &thread2, json!({"text": "pl2 to gm"}), &pl2));
    for status in futures_util::future::join_all(burst).await {
        assert_eq!(status, 201);
    }
    let told = notices_of(&client, &gm, "thread_message").await;
    assert_eq!(told.len(), 4, "{told:?}");
    assert_eq!(
        told.iter().filter(|n| n["read"] == false).count(),
        2,
        "{told:?}"
    );
    let talk = read_chat(&client, &table, None).await;
    assert_eq!(
        texts_of(&talk),
        [Some("good luck all".to_owned()), Some("hi".to_owned())]
    );

    // Every GET path of the API, as the other seat, an outsider and nobody: no thread's text.
    let doc = client.get("/api/openapi.json", &[]).await.json;
    let chat_key = format!("room:{id}:seat:{seat1}");
    let mut swept = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if item.get("get").is_none() {
            continue;
        }
        let filled = path
            .replace("{id}", &id)
            .replace("{seat}", &seat1.to_string())
            .replace("{name}", "pl1")
            .replace("{chat}", &chat_key);
        let filled = fill_rest(&filled);
        for token in [Some(pl2.as_str()), Some(outsider.as_str()), None] {
            let headers: Vec<(&str, &str)> =
                token.map(|t| ("authorization", t)).into_iter().collect();
            let answer = client.get(&filled, &headers).await;
            assert!(
                !answer.text.contains("secret-zebra"),
                "GET {filled} as {token:?}: {}",
                answer.text
            );
            swept += 1;
        }
    }
    assert!(swept > 100, "{swept}");

    // The sockets: the table's messages, and for a thread a nudge naming no seat.
    for socket in &mut sockets {
        let heard = drain(socket, Duration::from_millis(700)).await;
        assert!(
            !heard
                .iter()
                .any(|t| t.contains("secret-zebra") || t.contains("pl2 to gm"))
        );
        let said = chats(&heard);
        let table: Vec<&Value> = said.iter().filter(|m| m["channel"] == "table").collect();
        assert_eq!(table.len(), 2, "{said:?}");
        assert_eq!(table[0]["message"]["text"], "good luck all");
        let nudges: Vec<&Value> = said.iter().filter(|m| m["channel"] == "thread").collect();
        // Ten messages in threads: three at first, seven more to the game master's inbox.
        assert_eq!(nudges.len(), 10, "{said:?}");
        assert!(nudges.iter().all(|m| m["message"].is_null()));
    }
    server.stop().await.unwrap();
    db
}

/// The caller's notices of `kind`, newest first.
async fn notices_of(client: &Client, token: &str, kind: &str) -> Vec<Value> {
    inbox(client, token).await["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == kind)
        .cloned()
        .collect()
}

/// The caller's seat in a room.
async fn seat_in(client: &Client, id: &str, token: &str) -> u8 {
    let view: RoomView = client
        .get(&format!("/api/rooms/{id}"), &auth(token))
        .await
        .read();
    view.you.unwrap().seat
}

/// A path's placeholders left after the known ones, filled with `1`.
fn fill_rest(path: &str) -> String {
    let mut filled = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        filled.push_str(&rest[..open]);
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
        filled.push('1');
        rest = &rest[close..];
    }
    filled.push_str(rest);
    filled
}

each_database!(
    reports_have_categories_stay_reported_and_everyone_is_told_why,
    details
);

async fn details(db: TestDb) -> TestDb {
    let (server, client, [_, bob, carl, dave], _, chat) = staffed(&db).await;
    let players = format!("{chat}?channel=players");
    let mut ids = Vec::new();
    for text in ["first-zz", "second-zz"] {
        ids.push(write_players(&client, &chat, text, &carl).await.id);
    }

    // A category alone is a report; with words too; an unknown one is refused by name,
    // and the old shape (a reason alone) still works.
    for body in [
        json!({"message": ids[0], "category": "insult"}),
        json!({"account": "carl", "category": "cheating", "reason": "an engine"}),
        json!({"account": "carl", "reason": "words only"}),
    ] {
        let filed = client.post("/api/reports", &body, &auth(&dave)).await;
        assert_eq!(filed.status, 201, "{body}: {}", filed.text);
    }
    for (body, field) in [
        (json!({"message": ids[0], "category": "rude"}), "category"),
        (json!({"message": ids[0]}), "reason"),
        (
            json!({"message": ids[0], "category": "spam", "reason": "x".repeat(501)}),
            "reason",
        ),
    ] {
        let refused = client.post("/api/reports", &body, &auth(&dave)).await;
        refused.assert_error(400, "bad_request");
        assert!(refused.message().starts_with(field), "{}", refused.text);
    }
    let queue: ReportsView = client.get("/api/admin/reports", &auth(&bob)).await.read();
    let categories: Vec<Option<&str>> = queue
        .reports
        .iter()
        .map(|r| r.category.as_deref())
        .collect();
    assert_eq!(categories, [None, Some("cheating"), Some("insult")]);
    assert_eq!(queue.reports[2].reason, "");
    assert_eq!(queue.reports[1].reason, "an engine");

    // The reporter reads which messages it reported, after any reload; nobody else does.
    let seen = read_chat(&client, &players, Some(&dave)).await;
    let reported: Vec<bool> = seen.messages.iter().map(|m| m.reported_by_me).collect();
    assert_eq!(reported, [true, false]);
    let newer = read_chat(&client, &format!("{players}&after={}", ids[0]), Some(&dave)).await;
    assert_eq!(newer.messages.len(), 1);
    assert!(!newer.messages[0].reported_by_me);
    let theirs = read_chat(&client, &players, Some(&carl)).await;
    assert!(theirs.messages.iter().all(|m| !m.reported_by_me));

    // Closing a report tells its reporter, once, without the moderator's note.
    let message_report = queue.reports[2].id;
    for _ in 0..2 {
        let closed = client
            .post(
                &format!("/api/admin/reports/{message_report}/close"),
                &json!({"reason": "private-note-zz"}),
                &auth(&bob),
            )
            .await;
        assert_eq!(closed.status, 200, "{}", closed.text);
    }
    let outcome = notices_of(&client, &dave, "report_closed").await;
    assert_eq!(outcome.len(), 1, "{outcome:?}");
    let words = outcome[0]["message"].as_str().unwrap();
    assert!(
        words.contains("Your report about a message of carl")
            && words.contains(&format!("report {message_report}"))
            && !words.contains("private-note-zz"),
        "{words}"
    );
    assert!(notices_of(&client, &carl, "report_closed").await.is_empty());

    // A block: the one who blocked is told what it did and how to undo it; the other
    // that the chat is closed.
    let blocked = client
        .send(Method::PUT, "/api/me/blocks/carl", &auth(&dave), None)
        .await;
    assert_eq!(blocked.status, 200, "{}", blocked.text);
    let mine = read_chat(&client, &players, Some(&dave)).await;
    assert!(!mine.writable);
    assert_eq!(
        mine.refusal.as_deref(),
        Some("You blocked carl: neither of you can write here. Unblock on carl's profile page.")
    );
    let other = read_chat(&client, &players, Some(&carl)).await;
    assert!(!other.writable);
    assert!(
        other.refusal.as_deref().unwrap().contains("blocked"),
        "{other:?}"
    );
    client.delete("/api/me/blocks/carl", &auth(&dave)).await;
    let open = read_chat(&client, &players, Some(&dave)).await;
    assert!(open.writable && open.refusal.is_none());

    // A mute: told in the inbox until when and why; a write and a read say it too.
    let muted = client
        .post(
            "/api/admin/accounts/carl/mute",
            &json!({"hours": 2, "reason": "insults-zz"}),
            &auth(&bob),
        )
        .await;
    assert_eq!(muted.status, 200, "{}", muted.text);
    let until = rfc3339(muted.json["until_ms"].as_i64().unwrap());
    let told = notices_of(&client, &carl, "chat_muted").await;
    assert_eq!(told.len(), 1, "{told:?}");
    let words = told[0]["message"].as_str().unwrap();
    assert!(
        words.starts_with("You are muted in every chat until ")
            && words.contains(&until)
            && words.ends_with(": insults-zz"),
        "{words}"
    );
    let said = refused_players(&client, &chat, "again", &carl).await;
    assert!(
        said.starts_with("you are muted until ")
            && said.contains(&format!("UTC ({until})"))
            && said.ends_with(": insults-zz"),
        "{said}"
    );
    let closed = read_chat(&client, &players, Some(&carl)).await;
    assert!(!closed.writable);
    assert_eq!(closed.refusal.as_deref(), Some(said.as_str()));
    server.stop().await.unwrap();
    db
}

/// A time in ms since the Unix epoch as the server writes it (RFC 3339, UTC, seconds).
fn rfc3339(ms: i64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp(ms / 1000).unwrap();
    at.format(&time::format_description::well_known::Rfc3339)
        .unwrap()
}
