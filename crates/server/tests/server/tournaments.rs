//! Tournaments over real HTTP on a real SQLite file and a real PostgreSQL database (issue
//! 26): accounts that join, play their games (moves, resignations) and withdraw through the
//! API; the standings checked against the test's own count, the pairings against the
//! formats' promises (no pair twice in a Swiss, each pair twice with each colour once in a
//! round robin, colours within one); a round paired exactly once by two instances racing;
//! bad bodies refused naming the field.

use std::collections::{BTreeMap, BTreeSet};

use rand::{RngExt as _, SeedableRng as _};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{Value, json};
use swapboard_play::AnyPosition;
use swapboard_server::Server;
use swapboard_server::api::TournamentView;
use swapboard_testkit::{
    Client, TestDb, auth, bearer, each_database, generous, on_manual_clock, options, start, started,
};

/// Signs up `count` players named `{prefix}{i}`: (name, bearer).
async fn players(client: &Client, prefix: &str, count: usize) -> Vec<(String, String)> {
    let mut made = Vec::with_capacity(count);
    for i in 0..count {
        let name = format!("{prefix}{i:02}");
        let token = bearer(client, &name).await;
        made.push((name, token));
    }
    made
}

/// Creates a tournament of `body`'s fields (a correspondence clock, starting in an hour
/// unless given) and enters every player; its id.
async fn tournament(
    client: &Client,
    creator: &str,
    body: Value,
    entrants: &[(String, String)],
) -> String {
    let mut full = json!({"game": "flipstop", "size": 5, "clock": {"days_per_move": 3},
        "starts_at": "2099-01-01T00:00:00Z", "min_players": 2, "max_players": 60});
    for (key, value) in body.as_object().unwrap() {
        full[key] = value.clone();
    }
    // A start more than a year ahead is refused: an hour from now instead.
    if full["starts_at"] == "2099-01-01T00:00:00Z" {
        let soon = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
        full["starts_at"] = json!(
            soon.format(&time::format_description::well_known::Rfc3339)
                .unwrap()
        );
    }
    let created = client.post("/api/tournaments", &full, &auth(creator)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    assert_eq!(created.json["status"], "open");
    for (name, token) in entrants {
        let joined = client
            .post(
                &format!("/api/tournaments/{id}/join"),
                &json!({}),
                &auth(token),
            )
            .await;
        assert_eq!(joined.status, 200, "{name}: {}", joined.text);
    }
    id
}

async fn view(client: &Client, id: &str) -> TournamentView {
    let answer = client.get(&format!("/api/tournaments/{id}"), &[]).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.read()
}

/// Plays a game to its end by the rules, each player to move playing its first legal move:
/// the winner's name.
async fn play_out(client: &Client, id: &str, tokens: &BTreeMap<String, String>) -> Option<String> {
    let moves = format!("/api/games/{id}/moves");
    let mut game = client.get(&format!("/api/games/{id}"), &[]).await.json;
    while game["status"] == "playing" {
        let position: AnyPosition = game["position"].as_str().unwrap().parse().unwrap();
        let text = position.legal_moves(usize::MAX).unwrap()[0].clone();
        let mover = &tokens[game["to_move"].as_str().unwrap()];
        let body = json!({"move": text, "ply": game["ply"]});
        let played = client.post(&moves, &body, &auth(mover)).await;
        assert_eq!(played.status, 200, "{}", played.text);
        game = played.json;
    }
    assert_eq!(game["result"]["termination"], "rules", "{game}");
    game["result"]["winner"].as_str().map(str::to_owned)
}

/// Ends a game by the loser's resignation (at any ply: a tournament's game is never
/// aborted); the winner's name.
async fn resign(
    client: &Client,
    id: &str,
    loser: &str,
    winner: &str,
    tokens: &BTreeMap<String, String>,
) -> String {
    // The page's button says Resign, never Abort, whatever the ply: the server says so.
    let before = client
        .get(&format!("/api/games/{id}"), &auth(&tokens[loser]))
        .await;
    assert_eq!(before.json["abortable"], false, "{}", before.text);
    let resigned = client
        .post(
            &format!("/api/games/{id}/resign"),
            &json!({}),
            &auth(&tokens[loser]),
        )
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    assert_eq!(
        resigned.json["result"]["termination"], "resigned",
        "{}",
        resigned.text
    );
    assert_eq!(
        resigned.json["result"]["winner"], winner,
        "{}",
        resigned.text
    );
    // No rematch: the tournament pairs the next game.
    client
        .post(
            &format!("/api/games/{id}/rematch"),
            &json!({}),
            &auth(&tokens[loser]),
        )
        .await
        .assert_error(409, "conflict");
    winner.to_owned()
}

/// A finished game as the test saw it: (first, second, winner).
type Played = (String, String, Option<String>);

/// Plays every round of a started tournament to its end: in each round, the first game is
/// played out by moves, and in the others the player a seeded coin weighed by hidden
/// strengths picks resigns. Checks that each round's games involve each active player at
/// most once. Every game as played, by round.
async fn play_all(
    client: &Client,
    id: &str,
    tokens: &BTreeMap<String, String>,
    seed: u64,
) -> Vec<Vec<Played>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let strength: BTreeMap<&str, f64> = tokens
        .keys()
        .enumerate()
        .map(|(i, name)| (name.as_str(), (i as f64) * 40.0))
        .collect();
    let mut played: Vec<Vec<Played>> = Vec::new();
    loop {
        let t = view(client, id).await;
        if t.summary.status == "finished" {
            return played;
        }
        assert_eq!(t.summary.status, "running");
        let current = t.summary.round as usize;
        assert_eq!(played.len() + 1, current, "rounds are played in order");
        let round = &t.rounds[current - 1];
        let mut seen = BTreeSet::new();
        let mut results = Vec::new();
        for (k, pairing) in round.games.iter().enumerate() {
            assert!(
                seen.insert(pairing.first.clone()),
                "{} twice in round {current}",
                pairing.first
            );
            assert!(
                seen.insert(pairing.second.clone()),
                "{} twice in round {current}",
                pairing.second
            );
            let game = pairing
                .id
                .as_deref()
                .expect("a game was made for the pairing");
            assert_eq!(pairing.result, None);
            let winner = if k == 0 {
                play_out(client, game, tokens).await
            } else {
                let (a, b) = (&pairing.first, &pairing.second);
                let p =
                    1.0 / (1.0 + 10f64.powf((strength[b.as_str()] - strength[a.as_str()]) / 400.0));
                let (winner, loser) = if rng.random::<f64>() < p {
                    (a, b)
                } else {
                    (b, a)
                };
                Some(resign(client, game, loser, winner, tokens).await)
            };
            results.push((pairing.first.clone(), pairing.second.clone(), winner));
        }
        if let Some(bye) = &round.bye {
            assert!(seen.insert(bye.clone()), "the bye {bye} also plays");
        }
        played.push(results);
    }
}

/// The test's own standings: (name, points, Sonneborn-Berger, second-player wins), best
/// first by points, Sonneborn-Berger, second-player wins (every rating is the same 1500),
/// with the rank each shares.
fn own_standings(
    names: &[String],
    rounds: &[Vec<Played>],
    byes: &[String],
) -> Vec<(usize, String, f64, f64, u32)> {
    let mut points: BTreeMap<&str, f64> = names.iter().map(|n| (n.as_str(), 0.0)).collect();
    let mut second_wins: BTreeMap<&str, u32> = names.iter().map(|n| (n.as_str(), 0)).collect();
    for (first, second, winner) in rounds.iter().flatten() {
        match winner {
            Some(w) => {
                *points.get_mut(w.as_str()).unwrap() += 1.0;
                if w == second {
                    *second_wins.get_mut(w.as_str()).unwrap() += 1;
                }
            }
            None => {
                *points.get_mut(first.as_str()).unwrap() += 0.5;
                *points.get_mut(second.as_str()).unwrap() += 0.5;
            }
        }
    }
    for bye in byes {
        *points.get_mut(bye.as_str()).unwrap() += 1.0;
    }
    let mut sb: BTreeMap<&str, f64> = names.iter().map(|n| (n.as_str(), 0.0)).collect();
    for (first, second, winner) in rounds.iter().flatten() {
        match winner {
            Some(w) => {
                let loser = if w == first { second } else { first };
                *sb.get_mut(w.as_str()).unwrap() += points[loser.as_str()];
            }
            None => {
                *sb.get_mut(first.as_str()).unwrap() += points[second.as_str()] / 2.0;
                *sb.get_mut(second.as_str()).unwrap() += points[first.as_str()] / 2.0;
            }
        }
    }
    let mut lines: Vec<(usize, String, f64, f64, u32)> = names
        .iter()
        .map(|n| {
            (
                0,
                n.clone(),
                points[n.as_str()],
                sb[n.as_str()],
                second_wins[n.as_str()],
            )
        })
        .collect();
    let key = |l: &(usize, String, f64, f64, u32)| (l.2, l.3, l.4);
    lines.sort_by(|a, b| key(b).partial_cmp(&key(a)).unwrap());
    for i in 0..lines.len() {
        lines[i].0 = if i > 0 && key(&lines[i]) == key(&lines[i - 1]) {
            lines[i - 1].0
        } else {
            i + 1
        };
    }
    lines
}

/// Checks the server's standings of `names` (a division, or the whole Swiss) against the
/// test's own.
fn same_standings(t: &TournamentView, names: &[String], rounds: &[Vec<Played>], byes: &[String]) {
    let ours = own_standings(names, rounds, byes);
    let theirs: BTreeMap<&str, &swapboard_server::api::TournamentStandingView> = t
        .standings
        .iter()
        .filter(|s| names.contains(&s.name))
        .map(|s| (s.name.as_str(), s))
        .collect();
    assert_eq!(theirs.len(), names.len());
    for (rank, name, points, sb, second) in &ours {
        let s = theirs[name.as_str()];
        assert_eq!(
            (s.rank, s.points, s.sonneborn_berger, s.second_player_wins),
            (*rank, *points, *sb, *second),
            "{name}'s standing: {ours:?}"
        );
        assert_eq!(s.rating, 1500.0);
    }
}

/// A Swiss of `count` new players named `prefix00`..., `rounds` rounds, started by its
/// creator (the first): each player's name and token, the tournament's id, and the view
/// its start answered.
async fn started_swiss(
    client: &Client,
    prefix: &str,
    count: usize,
    rounds: u32,
) -> (Vec<(String, String)>, String, TournamentView) {
    let field = players(client, prefix, count).await;
    let id = tournament(
        client,
        &field[0].1,
        json!({"format": "swiss", "rounds": rounds}),
        &field,
    )
    .await;
    let view = started(client, &id, &field[0].1).await;
    (field, id, view)
}

/// No two players met twice in these rounds.
fn no_pair_met_twice(rounds: &[Vec<Played>]) {
    let mut met = BTreeSet::new();
    for (first, second, _) in rounds.iter().flatten() {
        assert!(
            met.insert(BTreeSet::from([first, second])),
            "{first} and {second} met twice"
        );
    }
}

/// Each player's (firsts, seconds).
fn colours(rounds: &[Vec<Played>]) -> BTreeMap<String, (u32, u32)> {
    let mut counts: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for (first, second, _) in rounds.iter().flatten() {
        counts.entry(first.clone()).or_default().0 += 1;
        counts.entry(second.clone()).or_default().1 += 1;
    }
    counts
}

each_database!(
    a_ten_player_double_round_robin_is_played_to_its_standings,
    |db| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let field = players(&client, "rr", 10).await;
        let tokens: BTreeMap<String, String> = field.iter().cloned().collect();
        let names: Vec<String> = field.iter().map(|(n, _)| n.clone()).collect();
        let id = tournament(
            &client,
            &field[0].1,
            json!({"format": "round_robin"}),
            &field,
        )
        .await;
        // Only the creator starts it early.
        let refused = client
            .post(
                &format!("/api/tournaments/{id}/start"),
                &json!({}),
                &auth(&field[1].1),
            )
            .await;
        refused.assert_error(403, "forbidden");
        let t = started(&client, &id, &field[0].1).await;
        assert_eq!(
            (
                t.summary.status.as_str(),
                t.summary.round,
                t.summary.total_rounds
            ),
            ("running", 1, 18)
        );
        // The whole schedule is shown from the start: 18 rounds of 5 games.
        assert_eq!(t.rounds.len(), 18);
        assert!(t.rounds.iter().all(|r| r.games.len() == 5));
        // Joining a running tournament is refused.
        let late = bearer(&client, "late").await;
        client
            .post(
                &format!("/api/tournaments/{id}/join"),
                &json!({}),
                &auth(&late),
            )
            .await
            .assert_error(409, "conflict");
        let rounds = play_all(&client, &id, &tokens, 26).await;
        assert_eq!(rounds.len(), 18);
        // Each pair met twice, once with each colour; every player 9 firsts, 9 seconds.
        let mut met = BTreeSet::new();
        for (first, second, _) in rounds.iter().flatten() {
            assert!(
                met.insert((first.clone(), second.clone())),
                "{first} had first against {second} twice"
            );
        }
        assert_eq!(met.len(), 90);
        for (name, (firsts, seconds)) in colours(&rounds) {
            assert_eq!((firsts, seconds), (9, 9), "{name}");
        }
        // After the first half too, every player's colours are within one.
        for (name, (firsts, seconds)) in colours(&rounds[..9]) {
            assert!(
                firsts.abs_diff(seconds) <= 1,
                "{name}: {firsts} firsts, {seconds} seconds"
            );
        }
        let t = view(&client, &id).await;
        assert_eq!(t.summary.status, "finished");
        assert!(
            t.rounds
                .iter()
                .flat_map(|r| &r.games)
                .all(|g| g.result.is_some())
        );
        same_standings(&t, &names, &rounds, &[]);
        let listed = client.get("/api/tournaments", &[]).await;
        assert!(
            listed.json["finished"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["id"] == id.as_str())
        );
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    a_forty_player_seven_round_swiss_is_played_to_its_standings,
    |db| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let (field, id, started) = started_swiss(&client, "sw", 40, 7).await;
        let tokens: BTreeMap<String, String> = field.iter().cloned().collect();
        let names: Vec<String> = field.iter().map(|(n, _)| n.clone()).collect();
        // A Swiss shows only the rounds paired so far.
        assert_eq!(started.rounds.len(), 1);
        let rounds = play_all(&client, &id, &tokens, 40).await;
        assert_eq!(rounds.len(), 7);
        assert!(rounds.iter().all(|r| r.len() == 20));
        no_pair_met_twice(&rounds);
        // Colours stay within one after every round, not only at the end.
        for played in 1..=rounds.len() {
            for (name, (firsts, seconds)) in colours(&rounds[..played]) {
                assert!(
                    firsts.abs_diff(seconds) <= 1,
                    "after round {played}, {name}: {firsts} firsts, {seconds} seconds"
                );
            }
        }
        let t = view(&client, &id).await;
        assert_eq!(t.summary.status, "finished");
        same_standings(&t, &names, &rounds, &[]);
        server.stop().await.unwrap();
        db
    }
);

each_database!(
    a_withdrawal_forfeits_and_an_odd_swiss_gives_a_bye,
    |db| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let field = players(&client, "wd", 6).await;
        let tokens: BTreeMap<String, String> = field.iter().cloned().collect();
        let names: Vec<String> = field.iter().map(|(n, _)| n.clone()).collect();
        let id = tournament(
            &client,
            &field[0].1,
            json!({"format": "swiss", "rounds": 3}),
            &field,
        )
        .await;
        // Leaving before the start takes the entry back; joining again enters anew.
        let leave = format!("/api/tournaments/{id}/leave");
        let left = client.post(&leave, &json!({}), &auth(&field[5].1)).await;
        assert_eq!(left.status, 200, "{}", left.text);
        assert_eq!(left.read::<TournamentView>().entrants.len(), 5);
        client
            .post(&leave, &json!({}), &auth(&field[5].1))
            .await
            .assert_error(409, "conflict");
        let rejoined = client
            .post(
                &format!("/api/tournaments/{id}/join"),
                &json!({}),
                &auth(&field[5].1),
            )
            .await;
        assert_eq!(rejoined.status, 200, "{}", rejoined.text);
        let t = started(&client, &id, &field[0].1).await;
        let pairing = t.rounds[0].games[0].clone();
        // Both players were told, in the inbox: the start, then their pairing with its game.
        for (me, colour, them) in [
            (&pairing.first, "first", &pairing.second),
            (&pairing.second, "second", &pairing.first),
        ] {
            let inbox = client
                .get("/api/me/notifications", &auth(&tokens[me]))
                .await;
            let notices: Vec<&Value> = inbox.json["notifications"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|n| n["kind"] == "tournament")
                .collect();
            assert_eq!(notices.len(), 2, "{}", inbox.text);
            assert_eq!(notices[0]["game_id"], pairing.id.as_deref().unwrap());
            // Each names its tournament: the start's links to the tournament's page.
            assert!(notices.iter().all(|n| n["tournament_id"] == id.as_str()));
            let says =
                format!("Round 1 of the Flipstop tournament: you play {colour} against {them}.");
            assert_eq!(notices[0]["message"], says.as_str());
            assert!(
                notices[1]["message"]
                    .as_str()
                    .unwrap()
                    .contains("has started")
            );
        }
        // The first game's second player withdraws: that game is forfeited at once.
        let withdrawn = client
            .post(&leave, &json!({}), &auth(&tokens[&pairing.second]))
            .await;
        assert_eq!(withdrawn.status, 200, "{}", withdrawn.text);
        let game = client
            .get(
                &format!("/api/games/{}", pairing.id.as_deref().unwrap()),
                &[],
            )
            .await;
        assert_eq!(game.json["status"], "finished");
        assert_eq!(game.json["result"]["winner"], pairing.first.as_str());
        let t = view(&client, &id).await;
        assert_eq!(t.rounds[0].games[0].result.as_deref(), Some("first"));
        assert!(
            t.entrants
                .iter()
                .any(|e| e.name == pairing.second && e.withdrawn)
        );
        // The rest of round 1 by resignations of the second players.
        let mut rounds: Vec<Vec<Played>> = vec![vec![(
            pairing.first.clone(),
            pairing.second.clone(),
            Some(pairing.first.clone()),
        )]];
        for g in &t.rounds[0].games[1..] {
            resign(
                &client,
                g.id.as_deref().unwrap(),
                &g.second,
                &g.first,
                &tokens,
            )
            .await;
            rounds[0].push((g.first.clone(), g.second.clone(), Some(g.first.clone())));
        }
        // Five players left: round 2 pairs four and gives one a bye; the withdrawn is out.
        let t = view(&client, &id).await;
        assert_eq!(t.summary.round, 2);
        let round = &t.rounds[1];
        assert_eq!(round.games.len(), 2);
        let bye = round.bye.clone().expect("an odd field has a bye");
        assert!(
            round
                .games
                .iter()
                .all(|g| g.first != pairing.second && g.second != pairing.second)
        );
        assert_ne!(bye, pairing.second);
        let mut byes = vec![bye];
        rounds.push(Vec::new());
        for g in &round.games {
            resign(
                &client,
                g.id.as_deref().unwrap(),
                &g.first,
                &g.second,
                &tokens,
            )
            .await;
            rounds[1].push((g.first.clone(), g.second.clone(), Some(g.second.clone())));
        }
        let t = view(&client, &id).await;
        let round = &t.rounds[2];
        let third_bye = round.bye.clone().expect("a bye again");
        assert!(!byes.contains(&third_bye), "nobody has two byes");
        byes.push(third_bye);
        rounds.push(Vec::new());
        for g in &round.games {
            resign(
                &client,
                g.id.as_deref().unwrap(),
                &g.second,
                &g.first,
                &tokens,
            )
            .await;
            rounds[2].push((g.first.clone(), g.second.clone(), Some(g.first.clone())));
        }
        let t = view(&client, &id).await;
        assert_eq!(t.summary.status, "finished");
        same_standings(&t, &names, &rounds, &byes);
        // Leaving a finished tournament is refused.
        client
            .post(&leave, &json!({}), &auth(&field[1].1))
            .await
            .assert_error(409, "conflict");
        server.stop().await.unwrap();
        db
    }
);

#[tokio::test]
async fn two_instances_start_a_tournament_and_pair_each_round_once() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    // Two instances on one clock, moved by the test.
    let mut options = options(&db, generous());
    let clock = on_manual_clock(&mut options);
    let one = Server::start(&options).await.unwrap();
    let two = Server::start(&options).await.unwrap();
    let client = Client::new(&one);
    let racer = Client::new(&two);
    let field = players(&client, "ti", 8).await;
    let tokens: BTreeMap<String, String> = field.iter().cloned().collect();
    // Both instances' schedulers see it due when the clock reaches it: it starts once.
    let soon = time::OffsetDateTime::from_unix_timestamp_nanos(
        i128::from(clock.now_ms() + 2_000) * 1_000_000,
    )
    .unwrap();
    let starts_at = soon
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let id = tournament(
        &client,
        &field[0].1,
        json!({"format": "swiss", "rounds": 3, "starts_at": starts_at}),
        &field,
    )
    .await;
    let mut t = view(&client, &id).await;
    assert_eq!(t.summary.status, "open", "not started before its time");
    clock.advance(std::time::Duration::from_secs(2));
    for _ in 0..100 {
        if t.summary.status == "running" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        t = view(&client, &id).await;
    }
    assert_eq!(t.summary.status, "running", "the scheduler started it");
    for number in 1..=3usize {
        assert_eq!(t.summary.round as usize, number);
        assert_eq!(t.rounds.len(), number, "round {number} paired once");
        let games = &t.rounds[number - 1].games;
        assert_eq!(games.len(), 4, "round {number}: {games:?}");
        let everyone: BTreeSet<&str> = games
            .iter()
            .flat_map(|g| [g.first.as_str(), g.second.as_str()])
            .collect();
        assert_eq!(everyone.len(), 8);
        // Every game of the round ends at once, half through each instance.
        let ends = games.iter().enumerate().map(|(k, g)| {
            let via = if k % 2 == 0 { &client } else { &racer };
            let id = g.id.clone().unwrap();
            let loser = tokens[&g.second].clone();
            async move {
                via.post(
                    &format!("/api/games/{id}/resign"),
                    &json!({}),
                    &auth(&loser),
                )
                .await
            }
        });
        for answer in futures_util::future::join_all(ends).await {
            assert_eq!(answer.status, 200, "{}", answer.text);
        }
        t = view(&racer, &id).await;
    }
    assert_eq!(t.summary.status, "finished");
    assert_eq!(t.rounds.len(), 3);
    one.stop().await.unwrap();
    two.stop().await.unwrap();
    db.drop_it().await;
}

/// Ends every undecided game of a round by its second player's resignation, through
/// `client`; the games so ended, as played.
async fn second_players_resign(
    client: &Client,
    round: &swapboard_server::api::TournamentRoundView,
    tokens: &BTreeMap<String, String>,
) -> Vec<Played> {
    let mut ended = Vec::new();
    for pairing in round.games.iter().filter(|g| g.result.is_none()) {
        let game = pairing
            .id
            .as_deref()
            .expect("a game was made for the pairing");
        let winner = resign(client, game, &pairing.second, &pairing.first, tokens).await;
        ended.push((pairing.first.clone(), pairing.second.clone(), Some(winner)));
    }
    ended
}

each_database!(
    a_small_swiss_says_why_it_plays_fewer_rounds_than_asked,
    |db| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let field = players(&client, "sm", 3).await;
        let id = tournament(
            &client,
            &field[0].1,
            json!({"format": "swiss", "rounds": 4}),
            &field,
        )
        .await;
        // Before the start, the rounds asked; no note.
        let open = view(&client, &id).await;
        assert_eq!(
            (
                open.summary.total_rounds,
                open.summary.rounds_note.as_deref()
            ),
            (4, None)
        );
        let t = started(&client, &id, &field[0].1).await;
        assert_eq!(t.summary.total_rounds, 2);
        let note = t.summary.rounds_note.clone().expect("a note");
        assert!(
            note.starts_with("4 rounds were asked; with 3 players a Swiss plays 2"),
            "{note}"
        );
        let inbox = client
            .get("/api/me/notifications", &auth(&field[1].1))
            .await;
        let start = inbox.json["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["message"].as_str().unwrap().contains("has started"))
            .cloned()
            .expect("the start's notice");
        assert!(
            start["message"]
                .as_str()
                .unwrap()
                .contains("2 rounds (4 were asked"),
            "{start}"
        );
        assert_eq!(start["tournament_id"], id.as_str());
        server.stop().await.unwrap();
        db
    }
);

each_database!(a_running_tournament_survives_a_restart, |db| async move {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let (field, id, t) = started_swiss(&client, "rs", 6, 3).await;
    let tokens: BTreeMap<String, String> = field.iter().cloned().collect();
    let names: Vec<String> = field.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(t.rounds[0].games.len(), 3);

    // One game of round 1 ends, then the server stops with two still being played.
    let first_game = &t.rounds[0].games[0];
    let winner = resign(
        &client,
        first_game.id.as_deref().unwrap(),
        &first_game.second,
        &first_game.first,
        &tokens,
    )
    .await;
    let mut round_one = vec![(
        first_game.first.clone(),
        first_game.second.clone(),
        Some(winner),
    )];
    server.stop().await.unwrap();

    // Started again on the same database: the tournament is where it was, round 1 not
    // paired again and its remaining games playable.
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let t = view(&client, &id).await;
    assert_eq!((t.summary.status.as_str(), t.summary.round), ("running", 1));
    assert_eq!(t.rounds.len(), 1, "{:?}", t.rounds);
    assert_eq!(
        t.rounds[0]
            .games
            .iter()
            .filter(|g| g.result.is_none())
            .count(),
        2
    );
    round_one.extend(second_players_resign(&client, &t.rounds[0], &tokens).await);
    let mut rounds = vec![round_one];

    // The next rounds are paired once each, every player in one game, and played out.
    let mut t = view(&client, &id).await;
    for number in 2..=3usize {
        assert_eq!(
            (t.summary.status.as_str(), t.summary.round as usize),
            ("running", number)
        );
        assert_eq!(t.rounds.len(), number, "round {number} paired once");
        let round = &t.rounds[number - 1];
        let everyone: BTreeSet<&str> = round
            .games
            .iter()
            .flat_map(|g| [g.first.as_str(), g.second.as_str()])
            .collect();
        assert_eq!((round.games.len(), everyone.len()), (3, 6), "{round:?}");
        rounds.push(second_players_resign(&client, round, &tokens).await);
        t = view(&client, &id).await;
    }
    assert_eq!(t.summary.status, "finished");
    no_pair_met_twice(&rounds);
    same_standings(&t, &names, &rounds, &[]);
    server.stop().await.unwrap();
    db
});

each_database!(bad_bodies_are_refused_naming_the_field, |db| async move {
    let server = start(&db, generous()).await;
    let client = Client::new(&server);
    let ann = bearer(&client, "ann").await;
    let good = json!({"game": "swaptimum", "format": "swiss", "rounds": 5,
        "clock": {"days_per_move": 2}, "starts_at": "2026-12-01T18:00:00Z",
        "min_players": 4, "max_players": 40, "rated": true});
    let cases = [
        ("game", json!("chess")),
        ("size", json!(99)),
        ("format", json!("knockout")),
        ("rounds", json!(0)),
        ("rounds", json!(21)),
        ("clock", json!(null)),
        ("clock", json!({"days_per_move": 0})),
        ("starts_at", json!("tomorrow")),
        ("starts_at", json!("2126-12-01T18:00:00Z")),
        ("min_players", json!(1)),
        ("min_players", json!(501)),
        ("max_players", json!(3)),
        ("max_players", json!(501)),
        ("rated", json!("yes")),
        ("extra", json!(1)),
    ];
    for (field, value) in cases {
        let mut body = good.clone();
        body[field] = value.clone();
        let refused = client.post("/api/tournaments", &body, &auth(&ann)).await;
        refused.assert_error(400, "bad_request");
        assert!(
            refused.message().contains(field),
            "{field} = {value}: {}",
            refused.message()
        );
    }
    // Without credentials: 401; the good body: 201.
    client
        .post("/api/tournaments", &good, &[])
        .await
        .assert_error(401, "unauthenticated");
    let created = client.post("/api/tournaments", &good, &auth(&ann)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    // Too few players to start.
    let id = created.json["id"].as_str().unwrap();
    client
        .post(
            &format!("/api/tournaments/{id}/start"),
            &json!({}),
            &auth(&ann),
        )
        .await
        .assert_error(409, "conflict");
    client
        .get("/api/tournaments/nosuch", &[])
        .await
        .assert_error(404, "not_found");
    server.stop().await.unwrap();
    db
});

each_database!(
    each_game_has_next_months_scheduled_tournament_once,
    |db| async move {
        // Two instances: each makes sure the editions exist when it starts.
        let one = start(&db, generous()).await;
        let two = start(&db, generous()).await;
        let client = Client::new(&one);
        let today = time::OffsetDateTime::now_utc().date();
        let next = today.replace_day(1).unwrap() + time::Duration::days(32);
        let first = format!("{}-{:02}-01T00:00:00Z", next.year(), u8::from(next.month()));
        let mut monthly = Vec::new();
        for _ in 0..50 {
            let listed = client.get("/api/tournaments", &[]).await;
            monthly = listed.json["upcoming"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["creator"].is_null())
                .cloned()
                .collect();
            if monthly.len() >= 4 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let mut games: Vec<&str> = monthly
            .iter()
            .map(|t| t["game"].as_str().unwrap())
            .collect();
        games.sort_unstable();
        assert_eq!(games, ["flipstop", "rapid-transit", "scware", "swaptimum"]);
        for t in &monthly {
            assert_eq!(t["starts_at"], first.as_str(), "{t}");
            assert_eq!(t["format"], "swiss");
            assert_eq!(t["clock"], json!({"days_per_move": 3}));
        }
        one.stop().await.unwrap();
        two.stop().await.unwrap();
        db
    }
);

each_database!(
    a_banned_player_leaves_its_open_tournaments_and_withdraws_from_its_running_ones,
    |db| async move {
        let server = start(&db, generous()).await;
        let client = Client::new(&server);
        let field = players(&client, "bn", 4).await;
        let store = swapboard_server::store::Store::open(&db.url).await.unwrap();
        let admin = bearer(&client, "referee").await;
        store
            .grant_role("referee", swapboard_server::store::Role::Admin, "operator")
            .await
            .unwrap();
        store.close().await;
        let running = tournament(
            &client,
            &field[0].1,
            json!({"format": "round_robin"}),
            &field,
        )
        .await;
        let open = tournament(
            &client,
            &field[1].1,
            json!({"format": "swiss", "rounds": 3}),
            &field,
        )
        .await;
        let t = started(&client, &running, &field[0].1).await;
        // The banned player is one of round 1's pairings.
        let pairing = t.rounds[0].games[0].clone();
        let banned = pairing.second.clone();
        let ban = client
            .post(
                &format!("/api/admin/accounts/{banned}/ban"),
                &json!({"reason": "abuse in chat"}),
                &auth(&admin),
            )
            .await;
        assert_eq!(ban.status, 200, "{}", ban.text);
        let game_id = pairing.id.clone().expect("a round 1 game");
        assert!(
            ban.json["forfeited"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g == game_id.as_str()),
            "{}",
            ban.text
        );
        // The game names its tournament; the running tournament: withdrawn, the game
        // forfeited to the opponent.
        let game = client.get(&format!("/api/games/{game_id}"), &[]).await;
        assert_eq!(game.json["tournament"], running.as_str(), "{}", game.text);
        let t = view(&client, &running).await;
        assert_eq!(t.rounds[0].games[0].result.as_deref(), Some("first"));
        assert!(
            t.entrants.iter().any(|e| e.name == banned && e.withdrawn),
            "{t:?}"
        );
        // The open one: the entry is gone.
        let t = view(&client, &open).await;
        assert_eq!(t.entrants.len(), 3, "{t:?}");
        assert!(t.entrants.iter().all(|e| e.name != banned), "{t:?}");
        server.stop().await.unwrap();
        db
    }
);
