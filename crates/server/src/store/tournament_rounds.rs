//! A tournament's rounds (issue 26; `docs/TOURNAMENTS.md`): the start (ratings taken, a
//! round robin's divisions and schedule, round 1's games), each next round paired and its
//! games made in the transaction of the game end that completes the last one
//! ([`on_game_end`], called from `finish_in`), and a withdrawal. Every one of these
//! transactions locks the tournament's row first (after the games' rows it ends), so a round
//! is paired exactly once whatever the number of instances.

use std::collections::BTreeMap;

use sqlx::{Any, Row as _, Transaction};
use swapboard_league::tournament::{
    Entrant, GameResult, Round, divisions, double_round_robin, swiss_round,
};
use swapboard_play::{AnyPosition, GameId};

use super::games::{Finish, NewGame, Seat, StoredGame};
use super::pool::Store;
use super::ratings::Pool;
use super::tournaments::{
    Entry, Format, Pairing, Stage, Starter, StoredTournament, TournamentError, UNRATED, count,
    entries_in, locked, pairings_in, result_word, rounds_of, tell, title,
};
use crate::secret::random_secret;

/// The largest Swiss field whose rounds are capped at ceil(log2 n): in smaller fields the
/// strict colour rule soon leaves no pairing (`docs/RATINGS.md`, "Swiss").
const SMALL_SWISS: usize = 20;

/// The rounds a Swiss of `players` (at most [`SMALL_SWISS`]) may have: ceil(log2 n), the
/// rounds that single out a winner.
fn small_swiss_rounds(players: usize) -> u32 {
    usize::BITS - players.saturating_sub(1).leading_zeros()
}

impl Store {
    /// Withdraws the account from a running tournament: in one transaction, it is marked
    /// withdrawn (no later round pairs it; its later round robin games are forfeits) and
    /// every game of the tournament it is playing ends as `forfeit` says for its seat (the
    /// play layer's resignation: storage picks no winner), through `finish_in`, so the round
    /// may complete and the next be paired in this same transaction. The games' rows are
    /// locked before the tournament's, as a game's end does, so the two never wait on each
    /// other in a circle. The ids of the games forfeited.
    pub(crate) async fn withdraw(
        &self,
        id: &str,
        account_id: i64,
        forfeit: impl Fn(&StoredGame, u8) -> Finish,
    ) -> Result<Vec<String>, TournamentError> {
        // A round paired between reading the games and locking the tournament would leave
        // a game out: then the transaction starts again.
        for _ in 0..3 {
            let mut tx = self.begin_write().await?;
            let playing = self.playing_in(&mut tx, id, account_id).await?;
            let mut games = Vec::with_capacity(playing.len());
            for game_id in &playing {
                games.push(
                    self.locked_game::<std::convert::Infallible>(&mut tx, game_id)
                        .await
                        .map_err(|e| anyhow::anyhow!("withdraw: {e}"))?,
                );
            }
            let t = locked(&mut tx, self.backend, id).await?;
            if t.stage != Stage::Running {
                return Err(TournamentError::Stage(t.stage));
            }
            if self.playing_in(&mut tx, id, account_id).await? != playing {
                continue;
            }
            let marked = sqlx::query(
                "UPDATE tournament_players SET withdrawn_ms = $1 \
                 WHERE tournament_id = $2 AND account_id = $3 AND withdrawn_ms IS NULL",
            )
            .bind(self.now_ms())
            .bind(id)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
            if marked.rows_affected() == 0 {
                return Err(TournamentError::NotEntered);
            }
            for game in &games {
                let seat = u8::from(
                    sqlx::query(
                        "SELECT 1 FROM seats WHERE game_id = $1 AND seat = 1 AND account_id = $2",
                    )
                    .bind(&game.id)
                    .bind(account_id)
                    .fetch_optional(&mut *tx)
                    .await?
                    .is_some(),
                );
                self.finish_in(&mut tx, &game.id, game.ply, forfeit(game, seat))
                    .await?;
            }
            tx.commit().await?;
            return Ok(playing);
        }
        Err(anyhow::anyhow!("withdraw: the tournament kept pairing rounds").into())
    }

    /// The ids of the tournament's games the account is playing, in order.
    async fn playing_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        id: &str,
        account_id: i64,
    ) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT g.id FROM tournament_games t JOIN games g ON g.id = t.game_id \
             WHERE t.tournament_id = $1 AND (t.first_id = $2 OR t.second_id = $2) \
             AND g.status = 'playing' ORDER BY g.id",
        )
        .bind(id)
        .bind(account_id)
        .fetch_all(&mut **tx)
        .await?;
        rows.iter().map(|row| Ok(row.try_get("id")?)).collect()
    }

    /// Starts an open tournament: its entrants' ratings are taken, a round robin's
    /// divisions and whole schedule stored, and round 1's games made and started, in one
    /// transaction that locks the tournament (so it starts once, whoever asks).
    pub(crate) async fn start_tournament(
        &self,
        id: &str,
        starter: Starter,
    ) -> Result<(), TournamentError> {
        let mut tx = self.begin_write().await?;
        let t = locked(&mut tx, self.backend, id).await?;
        if t.stage != Stage::Open {
            return Err(TournamentError::Stage(t.stage));
        }
        let now = self.now_ms();
        match starter {
            Starter::Creator(account) if t.creator_id != Some(account) => {
                return Err(TournamentError::NotCreator);
            }
            Starter::Schedule if t.starts_ms > now => {
                return Err(TournamentError::Stage(Stage::Open));
            }
            _ => {}
        }
        if t.players < t.min_players {
            return Err(TournamentError::TooFew {
                have: t.players,
                need: t.min_players,
            });
        }
        sqlx::query(
            "UPDATE tournament_players SET rating = COALESCE((SELECT r.rating FROM ratings r \
             WHERE r.account_id = tournament_players.account_id AND r.game = $1 \
             AND r.band = $2), $3) WHERE tournament_id = $4",
        )
        .bind(&t.game)
        .bind(Pool::of_stored(&t.game, i64::from(t.size))?.band.as_str())
        .bind(UNRATED)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let entries = entries_in(&mut tx, id).await?;
        let entrants = entrants(&entries);
        let mut rounds = t.rounds;
        if t.format == Format::Swiss && entries.len() <= SMALL_SWISS {
            rounds = rounds.min(small_swiss_rounds(entries.len()));
        }
        if t.format == Format::RoundRobin {
            rounds = 0;
            let split = divisions(&entrants).map_err(|e| anyhow::anyhow!("divisions: {e}"))?;
            for (division, players) in (1u32..).zip(&split) {
                for player in players {
                    sqlx::query(
                        "UPDATE tournament_players SET division = $1 \
                         WHERE tournament_id = $2 AND account_id = $3",
                    )
                    .bind(i64::from(division))
                    .bind(id)
                    .bind(player)
                    .execute(&mut *tx)
                    .await?;
                }
                let schedule =
                    double_round_robin(players).map_err(|e| anyhow::anyhow!("schedule: {e}"))?;
                rounds = rounds.max(u32::try_from(schedule.len()).unwrap_or(u32::MAX));
                for round in &schedule {
                    insert_round(&mut tx, id, division, round).await?;
                }
            }
        }
        sqlx::query(
            "UPDATE tournaments SET status = 'running', started_ms = $1, rounds = $2 \
             WHERE id = $3",
        )
        .bind(now)
        .bind(i64::from(rounds))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        for entry in &entries {
            tell(
                self,
                &mut tx,
                entry.account_id,
                id,
                None,
                format!(
                    "The {} tournament you entered has started: {} players{}.",
                    title(&t.game),
                    entries.len(),
                    match t.format {
                        Format::Swiss if rounds < t.rounds => format!(
                            ", {rounds} rounds ({} were asked: that many find a winner among so few)",
                            t.rounds
                        ),
                        Format::Swiss => format!(", {rounds} rounds"),
                        Format::RoundRobin => format!(", {rounds} rounds, every pair twice"),
                    }
                ),
                format!("tournament:{id}:start:{}", entry.account_id),
            )
            .await?;
        }
        let t = StoredTournament {
            stage: Stage::Running,
            rounds,
            started_ms: Some(now),
            ..t
        };
        advance(self, &mut tx, &t, now).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// The entrants as `league` reads them.
fn entrants(entries: &[Entry]) -> Vec<Entrant<i64>> {
    entries
        .iter()
        .map(|e| Entrant {
            player: e.account_id,
            rating: e.rating,
        })
        .collect()
}

/// Stores a round's pairings (no game yet) and its bye.
async fn insert_round(
    tx: &mut Transaction<'static, Any>,
    id: &str,
    division: u32,
    round: &Round<i64>,
) -> anyhow::Result<()> {
    for game in &round.games {
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, round, division, first_id, second_id) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(i64::from(round.number))
        .bind(i64::from(division))
        .bind(game.first)
        .bind(game.second)
        .execute(&mut **tx)
        .await?;
    }
    if let Some(bye) = round.bye {
        sqlx::query(
            "INSERT INTO tournament_byes (tournament_id, round, account_id) VALUES ($1, $2, $3)",
        )
        .bind(id)
        .bind(i64::from(round.number))
        .bind(bye)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Plays the tournament on from its round (complete, or 0 at the start): pairs the next
/// round (a Swiss) and makes its games, started on the tournament's clock, telling both
/// players; a round robin pairing with a withdrawn player is a forfeit made without a game,
/// and a round of forfeits only is complete at once. Past the last round, or with fewer than
/// two players left, the tournament is finished. `t` is locked by the caller.
async fn advance(
    store: &Store,
    tx: &mut Transaction<'static, Any>,
    t: &StoredTournament,
    now: i64,
) -> anyhow::Result<()> {
    let mut round = t.round;
    loop {
        let next = round + 1;
        let entries = entries_in(tx, &t.id).await?;
        let active: Vec<&Entry> = entries.iter().filter(|e| !e.withdrawn).collect();
        if next > t.rounds || active.len() < 2 {
            sqlx::query(
                "UPDATE tournaments SET status = 'finished', finished_ms = $1 WHERE id = $2",
            )
            .bind(now)
            .bind(&t.id)
            .execute(&mut **tx)
            .await?;
            return Ok(());
        }
        if t.format == Format::Swiss {
            let (pairings, byes) = pairings_in(tx, &t.id).await?;
            let played = rounds_of(&pairings, &byes, 0, round);
            let still_in: Vec<Entrant<i64>> = entrants(&entries)
                .into_iter()
                .filter(|e| active.iter().any(|a| a.account_id == e.player))
                .collect();
            match swiss_round(&still_in, &played) {
                Ok(paired) => insert_round(tx, &t.id, 0, &paired).await?,
                Err(e) => {
                    // No pairing left (every pair has met): the tournament ends here
                    // rather than refuse the game's end that completed the round.
                    tracing::warn!(tournament = t.id, "round {next} cannot be paired: {e}");
                    round = t.rounds;
                    continue;
                }
            }
        }
        sqlx::query("UPDATE tournaments SET round = $1 WHERE id = $2")
            .bind(i64::from(next))
            .bind(&t.id)
            .execute(&mut **tx)
            .await?;
        let (pairings, _) = pairings_in(tx, &t.id).await?;
        let names: BTreeMap<i64, (&str, bool)> = entries
            .iter()
            .map(|e| (e.account_id, (e.name.as_str(), e.withdrawn)))
            .collect();
        let mut waiting = false;
        for pairing in pairings.iter().filter(|p| p.round == next) {
            let (first, first_out) = names.get(&pairing.first).copied().unwrap_or(("?", true));
            let (second, second_out) = names.get(&pairing.second).copied().unwrap_or(("?", true));
            let forfeit = match (first_out, second_out) {
                (true, true) => {
                    sqlx::query(
                        "DELETE FROM tournament_games WHERE tournament_id = $1 AND round = $2 \
                         AND first_id = $3",
                    )
                    .bind(&t.id)
                    .bind(i64::from(next))
                    .bind(pairing.first)
                    .execute(&mut **tx)
                    .await?;
                    continue;
                }
                (true, false) => Some(GameResult::Second),
                (false, true) => Some(GameResult::First),
                (false, false) => None,
            };
            if let Some(result) = forfeit {
                set_result(tx, &t.id, next, pairing.first, result).await?;
                continue;
            }
            waiting = true;
            let game_id = make_game(store, tx, t, pairing).await?;
            for (me, them, colour) in [
                (pairing.first, second, "first"),
                (pairing.second, first, "second"),
            ] {
                tell(
                    store,
                    tx,
                    me,
                    &t.id,
                    Some(&game_id),
                    format!(
                        "Round {next} of the {} tournament: you play {colour} against {them}.",
                        title(&t.game)
                    ),
                    format!("tournament:{}:{next}:{me}", t.id),
                )
                .await?;
            }
        }
        if waiting {
            return Ok(());
        }
        round = next;
    }
}

async fn set_result(
    tx: &mut Transaction<'static, Any>,
    id: &str,
    round: u32,
    first: i64,
    result: GameResult,
) -> anyhow::Result<()> {
    sqlx::query(
        "UPDATE tournament_games SET result = $1 WHERE tournament_id = $2 AND round = $3 \
         AND first_id = $4",
    )
    .bind(result_word(result))
    .bind(id)
    .bind(i64::from(round))
    .bind(first)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Makes and starts the game of a pairing, on the tournament's clock; its id.
async fn make_game(
    store: &Store,
    tx: &mut Transaction<'static, Any>,
    t: &StoredTournament,
    pairing: &Pairing,
) -> anyhow::Result<String> {
    let game: GameId = t
        .game
        .parse()
        .map_err(|e| anyhow::anyhow!("tournaments.game: {e}"))?;
    let size = usize::try_from(t.size)?;
    let position = AnyPosition::start(game, size)
        .map_err(|e| anyhow::anyhow!("tournaments.size: {e}"))?
        .to_string();
    let secret = random_secret();
    let id = &secret[..16];
    let new = NewGame {
        id,
        game: game.as_str(),
        size: t.size,
        position: &position,
        seats: [Seat::Account(pairing.first), Seat::Account(pairing.second)],
        clock: t.clock,
        invite: None,
        // A board proved from the start is never rated (the tournament's form refuses one).
        rated: t.rated && !game.proven(size),
        // Entering a rated tournament is asking for its rated games, bots' too.
        rated_asked: t.rated,
    };
    store.insert_game(tx, &new, false).await?;
    sqlx::query("UPDATE games SET tournament_id = $1 WHERE id = $2")
        .bind(&t.id)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE tournament_games SET game_id = $1 WHERE tournament_id = $2 AND round = $3 \
         AND first_id = $4",
    )
    .bind(id)
    .bind(&t.id)
    .bind(i64::from(pairing.round))
    .bind(pairing.first)
    .execute(&mut **tx)
    .await?;
    Ok(id.to_owned())
}

/// The side effect of a game's end on its tournament, in the transaction that ends it (the
/// caller's guard makes this run once per game): the pairing's result is stored, and when it
/// was the round's last game, the next round is paired and its games made here (or the
/// tournament finished). Locks the tournament first, so that of two games of the round
/// ending at once, only the later sees the round complete. A game no tournament made
/// changes nothing.
pub(crate) async fn on_game_end(
    store: &Store,
    tx: &mut Transaction<'static, Any>,
    game: &str,
    finish: Finish,
    now: i64,
) -> anyhow::Result<()> {
    let Some(row) = sqlx::query(
        "SELECT tournament_id, round, first_id FROM tournament_games WHERE game_id = $1",
    )
    .bind(game)
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(());
    };
    let id: String = row.try_get("tournament_id")?;
    let round: u32 = count(&row, "round")?;
    let t = match locked(tx, store.backend, &id).await {
        Ok(t) => t,
        Err(e) => return Err(anyhow::anyhow!("tournament {id}: {e}")),
    };
    let result = match finish.winner_seat {
        Some(0) => GameResult::First,
        Some(_) => GameResult::Second,
        None => GameResult::Draw,
    };
    set_result(tx, &id, round, row.try_get("first_id")?, result).await?;
    if t.stage != Stage::Running || round != t.round {
        return Ok(());
    }
    let open = sqlx::query(
        "SELECT 1 FROM tournament_games WHERE tournament_id = $1 AND round = $2 \
         AND result IS NULL LIMIT 1",
    )
    .bind(&id)
    .bind(i64::from(round))
    .fetch_optional(&mut **tx)
    .await?;
    if open.is_none() {
        advance(store, tx, &t, now).await?;
    }
    Ok(())
}
