//! The playout of boards up to 11 x 11 on bitboards ([`swapboard_grid::bits`]): the rules of
//! the mailbox position, each test a handful of `u128` operations, and no union-find to
//! re-flood after a swap. Search spends most of its time here.
//!
//! It draws its moves like [`Game::random_move`]: a uniformly random placement among the
//! legal ones, then a uniformly random killing swap if the placement forms a crosscut; a pass
//! when the player to move has no legal placement and the opponent has one.

use std::ops::ControlFlow;

use rand::{Rng, RngExt};
use swapboard_core::bitboard::{self, blocks_of, crosscut_corners};
use swapboard_core::{Game, Player, Stone};
use swapboard_grid::bits::{Geometry, nth_bit};

use crate::{Swaptimum, SwaptimumMove};

/// Random draws over the whole board before the empty cells are listed.
const DRAWS_BEFORE_LISTING: usize = 24;

/// A position as two bitboards.
#[derive(Clone, Copy)]
struct Bits {
    g: Geometry,
    /// The stones of each player, by [`Player::index`].
    stones: [u128; 2],
    /// The stones of each player joined to their first side (bottom row, left column): kept
    /// as stones arrive, worked out afresh after a swap.
    reach: [u128; 2],
}

/// What placing on a cell does.
enum Placement {
    /// Forms no crosscut: the placement is the whole move.
    Plain,
    /// Forms crosscuts; the swap of these two cells kills them.
    Swap(u128, u128),
    /// Forms crosscuts no swap can kill (the placement restriction).
    Refused,
}

impl Bits {
    fn empty(self) -> u128 {
        self.g.board & !(self.stones[0] | self.stones[1])
    }

    /// Calls `f` with each killing swap (each pair once) of the placement of `player` on
    /// the bit `cell`, given the crosscut corners it forms.
    fn for_each_killing_swap(
        self,
        player: Player,
        cell: u128,
        corners: u128,
        mut f: impl FnMut(u128, u128) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut stones = self.stones;
        stones[player.index()] |= cell;
        let members = blocks_of(self.g, corners);
        let mut rest = members;
        while rest != 0 {
            let x = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let colour = usize::from(stones[1] & x != 0);
            let mut partners = self.g.king(x) & stones[1 - colour];
            while partners != 0 {
                let y = partners & partners.wrapping_neg();
                partners &= partners - 1;
                // A pair of two crosscut cells is met twice: keep it from its lower cell.
                if y & members != 0 && y < x {
                    continue;
                }
                let both = x | y;
                if crosscut_corners(self.g, stones[0] ^ both, stones[1] ^ both) == 0 {
                    f(x, y)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// What `player` placing on the empty bit `cell` does, with a uniformly random killing
    /// swap when one is needed.
    fn placement<R: Rng + ?Sized>(self, player: Player, cell: u128, rng: &mut R) -> Placement {
        let corners = self.corners_after(player, cell);
        if corners == 0 {
            return Placement::Plain;
        }
        // Two crosscut cells and their eight neighbours bound the pairs: 9 cells x 8.
        let mut swaps = [(0u128, 0u128); 72];
        let mut n = 0;
        let _ = self.for_each_killing_swap(player, cell, corners, |x, y| {
            swaps[n] = (x, y);
            n += 1;
            ControlFlow::Continue(())
        });
        if n == 0 {
            return Placement::Refused;
        }
        let (x, y) = swaps[rng.random_range(0..n)];
        Placement::Swap(x, y)
    }

    /// The crosscut corners on the board once `player` places on the empty bit `cell`.
    fn corners_after(self, player: Player, cell: u128) -> u128 {
        let mut stones = self.stones;
        stones[player.index()] |= cell;
        crosscut_corners(self.g, stones[0], stones[1])
    }

    /// Whether `player` placing on the empty bit `cell` is legal.
    fn is_legal(self, player: Player, cell: u128) -> bool {
        let corners = self.corners_after(player, cell);
        corners == 0
            || self
                .for_each_killing_swap(player, cell, corners, |_, _| ControlFlow::Break(()))
                .is_break()
    }

    /// Whether `player` has a legal placement.
    fn can_place(self, player: Player) -> bool {
        let mut rest = self.empty();
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            if self.is_legal(player, cell) {
                return true;
            }
            rest &= rest - 1;
        }
        false
    }

    /// A uniformly random legal placement of `player` (the cell and what it does), if any.
    fn random_placement<R: Rng + ?Sized>(
        self,
        player: Player,
        rng: &mut R,
    ) -> Option<(u128, Placement)> {
        let empty = self.empty();
        let cells = self.g.n * self.g.n;
        let mut refused = 0u128;
        // While the board has room, a draw over the whole board finds an empty cell quickly.
        for _ in 0..DRAWS_BEFORE_LISTING {
            let cell = 1u128 << rng.random_range(0..cells);
            if empty & !refused & cell != 0 {
                match self.placement(player, cell, rng) {
                    Placement::Refused => refused |= cell,
                    placement => return Some((cell, placement)),
                }
            }
        }
        let mut open = empty & !refused;
        while open != 0 {
            let cell = nth_bit(open, rng.random_range(0..open.count_ones()));
            match self.placement(player, cell, rng) {
                Placement::Refused => open &= !cell,
                placement => return Some((cell, placement)),
            }
        }
        None
    }

    /// A position as bitboards.
    fn new(g: Geometry, stones: [u128; 2]) -> Bits {
        let mut bits = Bits {
            g,
            stones,
            reach: [0; 2],
        };
        bits.reach = Player::BOTH.map(|p| bits.reach_of(p));
        bits
    }

    /// The stones of `player` joined to their first side.
    fn reach_of(self, player: Player) -> u128 {
        let own = self.stones[player.index()];
        self.g.flood(own & bitboard::sides(self.g, player).0, own)
    }

    /// Plays `player`'s placement; the winner if the move joins someone's sides.
    fn play(&mut self, player: Player, cell: u128, placement: &Placement) -> Option<Player> {
        let me = player.index();
        self.stones[me] |= cell;
        match *placement {
            Placement::Swap(x, y) => {
                // A swap may split groups: no cheap update of what reaches a side.
                self.stones[0] ^= x | y;
                self.stones[1] ^= x | y;
                self.reach = Player::BOTH.map(|p| self.reach_of(p));
            }
            _ => {
                let start = bitboard::sides(self.g, player).0;
                if (cell & start) | (self.g.orthogonal(cell) & self.reach[me]) != 0 {
                    self.reach[me] = self.g.flood(self.reach[me] | cell, self.stones[me]);
                }
            }
        }
        Player::BOTH
            .into_iter()
            .find(|&p| self.reach[p.index()] & bitboard::sides(self.g, p).1 != 0)
    }
}

/// Plays `position` out on bitboards if its board has them (see [`Game::play_out`]); false
/// (with `position` untouched) on a larger board.
pub(crate) fn play_out<R: Rng + ?Sized>(
    position: &mut Swaptimum,
    rng: &mut R,
    cap: u32,
    mut record: impl FnMut(&SwaptimumMove, Player),
) -> bool {
    let board = position.state.board();
    let Some(g) = Geometry::of(board.size()) else {
        return false;
    };
    let stones = board.bitboards().unwrap_or_default();
    let mut bits = Bits::new(g, stones);
    let mut to_move = position.to_move();
    let mut winner = position.state.winner;
    for _ in 0..cap {
        if winner.is_some() {
            break;
        }
        match bits.random_placement(to_move, rng) {
            Some((cell, placement)) => {
                let placed = g.lowest_cell(cell);
                let mv = match placement {
                    Placement::Swap(x, y) => {
                        SwaptimumMove::place_swap(placed, g.lowest_cell(x), g.lowest_cell(y))
                    }
                    _ => SwaptimumMove::Place(placed),
                };
                record(&mv, to_move);
                winner = bits.play(to_move, cell, &placement);
            }
            None if bits.can_place(to_move.other()) => record(&SwaptimumMove::Pass, to_move),
            None => break,
        }
        to_move = to_move.other();
    }
    let mut board = board.clone();
    let sq = board.square();
    let mut changed = (stones[0] ^ bits.stones[0]) | (stones[1] ^ bits.stones[1]);
    while changed != 0 {
        let cell = changed & changed.wrapping_neg();
        changed &= changed - 1;
        let stone = Player::BOTH
            .into_iter()
            .find(|p| bits.stones[p.index()] & cell != 0)
            .map_or(Stone::Empty, Stone::of);
        board.set(sq.slot(g.lowest_cell(cell)), stone);
    }
    position.state.replace_board(board, to_move, winner);
    true
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use swapboard_core::Game;

    use crate::{Swaptimum, SwaptimumMove};

    /// A position `plies` random moves into a game on an `n` x `n` board.
    fn random_position(n: usize, plies: usize, rng: &mut Xoshiro256PlusPlus) -> Swaptimum {
        let mut pos = Swaptimum::start(n).unwrap();
        for _ in 0..plies {
            let Some(mv) = pos.random_move(rng) else {
                break;
            };
            pos.play_unchecked(&mv);
        }
        pos
    }

    /// Every move a bitboard playout records is legal where it is played, the playout
    /// leaves the position those moves lead to (winner and player to move included), it
    /// stops early only where the game is over, and the position it leaves plays on right.
    #[test]
    fn playouts_play_legal_moves_and_end_where_the_rules_do() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(61);
        for n in 3..=12 {
            for game in 0..60 {
                let start = random_position(n, game % (n * n), &mut rng);
                let cap = [1, 5, 1000][game % 3];
                let mut played = Vec::new();
                let mut out = start.clone();
                out.play_out(&mut rng, cap, |mv, mover| played.push((*mv, mover)));
                let mut replay = start.clone();
                for (mv, mover) in &played {
                    assert_eq!(replay.to_move(), *mover, "{replay}");
                    if let Err(e) = replay.check_move(mv) {
                        panic!("{mv} after {replay}: {e}");
                    }
                    replay.play_unchecked(mv);
                }
                assert!(out == replay, "{out} against {replay}");
                assert_eq!(out.outcome(), replay.outcome(), "{out}");
                if played.len() < cap as usize {
                    assert!(out.outcome().is_some(), "stopped early at {out}");
                }
                // Played on, the position keeps its groups right (they are rebuilt lazily).
                while let Some(mv) = replay.random_move(&mut rng) {
                    replay.play_unchecked(&mv);
                    out.play_unchecked(&mv);
                    assert!(out == replay, "{out} against {replay}");
                }
            }
        }
    }

    /// The rulings' test position: Blue has no legal placement and passes; Red's 7 legal
    /// moves (all at c4, with different swaps) come out equally often.
    #[test]
    fn playouts_pass_and_draw_swaps_uniformly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let blue: Swaptimum = "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB B"
            .parse()
            .unwrap();
        let mut first = None;
        blue.clone()
            .play_out(&mut rng, 1, |mv, _| first = Some(*mv));
        assert_eq!(first, Some(SwaptimumMove::Pass));

        let red: Swaptimum = "swaptimum BRRRBR/RRBRBB/BB.RRR/BRRBBB/BBRBRR/RBRBRB R"
            .parse()
            .unwrap();
        let samples = 7000;
        let mut seen: HashMap<SwaptimumMove, u32> = HashMap::new();
        for _ in 0..samples {
            red.clone()
                .play_out(&mut rng, 1, |mv, _| *seen.entry(*mv).or_default() += 1);
        }
        assert_eq!(seen.len(), 7, "{seen:?}");
        for (mv, count) in seen {
            assert!((850..1150).contains(&count), "{mv}: {count} of {samples}");
        }
    }

    /// On an open board the first placement is uniform over the empty cells.
    #[test]
    fn playouts_draw_placements_uniformly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let pos: Swaptimum = "swaptimum R.B/.../B.R R".parse().unwrap();
        let mut seen: HashMap<SwaptimumMove, u32> = HashMap::new();
        let samples = 5000;
        for _ in 0..samples {
            pos.clone()
                .play_out(&mut rng, 1, |mv, _| *seen.entry(*mv).or_default() += 1);
        }
        let legal = pos.move_count() as u32;
        assert_eq!(seen.len() as u32, legal, "{seen:?}");
        for (mv, count) in seen {
            let expected = samples / legal;
            assert!(
                count.abs_diff(expected) < expected / 6,
                "{mv}: {count} of {samples}"
            );
        }
    }
}
