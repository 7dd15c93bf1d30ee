//! The tournaments' storage (issue 26; `docs/TOURNAMENTS.md`): tournaments, their entrants,
//! pairings and byes; creating, joining, leaving (a withdrawal once it runs), starting.
//!
//! Who plays whom is `swapboard_league`'s. A tournament is played round by round: round 1 is
//! made in the transaction that starts it, and each next round in the transaction of the game
//! end that completes the last one (`tournament_rounds.rs`: the start, the rounds, a
//! withdrawal; its `on_game_end` is called from `finish_in`, the one place a game ends).
//! Every one of those transactions locks the tournament's row first (PostgreSQL: `FOR
//! UPDATE`; SQLite runs one writer at a time), so of two games of a round ending at once
//! on two instances, the second to commit sees the first's result and only it pairs the next
//! round: a round is paired exactly once.

use sqlx::any::AnyRow;
use sqlx::{Any, Row as _, Transaction};
use swapboard_league::tournament::{Game, GameResult, Round};
use swapboard_play::{GameId, TimeControl};

use super::games::{clock_columns, clock_of_row};
use super::outbox::{Kind, Notice};
use super::pool::{Backend, Store};
use super::ratings::Pool;

/// A new player's rating, when they have none in the tournament's game.
pub(super) const UNRATED: f64 = 1500.0;

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// Divisions of at most 10, each a double round robin.
    RoundRobin,
    /// Swiss rounds paired by score then rating.
    Swiss,
}

impl Format {
    /// As stored and as the API writes it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round_robin",
            Format::Swiss => "swiss",
        }
    }

    fn parse(text: &str) -> anyhow::Result<Format> {
        [Format::RoundRobin, Format::Swiss]
            .into_iter()
            .find(|f| f.as_str() == text)
            .ok_or_else(|| anyhow::anyhow!("tournaments.format: unknown {text:?}"))
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Taking entries.
    Open,
    /// Being played.
    Running,
    /// Over.
    Finished,
}

impl Stage {
    /// As stored and as the API writes it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Stage::Open => "open",
            Stage::Running => "running",
            Stage::Finished => "finished",
        }
    }

    fn parse(text: &str) -> anyhow::Result<Stage> {
        [Stage::Open, Stage::Running, Stage::Finished]
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| anyhow::anyhow!("tournaments.status: unknown {text:?}"))
    }
}

/// A tournament to store, checked by its caller.
#[derive(Clone, Debug)]
pub(crate) struct NewTournament {
    /// Its id, unique.
    pub(crate) id: String,
    /// The game.
    pub(crate) game: GameId,
    /// The board side.
    pub(crate) size: u32,
    /// Round robin or Swiss.
    pub(crate) format: Format,
    /// A Swiss's rounds (a round robin's follow from its divisions at the start).
    pub(crate) rounds: u32,
    /// The games' time control.
    pub(crate) clock: TimeControl,
    /// When it starts if enough players joined, in ms since the Unix epoch.
    pub(crate) starts_ms: i64,
    /// The fewest players it starts with.
    pub(crate) min_players: u32,
    /// The most players it takes.
    pub(crate) max_players: u32,
    /// Whether its games count for the ratings.
    pub(crate) rated: bool,
    /// Whether a player's vacation bank may save them in its games.
    pub(crate) vacation: bool,
    /// Who made it (`None`: the server's monthly schedule).
    pub(crate) creator_id: Option<i64>,
    /// The monthly edition's key (`GAME:YYYY-MM`), for the scheduled ones.
    pub(crate) edition: Option<String>,
}

/// A tournament as stored.
#[derive(Clone, Debug)]
pub(crate) struct StoredTournament {
    pub(crate) id: String,
    pub(crate) game: String,
    pub(crate) size: u32,
    pub(crate) format: Format,
    pub(crate) rounds: u32,
    /// The rounds its creator asked for (`None` for the tournaments of before the record).
    pub(crate) rounds_asked: Option<u32>,
    pub(crate) clock: TimeControl,
    pub(crate) starts_ms: i64,
    pub(crate) min_players: u32,
    pub(crate) max_players: u32,
    pub(crate) rated: bool,
    pub(crate) vacation: bool,
    pub(crate) creator_id: Option<i64>,
    pub(crate) creator: Option<String>,
    pub(crate) stage: Stage,
    /// The round being played (0 before the start).
    pub(crate) round: u32,
    pub(crate) started_ms: Option<i64>,
    pub(crate) finished_ms: Option<i64>,
    /// How many players entered (withdrawn ones included).
    pub(crate) players: u32,
}

/// An entrant.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) account_id: i64,
    pub(crate) name: String,
    /// The rating in the game when the tournament started (or now, before).
    pub(crate) rating: f64,
    /// Round robin: the division, from 1 (0 before the start, and in a Swiss).
    pub(crate) division: u32,
    pub(crate) withdrawn: bool,
}

/// A pairing of a round.
#[derive(Clone, Debug)]
pub(crate) struct Pairing {
    pub(crate) round: u32,
    pub(crate) division: u32,
    pub(crate) first: i64,
    pub(crate) second: i64,
    /// The game it is played in (`None`: not made yet, or a forfeit decided without one).
    pub(crate) game_id: Option<String>,
    pub(crate) result: Option<GameResult>,
}

/// A tournament with everything its page shows.
#[derive(Clone, Debug)]
pub(crate) struct TournamentRecord {
    pub(crate) tournament: StoredTournament,
    /// In the order they joined.
    pub(crate) entries: Vec<Entry>,
    /// By round, then division.
    pub(crate) pairings: Vec<Pairing>,
    /// A Swiss's byes: (round, account id).
    pub(crate) byes: Vec<(u32, i64)>,
}

impl TournamentRecord {
    /// The rounds as `league` reads them, of `division` (0: all), up to the round being
    /// played.
    pub(crate) fn rounds(&self, division: u32) -> Vec<Round<i64>> {
        rounds_of(&self.pairings, &self.byes, division, self.tournament.round)
    }
}

/// The rounds 1..=`upto` of these pairings and byes, of `division` (0: all).
pub(super) fn rounds_of(
    pairings: &[Pairing],
    byes: &[(u32, i64)],
    division: u32,
    upto: u32,
) -> Vec<Round<i64>> {
    (1..=upto)
        .map(|number| Round {
            number,
            games: pairings
                .iter()
                .filter(|p| p.round == number && (division == 0 || p.division == division))
                .map(|p| Game {
                    first: p.first,
                    second: p.second,
                    result: p.result,
                })
                .collect(),
            bye: byes
                .iter()
                .find(|(round, _)| *round == number)
                .map(|(_, who)| *who),
        })
        .collect()
}

/// Why a tournament action was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TournamentError {
    /// No tournament of that id.
    #[error("no such tournament")]
    NoSuchTournament,
    /// The action needs another stage (joining a running one, starting a finished one).
    #[error("the tournament is {}", .0.as_str())]
    Stage(Stage),
    /// It has its most players.
    #[error("the tournament is full ({0} players)")]
    Full(u32),
    /// The caller is not (or no longer) in it.
    #[error("you are not playing in this tournament")]
    NotEntered,
    /// Only the creator may start it early.
    #[error("only the tournament's creator may start it")]
    NotCreator,
    /// Fewer players than its minimum.
    #[error("the tournament has {have} players and needs at least {need}")]
    TooFew {
        /// Entered.
        have: u32,
        /// Its minimum.
        need: u32,
    },
    /// The database failed.
    #[error(transparent)]
    Storage(#[from] anyhow::Error),
}

impl From<sqlx::Error> for TournamentError {
    fn from(e: sqlx::Error) -> Self {
        TournamentError::Storage(e.into())
    }
}

/// Who starts a tournament.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Starter {
    /// Its creator, before `starts_at`.
    Creator(i64),
    /// The scheduler, at `starts_at`.
    Schedule,
}

const TOURNAMENT_COLUMNS: &str = "t.id, t.game, t.size, t.format, t.rounds, t.rounds_asked, t.clock_days, \
     t.clock_initial_ms, t.clock_increment_ms, t.starts_ms, t.min_players, t.max_players, \
     t.rated, t.vacation, t.creator_id, a.name AS creator, t.status, t.round, t.started_ms, \
     t.finished_ms, (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id) \
     AS players";

pub(super) fn count<T: TryFrom<i64>>(row: &AnyRow, column: &str) -> anyhow::Result<T> {
    let value: i64 = row.try_get(column)?;
    T::try_from(value).map_err(|_| anyhow::anyhow!("tournaments.{column}: {value} is out of range"))
}

fn tournament_of_row(row: &AnyRow) -> anyhow::Result<StoredTournament> {
    Ok(StoredTournament {
        id: row.try_get("id")?,
        game: row.try_get("game")?,
        size: count(row, "size")?,
        format: Format::parse(&row.try_get::<String, _>("format")?)?,
        rounds: count(row, "rounds")?,
        rounds_asked: row
            .try_get::<Option<i64>, _>("rounds_asked")?
            .map(u32::try_from)
            .transpose()?,
        clock: clock_of_row(row)?,
        starts_ms: row.try_get("starts_ms")?,
        min_players: count(row, "min_players")?,
        max_players: count(row, "max_players")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        vacation: row.try_get::<i64, _>("vacation")? != 0,
        creator_id: row.try_get("creator_id")?,
        creator: row.try_get("creator")?,
        stage: Stage::parse(&row.try_get::<String, _>("status")?)?,
        round: count(row, "round")?,
        started_ms: row.try_get("started_ms")?,
        finished_ms: row.try_get("finished_ms")?,
        players: count(row, "players")?,
    })
}

fn result_of(text: Option<String>) -> anyhow::Result<Option<GameResult>> {
    text.map(|text| match text.as_str() {
        "first" => Ok(GameResult::First),
        "second" => Ok(GameResult::Second),
        "draw" => Ok(GameResult::Draw),
        _ => Err(anyhow::anyhow!("tournament_games.result: unknown {text:?}")),
    })
    .transpose()
}

/// The stored word of a result.
pub(crate) fn result_word(result: GameResult) -> &'static str {
    match result {
        GameResult::First => "first",
        GameResult::Second => "second",
        GameResult::Draw => "draw",
    }
}

/// Reads a tournament in a transaction, its row locked until the commit (PostgreSQL).
pub(super) async fn locked(
    tx: &mut Transaction<'static, Any>,
    backend: Backend,
    id: &str,
) -> Result<StoredTournament, TournamentError> {
    let lock = match backend {
        Backend::Postgres => " FOR UPDATE OF t",
        Backend::Sqlite => "",
    };
    let row = sqlx::query(&format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t \
         LEFT JOIN accounts a ON a.id = t.creator_id WHERE t.id = $1{lock}"
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => Ok(tournament_of_row(&row)?),
        None => Err(TournamentError::NoSuchTournament),
    }
}

pub(super) async fn entries_in(
    tx: &mut Transaction<'static, Any>,
    id: &str,
) -> anyhow::Result<Vec<Entry>> {
    let rows = sqlx::query(ENTRIES).bind(id).fetch_all(&mut **tx).await?;
    rows.iter().map(entry_of_row).collect()
}

const ENTRIES: &str = "SELECT p.account_id, a.name, p.rating, p.division, p.withdrawn_ms \
     FROM tournament_players p JOIN accounts a ON a.id = p.account_id \
     WHERE p.tournament_id = $1 ORDER BY p.joined_ms, p.account_id";

fn entry_of_row(row: &AnyRow) -> anyhow::Result<Entry> {
    Ok(Entry {
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        rating: row.try_get("rating")?,
        division: count(row, "division")?,
        withdrawn: row.try_get::<Option<i64>, _>("withdrawn_ms")?.is_some(),
    })
}

const PAIRINGS: &str = "SELECT round, division, first_id, second_id, game_id, result \
     FROM tournament_games WHERE tournament_id = $1 ORDER BY round, division, first_id";

fn pairing_of_row(row: &AnyRow) -> anyhow::Result<Pairing> {
    Ok(Pairing {
        round: count(row, "round")?,
        division: count(row, "division")?,
        first: row.try_get("first_id")?,
        second: row.try_get("second_id")?,
        game_id: row.try_get("game_id")?,
        result: result_of(row.try_get("result")?)?,
    })
}

const BYES: &str =
    "SELECT round, account_id FROM tournament_byes WHERE tournament_id = $1 ORDER BY round";

fn bye_of_row(row: &AnyRow) -> anyhow::Result<(u32, i64)> {
    Ok((count(row, "round")?, row.try_get("account_id")?))
}

pub(super) async fn pairings_in(
    tx: &mut Transaction<'static, Any>,
    id: &str,
) -> anyhow::Result<(Vec<Pairing>, Vec<(u32, i64)>)> {
    let pairings = sqlx::query(PAIRINGS).bind(id).fetch_all(&mut **tx).await?;
    let byes = sqlx::query(BYES).bind(id).fetch_all(&mut **tx).await?;
    Ok((
        pairings
            .iter()
            .map(pairing_of_row)
            .collect::<anyhow::Result<_>>()?,
        byes.iter().map(bye_of_row).collect::<anyhow::Result<_>>()?,
    ))
}

/// Tells an entrant of the tournament, in the transaction of the event; once per key.
pub(super) async fn tell(
    store: &Store,
    tx: &mut Transaction<'static, Any>,
    account_id: i64,
    tournament_id: &str,
    game_id: Option<&str>,
    message: String,
    dedupe: String,
) -> anyhow::Result<()> {
    let notice = Notice {
        account_id,
        kind: Kind::Tournament,
        game_id,
        room_id: None,
        tournament_id: Some(tournament_id),
        message,
        dedupe: Some(dedupe),
    };
    store.notify_in(tx, &notice).await?;
    Ok(())
}

/// The game's name for a notification (`Rapid Transit`).
pub(super) fn title(game: &str) -> String {
    game.parse::<GameId>().map_or_else(
        |_| game.to_owned(),
        |id| id.catalogue_entry().name.to_owned(),
    )
}

impl Store {
    /// Stores a new tournament, open for entries. A scheduled edition already made (its
    /// key taken) stores nothing: whether it was stored.
    pub(crate) async fn create_tournament(&self, new: &NewTournament) -> anyhow::Result<bool> {
        let (days, initial, increment) = clock_columns(new.clock);
        let inserted = sqlx::query(
            "INSERT INTO tournaments (id, game, size, format, rounds, clock_days, \
             clock_initial_ms, clock_increment_ms, starts_ms, min_players, max_players, rated, \
             creator_id, edition, created_ms, vacation, rounds_asked) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $5) \
             ON CONFLICT (edition) DO NOTHING",
        )
        .bind(&new.id)
        .bind(new.game.as_str())
        .bind(i64::from(new.size))
        .bind(new.format.as_str())
        .bind(i64::from(new.rounds))
        .bind(days)
        .bind(initial)
        .bind(increment)
        .bind(new.starts_ms)
        .bind(i64::from(new.min_players))
        .bind(i64::from(new.max_players))
        .bind(i64::from(new.rated))
        .bind(new.creator_id)
        .bind(new.edition.as_deref())
        .bind(self.now_ms())
        .bind(i64::from(new.vacation))
        .execute(&self.pool)
        .await?;
        Ok(inserted.rows_affected() == 1)
    }

    /// The tournaments not finished that the account is in and has not withdrawn from, with
    /// their stage: what a ban or a deleted account takes it out of.
    pub(crate) async fn tournaments_entered(
        &self,
        account_id: i64,
    ) -> anyhow::Result<Vec<(String, Stage)>> {
        let rows = sqlx::query(
            "SELECT t.id, t.status FROM tournament_players p \
             JOIN tournaments t ON t.id = p.tournament_id \
             WHERE p.account_id = $1 AND p.withdrawn_ms IS NULL AND t.status <> 'finished' \
             ORDER BY t.id",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("id")?, Stage::parse(row.try_get("status")?)?)))
            .collect()
    }

    /// How many tournaments the account made that have not started.
    pub(crate) async fn open_tournaments_of(&self, account_id: i64) -> anyhow::Result<u32> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournaments WHERE creator_id = $1 AND status = 'open'",
        )
        .bind(account_id)
        .fetch_one(&self.pool)
        .await?;
        let n: i64 = row.try_get("n")?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// A tournament with its entrants, pairings and byes.
    pub(crate) async fn tournament(&self, id: &str) -> anyhow::Result<Option<TournamentRecord>> {
        let Some(row) = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t \
             LEFT JOIN accounts a ON a.id = t.creator_id WHERE t.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let tournament = tournament_of_row(&row)?;
        let entries = sqlx::query(ENTRIES).bind(id).fetch_all(&self.pool).await?;
        let pairings = sqlx::query(PAIRINGS).bind(id).fetch_all(&self.pool).await?;
        let byes = sqlx::query(BYES).bind(id).fetch_all(&self.pool).await?;
        Ok(Some(TournamentRecord {
            tournament,
            entries: entries
                .iter()
                .map(entry_of_row)
                .collect::<anyhow::Result<_>>()?,
            pairings: pairings
                .iter()
                .map(pairing_of_row)
                .collect::<anyhow::Result<_>>()?,
            byes: byes.iter().map(bye_of_row).collect::<anyhow::Result<_>>()?,
        }))
    }

    /// The tournaments at a stage, at most `limit`: open ones by start, soonest first;
    /// the others newest first.
    pub(crate) async fn tournaments(
        &self,
        stage: Stage,
        limit: u32,
    ) -> anyhow::Result<Vec<StoredTournament>> {
        let order = match stage {
            Stage::Open => "t.starts_ms, t.id",
            Stage::Running | Stage::Finished => "t.starts_ms DESC, t.id",
        };
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t \
             LEFT JOIN accounts a ON a.id = t.creator_id WHERE t.status = $1 \
             ORDER BY {order} LIMIT $2"
        ))
        .bind(stage.as_str())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_of_row).collect()
    }

    /// Enters the account into an open tournament (again: nothing changes).
    pub(crate) async fn join_tournament(
        &self,
        id: &str,
        account_id: i64,
    ) -> Result<(), TournamentError> {
        let mut tx = self.begin_write().await?;
        let t = locked(&mut tx, self.backend, id).await?;
        if t.stage != Stage::Open {
            return Err(TournamentError::Stage(t.stage));
        }
        let already = sqlx::query(
            "SELECT 1 FROM tournament_players WHERE tournament_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(account_id)
        .fetch_optional(&mut *tx)
        .await?
        .is_some();
        if already {
            return Ok(());
        }
        if t.players >= t.max_players {
            return Err(TournamentError::Full(t.max_players));
        }
        sqlx::query(
            "INSERT INTO tournament_players (tournament_id, account_id, joined_ms, rating) \
             VALUES ($1, $2, $3, COALESCE((SELECT rating FROM ratings \
             WHERE account_id = $2 AND game = $4 AND band = $5), $6))",
        )
        .bind(id)
        .bind(account_id)
        .bind(self.now_ms())
        .bind(&t.game)
        .bind(Pool::of_stored(&t.game, i64::from(t.size))?.band.as_str())
        .bind(UNRATED)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes the account out of an open tournament.
    pub(crate) async fn leave_open_tournament(
        &self,
        id: &str,
        account_id: i64,
    ) -> Result<(), TournamentError> {
        let mut tx = self.begin_write().await?;
        let t = locked(&mut tx, self.backend, id).await?;
        if t.stage != Stage::Open {
            return Err(TournamentError::Stage(t.stage));
        }
        let left = sqlx::query(
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        if left.rows_affected() == 0 {
            return Err(TournamentError::NotEntered);
        }
        tx.commit().await?;
        Ok(())
    }

    /// The open tournaments whose start has come and that have their fewest players.
    pub(crate) async fn tournaments_due(&self, now_ms: i64) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT t.id FROM tournaments t WHERE t.status = 'open' AND t.starts_ms <= $1 \
             AND (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id) \
             >= t.min_players ORDER BY t.starts_ms LIMIT 100",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| Ok(row.try_get("id")?)).collect()
    }
}
