//! The vacation bank's storage (Little Golem's model): each account has a yearly allowance
//! of days (an operator's option, passed in), spent a day at a time when a correspondence
//! clock of theirs would run out, or taken on purpose for all their games. The bank is one
//! row per account for the calendar year (UTC) it counts; a row of an earlier year reads as
//! a full bank. Every day spent is logged (`vacation_log`), in the transaction that spends
//! it: the fallen flag's, or the taking's.

use sqlx::{Any, Row as _, Transaction};

use super::pool::Store;
use crate::clock::DAY_MS;
use crate::limits::vacation::LOG_SHOWN;

/// A seated account's bank, as a fallen flag needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bank {
    /// The account.
    pub account_id: i64,
    /// The days left this year.
    pub left: u32,
    /// Until when the account is away on days it took on purpose, if it is.
    pub away_until_ms: Option<i64>,
}

/// Why a day was spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// A correspondence clock would have run out.
    Clock,
    /// The player took days on purpose.
    Taken,
}

impl Reason {
    fn as_str(self) -> &'static str {
        match self {
            Reason::Clock => "clock",
            Reason::Taken => "taken",
        }
    }
}

/// An entry of an account's vacation log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spent {
    /// The game a clock's days were spent in (`None`: days taken for all games).
    pub(crate) game_id: Option<String>,
    /// The days spent.
    pub(crate) days: u32,
    /// `clock` or `taken`.
    pub(crate) reason: String,
    /// When, in ms since the Unix epoch.
    pub(crate) at_ms: i64,
}

/// An account's bank as its owner sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Vacation {
    /// The calendar year (UTC) the bank counts.
    pub(crate) year: i64,
    /// The days left this year.
    pub(crate) left: u32,
    /// Until when the account is away on purpose, if it is now.
    pub(crate) away_until_ms: Option<i64>,
    /// What was spent, the latest first (at most 100 entries).
    pub(crate) log: Vec<Spent>,
}

/// Why days could not be taken.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TakeError {
    /// Fewer days are left than were asked for.
    #[error("only {left} days of vacation are left this year")]
    TooFew {
        /// The days left.
        left: u32,
    },
    /// The database failed.
    #[error("storage: {0:#}")]
    Storage(#[from] anyhow::Error),
}

impl From<sqlx::Error> for TakeError {
    fn from(e: sqlx::Error) -> TakeError {
        TakeError::Storage(e.into())
    }
}

/// The calendar year (UTC) of an instant in ms since the Unix epoch: the proleptic
/// Gregorian calendar counted in 400-year eras of 146,097 days, with the year taken to
/// begin on 1 March so that the leap day ends it.
pub(crate) fn utc_year(ms: i64) -> i64 {
    let days = ms.div_euclid(DAY_MS) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months from March: January and February (10 and 11) belong to the next year.
    let month_from_march = (5 * day_of_year + 2) / 153;
    year_of_era + era * 400 + i64::from(month_from_march >= 10)
}

/// The days left of `allowance` with `used` spent in `year`, in the year of `now`.
fn left_of(allowance: u32, year: Option<i64>, used: Option<i64>, now: i64) -> u32 {
    match (year, used) {
        (Some(year), Some(used)) if year == utc_year(now) => {
            allowance.saturating_sub(u32::try_from(used).unwrap_or(u32::MAX))
        }
        _ => allowance,
    }
}

impl Store {
    /// The banks of a game's seated accounts, by seat (`None`: an AI or an empty seat, or
    /// every seat of a game whose tournament forbids vacation), read in `tx` at `now`.
    pub(crate) async fn banks_in(
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        allowance: u32,
        now: i64,
    ) -> anyhow::Result<[Option<Bank>; 2]> {
        let forbidden = sqlx::query(
            "SELECT 1 FROM games g JOIN tournaments t ON t.id = g.tournament_id \
             WHERE g.id = $1 AND t.vacation = 0",
        )
        .bind(game_id)
        .fetch_optional(&mut **tx)
        .await?;
        if forbidden.is_some() {
            return Ok([None; 2]);
        }
        let rows = sqlx::query(
            "SELECT s.seat, s.account_id, v.year, v.used, v.away_until_ms FROM seats s \
             LEFT JOIN vacation v ON v.account_id = s.account_id \
             WHERE s.game_id = $1 AND s.account_id IS NOT NULL",
        )
        .bind(game_id)
        .fetch_all(&mut **tx)
        .await?;
        let mut banks = [None; 2];
        for row in rows {
            let seat: i64 = row.try_get(0)?;
            let Some(slot) = usize::try_from(seat).ok().and_then(|s| banks.get_mut(s)) else {
                continue;
            };
            *slot = Some(Bank {
                account_id: row.try_get(1)?,
                left: left_of(allowance, row.try_get(2)?, row.try_get(3)?, now),
                away_until_ms: row.try_get(4)?,
            });
        }
        Ok(banks)
    }

    /// Spends `days` of an account's bank in `tx` at `now` (a row of an earlier year starts
    /// the year afresh), and logs them. The caller checked that they are left.
    pub(crate) async fn spend_vacation_in(
        tx: &mut Transaction<'static, Any>,
        account_id: i64,
        game_id: Option<&str>,
        days: u32,
        reason: Reason,
        now: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO vacation (account_id, year, used) VALUES ($1, $2, $3) \
             ON CONFLICT (account_id) DO UPDATE SET \
             used = CASE WHEN vacation.year = excluded.year \
                    THEN vacation.used + excluded.used ELSE excluded.used END, \
             year = excluded.year",
        )
        .bind(account_id)
        .bind(utc_year(now))
        .bind(i64::from(days))
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO vacation_log (account_id, game_id, days, reason, at_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(account_id)
        .bind(game_id)
        .bind(i64::from(days))
        .bind(reason.as_str())
        .bind(now)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// An account's bank and log, with `allowance` days a year.
    pub(crate) async fn vacation(
        &self,
        account_id: i64,
        allowance: u32,
    ) -> anyhow::Result<Vacation> {
        let now = self.now_ms();
        let bank =
            sqlx::query("SELECT year, used, away_until_ms FROM vacation WHERE account_id = $1")
                .bind(account_id)
                .fetch_optional(&self.pool)
                .await?;
        let (year, used, away) = match bank {
            Some(row) => (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?),
            None => (None, None, None),
        };
        let rows = sqlx::query(
            "SELECT game_id, days, reason, at_ms FROM vacation_log WHERE account_id = $1 \
             ORDER BY id DESC LIMIT $2",
        )
        .bind(account_id)
        .bind(LOG_SHOWN)
        .fetch_all(&self.pool)
        .await?;
        let log = rows
            .iter()
            .map(|row| {
                Ok(Spent {
                    game_id: row.try_get(0)?,
                    days: u32::try_from(row.try_get::<i64, _>(1)?)?,
                    reason: row.try_get(2)?,
                    at_ms: row.try_get(3)?,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Vacation {
            year: utc_year(now),
            left: left_of(allowance, year, used, now),
            away_until_ms: away.filter(|until: &i64| *until > now),
            log,
        })
    }

    /// Takes `days` of an account's bank (of `allowance` a year) on purpose: the account is
    /// away `days` days more from now, or from the end of days it took before. No
    /// correspondence clock of its runs out meanwhile: a turn whose time runs out while it
    /// is away restarts when it is back (the fallen flag's judge reads `away_until_ms`).
    pub(crate) async fn take_vacation(
        &self,
        account_id: i64,
        days: u32,
        allowance: u32,
    ) -> Result<Vacation, TakeError> {
        let now = self.now_ms();
        let mut tx = self.begin_write().await?;
        let bank =
            sqlx::query("SELECT year, used, away_until_ms FROM vacation WHERE account_id = $1")
                .bind(account_id)
                .fetch_optional(&mut *tx)
                .await?;
        let (year, used, away): (Option<i64>, Option<i64>, Option<i64>) = match bank {
            Some(row) => (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?),
            None => (None, None, None),
        };
        let left = left_of(allowance, year, used, now);
        if days > left {
            return Err(TakeError::TooFew { left });
        }
        Self::spend_vacation_in(&mut tx, account_id, None, days, Reason::Taken, now).await?;
        let from = away.map_or(now, |until| until.max(now));
        sqlx::query("UPDATE vacation SET away_until_ms = $1 WHERE account_id = $2")
            .bind(from.saturating_add(i64::from(days).saturating_mul(DAY_MS)))
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(self.vacation(account_id, allowance).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_year_of_an_instant_is_the_calendar_s() {
        assert_eq!(utc_year(0), 1970);
        assert_eq!(utc_year(-3_600_000), 1969);
        assert_eq!(utc_year(951_825_600_000), 2000, "29 February 2000");
        assert_eq!(utc_year(1_798_761_600_000 - 1), 2026);
        assert_eq!(utc_year(1_798_761_600_000), 2027);
    }

    #[test]
    fn a_bank_of_an_earlier_year_is_full() {
        let now = 1_798_761_600_000;
        assert_eq!(left_of(20, Some(2027), Some(5), now), 15);
        assert_eq!(left_of(20, Some(2026), Some(20), now), 20);
        assert_eq!(left_of(20, Some(2027), Some(25), now), 0);
        assert_eq!(left_of(20, None, None, now), 20);
    }
}
