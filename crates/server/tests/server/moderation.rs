//! The moderators' page's routes (issue 48): bans for a time that end by themselves and are
//! told to their owner, the lists of the banned and the muted, an account's file and notes,
//! reports with what surrounds them, roles granted and taken back by admins only, and the
//! admin log read by actor, action and target, a page at a time.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use swapboard_server::api::ReportsView;
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, game_between, generous, staff,
    start_on_manual_clock,
};

/// The names in a standing list.
async fn standing(client: &Client, token: &str, which: &str) -> Vec<String> {
    let answer = client
        .get(
            &format!("/api/admin/accounts?standing={which}"),
            &auth(token),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.json["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Logs in as `name`: the answer.
async fn log_in(client: &Client, name: &str) -> swapboard_testkit::Answer {
    let credentials = json!({"name": name, "password": "correct horse"});
    client.post("/api/tokens", &credentials, &[]).await
}

each_database!(
    a_ban_for_a_time_is_told_to_its_owner_and_ends_by_itself,
    |db: TestDb| async move {
        let (server, clock) = start_on_manual_clock(&db, generous()).await;
        let client = Client::new(&server);
        let (ann, bob, _store) = staff(&client, &db).await;
        bearer(&client, "carl").await;
        let path = "/api/admin/accounts/carl/ban";
        for days in [0, 3_651] {
            client
                .post(path, &json!({"reason": "spam", "days": days}), &auth(&bob))
                .await
                .assert_error(400, "bad_request");
        }
        let banned = client
            .post(path, &json!({"reason": "spam", "days": 2}), &auth(&bob))
            .await;
        assert_eq!(banned.status, 200, "{}", banned.text);
        let until = banned.json["until_ms"].as_i64().expect("a ban with an end");

        // carl is told why and until when, in words, at a login.
        let refused = log_in(&client, "carl").await;
        refused.assert_error(403, "forbidden");
        let told = refused.message();
        assert!(
            told.contains("banned until ") && told.contains(" UTC (20") && told.ends_with(": spam"),
            "{told}"
        );
        assert_eq!(standing(&client, &bob, "banned").await, ["carl"]);

        // A ban again replaces the term: for good now, then back to a day.
        let again = client
            .post(path, &json!({"reason": "spam again"}), &auth(&ann))
            .await;
        assert_eq!(
            (&again.json["changed"], &again.json["until_ms"]),
            (&json!(true), &Value::Null)
        );
        let shorter = client
            .post(path, &json!({"reason": "spam", "days": 2}), &auth(&ann))
            .await;
        assert_eq!(shorter.status, 200, "{}", shorter.text);
        assert!(shorter.json["until_ms"].as_i64().unwrap() >= until);

        // Two days on, the scheduler lifts it: carl logs in, and the log says who did.
        clock.advance(Duration::from_secs(2 * 86_400 + 120));
        let mut lifted = false;
        for _ in 0..100 {
            if log_in(&client, "carl").await.status == 201 {
                lifted = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(lifted, "the ban's end was not applied");
        assert!(standing(&client, &bob, "banned").await.is_empty());
        let log = client
            .get("/api/admin/log?target=carl&action=unban", &auth(&bob))
            .await;
        let lines = log.json["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 1, "{}", log.text);
        assert_eq!(lines[0]["actor"], "system");
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    an_accounts_file_gathers_its_standing_notes_reports_messages_and_log,
    |db: TestDb| async move {
        let (server, _clock) = start_on_manual_clock(&db, generous()).await;
        let client = Client::new(&server);
        let (ann, bob, _store) = staff(&client, &db).await;
        let carl = bearer(&client, "carl").await;
        let dave = bearer(&client, "dave").await;
        let id = game_between(&client, "swaptimum", 5, &carl, (&dave, "dave")).await;
        let chat = format!("/api/games/{id}/chat");
        // Twelve messages, the seventh rude: the report shows five on each side.
        let mut ids = Vec::new();
        for i in 0..12 {
            let (who, text) = if i % 2 == 0 {
                (&carl, format!("carl {i}"))
            } else {
                (&dave, format!("dave {i}"))
            };
            let posted = client
                .post(
                    &chat,
                    &json!({"channel": "players", "text": text}),
                    &auth(who),
                )
                .await;
            assert_eq!(posted.status, 201, "{}", posted.text);
            ids.push(posted.json["id"].as_i64().unwrap());
        }
        let filed = client
            .post(
                "/api/reports",
                &json!({"message": ids[6], "reason": "insults"}),
                &auth(&dave),
            )
            .await;
        assert_eq!(filed.status, 201, "{}", filed.text);
        let queue: ReportsView = client.get("/api/admin/reports", &auth(&bob)).await.read();
        let report = &queue.reports[0];
        let around: Vec<i64> = report.context.iter().map(|m| m.id).collect();
        assert_eq!(around, ids[1..12].to_vec());
        assert_eq!(
            report.place.as_deref(),
            Some(format!("/games/{id}").as_str())
        );
        assert_eq!(report.chat.as_deref(), Some("players"));

        // A report of an account shows its latest messages.
        let filed = client
            .post(
                "/api/reports",
                &json!({"account": "carl", "reason": "rude all game"}),
                &auth(&dave),
            )
            .await;
        assert_eq!(filed.status, 201, "{}", filed.text);
        let queue: ReportsView = client.get("/api/admin/reports", &auth(&bob)).await.read();
        let latest: Vec<String> = queue.reports[0]
            .context
            .iter()
            .map(|m| m.author.clone())
            .collect();
        assert_eq!(latest.len(), 6, "carl wrote six");
        assert!(latest.iter().all(|author| author == "carl"));

        // Notes, a mute, then the file.
        let note_path = "/api/admin/accounts/carl/notes";
        for text in ["", &"x".repeat(2_001)] {
            client
                .post(note_path, &json!({"text": text}), &auth(&bob))
                .await
                .assert_error(400, "bad_request");
        }
        client
            .post(note_path, &json!({"text": "warned once"}), &auth(&dave))
            .await
            .assert_error(403, "forbidden");
        let noted = client
            .post(note_path, &json!({"text": "warned once"}), &auth(&bob))
            .await;
        assert_eq!(noted.status, 201, "{}", noted.text);
        let muted = client
            .post(
                "/api/admin/accounts/carl/mute",
                &json!({"hours": 3, "reason": "insults"}),
                &auth(&bob),
            )
            .await;
        assert_eq!(muted.status, 200, "{}", muted.text);
        assert_eq!(standing(&client, &bob, "muted").await, ["carl"]);
        client
            .get("/api/admin/accounts?standing=gone", &auth(&bob))
            .await
            .assert_error(400, "bad_request");

        let file = client.get("/api/admin/accounts/carl", &auth(&bob)).await;
        assert_eq!(file.status, 200, "{}", file.text);
        let file = file.json;
        assert_eq!(file["name"], "carl");
        assert_eq!(file["signup_address"], "127.0.0.1");
        assert_eq!(file["ban"], Value::Null);
        assert!(file["muted_until_ms"].as_i64().is_some());
        assert_eq!(file["muted_reason"], "insults");
        assert_eq!(file["notes"][0]["text"], "warned once");
        assert_eq!(file["notes"][0]["author"], "bob");
        assert_eq!(file["reports"].as_array().unwrap().len(), 2);
        assert_eq!(file["messages"].as_array().unwrap().len(), 6);
        let mute_line = &file["log"][0];
        assert_eq!(mute_line["action"], "mute");
        // The mute's end is written in words, not in milliseconds.
        let detail = mute_line["detail"].as_str().unwrap();
        assert!(
            detail.starts_with("until 20") && detail.contains('T'),
            "{detail}"
        );
        client
            .get("/api/admin/accounts/nobody", &auth(&bob))
            .await
            .assert_error(404, "not_found");
        client
            .get("/api/admin/accounts/carl", &auth(&dave))
            .await
            .assert_error(403, "forbidden");

        // An unmute lets carl write again, once.
        let unmute = "/api/admin/accounts/carl/unmute";
        let reason = json!({"reason": "apologised"});
        let first = client.post(unmute, &reason, &auth(&ann)).await;
        assert_eq!(first.json["changed"], true, "{}", first.text);
        let second = client.post(unmute, &reason, &auth(&ann)).await;
        assert_eq!(second.json["changed"], false, "{}", second.text);
        assert!(standing(&client, &bob, "muted").await.is_empty());
        let again = client
            .post(
                &chat,
                &json!({"channel": "players", "text": "sorry"}),
                &auth(&carl),
            )
            .await;
        assert_eq!(again.status, 201, "{}", again.text);
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    roles_are_granted_and_taken_back_by_admins_only,
    |db: TestDb| async move {
        let (server, _clock) = start_on_manual_clock(&db, generous()).await;
        let client = Client::new(&server);
        let (ann, bob, _store) = staff(&client, &db).await;
        let carl = bearer(&client, "carl").await;
        let put = |token: String, path: &'static str| {
            let client = &client;
            async move { client.send(Method::PUT, path, &auth(&token), None).await }
        };
        // /api/me tells the client which pages to offer.
        let me = client.get("/api/me", &auth(&bob)).await;
        assert_eq!(me.json["roles"], json!(["moderator"]), "{}", me.text);
        let me = client.get("/api/me", &auth(&carl)).await;
        assert_eq!(me.json["roles"], json!([]), "{}", me.text);

        let carl_moderates = "/api/admin/accounts/carl/roles/moderator";
        put(bob.clone(), carl_moderates)
            .await
            .assert_error(403, "forbidden");
        put(ann.clone(), "/api/admin/accounts/carl/roles/king")
            .await
            .assert_error(400, "bad_request");
        let granted = put(ann.clone(), carl_moderates).await;
        assert_eq!(granted.json["changed"], true, "{}", granted.text);
        let holders = client.get("/api/admin/roles", &auth(&bob)).await;
        let listed: Vec<(String, String)> = holders.json["holders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["name"].as_str().unwrap().to_owned(),
                    h["role"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let expected = [
            ("ann", "admin"),
            ("bob", "moderator"),
            ("carl", "moderator"),
        ];
        assert_eq!(listed, expected.map(|(n, r)| (n.to_owned(), r.to_owned())));
        // carl, a moderator now, reads the queue; taken back, he no longer does.
        let queue = client.get("/api/admin/reports", &auth(&carl)).await;
        assert_eq!(queue.status, 200, "{}", queue.text);
        client
            .delete(carl_moderates, &auth(&bob))
            .await
            .assert_error(403, "forbidden");
        let revoked = client.delete(carl_moderates, &auth(&ann)).await;
        assert_eq!(revoked.json["changed"], true, "{}", revoked.text);
        let twice = client.delete(carl_moderates, &auth(&ann)).await;
        assert_eq!(twice.json["changed"], false, "{}", twice.text);
        client
            .get("/api/admin/reports", &auth(&carl))
            .await
            .assert_error(403, "forbidden");
        // An admin cannot take its own admin role: another admin can.
        client
            .delete("/api/admin/accounts/ann/roles/admin", &auth(&ann))
            .await
            .assert_error(403, "forbidden");

        // The log by action, then a page at a time.
        let grants = client
            .get("/api/admin/log?action=grant&actor=ann", &auth(&bob))
            .await;
        let lines = grants.json["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 1, "{}", grants.text);
        assert_eq!(lines[0]["target"], "carl");
        let page = client.get("/api/admin/log?limit=2", &auth(&bob)).await;
        let older = page.json["older"].as_i64().expect("more than a page");
        assert_eq!(page.json["lines"][0]["action"], "revoke");
        assert_eq!(page.json["lines"][1]["target"], "carl");
        let next = client
            .get(
                &format!("/api/admin/log?limit=2&before={older}"),
                &auth(&bob),
            )
            .await;
        // The operator's grants of the staff, the oldest lines, and nothing older.
        assert_eq!(next.json["lines"][0]["target"], "bob");
        assert_eq!(next.json["lines"][1]["target"], "ann");
        assert_eq!(next.json["older"], Value::Null);
        server.stop().await.unwrap();
        db
    }
);
