//! The games' storage on a real SQLite file and a real PostgreSQL database: the move
//! pipeline under racing requests, idempotent retries, and the deadline claim under
//! concurrent schedulers. The rules are a stand-in (players alternate; "bad" is illegal;
//! "win" ends the game): the real ones come from the play layer through the same parameter.

use std::convert::Infallible;
use std::sync::Arc;

use swapboard_server::store::{
    Bank, Claim, Finish, Landed, MoveError, MoveRequest, NewGame, OnTime, Played, Seat, Status,
    Store, StoredGame, Termination, Timeout,
};
use swapboard_testkit::{TestDb, each_database};

/// Players alternate from seat 0; the position is the moves so far; "bad" breaks a rule;
/// "win" wins; every move sets a deadline an hour on.
fn stand_in_rules(request: MoveRequest<'_>) -> Result<Played, &'static str> {
    if u32::from(request.seat) != request.ply % 2 {
        return Err("not your turn");
    }
    if request.text == "bad" {
        return Err("illegal");
    }
    let finish = (request.text == "win").then_some(Finish {
        winner_seat: Some(request.seat),
        termination: Termination::Rules,
    });
    Ok(Played {
        position: format!("{} {}", request.position, request.text),
        finish,
        deadline_ms: Some(1_000 + i64::from(request.ply)),
        times: None,
        forced: Vec::new(),
    })
}

async fn new_game(store: &Store, id: &str) {
    let game = NewGame {
        id,
        game: "swaptimum",
        size: 9,
        position: "start",
        seats: [Seat::Ai(1), Seat::Ai(2)],
        clock: swapboard_play::TimeControl::None,
        invite: None,
        rated: false,
        rated_asked: false,
    };
    store.create_game(&game).await.unwrap();
}

async fn racers(db: TestDb) -> TestDb {
    // Two stores on one database: two server instances.
    let a = Store::open(&db.url).await.unwrap();
    let b = Store::open(&db.url).await.unwrap();
    new_game(&a, "g1").await;

    // 50 rounds of two requests for the same ply from the player to move.
    for ply in 0..50u32 {
        let seat = (ply % 2) as u8;
        let (move_a, move_b) = (format!("a{ply}"), format!("b{ply}"));
        let (first, second) = tokio::join!(
            a.play_move("g1", ply, seat, &move_a, stand_in_rules),
            b.play_move("g1", ply, seat, &move_b, stand_in_rules),
        );
        let landed = [&first, &second]
            .iter()
            .filter(|r| matches!(r, Ok(Landed::Played(_))))
            .count();
        assert_eq!(landed, 1, "ply {ply}: {first:?} / {second:?}");
        for result in [first, second] {
            match result {
                Ok(Landed::Played(game)) => assert_eq!(game.ply, ply + 1),
                Err(MoveError::Stale { ply: now }) => assert_eq!(now, ply + 1),
                other => panic!("ply {ply}: {other:?}"),
            }
        }
    }
    let game = a.game("g1").await.unwrap().unwrap();
    let moves = b.moves("g1").await.unwrap();
    assert_eq!((game.ply, moves.len()), (50, 50));
    assert_eq!(game.position, format!("start {}", moves.join(" ")));

    // 50 racers for one ply: exactly one lands.
    let a = Arc::new(a);
    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let store = Arc::clone(&a);
            tokio::spawn(async move {
                store
                    .play_move("g1", 50, 0, &format!("r{i}"), stand_in_rules)
                    .await
            })
        })
        .collect();
    let mut played = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(Landed::Played(game)) => {
                played += 1;
                assert_eq!(game.ply, 51);
            }
            Err(MoveError::Stale { ply: 51 }) => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(played, 1);
    assert_eq!(a.moves("g1").await.unwrap().len(), 51);

    // A retry of the stored move by its player answers the game and plays nothing; the same
    // ply with another move, or by the other seat, is stale.
    let stored = a.moves("g1").await.unwrap()[50].clone();
    match a.play_move("g1", 50, 0, &stored, stand_in_rules).await {
        Ok(Landed::Repeated(game)) => assert_eq!(game.ply, 51),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        a.play_move("g1", 50, 0, "other", stand_in_rules).await,
        Err(MoveError::Stale { ply: 51 })
    ));
    assert!(matches!(
        a.play_move("g1", 50, 1, &stored, stand_in_rules).await,
        Err(MoveError::Stale { ply: 51 })
    ));
    assert!(matches!(
        a.play_move("g1", 60, 1, "x", stand_in_rules).await,
        Err(MoveError::Stale { ply: 51 })
    ));

    // The rules' refusals store nothing.
    assert!(matches!(
        a.play_move("g1", 51, 0, "c", stand_in_rules).await,
        Err(MoveError::Refused("not your turn"))
    ));
    assert!(matches!(
        a.play_move("g1", 51, 1, "bad", stand_in_rules).await,
        Err(MoveError::Refused("illegal"))
    ));
    assert!(matches!(
        a.play_move("nope", 0, 0, "c", stand_in_rules).await,
        Err(MoveError::NoSuchGame)
    ));
    assert_eq!(a.game("g1").await.unwrap().unwrap().ply, 51);

    // A winning move finishes the game; nothing is played after it.
    match a.play_move("g1", 51, 1, "win", stand_in_rules).await {
        Ok(Landed::Played(game)) => {
            assert_eq!(game.status, Status::Finished);
            assert_eq!(
                game.finish,
                Some(Finish {
                    winner_seat: Some(1),
                    termination: Termination::Rules
                })
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        b.game("g1")
            .await
            .unwrap()
            .unwrap()
            .finish
            .unwrap()
            .winner_seat,
        Some(1)
    );
    assert!(matches!(
        a.play_move("g1", 52, 0, "c", stand_in_rules).await,
        Err(MoveError::NotPlaying(Status::Finished))
    ));
    // A finished game has no deadline left to claim.
    assert!(
        a.claim_due_deadlines(i64::MAX, i64::MAX, 10)
            .await
            .unwrap()
            .is_empty()
    );

    a.close().await;
    b.close().await;
    db
}

each_database!(
    racing_moves_land_exactly_once_and_retries_are_idempotent,
    racers
);

async fn deadlines(db: TestDb) -> TestDb {
    let a = Arc::new(Store::open(&db.url).await.unwrap());
    let b = Arc::new(Store::open(&db.url).await.unwrap());
    // Twenty games, each with one move played: a deadline each, due at 1000 ms.
    for i in 0..20 {
        let id = format!("d{i}");
        new_game(&a, &id).await;
        assert!(matches!(
            a.play_move(&id, 0, 0, "c3", stand_in_rules).await,
            Ok(Landed::Played(_))
        ));
    }
    assert!(
        a.claim_due_deadlines(999, 10_000, 100)
            .await
            .unwrap()
            .is_empty(),
        "not due yet"
    );

    // Eight schedulers on two instances claim together, a few at a time: each deadline is
    // claimed exactly once.
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let store = Arc::clone(if i % 2 == 0 { &a } else { &b });
            tokio::spawn(async move {
                let mut mine = Vec::new();
                loop {
                    let claims = store
                        .claim_due_deadlines(5_000, 1_000_000, 3)
                        .await
                        .unwrap();
                    if claims.is_empty() {
                        break mine;
                    }
                    mine.extend(claims);
                }
            })
        })
        .collect();
    let mut claimed: Vec<Claim> = Vec::new();
    for task in tasks {
        claimed.extend(task.await.unwrap());
    }
    let mut ids: Vec<&str> = claimed.iter().map(|c| c.game_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!((claimed.len(), ids.len()), (20, 20), "{claimed:?}");
    assert!(claimed.iter().all(|c| c.ply == 1));

    // A lease that passed makes the deadline due again (its claimer died).
    let again = a
        .claim_due_deadlines(1_000_001, 2_000_000, 100)
        .await
        .unwrap();
    assert_eq!(again.len(), 20);

    // A move after the claim voids it: the game goes on. Otherwise the game ends on time.
    assert!(matches!(
        b.play_move("d0", 1, 1, "d4", stand_in_rules).await,
        Ok(Landed::Played(_))
    ));
    let timeout_won_by_second = |_: &StoredGame, _: &[Option<Bank>; 2], _: i64| {
        Ok::<_, Infallible>(Timeout::Finish {
            finish: Finish {
                winner_seat: Some(1),
                termination: Termination::Timeout,
            },
            deadline_ms: 0,
        })
    };
    let ended = |on_time: OnTime| matches!(on_time, OnTime::Ended { .. });
    let d0 = again.iter().find(|c| c.game_id == "d0").unwrap();
    assert!(!ended(
        a.end_on_time(d0, 20, timeout_won_by_second).await.unwrap()
    ));
    assert_eq!(a.game("d0").await.unwrap().unwrap().status, Status::Playing);
    let d1 = again.iter().find(|c| c.game_id == "d1").unwrap();
    assert!(ended(
        a.end_on_time(d1, 20, timeout_won_by_second).await.unwrap()
    ));
    assert!(
        !ended(b.end_on_time(d1, 20, timeout_won_by_second).await.unwrap()),
        "a game ends on time once"
    );
    let d1 = a.game("d1").await.unwrap().unwrap();
    assert_eq!(
        (d1.status, d1.finish),
        (
            Status::Finished,
            Some(Finish {
                winner_seat: Some(1),
                termination: Termination::Timeout
            })
        )
    );
    // d0's new deadline (set by its second move) is the only one left unclaimed.
    let left = a
        .claim_due_deadlines(i64::MAX - 1, i64::MAX, 100)
        .await
        .unwrap();
    assert!(
        left.iter().any(|c| c.game_id == "d0" && c.ply == 2),
        "{left:?}"
    );
    assert!(left.iter().all(|c| c.game_id != "d1"));

    a.close().await;
    b.close().await;
    db
}

each_database!(each_due_deadline_is_claimed_by_one_scheduler, deadlines);
