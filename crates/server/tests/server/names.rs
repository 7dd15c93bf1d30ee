//! Names people can trust: a sign-up that looks like an existing account, and Swap 61 game
//! files whose seat names hide a direction override, mix scripts, or pass for an account.

use reqwest::Method;
use serde_json::json;
use swapboard_swap61::{Setup, Swap61Game};
use swapboard_testkit::{Client, TestDb, bearer, each_database, generous, start};

/// A game file of nine seats: `odd_one` and eight plain names.
fn file_with(odd_one: &str) -> String {
    let mut names: Vec<String> = (1..=8).map(|n| format!("seat{n}")).collect();
    names.push(odd_one.to_owned());
    let setup = Setup::generate(&names, 7).unwrap();
    Swap61Game::new(setup, None).unwrap().to_json()
}

async fn trusted_names(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);

    // Sign-up: a name that only looks like a taken one is refused and names it.
    bearer(&client, "mike").await;
    let look_alike = client
        .post(
            "/api/accounts",
            &json!({"name": "rnike", "password": "correct horse"}),
            &[],
        )
        .await;
    look_alike.assert_error(409, "conflict");
    assert!(
        look_alike.message().contains("\"mike\""),
        "{}",
        look_alike.text
    );
    let same = client
        .post(
            "/api/accounts",
            &json!({"name": "MIKE", "password": "correct horse"}),
            &[],
        )
        .await;
    same.assert_error(409, "conflict");
    assert!(same.message().contains("taken"), "{}", same.text);

    // Import: each seat name is checked before anything is stored.
    let master = bearer(&client, "gm").await;
    bearer(&client, "cop").await;
    let import = |file: String| {
        let client = &client;
        let master = &master;
        async move {
            client
                .send(
                    Method::POST,
                    "/api/rooms/import",
                    &[
                        ("authorization", master.as_str()),
                        ("content-type", "application/json"),
                    ],
                    Some(&file),
                )
                .await
        }
    };
    for (name, why) in [
        ("evil\u{202E}nimda", "U+202E"),
        ("zero\u{200B}width", "U+200B"),
        ("\u{430}dmin", "scripts"),
        // All Cyrillic, one script, but drawn like the account "cop".
        ("\u{441}\u{43E}\u{440}", "\"cop\""),
    ] {
        let refused = import(file_with(name)).await;
        refused.assert_error(400, "bad_request");
        assert!(
            refused.message().contains(why),
            "{name:?}: {}",
            refused.text
        );
    }
    let rooms = client
        .get("/api/me/rooms", &[("authorization", master.as_str())])
        .await;
    assert_eq!(rooms.json["rooms"], json!([]), "{}", rooms.text);

    // An accent written as a letter and a combining mark is stored composed; the account's
    // own name in another case is that account's seat.
    let imported = import(file_with("Jose\u{301}")).await;
    assert_eq!(imported.status, 201, "{}", imported.text);
    let names: Vec<&str> = imported.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Jos\u{E9}"), "{names:?}");
    let own = import(file_with("COP")).await;
    assert_eq!(own.status, 201, "{}", own.text);

    server.stop().await.unwrap();
    db
}

each_database!(look_alike_and_hidden_names_are_refused, trusted_names);
