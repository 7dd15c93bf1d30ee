use std::cmp::Ordering;

use swapboard_core::{Outcome, Player};

use crate::{COLOUR_NAMES, ordinal_word};

/// The result of a finished game and the reason for it, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Which network sizes (or which swap) decided it.
    pub reason: String,
    /// How the winner won, for a sentence about them: `by the largest network (31 to 22)`,
    /// `by the second largest network (9 to 8)`, `by the last swap`; for a draw, `with
    /// identical networks and no swap`.
    pub how: String,
}

/// Applies the sheet's tie-break: each player's network sizes from largest to smallest,
/// compared element by element, the first difference deciding; identical lists go to the
/// last player to swap; if nobody ever swapped, the game is drawn.
///
/// `sizes` holds the first and the second player's sizes, each sorted largest first. (With
/// equal piece counts one list is never a proper prefix of the other; if it were, the
/// longer list would win, as if the missing networks had size 0.)
pub fn decide(sizes: [&[usize]; 2], last_swapper: Option<Player>) -> Verdict {
    let [first, second] = sizes;
    let level = first.iter().zip(second).position(|(a, b)| a != b);
    let how = match level {
        Some(i) => {
            let (a, b) = (first[i], second[i]);
            let which = match i {
                0 => "largest".to_string(),
                _ => format!("{} largest", ordinal_word(i + 1)),
            };
            format!("by the {which} network ({} to {})", a.max(b), a.min(b))
        }
        None if first.len() != second.len() => "by having more networks".to_string(),
        None if last_swapper.is_some() => "by the last swap".to_string(),
        None => "with identical networks and no swap".to_string(),
    };
    let (winner, reason) = match level {
        Some(i) => {
            let (a, b) = (first[i], second[i]);
            let winner = if a > b { Player::First } else { Player::Second };
            let (big, small) = (a.max(b), a.min(b));
            let which = if i == 0 {
                "largest network".to_string()
            } else {
                format!("{} largest network", ordinal_word(i + 1))
            };
            let loser = winner.other();
            let mut reason = format!(
                "{}'s {which} ({big}) is larger than {}'s ({small})",
                COLOUR_NAMES[winner.index()],
                COLOUR_NAMES[loser.index()]
            );
            if i > 0 {
                let equal: Vec<String> = first[..i].iter().map(usize::to_string).collect();
                reason.push_str(&format!(
                    "; the larger ones were equal ({})",
                    equal.join(" ")
                ));
            }
            (Some(winner), reason)
        }
        None => match first.len().cmp(&second.len()) {
            Ordering::Equal => match last_swapper {
                Some(p) => (
                    Some(p),
                    format!(
                        "both players' network sizes are identical, and {} swapped last",
                        COLOUR_NAMES[p.index()]
                    ),
                ),
                None => (
                    None,
                    "both players' network sizes are identical and nobody ever swapped".to_string(),
                ),
            },
            longer => {
                let winner = if longer == Ordering::Greater {
                    Player::First
                } else {
                    Player::Second
                };
                (
                    Some(winner),
                    format!(
                        "{} has more networks and the others are equal",
                        COLOUR_NAMES[winner.index()]
                    ),
                )
            }
        },
    };
    Verdict {
        outcome: winner.map_or(Outcome::Draw, Outcome::Win),
        reason,
        how,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_network_decides_first() {
        let v = decide([&[20, 5, 5, 2], &[18, 10, 4]], Some(Player::Second));
        assert_eq!(v.outcome, Outcome::Win(Player::First));
        assert_eq!(
            v.reason,
            "Red's largest network (20) is larger than Cyan's (18)"
        );
        assert_eq!(v.how, "by the largest network (20 to 18)");
    }

    #[test]
    fn equal_largest_networks_pass_to_the_next_size() {
        let v = decide([&[20, 6, 4, 2], &[20, 7, 5]], Some(Player::First));
        assert_eq!(v.outcome, Outcome::Win(Player::Second));
        assert!(
            v.reason.starts_with("Cyan's second largest network (7)"),
            "{}",
            v.reason
        );
        assert_eq!(v.how, "by the second largest network (7 to 6)");
        let v = decide([&[9, 9, 8, 6], &[9, 9, 7, 7]], None);
        assert_eq!(v.outcome, Outcome::Win(Player::First));
        assert!(
            v.reason.contains("third largest") && v.reason.contains("(9 9)"),
            "{}",
            v.reason
        );
    }

    #[test]
    fn identical_sizes_go_to_the_last_swapper_else_draw() {
        let sizes: [&[usize]; 2] = [&[10, 6], &[10, 6]];
        assert_eq!(
            decide(sizes, Some(Player::Second)).outcome,
            Outcome::Win(Player::Second)
        );
        assert_eq!(
            decide(sizes, Some(Player::First)).outcome,
            Outcome::Win(Player::First)
        );
        assert_eq!(decide(sizes, Some(Player::First)).how, "by the last swap");
        let draw = decide(sizes, None);
        assert_eq!(draw.how, "with identical networks and no swap");
        assert_eq!(draw.outcome, Outcome::Draw);
        assert!(draw.reason.contains("nobody ever swapped"));
    }

    #[test]
    fn a_list_that_runs_out_loses_at_the_difference() {
        assert_eq!(
            decide([&[3, 1], &[3]], None).outcome,
            Outcome::Win(Player::First)
        );
        assert_eq!(
            decide([&[3], &[3, 1]], None).outcome,
            Outcome::Win(Player::Second)
        );
    }
}
