//! Adjudication (issue 24): an admin decides the result of a game being played. The game
//! ends `adjudicated` through the one place a game's end is written, so it is rated once,
//! counts in its tournament's standings (a round it completes pairs the next), its players
//! are notified, its watchers see it live, and the admin log says who, what and why; refusals name their cause. And
//! migration 0020, which rebuilds `games` on SQLite, keeps every row that references a game.

use std::time::Duration;

use serde_json::{Value, json};
use sqlx::Row as _;
use swapboard_server::api::{GameView, TournamentView};
use swapboard_server::store::{Finish, Status, Store, Termination};
use swapboard_testkit::{
    Client, TestDb, auth, bearer, connect, each_database, game_between, generous, next_message,
    staff, start, started, until,
};

/// The route of a game's adjudication.
fn route(id: &str) -> String {
    format!("/api/admin/games/{id}/adjudicate")
}

/// The account's rating record in Swaptimum.
async fn swaptimum(client: &Client, name: &str) -> Value {
    let account = client.get(&format!("/api/accounts/{name}"), &[]).await;
    assert_eq!(account.status, 200, "{}", account.text);
    account.json["ratings"]["swaptimum"].clone()
}

/// The message of the account's notice that `game` ended.
async fn ended_notice(client: &Client, token: &str, game: &str) -> String {
    let inbox = client.get("/api/me/notifications", &auth(token)).await;
    assert_eq!(inbox.status, 200, "{}", inbox.text);
    let notices = inbox.json["notifications"].as_array().unwrap();
    let notice = notices
        .iter()
        .find(|n| n["kind"] == "game_ended" && n["game_id"] == game)
        .unwrap_or_else(|| panic!("no game_ended notice for {game}: {}", inbox.text));
    notice["message"].as_str().unwrap().to_owned()
}

each_database!(
    an_admin_adjudicates_a_rated_game_rated_once_notified_and_logged,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let (ann, bob, store) = staff(&client, &db).await;
        let carl = bearer(&client, "carl").await;
        let dave = bearer(&client, "dave").await;
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
        let verdict = json!({"result": "second", "reason": "engine assistance"});

        // Refused: players and moderators (admins only, like an annulment), bad bodies.
        for who in [&carl, &bob] {
            client
                .post(&route(&id), &verdict, &auth(who))
                .await
                .assert_error(403, "forbidden");
        }
        let bad = client
            .post(
                &route(&id),
                &json!({"result": "red", "reason": "x"}),
                &auth(&ann),
            )
            .await;
        bad.assert_error(400, "bad_request");
        assert!(bad.message().contains("result"), "{}", bad.text);
        for body in [
            json!({"result": "first"}),
            json!({"result": "first", "reason": " "}),
        ] {
            let refused = client.post(&route(&id), &body, &auth(&ann)).await;
            refused.assert_error(400, "bad_request");
            assert!(refused.message().contains("reason"), "{}", refused.text);
        }
        client
            .post(&route("nope"), &verdict, &auth(&ann))
            .await
            .assert_error(404, "not_found");
        // A game still waiting for its second player is not being played.
        let waiting = client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 9, "opponent": "user:dave", "colour": "first"}),
            &auth(&carl),
        )
        .await;
        assert_eq!(waiting.status, 201, "{}", waiting.text);
        let waiting = waiting.read::<GameView>().id;
        let refused = client.post(&route(&waiting), &verdict, &auth(&ann)).await;
        refused.assert_error(409, "conflict");
        assert!(refused.message().contains("waiting"), "{}", refused.text);
        assert!(swaptimum(&client, "carl").await.is_null());

        // Adjudicated to the second player: over, `adjudicated`, dave wins.
        let decided = client.post(&route(&id), &verdict, &auth(&ann)).await;
        assert_eq!(decided.status, 200, "{}", decided.text);
        let view: GameView = client.get(&format!("/api/games/{id}"), &[]).await.read();
        assert_eq!(view.status, "finished");
        let result = view.result.as_ref().expect("a result");
        assert_eq!(result.winner.as_deref(), Some("dave"));
        assert_eq!(result.termination, "adjudicated");
        assert_eq!(decided.json["result"]["termination"], "adjudicated");
        assert!(view.players.iter().all(|p| p.rating.is_some()), "{view:?}");

        // Rated like any result, once: the winner up, the loser down, one game each.
        let (carl_rating, dave_rating) = (
            swaptimum(&client, "carl").await,
            swaptimum(&client, "dave").await,
        );
        assert_eq!(carl_rating["games"], 1, "{carl_rating}");
        assert_eq!(dave_rating["games"], 1, "{dave_rating}");
        assert!(
            carl_rating["rating"].as_f64().unwrap() < 1500.0,
            "{carl_rating}"
        );
        assert!(
            dave_rating["rating"].as_f64().unwrap() > 1500.0,
            "{dave_rating}"
        );

        // A finished game is decided already.
        let again = client.post(&route(&id), &verdict, &auth(&ann)).await;
        again.assert_error(409, "conflict");
        assert!(again.message().contains("finished"), "{}", again.text);
        assert_eq!(swaptimum(&client, "carl").await["games"], 1);

        // Both players are told, in words that say how.
        let lost = ended_notice(&client, &carl, &id).await;
        assert!(lost.contains("you lost by adjudication"), "{lost}");
        let won = ended_notice(&client, &dave, &id).await;
        assert!(won.contains("you won by adjudication"), "{won}");

        // A draw: nobody wins, both told so, and a watcher sees it live.
        let drawn_id = game_between(&client, "swaptimum", 9, &carl, (&dave, "dave")).await;
        let mut watcher = connect(&client, &format!("/api/games/{drawn_id}/socket")).await;
        let first = next_message(&mut watcher, Duration::from_secs(10)).await;
        assert_eq!(first["game"]["status"], "playing", "{first}");
        let drawn = client
            .post(
                &route(&drawn_id),
                &json!({"result": "draw", "reason": "server fault lost the clocks"}),
                &auth(&ann),
            )
            .await;
        assert_eq!(drawn.status, 200, "{}", drawn.text);
        assert_eq!(drawn.json["result"]["termination"], "adjudicated");
        assert!(drawn.json["result"]["winner"].is_null(), "{}", drawn.text);
        let seen = until(&mut watcher, Duration::from_secs(10), |g| {
            g["status"] == "finished"
        })
        .await;
        assert_eq!(
            seen["game"]["result"]["termination"], "adjudicated",
            "{seen}"
        );
        assert_eq!(seen["game"]["result"]["how"], "by adjudication", "{seen}");
        let notice = ended_notice(&client, &carl, &drawn_id).await;
        assert!(notice.contains("a draw by adjudication"), "{notice}");

        // The admin log: who, what, on which game, the result and why, newest first.
        let log = client.get("/api/admin/log?limit=2", &auth(&ann)).await;
        assert_eq!(log.status, 200, "{}", log.text);
        let lines = log.json["lines"].as_array().unwrap();
        assert_eq!(lines[0]["action"], "adjudicate");
        assert_eq!(lines[0]["target"], drawn_id.as_str());
        assert_eq!(lines[0]["detail"], "draw: server fault lost the clocks");
        assert_eq!(lines[1]["actor"], "ann");
        assert_eq!(lines[1]["action"], "adjudicate");
        assert_eq!(lines[1]["target"], id.as_str());
        assert_eq!(lines[1]["detail"], "second: engine assistance");
        assert!(lines[1]["at_ms"].as_i64().unwrap() > 0);

        store.close().await;
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    an_adjudicated_tournament_game_counts_in_the_standings_and_pairs_the_next_round,
    |db: TestDb| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let (ann, _, store) = staff(&client, &db).await;
        let eve = bearer(&client, "eve").await;
        let fay = bearer(&client, "fay").await;
        let soon = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
        let body = json!({"game": "flipstop", "size": 5, "clock": {"days_per_move": 3},
        "format": "round_robin", "min_players": 2, "max_players": 2,
        "starts_at": soon.format(&time::format_description::well_known::Rfc3339).unwrap()});
        let created = client.post("/api/tournaments", &body, &auth(&eve)).await;
        assert_eq!(created.status, 201, "{}", created.text);
        let tournament = created.json["id"].as_str().unwrap().to_owned();
        for token in [&eve, &fay] {
            let joined = client
                .post(
                    &format!("/api/tournaments/{tournament}/join"),
                    &json!({}),
                    &auth(token),
                )
                .await;
            assert_eq!(joined.status, 200, "{}", joined.text);
        }
        let t = started(&client, &tournament, &eve).await;
        // A double round robin of two: round 2 is scheduled, its game not made yet.
        assert_eq!(t.summary.round, 1, "{t:?}");
        assert_eq!(t.rounds[1].games[0].id, None, "{t:?}");
        let pairing = t.rounds[0].games[0].clone();
        let game = pairing.id.clone().expect("a round 1 game");

        let decided = client
            .post(
                &route(&game),
                &json!({"result": "first", "reason": "the second player abandoned it"}),
                &auth(&ann),
            )
            .await;
        assert_eq!(decided.status, 200, "{}", decided.text);
        let answer = client
            .get(&format!("/api/tournaments/{tournament}"), &[])
            .await;
        assert_eq!(answer.status, 200, "{}", answer.text);
        let t: TournamentView = answer.read();
        assert_eq!(t.rounds[0].games[0].result.as_deref(), Some("first"));
        let points = |name: &str| {
            t.standings
                .iter()
                .find(|s| s.name == name)
                .map(|s| s.points)
                .unwrap_or_else(|| panic!("{name} in {t:?}"))
        };
        assert_eq!(points(&pairing.first), 1.0, "{t:?}");
        assert_eq!(points(&pairing.second), 0.0, "{t:?}");
        // The round is complete: the next one's game is made (the colours swapped).
        assert_eq!(t.summary.round, 2, "{t:?}");
        assert_eq!(t.rounds[1].games[0].first, pairing.second, "{t:?}");
        assert!(t.rounds[1].games[0].id.is_some(), "{t:?}");

        store.close().await;
        server.stop().await.unwrap();
        db
    }
);

/// Every table with a foreign key on `games`, and its number of rows.
async fn referencing(pool: &sqlx::SqlitePool) -> Vec<(String, i64)> {
    let tables: Vec<String> = sqlx::query(
        "SELECT DISTINCT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f \
         WHERE m.type = 'table' AND f.\"table\" = 'games' ORDER BY m.name",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    .iter()
    .map(|row| row.get(0))
    .collect();
    let mut counted = Vec::new();
    for table in tables {
        let rows: i64 = sqlx::query(&format!("SELECT count(*) FROM {table}"))
            .fetch_one(pool)
            .await
            .unwrap()
            .get(0);
        counted.push((table, rows));
    }
    counted
}

/// A database at migration 0019 with a row in every table that references a game, migrated
/// by `Store::open`: every game and every referencing row is still there, the references
/// still hold (and still cascade), and a game can then end `adjudicated`.
#[tokio::test]
async fn migration_keeps_every_game() {
    let db = TestDb::sqlite();
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    crate::upgrades::migrator_before("sqlite", 20)
        .run(&pool)
        .await
        .unwrap();
    sqlx::raw_sql(
        "INSERT INTO accounts (id, name, name_key, password_hash, created_ms) \
           VALUES (1, 'ann', 'ann', 'x', 0), (2, 'bob', 'bob', 'x', 0);
         INSERT INTO games (id, game, size, status, ply, position, created_ms, updated_ms, rated) \
           VALUES ('g1', 'swaptimum', 9, 'finished', 2, 'p', 0, 0, 1);
         UPDATE games SET winner_seat = 0, termination = 'resigned' WHERE id = 'g1';
         INSERT INTO games (id, game, size, status, ply, position, created_ms, updated_ms) \
           VALUES ('g2', 'swaptimum', 5, 'playing', 1, 'swaptimum ...../...../...../...../..... R', 0, 0);
         UPDATE games SET rematch_id = 'g2' WHERE id = 'g1';
         INSERT INTO seats (game_id, seat, account_id) \
           VALUES ('g1', 0, 1), ('g1', 1, 2), ('g2', 0, 2), ('g2', 1, 1);
         INSERT INTO moves VALUES ('g1', 0, 0, 'c3', 0), ('g1', 1, 1, 'b2', 0), ('g2', 0, 0, 'c3', 0);
         INSERT INTO deadlines VALUES ('g2', 1, 99, NULL);
         INSERT INTO reviews (game_id, status, total, updated_ms) VALUES ('g1', 'running', 2, 0);
         INSERT INTO rating_changes VALUES ('g1', 0, 1, 'swaptimum', 0, 1500, 350, 0.06, 1600, 300, 0.06), \
           ('g1', 1, 2, 'swaptimum', 0, 1500, 350, 0.06, 1400, 300, 0.06);
         INSERT INTO ai_jobs (game_id, ply, created_ms) VALUES ('g2', 1, 0);
         INSERT INTO challenges (id, challenger_id, game, size, colour, game_id, created_ms) \
           VALUES ('c1', 1, 'swaptimum', 5, 'first', 'g2', 0);
         INSERT INTO tournaments (id, game, size, format, rounds, starts_ms, min_players, \
           max_players, rated, created_ms) VALUES ('t1', 'swaptimum', 5, 'swiss', 3, 0, 2, 8, 1, 0);
         INSERT INTO tournament_games (tournament_id, round, first_id, second_id, game_id) \
           VALUES ('t1', 1, 2, 1, 'g2');",
    )
    .execute(&pool)
    .await
    .unwrap();
    let before = referencing(&pool).await;
    // Eight tables and `games` itself (a rematch's link).
    assert_eq!(before.len(), 9, "{before:?}");
    assert!(before.iter().all(|(_, rows)| *rows > 0), "{before:?}");
    pool.close().await;

    let store = Store::open(&db.url).await.unwrap();
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    // The tables of later migrations (0022's analyses, 0030's conditional moves) reference
    // games too, and are empty;
    // 0026 moved the deadlines into the games' rows.
    let (kept, added): (Vec<_>, Vec<_>) = referencing(&pool)
        .await
        .into_iter()
        .partition(|(table, _)| before.iter().any(|(old, _)| old == table));
    let before_but_deadlines: Vec<_> = before
        .iter()
        .filter(|(table, _)| table != "deadlines")
        .cloned()
        .collect();
    assert_eq!(kept, before_but_deadlines);
    assert_eq!(
        added,
        [
            ("analyses".to_owned(), 0),
            ("conditional_moves".to_owned(), 0)
        ]
    );
    let due: Option<i64> = sqlx::query("SELECT due_ms FROM games WHERE id = 'g2'")
        .fetch_one(&pool)
        .await
        .unwrap()
        .get(0);
    assert_eq!(due, Some(99), "g2's deadline moved into its row");
    let games: Vec<(String, Option<String>, Option<String>)> =
        sqlx::query("SELECT id, termination, rematch_id FROM games ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|row| (row.get(0), row.get(1), row.get(2)))
            .collect();
    assert_eq!(
        games,
        [
            (
                "g1".to_owned(),
                Some("resigned".to_owned()),
                Some("g2".to_owned())
            ),
            ("g2".to_owned(), None, None),
        ]
    );
    let broken = sqlx::query("PRAGMA foreign_key_check")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(broken.is_empty(), "{} rows break a reference", broken.len());
    let indexes: Vec<String> =
        sqlx::query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' AND sql IS NOT NULL ORDER BY name")
            .fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
    assert_eq!(
        indexes,
        [
            "games_by_status",
            "games_by_status_and_update",
            "games_due",
            "games_expiring"
        ]
    );

    // The new word is accepted, through the store's one way to end a game.
    let finish = Finish {
        winner_seat: Some(1),
        termination: Termination::Adjudicated,
    };
    let ended = store
        .adjudicate("g2", finish, "operator", "test")
        .await
        .unwrap();
    assert_eq!(ended.status, Status::Finished);
    let stored = store.game("g2").await.unwrap().unwrap();
    assert_eq!(stored.finish, Some(finish));
    // The references still cascade: a game deleted takes its seats, moves, review and
    // rating changes with it (its rematch link, which does not cascade, cut first).
    sqlx::raw_sql("UPDATE games SET rematch_id = NULL; DELETE FROM games WHERE id = 'g1'")
        .execute(&pool)
        .await
        .unwrap();
    let after: Vec<(String, i64)> = referencing(&pool).await;
    let rows = |table: &str| after.iter().find(|(name, _)| name == table).unwrap().1;
    assert_eq!(
        [
            rows("seats"),
            rows("moves"),
            rows("reviews"),
            rows("rating_changes")
        ],
        [2, 1, 0, 0],
        "{after:?}"
    );
    pool.close().await;
    store.close().await;
    db.drop_it().await;
}
