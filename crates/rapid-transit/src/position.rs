use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{ControlFlow, RangeInclusive};
use std::str::FromStr;

use rand::Rng;
use swapboard_core::{
    BoardView, CellMark, Game, IllegalMove, MoveError, Outcome, Player, PositionError, Rule,
    SideOwner, Stone, StoneBoard, text, whole_turns, zobrist,
};
use swapboard_grid::{Cell, CellSet, Square};

use crate::kept::{Fault, Tables};
use crate::{COLOUR_NAMES, LETTERS, RapidTransitMove, Verdict, decide};

/// The smallest board of the size variant.
const MIN_SIZE: usize = 4;
/// The largest board of the size variant (the kept tables are sized for it).
const MAX_SIZE: usize = 16;

/// A Rapid Transit position: the full board, the player to move, the passes made in a row
/// just before it, and the last player to swap (which breaks a tie of network sizes).
///
/// The position text is `rapid-transit <rows> <to-move> <passes> <last swapper or ->`, e.g.
/// the start `rapid-transit CRCRCRCR/.../RCRCRCRC R 0 -`. Only these four fields make the
/// position: equality and hashing ignore the derived tables (whose network labels depend on
/// the path that led here).
#[derive(Clone)]
pub struct RapidTransit {
    board: StoneBoard,
    to_move: Player,
    passes: u8,
    last_swapper: Option<Player>,
    tables: Tables,
}

/// The board side as a variant size, or why it is not one.
fn variant_square(size: usize) -> Result<Square, PositionError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(PositionError::bad_size(format!(
            "Rapid Transit is played on 8x8 (even sizes {MIN_SIZE} to {MAX_SIZE} as a variant), not {size}x{size}"
        )));
    }
    if !size.is_multiple_of(2) {
        return Err(PositionError::bad_size(format!(
            "Rapid Transit needs an even board side (even sizes {MIN_SIZE} to {MAX_SIZE}): on {size}x{size} the checkerboard start would not give both players the same number of pieces"
        )));
    }
    Square::new(size).map_err(|e| PositionError::bad_size(e.to_string()))
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
        let n = board.size();
        let tables = Tables::new(n, |i| board.at(cell_of(n, i)) == Stone::First);
        RapidTransit {
            board,
            to_move,
            passes,
            last_swapper,
            tables,
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
        self.tables.network_sizes(player)
    }

    /// The size of the network through `cell` (which must be on the board).
    pub fn network_size_at(&self, cell: Cell) -> usize {
        self.tables.network_size_at(self.index(cell))
    }

    /// `player`'s terminal pieces: at most one like-coloured orthogonal neighbour.
    pub fn terminals(&self, player: Player) -> CellSet {
        self.cell_set(self.tables.terminals(player))
    }

    /// `player`'s cornered pieces: in some 2 x 2 block whose other three pieces are the
    /// opponent's. (Defined by the sheet, used by no rule; a swap may never move a piece out
    /// of such a block, since that would fill the block with one colour.)
    pub fn cornered(&self, player: Player) -> CellSet {
        self.cell_set(self.tables.cornered(player))
    }

    /// The pieces of `player`'s largest networks: every network of the largest size, so
    /// both when two tie.
    pub fn largest_networks(&self, player: Player) -> CellSet {
        self.cell_set(self.tables.largest_networks(player))
    }

    /// Every pair of orthogonally adjacent like pieces, each once, the left or lower cell
    /// first, in cell order.
    pub fn links(&self) -> Vec<(Cell, Cell)> {
        let n = self.board.size();
        let owners = self.board.owners();
        let mut links = Vec::new();
        for cell in self.board.square().cells() {
            let i = self.index(cell);
            let (col, row) = (usize::from(cell.col()), usize::from(cell.row()));
            // The right neighbour, then the upper one.
            for (next, on_board) in [(i + 1, col + 1 < n), (i + n, row + 1 < n)] {
                if on_board && owners[i].is_some() && owners[i] == owners[next] {
                    links.push((cell, self.cell(next)));
                }
            }
        }
        links
    }

    fn cell_set(&self, cells: Vec<usize>) -> CellSet {
        cells.into_iter().map(|i| self.cell(i)).collect()
    }

    /// The result and its reason once both players have passed in a row.
    pub fn verdict(&self) -> Option<Verdict> {
        (self.passes >= 2).then(|| {
            let first = self.network_sizes(Player::First);
            let second = self.network_sizes(Player::Second);
            decide([&first, &second], self.last_swapper)
        })
    }

    /// The kept tables' index of a cell on the board.
    #[inline]
    fn index(&self, cell: Cell) -> usize {
        usize::from(cell.row()) * self.board.size() + usize::from(cell.col())
    }

    /// The cell of a kept tables' index.
    #[inline]
    fn cell(&self, index: usize) -> Cell {
        cell_of(self.board.size(), index)
    }

    /// The swap of the mover's piece on index `p` with the opponent's on `q`.
    #[inline]
    fn swap_move(&self, (p, q): (usize, usize)) -> RapidTransitMove {
        RapidTransitMove::Swap {
            terminal: self.cell(p),
            partner: self.cell(q),
        }
    }

    fn first_swap(&self) -> Option<RapidTransitMove> {
        let mut found = None;
        let _ = self.tables.for_each_swap(self.to_move, |p, q| {
            found = Some((p, q));
            ControlFlow::Break(())
        });
        found.map(|swap| self.swap_move(swap))
    }

    fn describe_fault(&self, fault: Fault) -> IllegalMove {
        match fault {
            Fault::Block { cells, colour } => {
                let mut cells = cells.map(|i| self.cell(i));
                cells.sort();
                let names: Vec<String> = cells.iter().map(Cell::to_string).collect();
                IllegalMove::new(
                    Rule::BlockFormed,
                    format!(
                        "the swap would fill the 2x2 block {} with {} (no 2x2 block of one colour may be formed)",
                        names.join(", "),
                        COLOUR_NAMES[colour.index()]
                    ),
                )
            }
            Fault::Lonely {
                cell,
                colour,
                friends,
            } => IllegalMove::new(
                Rule::TooFewNeighbours,
                format!(
                    "after the swap {name}'s piece on {cell} would have {friends} {name} neighbour{s}; both moved pieces need at least two friendly neighbours",
                    name = COLOUR_NAMES[colour.index()],
                    cell = self.cell(cell),
                    s = if friends == 1 { "" } else { "s" }
                ),
            ),
        }
    }

    /// The cell of a mailbox slot of the board.
    fn slot_cell(&self, slot: usize) -> Cell {
        self.board
            .square()
            .cell_at(slot)
            .expect("a slot of a piece lies on the board")
    }

    fn check_reachable(&self) -> Result<(), PositionError> {
        let square = self.board.square();
        for block in square.blocks() {
            let [a, b, c, d] = square.block(block);
            let stone = self.board.get(a);
            if [b, c, d].iter().all(|&s| self.board.get(s) == stone) {
                let player = stone.player().expect("the board is full");
                return Err(PositionError::unreachable(format!(
                    "the 2x2 block {}, {}, {}, {} is all {}: no swap can form such a block",
                    self.slot_cell(a),
                    self.slot_cell(c),
                    self.slot_cell(b),
                    self.slot_cell(d),
                    COLOUR_NAMES[player.index()]
                )));
            }
        }
        match self.last_swapper {
            None => {
                if let Some(cell) = square.cells().find(|&c| self.board.at(c) != start_stone(c)) {
                    return Err(PositionError::unreachable(format!(
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
                    return Err(PositionError::unreachable(format!(
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
                return Err(PositionError::unreachable(format!(
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

/// The cell of index `row * n + col`.
#[inline]
fn cell_of(n: usize, index: usize) -> Cell {
    Cell::new((index % n) as u8, (index / n) as u8)
}

impl Game for RapidTransit {
    type Move = RapidTransitMove;

    const ID: &'static str = "rapid-transit";
    const TITLE: &'static str = "Rapid Transit by Phil Leduc (2022/2024)";
    const DEFAULT_SIZE: usize = 8;
    /// Measured against uniform playouts in `docs/AI.md` ("Playouts that choose").
    const PLAYOUT_DRAWS: u32 = 3;

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

    fn for_each_move<F: FnMut(RapidTransitMove) -> ControlFlow<()>>(
        &self,
        mut f: F,
    ) -> ControlFlow<()> {
        if self.passes >= 2 {
            return ControlFlow::Continue(());
        }
        let mut any = false;
        self.tables.for_each_swap(self.to_move, |p, q| {
            any = true;
            f(self.swap_move((p, q)))
        })?;
        if any {
            ControlFlow::Continue(())
        } else {
            f(RapidTransitMove::Pass)
        }
    }

    fn is_pass(mv: &RapidTransitMove) -> bool {
        matches!(mv, RapidTransitMove::Pass)
    }

    fn check_move(&self, mv: &RapidTransitMove) -> Result<(), IllegalMove> {
        let refuse = |rule, why: String| Err(IllegalMove::new(rule, why));
        if self.passes >= 2 {
            return refuse(
                Rule::GameOver,
                "the game is over: both players passed in a row".into(),
            );
        }
        let name = COLOUR_NAMES[self.to_move.index()];
        let foe_name = COLOUR_NAMES[self.to_move.other().index()];
        let (terminal, partner) = match *mv {
            RapidTransitMove::Pass => {
                return match self.first_swap() {
                    Some(swap) => refuse(
                        Rule::PassNotAllowed,
                        format!(
                            "{name} has a legal swap ({swap}) and may pass only when no swap is possible"
                        ),
                    ),
                    None => Ok(()),
                };
            }
            RapidTransitMove::Swap { terminal, partner } => (terminal, partner),
        };
        let square = self.board.square();
        if let Some(off) = IllegalMove::off_board(square, [terminal, partner]) {
            return Err(off);
        }
        if terminal == partner {
            return refuse(
                Rule::SwapPieces,
                format!("both cells are {terminal}: a swap exchanges two pieces"),
            );
        }
        if self.board.at(terminal) != Stone::of(self.to_move) {
            return refuse(
                Rule::SwapPieces,
                format!(
                    "{terminal} holds a {foe_name} piece: {name} swaps one of {name}'s own terminal pieces"
                ),
            );
        }
        if self.board.at(partner) != Stone::of(self.to_move.other()) {
            return refuse(
                Rule::SwapPieces,
                format!(
                    "{partner} holds a {name} piece: {name}'s terminal piece swaps with a {foe_name} piece"
                ),
            );
        }
        let (p, q) = (self.index(terminal), self.index(partner));
        let friends = self.tables.friends(p);
        if friends > 1 {
            return refuse(
                Rule::NotTerminal,
                format!(
                    "{terminal} is not a terminal piece: it has {friends} {name} neighbours (a terminal piece has at most one)"
                ),
            );
        }
        if !self.tables.networks_touch(p, q) {
            return refuse(
                Rule::NetworksNotAdjacent,
                format!(
                    "{partner} is not in a {foe_name} network adjacent to the network of {terminal}"
                ),
            );
        }
        match self.tables.swap_fault(self.to_move, p, q) {
            Some(fault) => Err(self.describe_fault(fault)),
            None => Ok(()),
        }
    }

    fn play_unchecked(&mut self, mv: &RapidTransitMove) {
        match *mv {
            RapidTransitMove::Swap { terminal, partner } => {
                let square = self.board.square();
                self.board
                    .set(square.slot(terminal), Stone::of(self.to_move.other()));
                self.board
                    .set(square.slot(partner), Stone::of(self.to_move));
                self.tables.swap(self.index(terminal), self.index(partner));
                self.passes = 0;
                self.last_swapper = Some(self.to_move);
            }
            RapidTransitMove::Pass => self.passes = (self.passes + 1).min(2),
        }
        self.to_move = self.to_move.other();
    }

    /// Reads `a6-d5` or `pass`. The two cells may come in either order: the one holding the
    /// mover's piece is the terminal. (If neither or both do, the order is kept and
    /// [`Game::check_move`] says what is wrong.)
    fn parse_move(&self, text: &str) -> Result<RapidTransitMove, MoveError> {
        if text == "pass" {
            return Ok(RapidTransitMove::Pass);
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
            RapidTransitMove::Swap {
                terminal: b,
                partner: a,
            }
        } else {
            RapidTransitMove::Swap {
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
        let terminals = self
            .terminals(Player::First)
            .union(&self.terminals(Player::Second));
        let cornered = self
            .cornered(Player::First)
            .union(&self.cornered(Player::Second));
        let mut marks = Vec::new();
        for cell in square.cells() {
            if terminals.contains(cell) {
                marks.push((cell, CellMark::Terminal));
            }
            if cornered.contains(cell) {
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
            names: COLOUR_NAMES.map(std::borrow::Cow::Borrowed),
            sides: [SideOwner::None; 2],
            marks,
            to_move: self.to_move,
            outcome: self.outcome(),
            notes,
            // Rapid Transit is won by the largest network, not by a connection.
            winning: Vec::new(),
            links: self.links(),
            outlined: self
                .largest_networks(Player::First)
                .union(&self.largest_networks(Player::Second))
                .iter()
                .collect(),
        }
    }

    /// Uniform over the legal moves (`pass` when it is the only one), with one random
    /// number, one scan and no allocation: the swaps are counted (far pairs by
    /// multiplication, near pairs bit-parallel, see `kept.rs`), then the drawn rank is
    /// located by counting again, never by listing.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<RapidTransitMove> {
        if self.passes >= 2 {
            return None;
        }
        Some(
            self.tables
                .random_swap(self.to_move, rng)
                .map_or(RapidTransitMove::Pass, |swap| self.swap_move(swap)),
        )
    }

    /// The default's choice from the same random numbers, drawn from one scan of the
    /// board: every draw counts the same swaps, so only the ranks are located again.
    fn best_playout_move<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        draws: u32,
    ) -> Option<RapidTransitMove> {
        if self.passes >= 2 {
            return None;
        }
        let mut best = RapidTransitMove::Pass;
        let mut best_score = f32::NEG_INFINITY;
        // At least one draw, as the default always makes.
        self.tables
            .drawn_swaps(self.to_move, rng, draws.max(1), |p, q| {
                let mv = self.swap_move((p, q));
                let score = self.playout_score(&mv);
                if score > best_score {
                    (best, best_score) = (mv, score);
                }
            });
        Some(best)
    }

    /// A swap scores the size of the network its mover's piece forms: playouts that merge
    /// networks play more like players, who grow their largest. A pass scores 0.
    fn playout_score(&self, mv: &RapidTransitMove) -> f32 {
        match *mv {
            RapidTransitMove::Swap { terminal, partner } => self
                .tables
                .formed_network(self.index(terminal), self.index(partner))
                as f32,
            RapidTransitMove::Pass => 0.0,
        }
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
        self.tables.swap_count(self.to_move).max(1)
    }

    /// Swaps, and the long-range ones among them (the two pieces do not touch).
    fn rule_events(&self, mv: &RapidTransitMove, event: &mut dyn FnMut(&'static str, u64)) {
        if let RapidTransitMove::Swap { terminal, partner } = *mv {
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
            .map_err(|e| PositionError::bad_size(format!("the board has {rows} rows: {e}")))?;
        let board = StoneBoard::parse_rows(fields[1], LETTERS, Self::sizes())?;
        let to_move = text::player(fields[2], LETTERS)?;
        let passes = match fields[3] {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            other => {
                return Err(PositionError::unreadable(format!(
                    "the passes field is '{other}', expected 0, 1 or 2 (passes made in a row just before this position)"
                )));
            }
        };
        let last_swapper = match fields[4] {
            "-" => None,
            "R" => Some(Player::First),
            "C" => Some(Player::Second),
            other => {
                return Err(PositionError::unreadable(format!(
                    "the last swapper field is '{other}', expected R, C or - (nobody has swapped)"
                )));
            }
        };
        // The derived tables are built only for a full board with equal counts (the
        // flood's bounds rely on it), so these are checked on the bare board first.
        let square = board.square();
        let n = square.size();
        if let Some(cell) = square.cells().find(|&c| board.at(c) == Stone::Empty) {
            return Err(PositionError::unreachable(format!(
                "{cell} is empty: a Rapid Transit board is always full"
            )));
        }
        let (red, cyan) = (board.count(Player::First), board.count(Player::Second));
        if red != cyan {
            return Err(PositionError::unreachable(format!(
                "Red has {red} pieces and Cyan {cyan}: the game starts with {} each and a swap keeps them",
                n * n / 2
            )));
        }
        let position = RapidTransit::from_parts(board, to_move, passes, last_swapper);
        position.check_reachable()?;
        Ok(position)
    }
}
