//! The lessons over HTTP on both backends (issue 25): every lesson read, a step's solution
//! judged done and its wrong move refused or missed, and the progress of a signed-in caller
//! (a guest too) kept, the public's not.

use serde_json::{Value, json};
use swapboard_testkit::{Client, TestDb, auth, bearer, each_database, generous, start};

const SAME_ORIGIN: (&str, &str) = ("sec-fetch-site", "same-origin");

async fn lessons(db: TestDb) -> TestDb {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let list = client.get("/api/lessons", &[]).await;
    assert_eq!(list.status, 200, "{}", list.text);
    let games: Vec<&str> = list.json["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["game"].as_str().unwrap())
        .collect();
    assert_eq!(games, ["swaptimum", "flipstop", "scware", "rapid-transit"]);
    for lesson in list.json["lessons"].as_array().unwrap() {
        assert!(lesson["steps"].as_u64().unwrap() >= 6, "{lesson}");
        assert_eq!(lesson["done"], Value::Null);
    }

    let lesson = client.get("/api/lessons/swaptimum", &[]).await;
    assert_eq!(lesson.status, 200, "{}", lesson.text);
    assert_eq!(lesson.json["author"], "Mark Steere");
    let steps = lesson.json["steps"].as_array().unwrap();
    assert!(steps[1]["task"].as_str().unwrap().contains("crosscut"));
    assert_eq!(steps[1]["board"]["size"], 5);
    client
        .get("/api/lessons/swap61", &[])
        .await
        .assert_error(404, "not_found");

    // The public: judged, nothing kept.
    let step2 = "/api/lessons/swaptimum/steps/2/attempt";
    let right = client.post(step2, &json!({"move": "c3:c3-b3"}), &[]).await;
    assert_eq!(right.status, 200, "{}", right.text);
    assert_eq!(right.json["done"], true);
    assert_eq!(right.json["move"], "c3:b3-c3");
    assert_eq!(
        right.json["position"],
        "swaptimum ...R./...B./.RB../.RB../....R B"
    );
    assert_eq!(right.json["progress"], Value::Null);
    // A legal move that misses the task: why, in the step's words.
    let missed = client.post(step2, &json!({"move": "a1"}), &[]).await;
    assert_eq!(missed.json["done"], false, "{}", missed.text);
    assert!(missed.json["why"].as_str().unwrap().contains("c3"));
    assert_eq!(
        missed.json["answer"],
        Value::Null,
        "no answer where no win was asked"
    );
    // A missed win: the other side's answer, in words and on the board.
    let finish = "/api/lessons/swaptimum/steps/6/attempt";
    let missed_win = client.post(finish, &json!({"move": "e5"}), &[]).await;
    assert_eq!(missed_win.json["done"], false, "{}", missed_win.text);
    let reply = missed_win.json["answer"]["move"].as_str().unwrap();
    assert!(
        missed_win.json["why"]
            .as_str()
            .unwrap()
            .contains(&format!("Red answers {reply}")),
        "{}",
        missed_win.text
    );
    assert!(missed_win.json["answer"]["board"]["marks"].is_array());
    // A move the rules refuse: the rule's code and refusal.
    let refused = client.post(step2, &json!({"move": "c3"}), &[]).await;
    refused.assert_error(422, "illegal_move");
    assert_eq!(refused.json["error"]["rule"], "swap_required");
    client
        .post(step2, &json!({"move": "zz"}), &[])
        .await
        .assert_error(400, "bad_request");
    for bad in ["0", "99", "x"] {
        client
            .post(
                &format!("/api/lessons/swaptimum/steps/{bad}/attempt"),
                &json!({"move": "c3"}),
                &[],
            )
            .await
            .assert_error(404, "not_found");
    }
    client
        .post(step2, &json!({"move": "c".repeat(401)}), &[])
        .await
        .assert_error(400, "bad_request");

    // An account's progress: the furthest step done, never lowered.
    let ann = bearer(&client, "ann").await;
    let done = client
        .post(step2, &json!({"move": "c3:b3-c3"}), &auth(&ann))
        .await;
    assert_eq!(done.json["progress"], 2, "{}", done.text);
    let first = client
        .post(
            "/api/lessons/swaptimum/steps/1/attempt",
            &json!({"move": "a1"}),
            &auth(&ann),
        )
        .await;
    assert_eq!(first.json["progress"], 2, "{}", first.text);
    let missed = client
        .post(step2, &json!({"move": "a1"}), &auth(&ann))
        .await;
    assert_eq!(missed.json["progress"], 2);
    let shown = client.get("/api/lessons/swaptimum", &auth(&ann)).await;
    assert_eq!(shown.json["done"], 2);
    let listed = client.get("/api/lessons", &auth(&ann)).await;
    assert_eq!(listed.json["lessons"][0]["done"], 2);
    assert_eq!(listed.json["lessons"][1]["done"], 0);

    // A guest's progress is kept too.
    let started = client
        .post("/api/session/guest", &json!({}), &[SAME_ORIGIN])
        .await;
    let cookie = started.headers["set-cookie"].to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_owned();
    let as_guest = [("cookie", cookie.as_str()), SAME_ORIGIN];
    let win = client
        .post(
            "/api/lessons/rapid-transit/steps/6/attempt",
            &json!({"move": "a3-b1"}),
            &as_guest,
        )
        .await;
    assert_eq!(win.json["done"], true, "{}", win.text);
    assert!(
        win.json["ending"].as_str().unwrap().contains("Red"),
        "{}",
        win.text
    );
    assert_eq!(win.json["progress"], 6);
    server.stop().await.unwrap();
    db
}

each_database!(
    lessons_are_judged_by_the_engine_and_progress_is_kept,
    lessons
);
