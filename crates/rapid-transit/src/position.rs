use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;

use rand::{Rng, RngExt};
use swapboard_core::{
    BoardView, CellMark, Game, IllegalMove, MoveError, Outcome, Player, PositionError, SideOwner,
    Stone, StoneBoard, text, whole_turns, zobrist,
};
use swapboard_grid::{Cell, CellSet, Square};

use crate::networks::{Networks, SlotSet};
use crate::{COLOUR_NAMES, LETTERS, Move, Verdict, decide};

/// The smallest board of the size variant.
const MIN_SIZE: usize = 4;
/// The largest board of the size variant (the networks' tables are sized for it).
const MAX_SIZE: usize = 16;
/// Pieces of one colour on the largest board: a bound on network sizes and counts.
const MAX_PIECES: usize = MAX_SIZE * MAX_SIZE / 2;

/// A Rapid Transit position: the full board, the player to move, the passes made in a row
/// just before it, and the last player to swap (which breaks a tie of network sizes).
///
/// The position text is `rapid-transit <rows> <to-move> <passes> <last swapper or ->`, e.g.
/// the start `rapid-transit CRCRCRCR/.../RCRCRCRC R 0 -`. Only these four fields make the
/// position: equality and hashing ignore the derived networks (whose labels depend on the
/// path that led here).
#[derive(Clone)]
pub struct RapidTransit {
    board: StoneBoard,
    to_move: Player,
    passes: u8,
    last_swapper: Option<Player>,
    nets: Networks,
}

/// Why a swap breaks restriction 2 or 3, found from the kept tables alone.
enum Fault {
    /// The 2 x 2 block (lower-left slot) would be all `colour`.
    Block { block: usize, colour: Player },
    /// The piece of `colour` moved to `slot` would have only `friends` friendly neighbours.
    Lonely {
        slot: usize,
        colour: Player,
        friends: u8,
    },
}

/// What one of the mover's networks can reach: its terminals able to move and the
/// opponent pieces of its adjacent networks that could end with two friends.
struct Reach {
    terminals: [u16; MAX_PIECES],
    terminal_count: usize,
    /// Terminals that are not cornered.
    free_terminals: usize,
    partners: [u16; MAX_PIECES],
    partner_count: usize,
    /// Partners that are not cornered.
    free_partners: usize,
    /// The adjacent opponent networks, by label.
    networks: SlotSet,
}

impl Default for Reach {
    fn default() -> Reach {
        Reach {
            terminals: [0; MAX_PIECES],
            terminal_count: 0,
            free_terminals: 0,
            partners: [0; MAX_PIECES],
            partner_count: 0,
            free_partners: 0,
            networks: SlotSet::default(),
        }
    }
}

impl Reach {
    fn clear(&mut self) {
        self.terminal_count = 0;
        self.free_terminals = 0;
        self.partner_count = 0;
        self.free_partners = 0;
        self.networks = SlotSet::default();
    }

    fn terminals(&self) -> &[u16] {
        &self.terminals[..self.terminal_count]
    }

    fn partners(&self) -> &[u16] {
        &self.partners[..self.partner_count]
    }
}

/// The board side as a variant size, or why it is not one.
fn variant_square(size: usize) -> Result<Square, PositionError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(PositionError::new(format!(
            "Rapid Transit is played on 8x8 (even sizes {MIN_SIZE} to {MAX_SIZE} as a variant), not {size}x{size}"
        )));
    }
    if !size.is_multiple_of(2) {
        return Err(PositionError::new(format!(
            "Rapid Transit needs an even board side (even sizes {MIN_SIZE} to {MAX_SIZE}): on {size}x{size} the checkerboard start would not give both players the same number of pieces"
        )));
    }
    Square::new(size).map_err(|e| PositionError::new(e.to_string()))
}

/// The start colour of a cell: the checkerboard with Red on a1.
fn start_stone(cell: Cell) -> Stone {
    if (cell.col() + cell.row()).is_multiple_of(2) {
        Stone::First
    } else {
        Stone::Second
    }
}

impl RapidTransit {
    /// The start position of a board of side `size` with `first` to move (the players choose
    /// who starts; [`Game::start`] gives Red the first move).
    pub fn start_with(size: usize, first: Player) -> Result<RapidTransit, PositionError> {
        let square = variant_square(size)?;
        let mut board = StoneBoard::empty(square);
        for cell in square.cells() {
            board.set(square.slot(cell), start_stone(cell));
        }
        Ok(RapidTransit::from_parts(board, first, 0, None))
    }

    fn from_parts(
        board: StoneBoard,
        to_move: Player,
        passes: u8,
        last_swapper: Option<Player>,
    ) -> RapidTransit {
        let nets = Networks::new(&board);
        RapidTransit {
            board,
            to_move,
            passes,
            last_swapper,
            nets,
        }
    }

    /// The board.
    pub fn board(&self) -> &StoneBoard {
        &self.board
    }

    /// The number of passes made in a row just before this position (2 ends the game).
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The last player to swap, if anyone has.
    pub fn last_swapper(&self) -> Option<Player> {
        self.last_swapper
    }

    /// The sizes of `player`'s networks, largest first.
    pub fn network_sizes(&self, player: Player) -> Vec<usize> {
        let own = Stone::of(player);
        let mut sizes: Vec<usize> = self
            .board
            .square()
            .slots()
            .filter(|&s| self.board.get(s) == own && self.nets.id(s) == s)
            .map(|s| self.nets.size_of(s))
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The size of the network through `cell` (which must be on the board).
    pub fn network_size_at(&self, cell: Cell) -> usize {
        self.nets
            .size_of(self.nets.id(self.board.square().slot(cell)))
    }

    /// `player`'s terminal pieces: at most one like-coloured orthogonal neighbour.
    pub fn terminals(&self, player: Player) -> CellSet {
        self.cells_where(player, |nets, s| nets.is_terminal(s))
    }

    /// `player`'s cornered pieces: in some 2 x 2 block whose other three pieces are the
    /// opponent's. (Defined by the sheet, used by no rule; a swap may never move a piece out
    /// of such a block, since that would fill the block with one colour.)
    pub fn cornered(&self, player: Player) -> CellSet {
        self.cells_where(player, |nets, s| nets.cornered(s) != 0)
    }

    fn cells_where(&self, player: Player, keep: impl Fn(&Networks, usize) -> bool) -> CellSet {
        let own = Stone::of(player);
        let square = self.board.square();
        square
            .cells()
            .filter(|&c| {
                let s = square.slot(c);
                self.board.get(s) == own && keep(&self.nets, s)
            })
            .collect()
    }

    /// The result and its reason once both players have passed in a row.
    pub fn verdict(&self) -> Option<Verdict> {
        (self.passes >= 2).then(|| {
            let first = self.network_sizes(Player::First);
            let second = self.network_sizes(Player::Second);
            decide([&first, &second], self.last_swapper)
        })
    }

    #[inline]
    fn cell(&self, slot: usize) -> Cell {
        self.board
            .square()
            .cell_at(slot)
            .expect("a slot of a piece lies on the board")
    }

    /// Calls `f` with the [`Reach`] of each of the mover's networks that has a terminal
    /// able to move, built from the kept rings and counts (no flood, no board copy).
    fn for_each_reach<F: FnMut(&Reach) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        let mover = Stone::of(self.to_move);
        let foe = Stone::of(self.to_move.other());
        let square = self.board.square();
        let orth = square.orthogonal();
        let nets = &self.nets;
        let mut done = SlotSet::default();
        let mut reach = Reach::default();
        let mut adjacent = [0u16; MAX_PIECES];
        for slot in square.slots() {
            // A terminal with fewer than two opposing neighbours can never end with two
            // friendly ones.
            if self.board.get(slot) != mover || !nets.is_terminal(slot) || nets.foes(slot) < 2 {
                continue;
            }
            let net = nets.id(slot);
            if !done.insert(net) {
                continue;
            }
            reach.clear();
            let mut adjacent_count = 0;
            let mut member = net;
            loop {
                if nets.is_terminal(member) && nets.foes(member) >= 2 {
                    reach.terminals[reach.terminal_count] = member as u16;
                    reach.terminal_count += 1;
                    reach.free_terminals += usize::from(nets.cornered(member) == 0);
                }
                for d in orth {
                    let n = member.wrapping_add_signed(d);
                    if self.board.get(n) == foe && reach.networks.insert(nets.id(n)) {
                        adjacent[adjacent_count] = nets.id(n) as u16;
                        adjacent_count += 1;
                    }
                }
                member = nets.next(member);
                if member == net {
                    break;
                }
            }
            for &other in &adjacent[..adjacent_count] {
                let other = usize::from(other);
                let mut q = other;
                loop {
                    // A partner needs two opposing neighbours to end with two friends.
                    if nets.foes(q) >= 2 {
                        reach.partners[reach.partner_count] = q as u16;
                        reach.partner_count += 1;
                        reach.free_partners += usize::from(nets.cornered(q) == 0);
                    }
                    q = nets.next(q);
                    if q == other {
                        break;
                    }
                }
            }
            f(&reach)?;
        }
        ControlFlow::Continue(())
    }

    /// Whether two slots share a 2 x 2 block (orthogonal or diagonal neighbours).
    #[inline]
    fn near(&self, p: usize, q: usize) -> bool {
        let s = self.board.square().stride();
        let d = p.abs_diff(q);
        d == 1 || (s - 1..=s + 1).contains(&d)
    }

    /// The opposing pieces sharing a block with `p` that are partners in `reach`.
    #[inline]
    fn near_partners(&self, p: usize, reach: &Reach) -> impl Iterator<Item = usize> {
        let foe = Stone::of(self.to_move.other());
        self.board
            .square()
            .king()
            .into_iter()
            .map(move |d| p.wrapping_add_signed(d))
            .filter(move |&q| {
                self.board.get(q) == foe
                    && self.nets.foes(q) >= 2
                    && reach.networks.contains(self.nets.id(q))
            })
    }

    /// Calls `f(p, q)` for every legal swap of one network's terminal `p` with partner `q`.
    ///
    /// Apart from pieces sharing a 2 x 2 block, restrictions 2 and 3 hold exactly when
    /// neither piece is cornered (both already have two opposing neighbours): those pairs
    /// need no check. Pairs sharing a block are judged one by one.
    fn for_each_swap_in<F: FnMut(usize, usize) -> ControlFlow<()>>(
        &self,
        reach: &Reach,
        f: &mut F,
    ) -> ControlFlow<()> {
        let nets = &self.nets;
        if reach.free_terminals > 0 && reach.free_partners > 0 {
            for &p in reach.terminals() {
                let p = usize::from(p);
                if nets.cornered(p) != 0 {
                    continue;
                }
                for &q in reach.partners() {
                    let q = usize::from(q);
                    if nets.cornered(q) == 0 && !self.near(p, q) {
                        f(p, q)?;
                    }
                }
            }
        }
        for &p in reach.terminals() {
            let p = usize::from(p);
            for q in self.near_partners(p, reach) {
                if self.swap_fault(p, q).is_none() {
                    f(p, q)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The number of legal swaps of one network: free pairs counted by multiplication,
    /// corrected pair by pair where the pieces share a block.
    fn swap_count_in(&self, reach: &Reach) -> u64 {
        let nets = &self.nets;
        let mut count = (reach.free_terminals * reach.free_partners) as u64;
        for &p in reach.terminals() {
            let p = usize::from(p);
            let free_p = nets.cornered(p) == 0;
            for q in self.near_partners(p, reach) {
                let counted = free_p && nets.cornered(q) == 0;
                let legal = self.swap_fault(p, q).is_none();
                count = count + u64::from(legal) - u64::from(counted);
            }
        }
        count
    }

    /// Calls `f(p, q)` for every legal swap of the mover's terminal on slot `p` with the
    /// opponent piece on slot `q`.
    fn for_each_swap<F: FnMut(usize, usize) -> ControlFlow<()>>(
        &self,
        mut f: F,
    ) -> ControlFlow<()> {
        self.for_each_reach(|reach| self.for_each_swap_in(reach, &mut f))
    }

    /// The number of legal swaps.
    fn swap_count(&self) -> u64 {
        let mut count = 0;
        let _ = self.for_each_reach(|reach| {
            count += self.swap_count_in(reach);
            ControlFlow::Continue(())
        });
        count
    }

    /// Restrictions 2 and 3 for the swap of the mover's piece on `p` with the opponent's on
    /// `q`, judged from the kept tables.
    ///
    /// A block of one colour can only appear where a moved piece was *cornered* (the other
    /// three cells of a block held the other colour) in a block not holding the other moved
    /// piece; a block holding both keeps its mix of colours. After the swap, the piece on `q`
    /// has its old opposing neighbours as friends, less `p` if the two touched; the same
    /// for `p`.
    #[inline]
    fn swap_fault(&self, p: usize, q: usize) -> Option<Fault> {
        let square = self.board.square();
        let cornered = self.nets.cornered(p) | self.nets.cornered(q);
        if cornered != 0 {
            let mover = self.to_move;
            for (slot, other, colour) in [(q, p, mover), (p, q, mover.other())] {
                let blocks = square.blocks_around(slot);
                let mask = self.nets.cornered(slot);
                for (k, &block) in blocks.iter().enumerate() {
                    if mask & (1 << k) != 0 && !square.block(block).contains(&other) {
                        return Some(Fault::Block { block, colour });
                    }
                }
            }
        }
        let touching = u8::from(p.abs_diff(q) == 1 || p.abs_diff(q) == square.stride());
        let friends_q = self.nets.foes(q) - touching;
        if friends_q < 2 {
            return Some(Fault::Lonely {
                slot: q,
                colour: self.to_move,
                friends: friends_q,
            });
        }
        let friends_p = self.nets.foes(p) - touching;
        if friends_p < 2 {
            return Some(Fault::Lonely {
                slot: p,
                colour: self.to_move.other(),
                friends: friends_p,
            });
        }
        None
    }

    /// Whether the networks through `p` and `q` touch orthogonally.
    fn networks_touch(&self, p: usize, q: usize) -> bool {
        let target = self.nets.id(q);
        let start = self.nets.id(p);
        let orth = self.board.square().orthogonal();
        let mut member = start;
        loop {
            // Labels are slots of their own network, so no border slot carries `target`.
            if orth
                .iter()
                .any(|&d| self.nets.id(member.wrapping_add_signed(d)) == target)
            {
                return true;
            }
            member = self.nets.next(member);
            if member == start {
                return false;
            }
        }
    }

    fn first_swap(&self) -> Option<Move> {
        let mut found = None;
        let _ = self.for_each_swap(|p, q| {
            found = Some(Move::Swap {
                terminal: self.cell(p),
                partner: self.cell(q),
            });
            ControlFlow::Break(())
        });
        found
    }

    fn describe_fault(&self, fault: Fault) -> String {
        match fault {
            Fault::Block { block, colour } => {
                let mut cells = self.board.square().block(block).map(|s| self.cell(s));
                cells.sort();
                let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
                format!(
                    "the swap would fill the 2x2 block {} with {} (no 2x2 block of one colour may be formed)",
                    names.join(", "),
                    COLOUR_NAMES[colour.index()]
                )
            }
            Fault::Lonely {
                slot,
                colour,
                friends,
            } => format!(
                "after the swap {name}'s piece on {cell} would have {friends} {name} neighbour{s}; both moved pieces need at least two friendly neighbours",
                name = COLOUR_NAMES[colour.index()],
                cell = self.cell(slot),
                s = if friends == 1 { "" } else { "s" }
            ),
        }
    }

    /// Checks that the text's fields describe a position some game reaches (the board is
    /// already known to be full with equal counts).
    fn check_reachable(&self) -> Result<(), PositionError> {
        let square = self.board.square();
        for block in square.blocks() {
            let [a, b, c, d] = square.block(block);
            let stone = self.board.get(a);
            if [b, c, d].iter().all(|&s| self.board.get(s) == stone) {
                let player = stone.player().expect("the board is full");
                return Err(PositionError::new(format!(
                    "the 2x2 block {}, {}, {}, {} is all {}: no swap can form such a block",
                    self.cell(a),
                    self.cell(c),
                    self.cell(b),
                    self.cell(d),
                    COLOUR_NAMES[player.index()]
                )));
            }
        }
        match self.last_swapper {
            None => {
                if let Some(cell) = square.cells().find(|&c| self.board.at(c) != start_stone(c)) {
                    return Err(PositionError::new(format!(
                        "nobody has swapped yet ('-'), so the board must be the start checkerboard (Red on a1), but {cell} differs"
                    )));
                }
            }
            Some(last) => {
                let expected = if self.passes == 1 {
                    self.to_move
                } else {
                    self.to_move.other()
                };
                if last != expected {
                    return Err(PositionError::new(format!(
                        "with {} to move after {} pass(es) in a row, the last player to swap is {}, not {}",
                        COLOUR_NAMES[self.to_move.index()],
                        self.passes,
                        COLOUR_NAMES[expected.index()],
                        COLOUR_NAMES[last.index()]
                    )));
                }
            }
        }
        // Only a player with no swap may pass.
        let mut passers = Vec::new();
        if self.passes >= 1 {
            passers.push(self.to_move.other());
        }
        if self.passes >= 2 {
            passers.push(self.to_move);
        }
        for passer in passers {
            let mut turn = self.clone();
            turn.to_move = passer;
            if let Some(mv) = turn.first_swap() {
                return Err(PositionError::new(format!(
                    "{} passes in a row say {} passed, but {} has a swap here ({mv})",
                    self.passes,
                    COLOUR_NAMES[passer.index()],
                    COLOUR_NAMES[passer.index()]
                )));
            }
        }
        Ok(())
    }
}

impl Game for RapidTransit {
    type Move = Move;

    const ID: &'static str = "rapid-transit";
    const TITLE: &'static str = "Rapid Transit by Phil Leduc (2022/2024)";
    const DEFAULT_SIZE: usize = 8;

    /// 4 to 16, even sizes only: [`Game::start`] refuses odd ones.
    fn sizes() -> RangeInclusive<usize> {
        MIN_SIZE..=MAX_SIZE
    }

    fn start(size: usize) -> Result<RapidTransit, PositionError> {
        RapidTransit::start_with(size, Player::First)
    }

    fn size(&self) -> usize {
        self.board.size()
    }

    fn colour_letter(player: Player) -> char {
        LETTERS[player.index()]
    }

    fn colour_name(player: Player) -> &'static str {
        COLOUR_NAMES[player.index()]
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        self.verdict().map(|v| v.outcome)
    }

    fn for_each_move<F: FnMut(Move) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        if self.passes >= 2 {
            return ControlFlow::Continue(());
        }
        let mut any = false;
        self.for_each_swap(|p, q| {
            any = true;
            f(Move::Swap {
                terminal: self.cell(p),
                partner: self.cell(q),
            })
        })?;
        if any {
            ControlFlow::Continue(())
        } else {
            f(Move::Pass)
        }
    }

    fn check_move(&self, mv: &Move) -> Result<(), IllegalMove> {
        let refuse = |why: String| Err(IllegalMove(why));
        if self.passes >= 2 {
            return refuse("the game is over: both players passed in a row".into());
        }
        let name = COLOUR_NAMES[self.to_move.index()];
        let foe_name = COLOUR_NAMES[self.to_move.other().index()];
        let (terminal, partner) = match *mv {
            Move::Pass => {
                return match self.first_swap() {
                    Some(swap) => refuse(format!(
                        "{name} has a legal swap ({swap}) and may pass only when no swap is possible"
                    )),
                    None => Ok(()),
                };
            }
            Move::Swap { terminal, partner } => (terminal, partner),
        };
        let square = self.board.square();
        let n = square.size();
        for cell in [terminal, partner] {
            if !square.contains(cell) {
                return refuse(format!("{cell} is off the {n}x{n} board"));
            }
        }
        if terminal == partner {
            return refuse(format!(
                "both cells are {terminal}: a swap exchanges two pieces"
            ));
        }
        let (p, q) = (square.slot(terminal), square.slot(partner));
        if self.board.get(p) != Stone::of(self.to_move) {
            return refuse(format!(
                "{terminal} holds a {foe_name} piece: {name} swaps one of {name}'s own terminal pieces"
            ));
        }
        if self.board.get(q) != Stone::of(self.to_move.other()) {
            return refuse(format!(
                "{partner} holds a {name} piece: {name}'s terminal piece swaps with a {foe_name} piece"
            ));
        }
        if !self.nets.is_terminal(p) {
            return refuse(format!(
                "{terminal} is not a terminal piece: it has {} {name} neighbours (a terminal piece has at most one)",
                self.nets.same(p)
            ));
        }
        if !self.networks_touch(p, q) {
            return refuse(format!(
                "{partner} is not in a {foe_name} network adjacent to the network of {terminal}"
            ));
        }
        match self.swap_fault(p, q) {
            Some(fault) => refuse(self.describe_fault(fault)),
            None => Ok(()),
        }
    }

    fn play_unchecked(&mut self, mv: &Move) {
        match *mv {
            Move::Swap { terminal, partner } => {
                let square = self.board.square();
                let (p, q) = (square.slot(terminal), square.slot(partner));
                self.board.set(p, Stone::of(self.to_move.other()));
                self.board.set(q, Stone::of(self.to_move));
                self.nets.after_swap(&self.board, p, q);
                self.passes = 0;
                self.last_swapper = Some(self.to_move);
            }
            Move::Pass => self.passes = (self.passes + 1).min(2),
        }
        self.to_move = self.to_move.other();
    }

    /// Reads `a6-d5` or `pass`. The two cells may come in either order: the one holding the
    /// mover's piece is the terminal. (If neither or both do, the order is kept and
    /// [`Game::check_move`] says what is wrong.)
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if text == "pass" {
            return Ok(Move::Pass);
        }
        let Some((a, b)) = text.split_once('-') else {
            return Err(MoveError::unreadable(
                text,
                "a Rapid Transit move is two cells joined by '-' (like a6-d5), or pass",
            ));
        };
        let square = self.board.square();
        let n = square.size();
        let mut cells = [Cell::new(0, 0); 2];
        for (slot, part) in cells.iter_mut().zip([a, b]) {
            let cell: Cell = part.parse().map_err(|e| MoveError::unreadable(text, e))?;
            if !square.contains(cell) {
                return Err(MoveError::unreadable(
                    text,
                    format!("{cell} is off the {n}x{n} board"),
                ));
            }
            *slot = cell;
        }
        let [a, b] = cells;
        if a == b {
            return Err(MoveError::unreadable(
                text,
                format!("both cells are {a}: a swap exchanges two pieces"),
            ));
        }
        let mover = Stone::of(self.to_move);
        Ok(if self.board.at(a) != mover && self.board.at(b) == mover {
            Move::Swap {
                terminal: b,
                partner: a,
            }
        } else {
            Move::Swap {
                terminal: a,
                partner: b,
            }
        })
    }

    fn zobrist(&self) -> u64 {
        let mut hash = self.board.hash();
        if self.to_move == Player::Second {
            hash ^= zobrist::second_to_move();
        }
        if self.passes > 0 {
            hash ^= zobrist::field(usize::from(self.passes) - 1);
        }
        if let Some(p) = self.last_swapper {
            hash ^= zobrist::field(2 + p.index());
        }
        hash
    }

    fn view(&self) -> BoardView {
        let square = self.board.square();
        let mut marks = Vec::new();
        for cell in square.cells() {
            let s = square.slot(cell);
            if self.nets.is_terminal(s) {
                marks.push((cell, CellMark::Terminal));
            }
            if self.nets.cornered(s) != 0 {
                marks.push((cell, CellMark::Cornered));
            }
        }
        let mut notes = Vec::new();
        for player in Player::BOTH {
            let sizes = self.network_sizes(player);
            let list: Vec<String> = sizes.iter().map(usize::to_string).collect();
            notes.push(format!(
                "{} networks ({}), largest first: {}",
                COLOUR_NAMES[player.index()],
                sizes.len(),
                list.join(" ")
            ));
        }
        let [red_t, cyan_t] = Player::BOTH.map(|p| self.terminals(p).len());
        notes.push(format!("terminal pieces (^): Red {red_t}, Cyan {cyan_t}"));
        let [red_c, cyan_c] = Player::BOTH.map(|p| {
            self.cornered(p)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
        });
        notes.push(format!(
            "cornered pieces: Red {} ({}), Cyan {} ({})",
            red_c.len(),
            red_c.join(" "),
            cyan_c.len(),
            cyan_c.join(" ")
        ));
        notes.push(format!(
            "passes in a row: {}; last to swap: {}",
            self.passes,
            self.last_swapper
                .map_or("nobody", |p| COLOUR_NAMES[p.index()])
        ));
        if let Some(verdict) = self.verdict() {
            let result = match verdict.outcome {
                Outcome::Win(p) => format!("{} wins", COLOUR_NAMES[p.index()]),
                Outcome::Draw => "drawn".to_string(),
            };
            notes.push(format!(
                "game over (both players passed): {result}: {}",
                verdict.reason
            ));
        }
        BoardView {
            title: Self::TITLE.to_string(),
            size: square.size(),
            cells: self.board.owners(),
            letters: LETTERS,
            names: COLOUR_NAMES,
            sides: [SideOwner::None; 2],
            marks,
            to_move: self.to_move,
            outcome: self.outcome(),
            notes,
        }
    }

    /// Uniform over the legal moves, with one random number and no allocation: each
    /// network's swaps are counted (by multiplication, see `swap_count_in`), then only the
    /// network holding the drawn one is listed.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        if self.passes >= 2 {
            return None;
        }
        let count = self.swap_count();
        if count == 0 {
            return Some(Move::Pass);
        }
        let mut pick = rng.random_range(0..count);
        let mut chosen = None;
        let _ = self.for_each_reach(|reach| {
            let here = self.swap_count_in(reach);
            if pick >= here {
                pick -= here;
                return ControlFlow::Continue(());
            }
            self.for_each_swap_in(reach, &mut |p, q| {
                if pick == 0 {
                    chosen = Some(Move::Swap {
                        terminal: self.cell(p),
                        partner: self.cell(q),
                    });
                    return ControlFlow::Break(());
                }
                pick -= 1;
                ControlFlow::Continue(())
            })
        });
        chosen
    }

    /// For playouts cut short (games can cycle): the tie-break read as a score. The first
    /// difference of the sorted network sizes decides, by a margin that saturates at 8
    /// pieces; identical sizes score 0.5.
    fn evaluation(&self) -> Option<f32> {
        let first = self.network_sizes(Player::First);
        let second = self.network_sizes(Player::Second);
        let diff = first
            .iter()
            .zip(&second)
            .find(|(a, b)| a != b)
            .map_or(0.0, |(&a, &b)| a as f32 - b as f32);
        Some(0.5 + 0.5 * (diff / 8.0).clamp(-1.0, 1.0))
    }

    fn move_count(&self) -> u64 {
        if self.passes >= 2 {
            return 0;
        }
        self.swap_count().max(1)
    }

    /// Swaps, and the long-range ones among them (the two pieces do not touch).
    fn rule_events(&self, mv: &Move, event: &mut dyn FnMut(&'static str, u64)) {
        if let Move::Swap { terminal, partner } = *mv {
            event("swaps", 1);
            event(
                "long-range swaps",
                u64::from(!terminal.is_orthogonal(partner)),
            );
        }
    }
}

whole_turns!(RapidTransit);
swapboard_core::serde_as_text!(RapidTransit);

impl PartialEq for RapidTransit {
    fn eq(&self, other: &RapidTransit) -> bool {
        self.board == other.board
            && self.to_move == other.to_move
            && self.passes == other.passes
            && self.last_swapper == other.last_swapper
    }
}

impl Eq for RapidTransit {}

impl Hash for RapidTransit {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.zobrist());
    }
}

impl fmt::Display for RapidTransit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            Self::ID,
            self.board.rows_text(LETTERS),
            LETTERS[self.to_move.index()],
            self.passes,
            self.last_swapper.map_or('-', |p| LETTERS[p.index()])
        )
    }
}

impl fmt::Debug for RapidTransit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for RapidTransit {
    type Err = PositionError;

    /// Reads a position text, refusing any position no game reaches: a board that is not
    /// full, unequal piece counts, a 2 x 2 block of one colour, a last swapper that does not
    /// fit the turn order, or a pass by a player who had a swap.
    fn from_str(s: &str) -> Result<RapidTransit, PositionError> {
        let fields = text::fields(s, Self::ID, 5)?;
        let rows = fields[1].split('/').count();
        variant_square(rows)
            .map_err(|e| PositionError::new(format!("the board has {rows} rows: {e}")))?;
        let board = StoneBoard::parse_rows(fields[1], LETTERS, Self::sizes())?;
        let to_move = text::player(fields[2], LETTERS)?;
        let passes = match fields[3] {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            other => {
                return Err(PositionError::new(format!(
                    "the passes field is '{other}', expected 0, 1 or 2 (passes made in a row just before this position)"
                )));
            }
        };
        let last_swapper = match fields[4] {
            "-" => None,
            "R" => Some(Player::First),
            "C" => Some(Player::Second),
            other => {
                return Err(PositionError::new(format!(
                    "the last swapper field is '{other}', expected R, C or - (nobody has swapped)"
                )));
            }
        };
        // The derived tables are built only for a full board with equal counts (the
        // flood's bounds rely on it), so these are checked on the bare board first.
        let square = board.square();
        let n = square.size();
        if let Some(cell) = square.cells().find(|&c| board.at(c) == Stone::Empty) {
            return Err(PositionError::new(format!(
                "{cell} is empty: a Rapid Transit board is always full"
            )));
        }
        let (red, cyan) = (board.count(Player::First), board.count(Player::Second));
        if red != cyan {
            return Err(PositionError::new(format!(
                "Red has {red} pieces and Cyan {cyan}: the game starts with {} each and a swap keeps them",
                n * n / 2
            )));
        }
        let position = RapidTransit::from_parts(board, to_move, passes, last_swapper);
        position.check_reachable()?;
        Ok(position)
    }
}
