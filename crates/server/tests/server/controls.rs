//! What a person does to their own account's security: list tokens and sessions, end one
//! or all the others, change the password (which ends the others too).

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::{Connection as _, Row as _};
use swapboard_testkit::{
    Client, TestDb, each_database, game_between, generous, sign_up_and_token, start,
    start_on_manual_clock,
};

const SAME_ORIGIN: (&str, &str) = ("sec-fetch-site", "same-origin");

fn zoe(password: &str) -> Value {
    json!({"name": "zoe", "password": password})
}

/// The ids and kinds of the credentials `bearer`'s account lists, and which is current.
async fn listed(client: &Client, bearer: &str) -> Vec<(String, String, bool)> {
    let list = client
        .get("/api/me/credentials", &[("authorization", bearer)])
        .await;
    assert_eq!(list.status, 200, "{}", list.text);
    list.json["credentials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["kind"].as_str().unwrap().to_owned(),
                c["current"].as_bool().unwrap(),
            )
        })
        .collect()
}

async fn me_status(client: &Client, headers: &[(&str, &str)]) -> u16 {
    let me = client.get("/api/me", headers).await;
    if me.status == 200 && me.json.is_null() {
        // A session that ended reads as the public.
        return 401;
    }
    me.status.as_u16()
}

async fn controls(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let first = format!(
        "Bearer {}",
        sign_up_and_token(&client, &zoe("correct horse")).await
    );
    let second = client.post("/api/tokens", &zoe("correct horse"), &[]).await;
    let second = format!("Bearer {}", second.json["token"].as_str().unwrap());
    let third = client.post("/api/tokens", &zoe("correct horse"), &[]).await;
    let third = format!("Bearer {}", third.json["token"].as_str().unwrap());
    let session = client
        .post("/api/session", &zoe("correct horse"), &[SAME_ORIGIN])
        .await;
    let cookie = session.headers["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();

    // Four credentials, one of them the caller's own; no secret in the list.
    let all = listed(&client, &first).await;
    assert_eq!(all.len(), 4, "{all:?}");
    assert_eq!(all.iter().filter(|c| c.2).count(), 1);
    assert_eq!(all.iter().filter(|c| c.1 == "session").count(), 1);
    assert!(all.iter().all(|c| c.0.len() == 16));

    // End one by id: that token stops working at once, the others go on.
    let second_id = listed(&client, &second)
        .await
        .into_iter()
        .find(|c| c.2)
        .unwrap()
        .0;
    let ended = client
        .delete(
            &format!("/api/me/credentials/{second_id}"),
            &[("authorization", &first)],
        )
        .await;
    assert_eq!(ended.status, 204, "{}", ended.text);
    assert_eq!(me_status(&client, &[("authorization", &second)]).await, 401);
    assert_eq!(me_status(&client, &[("authorization", &third)]).await, 200);
    // Again, or a bad id, or one's own: refused, naming the id.
    client
        .delete(
            &format!("/api/me/credentials/{second_id}"),
            &[("authorization", &first)],
        )
        .await
        .assert_error(404, "not_found");
    client
        .delete("/api/me/credentials/xyz", &[("authorization", &first)])
        .await
        .assert_error(400, "bad_request");
    let own = listed(&client, &first)
        .await
        .into_iter()
        .find(|c| c.2)
        .unwrap()
        .0;
    client
        .delete(
            &format!("/api/me/credentials/{own}"),
            &[("authorization", &first)],
        )
        .await
        .assert_error(404, "not_found");

    // A wrong password now changes nothing.
    let change =
        |password: &str, new: &str| json!({"password": password, "new_password": new}).to_string();
    let wrong = client
        .send(
            Method::PUT,
            "/api/me/password",
            &[
                ("authorization", &first),
                ("content-type", "application/json"),
            ],
            Some(&change("wrong horse", "battery staple")),
        )
        .await;
    wrong.assert_error(401, "unauthenticated");
    assert_eq!(me_status(&client, &[("authorization", &third)]).await, 200);

    // The right one: every other token and session ends, this one goes on, and only the
    // new password logs in.
    let changed = client
        .send(
            Method::PUT,
            "/api/me/password",
            &[
                ("authorization", &first),
                ("content-type", "application/json"),
            ],
            Some(&change("correct horse", "battery staple")),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.text);
    assert_eq!(changed.json, json!({"ended": 2}));
    assert_eq!(me_status(&client, &[("authorization", &third)]).await, 401);
    assert_eq!(me_status(&client, &[("cookie", &cookie)]).await, 401);
    assert_eq!(me_status(&client, &[("authorization", &first)]).await, 200);
    client
        .post("/api/tokens", &zoe("correct horse"), &[])
        .await
        .assert_error(401, "unauthenticated");
    let fourth = client
        .post("/api/tokens", &zoe("battery staple"), &[])
        .await;
    assert_eq!(fourth.status, 201, "{}", fourth.text);
    let fourth = format!("Bearer {}", fourth.json["token"].as_str().unwrap());

    // Log out everywhere else.
    let out = client
        .delete("/api/me/credentials", &[("authorization", &fourth)])
        .await;
    assert_eq!(out.json, json!({"ended": 1}), "{}", out.text);
    assert_eq!(me_status(&client, &[("authorization", &first)]).await, 401);
    assert_eq!(listed(&client, &fourth).await.len(), 1);

    // Nobody else's: another account cannot end zoe's credential by its id.
    let other = format!(
        "Bearer {}",
        sign_up_and_token(
            &client,
            &json!({"name": "yan", "password": "correct horse"})
        )
        .await
    );
    let zoe_id = listed(&client, &fourth).await[0].0.clone();
    client
        .delete(
            &format!("/api/me/credentials/{zoe_id}"),
            &[("authorization", &other)],
        )
        .await
        .assert_error(404, "not_found");
    assert_eq!(me_status(&client, &[("authorization", &fourth)]).await, 200);

    // The export: the account, its credentials (no secret), each game with its record.
    let game = game_between(&client, "swaptimum", 5, &fourth, (&other, "yan")).await;
    // Its settings: a chat message each way, a mail choice, a confirmed address, a
    // browser's push subscription, a block.
    let chat = format!("/api/games/{game}/chat");
    for (who, text) in [(&fourth, "from zoe"), (&other, "from yan")] {
        let said = client
            .post(
                &chat,
                &json!({"channel": "players", "text": text}),
                &[("authorization", who)],
            )
            .await;
        assert_eq!(said.status, 201, "{}", said.text);
    }
    let chosen = client
        .send(
            Method::PUT,
            "/api/me/notifications",
            &[
                ("authorization", &fourth),
                ("content-type", "application/json"),
            ],
            Some(&json!({"mail": {"your_turn": "off"}}).to_string()),
        )
        .await;
    assert_eq!(chosen.status, 200, "{}", chosen.text);
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    for insert in [
        "INSERT INTO email_addresses (account_id, email, token_hash, confirmed_ms, created_ms) \
         SELECT id, 'zoe@example.org', 'confirm-hash-secret', 2, 1 FROM accounts WHERE name_key = 'zoe'",
        "INSERT INTO push_subscriptions (account_id, endpoint, p256dh, auth, created_ms) \
         SELECT id, 'https://push.example/zoe', 'browser-key-secret', 'browser-auth-secret', 1 \
         FROM accounts WHERE name_key = 'zoe'",
    ] {
        sqlx::query(insert).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
    let blocked = client
        .send(
            Method::PUT,
            "/api/me/blocks/yan",
            &[("authorization", &fourth)],
            None,
        )
        .await;
    assert!(blocked.status.is_success(), "{}", blocked.text);
    let export = client
        .get("/api/me/export", &[("authorization", &fourth)])
        .await;
    assert_eq!(export.status, 200, "{}", export.text);
    assert_eq!(export.json["name"], "zoe");
    assert_eq!(export.json["truncated"], false);
    assert_eq!(export.json["credentials"].as_array().unwrap().len(), 1);
    assert_eq!(export.json["rooms"], json!([]));
    let games = export.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{}", export.text);
    assert_eq!(games[0]["id"], game.as_str());
    assert_eq!(games[0]["status"], "playing");
    let record = games[0]["record"].as_str().unwrap();
    assert!(record.contains("[Game \"swaptimum\"]"), "{record}");
    assert!(!export.text.contains(fourth.trim_start_matches("Bearer ")));
    let settings = &export.json["notifications"];
    assert_eq!(
        settings["email"]["email"], "zoe@example.org",
        "{}",
        export.text
    );
    assert_eq!(settings["email"]["confirmed"], true);
    assert_eq!(settings["mail"]["your_turn"], "off", "{}", export.text);
    assert_eq!(settings["push"][0]["endpoint"], "https://push.example/zoe");
    assert_eq!(export.json["profile"]["name"], "zoe");
    assert!(
        export.json["profile"]["ratings"].is_object(),
        "{}",
        export.text
    );
    assert!(
        export.json["vacation"]["days_left"].is_u64(),
        "{}",
        export.text
    );
    assert_eq!(export.json["blocks"][0]["name"], "yan", "{}", export.text);
    let messages = export.json["chat_messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{}", export.text);
    assert_eq!(messages[0]["text"], "from zoe");
    assert_eq!(messages[0]["chat"], format!("game:{game}:players"));
    for secret in ["from yan", "secret", "password_hash", "$argon2"] {
        assert!(!export.text.contains(secret), "{secret}: {}", export.text);
    }
    client
        .get("/api/me/export", &[])
        .await
        .assert_error(401, "unauthenticated");

    server.stop().await.unwrap();
    db
}

each_database!(a_person_lists_ends_and_changes_their_credentials, controls);

each_database!(
    deleting_an_account_forfeits_its_games_and_leaves_them_under_a_neutral_name,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let zoe_token = format!(
            "Bearer {}",
            sign_up_and_token(&client, &zoe("correct horse")).await
        );
        let yan = swapboard_testkit::bearer(&client, "yan").await;
        let id = game_between(&client, "swaptimum", 5, &zoe_token, (&yan, "yan")).await;
        for (ply, (mover, cell)) in [(&zoe_token, "c3"), (&yan, "b2")].into_iter().enumerate() {
            let played = client
                .post(
                    &format!("/api/games/{id}/moves"),
                    &json!({"move": cell, "ply": ply}),
                    &[("authorization", mover)],
                )
                .await;
            assert_eq!(played.status, 200, "{}", played.text);
        }
        // What else identifies zoe: a chat message, a mail address waiting for its
        // confirmation, mail choices, a pending password reset, a browser's push
        // subscription, and the your-turn notification of yan's move.
        let chat = format!("/api/games/{id}/chat");
        let said = client
            .post(
                &chat,
                &json!({"channel": "players", "text": "zoe was here"}),
                &[("authorization", &zoe_token)],
            )
            .await;
        assert_eq!(said.status, 201, "{}", said.text);
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
        let zoe_id: i64 = sqlx::query("SELECT id FROM accounts WHERE name_key = 'zoe'")
            .fetch_one(&mut conn)
            .await
            .unwrap()
            .get(0);
        for insert in [
            "INSERT INTO email_addresses (account_id, email, token_hash, token_expires_ms, \
         created_ms) VALUES ($1, 'zoe@example.org', 'confirm-hash', 9000000000000, 1)",
            "INSERT INTO notification_prefs (account_id, kind, mail) VALUES ($1, 'your_turn', 'off')",
            "INSERT INTO password_resets (token_hash, account_id, expires_ms, created_ms) \
         VALUES ('reset-hash', $1, 9000000000000, 1)",
            "INSERT INTO push_subscriptions (account_id, endpoint, p256dh, auth, created_ms) \
         VALUES ($1, 'https://push.example/zoe', 'key', 'secret', 1)",
        ] {
            sqlx::query(insert)
                .bind(zoe_id)
                .execute(&mut conn)
                .await
                .unwrap();
        }
        let personal = [
            "email_addresses",
            "notification_prefs",
            "password_resets",
            "push_subscriptions",
            "outbox",
        ];
        for table in personal {
            assert!(rows_of(&mut conn, table, zoe_id).await > 0, "{table}");
        }
        let delete = |password: &str| {
            let body = json!({"password": password}).to_string();
            let headers = [
                ("authorization", zoe_token.as_str()),
                ("content-type", "application/json"),
            ];
            let client = &client;
            async move {
                client
                    .send(Method::DELETE, "/api/me", &headers, Some(&body))
                    .await
            }
        };
        delete("wrong horse")
            .await
            .assert_error(401, "unauthenticated");
        let deleted = delete("correct horse").await;
        assert_eq!(deleted.status, 200, "{}", deleted.text);
        let shown_as = deleted.json["shown_as"].as_str().unwrap().to_owned();
        assert!(shown_as.starts_with("deleted:"), "{}", deleted.text);
        assert_eq!(deleted.json["forfeited"], json!([id]));

        // The game stays, under the neutral name, won by the opponent.
        let game = client.get(&format!("/api/games/{id}"), &[]).await;
        assert_eq!(game.json["status"], "finished", "{}", game.text);
        assert_eq!(game.json["players"][0]["name"], shown_as.as_str());
        assert_eq!(game.json["result"]["winner"], "yan");
        assert!(!game.text.contains("zoe"), "{}", game.text);
        // No credential works, the old name logs nobody in, and it is free again.
        client
            .get("/api/me/turn", &[("authorization", &zoe_token)])
            .await
            .assert_error(401, "unauthenticated");
        client
            .post("/api/tokens", &zoe("correct horse"), &[])
            .await
            .assert_error(401, "unauthenticated");
        assert_eq!(
            client
                .post("/api/accounts", &zoe("another horse"), &[])
                .await
                .status,
            201
        );
        // The address it signed up from went with it; the new zoe's is kept.
        let store = swapboard_server::store::Store::open(&db.url).await.unwrap();
        let signups = store.recent_signups(10, None).await.unwrap();
        let address_of = |name: &str| {
            let found = signups.iter().find(|s| s.name == name).unwrap();
            found.address.clone()
        };
        assert_eq!(address_of(&shown_as), None);
        assert_eq!(address_of("zoe").as_deref(), Some("127.0.0.1"));
        store.close().await;
        // Nothing else of the old zoe is left; her message keeps its place, removed.
        for table in personal {
            assert_eq!(rows_of(&mut conn, table, zoe_id).await, 0, "{table}");
        }
        let texts: Vec<String> = sqlx::query("SELECT text FROM chat_messages WHERE author_id = $1")
            .bind(zoe_id)
            .fetch_all(&mut conn)
            .await
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
        assert_eq!(texts, [""]);
        conn.close().await.unwrap();
        let shown = client
            .get(
                &format!("{chat}?channel=players"),
                &[("authorization", &yan)],
            )
            .await;
        assert_eq!(shown.status, 200, "{}", shown.text);
        let message = &shown.json["messages"][0];
        assert_eq!(message["author"], shown_as.as_str(), "{}", shown.text);
        assert_eq!(message["hidden"], true, "{}", shown.text);
        assert!(message["text"].is_null(), "{}", shown.text);
        assert!(!shown.text.contains("zoe was here"), "{}", shown.text);
        server.stop().await.unwrap();
        db
    }
);

/// How many rows of `table` belong to the account, read straight from the database.
async fn rows_of(conn: &mut sqlx::AnyConnection, table: &str, account_id: i64) -> i64 {
    sqlx::query(&format!(
        "SELECT count(*) FROM {table} WHERE account_id = $1"
    ))
    .bind(account_id)
    .fetch_one(conn)
    .await
    .unwrap()
    .get(0)
}

each_database!(
    a_token_may_expire_and_is_refused_once_it_has,
    |db: TestDb| async move {
        let (server, clock) = start_on_manual_clock(&db, generous()).await;
        let client = Client::new(&server);
        let lasting = format!(
            "Bearer {}",
            sign_up_and_token(&client, &zoe("correct horse")).await
        );
        // Out of 1 to 3650 days, or not a whole number: refused, naming the field.
        for days in [json!(0), json!(-1), json!(3651), json!(1.5), json!("7")] {
            let mut body = zoe("correct horse");
            body["expires_days"] = days.clone();
            let refused = client.post("/api/tokens", &body, &[]).await;
            assert_eq!(refused.status, 400, "{days}: {}", refused.text);
            assert!(
                refused.text.contains("expires_days"),
                "{days}: {}",
                refused.text
            );
        }
        let mut body = zoe("correct horse");
        body["expires_days"] = json!(30);
        let made = client.post("/api/tokens", &body, &[]).await;
        assert_eq!(made.status, 201, "{}", made.text);
        let expires_ms = made.json["expires_ms"].as_i64().unwrap();
        let thirty_days = 30 * 24 * 3600 * 1000;
        assert_eq!(expires_ms, clock.now_ms() + thirty_days, "{}", made.text);
        let expiring = made.json["token"].as_str().unwrap().to_owned();
        // The list shows when each token expires.
        let list = client
            .get("/api/me/credentials", &[("authorization", &lasting)])
            .await;
        let expiries: Vec<Value> = list.json["credentials"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["expires_ms"].clone())
            .collect();
        assert!(expiries.contains(&json!(expires_ms)), "{}", list.text);
        assert!(expiries.contains(&Value::Null), "{}", list.text);
        let left_out = client.post("/api/tokens", &zoe("correct horse"), &[]).await;
        assert_eq!(
            left_out.json["expires_ms"],
            Value::Null,
            "{}",
            left_out.text
        );

        // It acts until its time passes on the server's clock (the server's memory of a
        // credential it read included): then for nobody.
        let expiring_auth = format!("Bearer {expiring}");
        assert_eq!(
            me_status(&client, &[("authorization", &expiring_auth)]).await,
            200
        );
        clock.advance(std::time::Duration::from_millis(
            u64::try_from(thirty_days).unwrap() - 1,
        ));
        assert_eq!(
            me_status(&client, &[("authorization", &expiring_auth)]).await,
            200
        );
        clock.advance(std::time::Duration::from_millis(1));
        client
            .get(
                "/api/me/turn",
                &[("authorization", &format!("Bearer {expiring}"))],
            )
            .await
            .assert_error(401, "unauthenticated");
        assert_eq!(
            me_status(&client, &[("authorization", &lasting)]).await,
            200
        );
        server.stop().await.unwrap();
        db
    }
);
