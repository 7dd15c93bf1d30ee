//! Time controls and the clock. Nothing here reads a clock: every instant is passed in as
//! [`Millis`] since any fixed origin (the server's Unix time, a test's zero).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use swapboard_core::Player;

/// An instant, or a length of time, in milliseconds.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    /// The time from `earlier` to this instant (zero if `earlier` is later).
    pub fn since(self, earlier: Millis) -> Millis {
        Millis(self.0.saturating_sub(earlier.0))
    }
}

/// A day, in milliseconds.
const DAY_MS: u64 = 86_400_000;

/// The longest correspondence time per move, in days.
pub const MAX_DAYS_PER_MOVE: u32 = 30;
/// The longest initial time of a live game, in seconds (a day).
pub const MAX_INITIAL_S: u64 = 86_400;
/// The largest increment of a live game, in seconds (ten minutes).
pub const MAX_INCREMENT_S: u64 = 600;

/// How much time the players have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimeControl {
    /// No clock.
    #[default]
    None,
    /// Each move must be made within this many days of the previous one.
    Correspondence {
        /// Days per move (1 to [`MAX_DAYS_PER_MOVE`]).
        days_per_move: u32,
    },
    /// Fischer time: each side starts with `initial_ms` and gains `increment_ms` after each
    /// of its moves.
    Live {
        /// Each side's time at the start, in milliseconds.
        initial_ms: u64,
        /// The time added after each move, in milliseconds.
        increment_ms: u64,
    },
}

/// Why a time control was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Days per move out of range.
    #[error("days_per_move {0}: must be 1 to {MAX_DAYS_PER_MOVE}")]
    Days(u64),
    /// Initial time out of range.
    #[error("initial_s {0}: must be 1 to {MAX_INITIAL_S} seconds")]
    Initial(u64),
    /// Increment out of range.
    #[error("increment_s {0}: must be 0 to {MAX_INCREMENT_S} seconds")]
    Increment(u64),
}

impl TimeControl {
    /// Correspondence time, range-checked.
    pub fn correspondence(days_per_move: u64) -> Result<TimeControl, TimeControlError> {
        match u32::try_from(days_per_move) {
            Ok(days @ 1..=MAX_DAYS_PER_MOVE) => Ok(TimeControl::Correspondence {
                days_per_move: days,
            }),
            _ => Err(TimeControlError::Days(days_per_move)),
        }
    }

    /// Live (Fischer) time from whole seconds, range-checked.
    pub fn live_seconds(initial_s: u64, increment_s: u64) -> Result<TimeControl, TimeControlError> {
        if !(1..=MAX_INITIAL_S).contains(&initial_s) {
            return Err(TimeControlError::Initial(initial_s));
        }
        if increment_s > MAX_INCREMENT_S {
            return Err(TimeControlError::Increment(increment_s));
        }
        Ok(TimeControl::Live {
            initial_ms: initial_s * 1_000,
            increment_ms: increment_s * 1_000,
        })
    }
}

/// The API's shapes of a time control: `{"days_per_move": 3}` or `{"initial_s": 300,
/// "increment_s": 3}`; no clock is `null`.
#[derive(Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged, deny_unknown_fields)]
enum Shape {
    Correspondence { days_per_move: u64 },
    Live { initial_s: u64, increment_s: u64 },
}

impl Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let shape = match *self {
            TimeControl::None => None,
            TimeControl::Correspondence { days_per_move } => Some(Shape::Correspondence {
                days_per_move: days_per_move.into(),
            }),
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => Some(Shape::Live {
                initial_s: initial_ms / 1_000,
                increment_s: increment_ms / 1_000,
            }),
        };
        shape.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TimeControl, D::Error> {
        let checked = match Option::<Shape>::deserialize(deserializer)? {
            None => Ok(TimeControl::None),
            Some(Shape::Correspondence { days_per_move }) => {
                TimeControl::correspondence(days_per_move)
            }
            Some(Shape::Live {
                initial_s,
                increment_s,
            }) => TimeControl::live_seconds(initial_s, increment_s),
        };
        checked.map_err(serde::de::Error::custom)
    }
}

/// The schema of the API's shapes: no clock is `null`, which the private `Shape` cannot say.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for TimeControl {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(<Shape as utoipa::PartialSchema>::schema())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for TimeControl {}

/// How long the AI may think on its move, from the time it has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkBudget {
    /// Think at least this long (an easy move may be played then).
    pub min: Millis,
    /// The time to aim for.
    pub recommended: Millis,
    /// Never think longer than this: the clock keeps a safety margin after it.
    pub max: Millis,
}

/// The moves a live game is expected to last from any point, for the share of the time
/// left one move may take (KataGo's time controls reason the same way).
const MOVES_LEFT: u64 = 25;
/// A critical position's time is at most the time left divided by this, plus most of the
/// increment (without an increment, 2.5 times the share of 25 moves): in 15+0 Flipstop
/// games, four times the share left one side 29 ms (docs/AI.md).
const CRITICAL_SHARE: u64 = 10;
/// The safety margin kept on the clock, at most (the move must still reach the server).
const SAFETY_MS: u64 = 1_000;
/// The longest the AI thinks in a correspondence game: days are for people.
const CORRESPONDENCE_THINK_MS: u64 = 10_000;

/// The players' clocks under a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    control: TimeControl,
    /// Each side's time left when its turn began (live), in milliseconds.
    left: [u64; 2],
    /// The side whose time runs.
    running: Player,
    /// When the running side's turn began.
    since: Millis,
}

impl Clock {
    /// A clock under `control` that starts running for `to_move` at `now`.
    pub fn new(control: TimeControl, to_move: Player, now: Millis) -> Clock {
        let initial = match control {
            TimeControl::Live { initial_ms, .. } => initial_ms,
            _ => 0,
        };
        Clock {
            control,
            left: [initial; 2],
            running: to_move,
            since: now,
        }
    }

    /// A clock read back from storage: `left` is each side's time when its turn last began
    /// (live), `running` the side to move and `since` when its turn began. A server keeps
    /// these three and rebuilds the clock on each move rather than keeping it in memory.
    pub fn resume(control: TimeControl, left: [u64; 2], running: Player, since: Millis) -> Clock {
        Clock {
            control,
            left,
            running,
            since,
        }
    }

    /// Each side's time left when its turn last began (what [`Clock::resume`] takes back).
    pub fn left_at_turn_start(&self) -> [u64; 2] {
        self.left
    }

    /// When the running side's turn began.
    pub fn since(&self) -> Millis {
        self.since
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The side whose time runs.
    pub fn running(&self) -> Player {
        self.running
    }

    /// The time `player` has left at `now`, or `None` without a clock. Under correspondence
    /// time the side not to move has a whole period ahead.
    pub fn remaining(&self, player: Player, now: Millis) -> Option<Millis> {
        let spent = if player == self.running {
            now.since(self.since).0
        } else {
            0
        };
        match self.control {
            TimeControl::None => None,
            TimeControl::Correspondence { days_per_move } => Some(Millis(
                (u64::from(days_per_move) * DAY_MS).saturating_sub(spent),
            )),
            TimeControl::Live { .. } => {
                Some(Millis(self.left[player.index()].saturating_sub(spent)))
            }
        }
    }

    /// The instant the side to move runs out of time, or `None` without a clock (a server
    /// stores it to end the game on time when nobody is connected).
    pub fn deadline(&self) -> Option<Millis> {
        let left = self.remaining(self.running, self.since)?;
        Some(Millis(self.since.0.saturating_add(left.0)))
    }

    /// The side that has run out of time at `now`, if any.
    pub fn flagged(&self, now: Millis) -> Option<Player> {
        self.deadline()
            .is_some_and(|d| now >= d)
            .then_some(self.running)
    }

    /// The running side has moved at `now` and `next` is to move: charges the time, adds
    /// the increment and starts `next`'s time. Returns the time the move took, or the side
    /// that ran out of time before moving (then the clock is left as it was).
    pub fn press(&mut self, next: Player, now: Millis) -> Result<Millis, Player> {
        if let Some(flagged) = self.flagged(now) {
            return Err(flagged);
        }
        let took = now.since(self.since);
        if let TimeControl::Live { increment_ms, .. } = self.control {
            let i = self.running.index();
            self.left[i] = self.left[i]
                .saturating_sub(took.0)
                .saturating_add(increment_ms);
        }
        self.running = next;
        self.since = now;
        Ok(took)
    }

    /// Whether days of vacation may carry this clock on: correspondence time only (days to
    /// move are for people who have lives; a live clock is the game's tempo).
    pub fn allows_vacation(&self) -> bool {
        matches!(self.control, TimeControl::Correspondence { .. })
    }

    /// The whole days of vacation that carry the running side's correspondence time past
    /// `now`, each moving its deadline a day on; `None` while its time has not run out, and
    /// for clocks that allow no vacation.
    pub fn vacation_days_needed(&self, now: Millis) -> Option<u32> {
        if !self.allows_vacation() {
            return None;
        }
        let deadline = self.deadline()?;
        if now < deadline {
            return None;
        }
        let days = now.since(deadline).0 / DAY_MS + 1;
        Some(u32::try_from(days).unwrap_or(u32::MAX))
    }

    /// The clock with the running side's turn begun `days` days later, its deadline as many
    /// days on: days of vacation spent.
    pub fn after_vacation(&self, days: u32) -> Clock {
        let later = self
            .since
            .0
            .saturating_add(u64::from(days).saturating_mul(DAY_MS));
        self.resumed_at(Millis(later))
    }

    /// The clock with the running side's turn begun no earlier than `at`: a player away
    /// until then finds a whole period to move when back.
    pub fn resumed_at(&self, at: Millis) -> Clock {
        Clock {
            since: self.since.max(at),
            ..*self
        }
    }

    /// How long the AI on the running side may think at `now`, or `None` without a clock
    /// (its level decides). Live: a share of the time left plus most of the increment,
    /// never more than the time left minus a safety margin.
    pub fn ai_budget(&self, now: Millis) -> Option<ThinkBudget> {
        let left = self.remaining(self.running, now)?;
        match self.control {
            TimeControl::None => None,
            TimeControl::Correspondence { .. } => Some(ThinkBudget::within(
                left,
                CORRESPONDENCE_THINK_MS / 2,
                CORRESPONDENCE_THINK_MS,
            )),
            TimeControl::Live { increment_ms, .. } => {
                Some(ThinkBudget::live(left, Millis(increment_ms)))
            }
        }
    }
}

impl ThinkBudget {
    /// The budget of a move with `left` on a live clock gaining `increment` a move: a
    /// share of the time left (as if 25 more moves were to come) plus most of the
    /// increment; up to four times that in a critical position, but never more than a
    /// tenth of the time left plus most of the increment (so that a game of many critical
    /// positions keeps a reserve); never more than the time left minus a margin (1 s, or a
    /// tenth of a short time), so the AI never loses on time by its own thinking.
    pub fn live(left: Millis, increment: Millis) -> ThinkBudget {
        let from_increment = increment.0 * 4 / 5;
        let recommended = left.0 / MOVES_LEFT + from_increment;
        let critical = (4 * recommended).min(left.0 / CRITICAL_SHARE + from_increment);
        ThinkBudget::within(left, recommended, critical)
    }

    /// `recommended` and `max`, both cut to the time `left` minus the safety margin.
    fn within(left: Millis, recommended: u64, max: u64) -> ThinkBudget {
        let ceiling = left.0.saturating_sub(SAFETY_MS.min(left.0 / 10));
        let max = max.min(ceiling);
        let recommended = recommended.min(max);
        ThinkBudget {
            min: Millis(recommended / 4),
            recommended: Millis(recommended),
            max: Millis(max),
        }
    }

    /// What a search is given: the time to aim for (at least a millisecond), and how much
    /// longer it may go on in a critical position, up to `max`
    /// ([`swapboard_ai::Mcts::think_extended`]).
    pub fn limits(&self) -> (Duration, Duration) {
        let limit = self.recommended.0.max(1);
        (
            Duration::from_millis(limit),
            Duration::from_millis(self.max.0.saturating_sub(limit)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Player = Player::First;
    const B: Player = Player::Second;

    #[test]
    fn live_time_is_charged_to_the_mover_with_the_increment() {
        let control = TimeControl::live_seconds(60, 2).unwrap();
        let mut clock = Clock::new(control, R, Millis(1_000));
        assert_eq!(clock.remaining(R, Millis(11_000)), Some(Millis(50_000)));
        assert_eq!(clock.remaining(B, Millis(11_000)), Some(Millis(60_000)));
        assert_eq!(clock.press(B, Millis(11_000)), Ok(Millis(10_000)));
        assert_eq!(clock.remaining(R, Millis(11_000)), Some(Millis(52_000)));
        assert_eq!(clock.deadline(), Some(Millis(71_000)));
        assert_eq!(clock.flagged(Millis(70_999)), None);
        assert_eq!(clock.flagged(Millis(71_000)), Some(B));
        let before = clock;
        assert_eq!(clock.press(R, Millis(80_000)), Err(B));
        assert_eq!(clock, before, "a flagged press changes nothing");
        // Turns need not alternate: the same side may move again.
        assert_eq!(clock.press(B, Millis(20_000)), Ok(Millis(9_000)));
        assert_eq!(clock.remaining(B, Millis(20_000)), Some(Millis(53_000)));
    }

    #[test]
    fn a_resumed_clock_goes_on_as_the_one_it_was_read_from() {
        let control = TimeControl::live_seconds(60, 2).unwrap();
        let mut clock = Clock::new(control, R, Millis(1_000));
        clock.press(B, Millis(11_000)).unwrap();
        let resumed = Clock::resume(
            control,
            clock.left_at_turn_start(),
            clock.running(),
            clock.since(),
        );
        assert_eq!(resumed, clock);
        assert_eq!(resumed.remaining(R, Millis(15_000)), Some(Millis(52_000)));
        assert_eq!(resumed.deadline(), Some(Millis(71_000)));
    }

    #[test]
    fn correspondence_gives_each_move_its_days() {
        let control = TimeControl::correspondence(3).unwrap();
        let mut clock = Clock::new(control, R, Millis(0));
        assert_eq!(clock.deadline(), Some(Millis(3 * DAY_MS)));
        assert_eq!(clock.press(B, Millis(2 * DAY_MS)), Ok(Millis(2 * DAY_MS)));
        assert_eq!(clock.deadline(), Some(Millis(5 * DAY_MS)));
        assert_eq!(clock.flagged(Millis(5 * DAY_MS - 1)), None);
        assert_eq!(clock.flagged(Millis(5 * DAY_MS)), Some(B));
    }

    #[test]
    fn vacation_carries_a_correspondence_clock_a_day_at_a_time() {
        let control = TimeControl::correspondence(2).unwrap();
        let clock = Clock::new(control, R, Millis(0));
        assert_eq!(clock.vacation_days_needed(Millis(2 * DAY_MS - 1)), None);
        assert_eq!(clock.vacation_days_needed(Millis(2 * DAY_MS)), Some(1));
        assert_eq!(clock.vacation_days_needed(Millis(3 * DAY_MS - 1)), Some(1));
        assert_eq!(clock.vacation_days_needed(Millis(3 * DAY_MS)), Some(2));
        let saved = clock.after_vacation(1);
        assert_eq!(saved.deadline(), Some(Millis(3 * DAY_MS)));
        assert_eq!(saved.flagged(Millis(3 * DAY_MS - 1)), None);
        assert_eq!(saved.running(), R);
        // Back from a week away: a whole period from then, never less than before.
        let back = clock.resumed_at(Millis(7 * DAY_MS));
        assert_eq!(back.deadline(), Some(Millis(9 * DAY_MS)));
        assert_eq!(clock.resumed_at(Millis(0)), clock);
        let live = Clock::new(TimeControl::live_seconds(60, 0).unwrap(), R, Millis(0));
        assert!(!live.allows_vacation());
        assert_eq!(live.vacation_days_needed(Millis(DAY_MS)), None);
    }

    #[test]
    fn no_clock_never_flags_and_leaves_the_ai_to_its_level() {
        let clock = Clock::new(TimeControl::None, R, Millis(0));
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.flagged(Millis(u64::MAX)), None);
        assert_eq!(clock.remaining(R, Millis(5)), None);
        assert_eq!(clock.ai_budget(Millis(5)), None);
    }

    #[test]
    fn ai_budgets_grow_with_the_time_left_and_keep_a_margin() {
        let control = TimeControl::live_seconds(300, 3).unwrap();
        let clock = Clock::new(control, R, Millis(0));
        let full = clock.ai_budget(Millis(0)).unwrap();
        assert_eq!(full.recommended, Millis(300_000 / 25 + 2_400));
        assert!(full.min < full.recommended && full.recommended < full.max);
        assert!(full.max.0 <= 299_000);
        let short = clock.ai_budget(Millis(298_000)).unwrap();
        assert!(short.recommended < full.recommended);
        assert!(short.max.0 <= 2_000 - 200, "{short:?}");
        let none_left = clock.ai_budget(Millis(300_000)).unwrap();
        assert_eq!(none_left.max, Millis(0));
        let corr = Clock::new(TimeControl::correspondence(1).unwrap(), R, Millis(0));
        assert_eq!(corr.ai_budget(Millis(0)).unwrap().max, Millis(10_000));
    }

    #[test]
    fn a_live_budget_never_spends_the_time_left_even_in_a_critical_position() {
        // From bullet to a day a side, with and without increments, and down to nothing.
        for left in [
            0, 1, 5, 99, 1_000, 2_500, 10_000, 60_000, 300_000, 86_400_000,
        ] {
            for increment in [0, 1_000, 5_000, 600_000] {
                let budget = ThinkBudget::live(Millis(left), Millis(increment));
                let (limit, extra) = budget.limits();
                let spent = (limit + extra).as_millis() as u64;
                let margin = SAFETY_MS.min(left / 10);
                assert!(
                    spent <= (left - margin).max(1),
                    "{left} + {increment}: {budget:?} spends {spent}"
                );
                assert!(budget.min <= budget.recommended && budget.recommended <= budget.max);
            }
        }
    }

    #[test]
    fn a_live_budget_is_a_share_of_the_time_left_plus_the_increment_and_more_when_critical() {
        let budget = ThinkBudget::live(Millis(60_000), Millis(0));
        assert_eq!(
            budget.limits(),
            (Duration::from_millis(2_400), Duration::from_millis(3_600))
        );
        let large_increment_early = ThinkBudget::live(Millis(300_000), Millis(20_000));
        assert_eq!(large_increment_early.recommended, Millis(12_000 + 16_000));
        assert_eq!(large_increment_early.max, Millis(30_000 + 16_000));
        let small_increment = ThinkBudget::live(Millis(300_000), Millis(100));
        assert_eq!(small_increment.max, Millis(30_000 + 80), "the tenth binds");
        let with_increment = ThinkBudget::live(Millis(60_000), Millis(2_000));
        assert_eq!(with_increment.recommended, Millis(2_400 + 1_600));
        assert_eq!(
            with_increment.max,
            Millis(6_000 + 1_600),
            "a tenth of the time left"
        );
        // Late in a game the increment is most of it; a tenth of the rest is kept for more.
        let late = ThinkBudget::live(Millis(3_000), Millis(2_000));
        assert_eq!(late.recommended, Millis(120 + 1_600));
        assert_eq!(late.max, Millis(300 + 1_600));
        let large_increment = ThinkBudget::live(Millis(10_000), Millis(10_000));
        assert_eq!(large_increment.recommended, Millis(400 + 8_000));
        assert_eq!(
            large_increment.max,
            Millis(9_000),
            "10 s left less the 1 s margin"
        );
    }

    #[test]
    fn time_controls_are_range_checked_and_read_in_the_api_shapes() {
        assert!(TimeControl::correspondence(0).is_err());
        assert!(TimeControl::correspondence(31).is_err());
        assert!(TimeControl::live_seconds(0, 0).is_err());
        assert!(TimeControl::live_seconds(60, 601).is_err());
        let tc: TimeControl =
            serde_json::from_str(r#"{"initial_s": 300, "increment_s": 3}"#).unwrap();
        assert_eq!(tc, TimeControl::live_seconds(300, 3).unwrap());
        assert_eq!(
            serde_json::to_string(&tc).unwrap(),
            r#"{"initial_s":300,"increment_s":3}"#
        );
        let tc: TimeControl = serde_json::from_str(r#"{"days_per_move": 3}"#).unwrap();
        assert_eq!(tc, TimeControl::Correspondence { days_per_move: 3 });
        assert_eq!(
            serde_json::from_str::<TimeControl>("null").unwrap(),
            TimeControl::None
        );
        let err = serde_json::from_str::<TimeControl>(r#"{"days_per_move": 99}"#).unwrap_err();
        assert!(err.to_string().contains("days_per_move 99"), "{err}");
        assert!(
            serde_json::from_str::<TimeControl>(r#"{"initial_s": -1, "increment_s": 3}"#).is_err()
        );
    }
}
