//! Scware (Christian Freeling) in the play layer: a new group, or a growth of several
//! groups at once stone by stone (the cells offered come from the turn's growth structure,
//! `GrowthBuilder`), and Red's balancing move after `+`.

use swapboard_core::{Game, Player, Rule};
use swapboard_grid::{Cell, CellSet};
use swapboard_scware::{GrowthBuilder, Scware, ScwareMove};

use crate::builder::{Action, Build, Draft, Selection, Verdict, checked, game_over, opening};
use crate::words::{Describe, cell_list};

playable!(Scware);

impl Build for Scware {
    fn draft(&self, selection: &Selection) -> Draft<ScwareMove> {
        if let Some(over) = game_over(self) {
            return over;
        }
        let growths = GrowthBuilder::new(self);
        let cells = &selection.cells;
        let Some(&last) = cells.last() else {
            let mut starts = growths.new_group_cells(&[]);
            starts.extend(growths.next(&[]));
            return opening(self, starts, self.first_prompt());
        };
        if cells[..cells.len() - 1].contains(&last) {
            return Draft::refused(format!("{last} is chosen already"));
        }
        match selection.split {
            Some(k) if k < cells.len() => {
                if cells.len() > k + 1 {
                    return Draft::refused("the balancing move ends with one new group's cell");
                }
                let growth: CellSet = cells[..k].iter().copied().collect();
                checked(self, ScwareMove::balanced(growth, last))
            }
            Some(_) => {
                let next = growths.new_group_cells(cells);
                if !may_balance(self, &growths, cells) {
                    return Draft::refused(
                        "no new group can follow this growth (Red's balancing move needs a legal growth and a cell clear of every Red stone)",
                    );
                }
                Draft::more(next, "choose the cell of Red's new group")
            }
            None => growth_draft(self, &growths, cells),
        }
    }

    fn first_prompt(&self) -> String {
        "choose a cell: a new group, or the first stone of a growth".to_string()
    }
}

/// Whether Red may end the growth `cells` with a new group: the balancing move is still
/// open, the growth is legal by itself, and some cell stays clear of it.
fn may_balance(pos: &Scware, growths: &GrowthBuilder, cells: &[Cell]) -> bool {
    pos.to_move() == Player::Second
        && pos.balancing_available()
        && pos
            .check_move(&ScwareMove::growth(cells.iter().copied().collect()))
            .is_ok()
        && !growths.new_group_cells(cells).is_empty()
}

/// The draft of Scware cells with no `+`: a placement (one cell touching none of the
/// mover's stones), or a growth that is legal, or that more stones can still make legal.
fn growth_draft(pos: &Scware, growths: &GrowthBuilder, cells: &[Cell]) -> Draft<ScwareMove> {
    let mv = ScwareMove::growth(cells.iter().copied().collect());
    let judged = pos.check_move(&mv);
    if !growths.completes(cells) {
        return match judged {
            // A lone cell that starts a group (or breaks a rule of its own).
            _ if cells.len() == 1 => checked(pos, mv),
            Err(e) if e.rule != Rule::DiagonalRestriction => Draft::refused(e.to_string()),
            _ => Draft::refused(format!(
                "no legal growth holds {}: the restriction could never be met",
                cells
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
    }
    let next = growths.next(cells);
    match judged {
        Ok(()) => {
            let mut actions = Vec::new();
            if may_balance(pos, growths, cells) {
                actions.push(Action::EndGrowth);
            }
            let more = !next.is_empty() || !actions.is_empty();
            let prompt = match (next.is_empty(), actions.is_empty()) {
                (true, true) => String::new(),
                (false, true) => format!("growth {mv}: play it, or add cells"),
                (false, false) => {
                    format!("growth {mv}: play it, add cells, or + then a cell for a new group")
                }
                (true, false) => format!("growth {mv}: play it, or + then a cell for a new group"),
            };
            Draft {
                verdict: Verdict::Complete { mv },
                more,
                next,
                actions,
                prompt,
            }
        }
        Err(e) => Draft::more(next, format!("not legal yet: {e}")),
    }
}

impl Describe for Scware {
    fn did(&self, _after: &Scware, mv: &ScwareMove) -> String {
        let ScwareMove::Stones { cells, new_group } = mv else {
            return String::new();
        };
        let cells: Vec<Cell> = cells.iter().collect();
        let own = Some(self.to_move());
        let touches_own = |c: Cell| {
            let square = self.board().square();
            square.orthogonal().iter().any(|&d| {
                self.board()
                    .get(square.slot(c).wrapping_add_signed(d))
                    .player()
                    == own
            })
        };
        let mut text = match cells[..] {
            [single] if !touches_own(single) => format!("started a group at {single}"),
            _ => format!("grew the groups at {}", cell_list(cells)),
        };
        if let Some(g) = new_group {
            text.push_str(&format!("; started a group at {g}"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::tests::selection;

    /// A Scware growth that breaks only the restriction stays open ("not legal yet") until
    /// a stone joins the groups; a stone that can never belong to a growth is refused.
    #[test]
    fn a_scware_growth_waits_for_the_stone_that_mends_the_restriction() {
        let pos: Scware = "scware ...../..W../...../.W.../..... W g".parse().unwrap();
        let waiting = pos.draft(&selection(&["b3"]));
        assert_eq!(waiting.verdict, Verdict::More);
        assert!(waiting.more);
        assert!(
            waiting.prompt.starts_with("not legal yet"),
            "{}",
            waiting.prompt
        );
        let mended = pos.draft(&selection(&["b3", "c3"]));
        assert!(mended.ready().is_some(), "{mended:?}");
        let refused = pos.draft(&selection(&["b3", "e5"]));
        assert!(refused.refusal().is_some(), "{refused:?}");
    }

    /// The dead end a player met: a lone stone diagonal to White's own, touching none of
    /// them, can start no group and grow none; it is refused at once, not kept "not legal
    /// yet" with cells offered that would all be refused.
    #[test]
    fn a_lone_stone_that_no_move_can_hold_is_refused_at_once() {
        let pos: Scware = "scware ...../...W./...../.W.../..... W g".parse().unwrap();
        let draft = pos.draft(&selection(&["e5"]));
        let reason = draft.refusal().expect("refused");
        assert!(
            reason.contains("diagonal") || reason.contains("restriction"),
            "{reason}"
        );
        let start = pos.draft(&selection(&[]));
        assert!(!start.next.contains(&"e5".parse().unwrap()), "{start:?}");
        assert!(start.next.contains(&"a5".parse().unwrap()), "{start:?}");
    }

    /// Red's balancing move: a growth, `+`, then a cell touching none of Red's stones,
    /// offered among the next cells and completing the move at once.
    #[test]
    fn a_balancing_move_ends_with_a_new_group() {
        let pos: Scware = "scware ...../..W../...../.R.../..... R -".parse().unwrap();
        let mut s = selection(&["a2"]);
        let growth = pos.draft(&s);
        assert!(growth.ready().is_some() && growth.more, "{growth:?}");
        assert!(growth.prompt.contains("+ then a cell"), "{}", growth.prompt);
        assert_eq!(growth.actions, vec![Action::EndGrowth]);
        assert!(s.end_growth());
        let after_plus = pos.draft(&s);
        let a4: Cell = "a4".parse().unwrap();
        assert!(after_plus.next.contains(&a4), "{after_plus:?}");
        assert!(
            !after_plus.next.contains(&"a3".parse().unwrap()),
            "a3 touches a2"
        );
        let done = pos.draft(&s.with(a4));
        assert_eq!(
            done.ready().map(ToString::to_string).as_deref(),
            Some("a2+a4")
        );
        assert!(!done.more);
    }
}
