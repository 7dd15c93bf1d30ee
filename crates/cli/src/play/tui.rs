//! The full-screen board (ratatui): coordinates, each player's sides, the last move and what
//! it changed highlighted, moves typed or built by cursor and mouse with live validation,
//! undo, resign and hints.

use std::time::Duration;

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};
use swapboard_core::{BoardView, CellMark, Player, SideOwner};
use swapboard_grid::Cell;

use swapboard_play::{Draft, Opponent, Playable, Seat, Selection, Table, seat_name};

use super::{Keeper, Stopwatch};
use crate::error::CliError;

/// How long the AI's moves stay on screen when it plays both sides.
const WATCH_PAUSE: Duration = Duration::from_millis(600);

/// The screen colour of a colour letter.
fn colour(letter: char) -> Color {
    match letter {
        'R' => Color::LightRed,
        'B' => Color::LightBlue,
        'C' => Color::LightCyan,
        _ => Color::White,
    }
}

/// The state of the screen around the table.
struct App<'k, G: Playable> {
    table: Table<G>,
    ai: Opponent<G>,
    clock: Stopwatch,
    keeper: &'k Keeper,
    /// An earlier ply being looked at (the board and move list show it), or `None` for the
    /// current position.
    viewing: Option<usize>,
    cursor: Cell,
    /// Cells of the move being built, in the order chosen.
    selection: Selection,
    draft: Draft<G::Move>,
    /// The line being typed.
    input: String,
    /// The last message, and whether it is a refusal.
    message: (String, bool),
    /// Where the board's cell a1 is on screen, and the board's area (for the mouse).
    origin: (u16, u16),
    quit: bool,
}

impl<'k, G: Playable> App<'k, G> {
    fn new(table: Table<G>, ai: Opponent<G>, keeper: &'k Keeper) -> App<'k, G> {
        let n = table.position().size() as u8;
        let draft = table.position().draft(&Selection::default());
        App {
            table,
            ai,
            clock: Stopwatch::start(),
            keeper,
            viewing: None,
            cursor: Cell::new(n / 2, n / 2),
            selection: Selection::default(),
            draft,
            input: String::new(),
            message: (String::new(), false),
            origin: (0, 0),
            quit: false,
        }
    }

    fn tell(&mut self, text: impl Into<String>) {
        self.message = (text.into(), false);
    }

    fn refuse(&mut self, text: impl Into<String>) {
        self.message = (text.into(), true);
    }

    fn clear_draft(&mut self) {
        self.selection = Selection::default();
        self.draft = self.table.position().draft(&self.selection);
    }

    fn after_move(&mut self) {
        // The side panel shows what the move did: no message needed.
        self.clear_draft();
        self.viewing = None;
        self.tell("");
        self.keep();
    }

    /// Writes the record; a failure is shown, and the game goes on.
    fn keep(&mut self) {
        if let Err(e) = self.keeper.keep(&self.table) {
            self.refuse(format!("the record could not be written: {e}"));
        }
    }

    fn play(&mut self, mv: &G::Move) {
        match self.table.play_move(self.table.ply(), mv, self.clock.now()) {
            Ok(()) => self.after_move(),
            Err(reason) => self.refuse(reason.to_string()),
        }
    }

    fn ai_move(&mut self) {
        match self.ai.play(&mut self.table, self.clock.now()) {
            Ok(_) => self.after_move(),
            Err(reason) => self.refuse(format!("the AI's move: {reason}")),
        }
    }

    fn resign(&mut self) {
        let mover = self.table.position().to_move();
        match self.table.resign(mover) {
            Ok(_) => self.keep(),
            Err(e) => self.refuse(e.to_string()),
        }
    }

    /// Looks `by` plies back (negative) or forward from the ply being viewed.
    fn browse(&mut self, by: isize) {
        let last = self.table.ply();
        let at = self
            .viewing
            .unwrap_or(last)
            .saturating_add_signed(by)
            .min(last);
        self.viewing = (at < last).then_some(at);
    }

    /// Adds a cell to the move being built (or takes it, and what followed it, back).
    fn choose(&mut self, cell: Cell) {
        if self.table.ending().is_some() || self.table.ai_to_move() || self.viewing.is_some() {
            return;
        }
        if let Some(i) = self.selection.cells.iter().position(|&c| c == cell) {
            self.selection.cells.truncate(i);
            if self.selection.split.is_some_and(|k| k > i) {
                self.selection.split = None;
            }
            self.draft = self.table.position().draft(&self.selection);
            self.tell(format!("{cell} taken back"));
            return;
        }
        let selection = self.selection.with(cell);
        let draft = self.table.position().draft(&selection);
        if let Some(reason) = draft.refusal() {
            self.refuse(format!("{cell}: {reason}"));
            return;
        }
        match (draft.ready(), draft.more) {
            (Some(mv), false) => {
                let mv = mv.clone();
                self.play(&mv);
            }
            _ => {
                self.tell("");
                self.selection = selection;
                self.draft = draft;
            }
        }
    }

    fn command(&mut self, text: &str) {
        match text {
            "quit" => self.quit = true,
            "undo" => self.undo(),
            "resign" => self.resign(),
            "position" => self.tell(self.table.position().to_string()),
            "hint" => self.hint(),
            _ => match self.table.play(self.table.ply(), text, self.clock.now()) {
                Ok(_) => self.after_move(),
                // A lone cell that starts a longer move (a Swaptimum placement forming a
                // crosscut) opens the next step, as a click would.
                Err(reason) => match text.to_ascii_lowercase().parse() {
                    Ok(cell)
                        if self.selection.cells.is_empty()
                            && self
                                .table
                                .position()
                                .draft(&Selection::default().with(cell))
                                .more =>
                    {
                        self.choose(cell);
                    }
                    _ => self.refuse(reason.to_string()),
                },
            },
        }
    }

    fn undo(&mut self) {
        self.viewing = None;
        match self.table.undo_turn() {
            Ok(taken) => {
                self.clear_draft();
                self.tell(format!("took back {taken} plies"));
                self.keep();
            }
            Err(e) => self.refuse(e.to_string()),
        }
    }

    fn hint(&mut self) {
        match self.ai.hint(&self.table) {
            Some(mv) => self.tell(format!("hint: {mv}")),
            None => self.tell("no hint: the game is over"),
        }
    }

    fn key(&mut self, key: KeyEvent) {
        let n = self.table.position().size() as u8;
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let (col, row) = (self.cursor.col(), self.cursor.row());
        match key.code {
            KeyCode::Char('c' | 'q') if ctrl => self.quit = true,
            KeyCode::Char('z') if ctrl => self.undo(),
            KeyCode::Char('r') if ctrl => self.resign(),
            KeyCode::Char('q') if self.table.ending().is_some() && self.input.is_empty() => {
                self.quit = true;
            }
            KeyCode::Tab => self.hint(),
            KeyCode::PageUp => self.browse(-1),
            KeyCode::PageDown => self.browse(1),
            KeyCode::Home => self.viewing = Some(0),
            KeyCode::End => self.viewing = None,
            KeyCode::Left => self.cursor = Cell::new(col.saturating_sub(1), row),
            KeyCode::Right => self.cursor = Cell::new((col + 1).min(n - 1), row),
            KeyCode::Up => self.cursor = Cell::new(col, (row + 1).min(n - 1)),
            KeyCode::Down => self.cursor = Cell::new(col, row.saturating_sub(1)),
            KeyCode::Esc => {
                self.input.clear();
                self.clear_draft();
                self.tell("");
            }
            KeyCode::Backspace => {
                if self.input.pop().is_none()
                    && let Some(&last) = self.selection.cells.last()
                {
                    self.choose(last);
                }
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.input);
                let text = text.trim();
                if !text.is_empty() {
                    self.command(text);
                } else if let Some(mv) = self.draft.ready().cloned() {
                    self.play(&mv);
                } else {
                    self.choose(self.cursor);
                }
            }
            KeyCode::Char(' ') if self.input.is_empty() => self.choose(self.cursor),
            KeyCode::Char('+') if self.input.is_empty() && self.selection.end_growth() => {
                self.draft = self.table.position().draft(&self.selection);
                self.tell("now choose the new group's cell");
            }
            KeyCode::Char(c) if !ctrl => self.input.push(c),
            _ => {}
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        let n = self.table.position().size() as u16;
        let (ox, oy) = self.origin;
        if x < ox || y < oy || (x - ox) / 3 >= n || y - oy >= n {
            return;
        }
        let cell = Cell::new(((x - ox) / 3) as u8, (n - 1 - (y - oy)) as u8);
        self.cursor = cell;
        self.choose(cell);
    }

    fn draw(&mut self, frame: &mut Frame<'_>) {
        let view = match self.viewing {
            Some(ply) => self.table.view_at(ply).unwrap_or_else(|| self.table.view()),
            None => self.table.view(),
        };
        let n = view.size as u16;
        let board_width = (3 * n + 10).max(48);
        let [board_area, side_area] =
            Layout::horizontal([Constraint::Length(board_width), Constraint::Min(30)])
                .areas(frame.area());
        let [board_area, input_area] =
            Layout::vertical([Constraint::Min(n + 6), Constraint::Length(3)]).areas(board_area);
        self.draw_board(frame, board_area, &view);
        self.draw_side(frame, side_area, &view);
        let input = Paragraph::new(format!("{}_", self.input))
            .block(Block::bordered().title(" type a move or undo / hint / resign / quit "));
        frame.render_widget(input, input_area);
    }

    fn draw_board(&mut self, frame: &mut Frame<'_>, area: Rect, view: &BoardView) {
        let n = view.size;
        let side_colour = |side: SideOwner| {
            view.sides
                .iter()
                .position(|&s| s == side)
                .map_or(Color::DarkGray, |i| colour(view.letters[i]))
        };
        let (tb, lr) = (
            side_colour(SideOwner::TopBottom),
            side_colour(SideOwner::LeftRight),
        );
        let letters: String = (0..n)
            .map(|c| format!(" {} ", (b'a' + c as u8) as char))
            .collect();
        let edge = Line::from(vec![
            Span::raw("    "),
            Span::styled("▄".repeat(3 * n), Style::new().fg(tb)),
        ]);
        let mut lines = vec![Line::from(format!("    {letters}")), edge];
        for row in (0..n).rev() {
            let mut spans = vec![
                Span::raw(format!("{:>2} ", row + 1)),
                Span::styled("▐", Style::new().fg(lr)),
            ];
            for col in 0..n {
                let cell = Cell::new(col as u8, row as u8);
                spans.push(self.cell_span(view, cell));
            }
            spans.push(Span::styled("▌", Style::new().fg(lr)));
            spans.push(Span::raw(format!(" {}", row + 1)));
            lines.push(Line::from(spans));
        }
        lines.push(Line::from(vec![
            Span::raw("    "),
            Span::styled("▀".repeat(3 * n), Style::new().fg(tb)),
        ]));
        lines.push(Line::from(format!("    {letters}")));
        let block = Block::bordered().title(format!(" {} ", view.title));
        // The cells start after the border, the row number and the side bar.
        self.origin = (area.x + 1 + 4, area.y + 1 + 2);
        frame.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn cell_span(&self, view: &BoardView, cell: Cell) -> Span<'static> {
        // A chosen empty cell is where the mover's new stone goes (a placement waiting for
        // its swap, a growth being built): show it as the mover's already.
        let owner = view
            .owner(cell)
            .or_else(|| self.selection.contains(cell).then_some(view.to_move));
        let letter = owner.map_or('·', |p| view.letters[p.index()]);
        let mut style = match owner {
            Some(p) => Style::new()
                .fg(colour(view.letters[p.index()]))
                .add_modifier(Modifier::BOLD),
            None => Style::new().fg(Color::DarkGray),
        };
        let marks: Vec<CellMark> = view.marks_on(cell).collect();
        if marks.contains(&CellMark::Replaced) {
            style = style.bg(Color::Rgb(0, 90, 0));
        } else if marks.contains(&CellMark::Swapped) {
            style = style.bg(Color::Rgb(90, 0, 90));
        } else if marks.contains(&CellMark::Placed) {
            style = style.bg(Color::Rgb(90, 75, 0));
        }
        if marks.contains(&CellMark::Terminal) {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        if self.draft.next.contains(&cell) {
            style = style.bg(Color::Rgb(0, 60, 90));
        }
        if self.selection.contains(cell) {
            style = style.bg(Color::Rgb(200, 170, 0)).fg(Color::Black);
        }
        let text = if cell == self.cursor {
            style = style.add_modifier(Modifier::REVERSED);
            format!("[{letter}]")
        } else {
            format!(" {letter} ")
        };
        Span::styled(text, style)
    }

    fn draw_side(&self, frame: &mut Frame<'_>, area: Rect, view: &BoardView) {
        let pos = self.table.position();
        let mut lines = Vec::new();
        for p in Player::BOTH {
            let letter = G::colour_letter(p);
            let sides = match view.sides[p.index()] {
                SideOwner::TopBottom => "joins top and bottom",
                SideOwner::LeftRight => "joins left and right",
                SideOwner::None => "",
            };
            let who = seat_name(self.table.seat(p));
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{letter} {} ", G::colour_name(p)),
                    Style::new().fg(colour(letter)).add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!("({who}) {sides}")),
            ]));
        }
        lines.push(Line::from(""));
        let status = match self.table.ending_text() {
            Some(ending) => {
                format!("Game over: {ending}. q quits and saves the record; Ctrl-Z takes back.")
            }
            None if self.table.ai_to_move() => {
                format!("{} (AI) is thinking...", G::colour_name(pos.to_move()))
            }
            None => format!("{} to move", G::colour_name(pos.to_move())),
        };
        lines.push(Line::styled(
            status,
            Style::new().add_modifier(Modifier::BOLD),
        ));
        if let Some(ply) = self.viewing {
            lines.push(Line::styled(
                format!(
                    "Viewing the board after ply {ply} of {} (End: back to the game)",
                    self.table.ply()
                ),
                Style::new().fg(Color::Cyan),
            ));
        }
        // The last two moves, so that a person's own move and what it caused stay in view
        // when the AI answers at once.
        let shown_ply = self.viewing.unwrap_or(self.table.ply());
        for k in shown_ply.saturating_sub(2)..shown_ply {
            if let Some(did) = self.table.describe(k) {
                lines.push(Line::from(format!("{}. {did}", k + 1)));
            }
        }
        if !self.selection.cells.is_empty() {
            lines.push(Line::from(format!("Building: {}", self.selection)));
        }
        if self.table.ending().is_none() && !self.table.ai_to_move() && self.viewing.is_none() {
            lines.push(Line::styled(
                self.draft.prompt.clone(),
                Style::new().fg(Color::Yellow),
            ));
        }
        let (text, refusal) = &self.message;
        if !text.is_empty() {
            let colour = if *refusal {
                Color::LightRed
            } else {
                Color::Green
            };
            lines.push(Line::styled(text.clone(), Style::new().fg(colour)));
        }
        for note in &view.notes {
            lines.push(Line::styled(note.clone(), Style::new().fg(Color::Gray)));
        }
        lines.push(Line::from(""));
        // The move list scrolls with the ply being viewed.
        let moves = self.table.moves();
        let end = shown_ply.max(12.min(moves.len()));
        let first = end.saturating_sub(12);
        let recent: Vec<String> = moves[first..end]
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{}. {m}", first + i + 1))
            .collect();
        lines.push(Line::from(format!("Moves: {}", recent.join(" "))));
        lines.push(Line::from(format!("Position: {}", self.table.position())));
        lines.push(Line::from(""));
        for help in [
            "arrows + space/enter, or the mouse: choose cells",
            "enter: play the move built; esc: start again",
            "backspace: take the last cell back",
            "+ (Scware, Red): the balancing move's new group",
            "tab: hint   ctrl-z: undo   ctrl-r: resign   ctrl-q: quit",
            "pgup/pgdn: earlier/later boards   home: the start   end: now",
            "last move: placed (amber), swapped (purple), replaced (green);",
            "next possible cells (blue); underlined: terminal pieces",
        ] {
            lines.push(Line::styled(help, Style::new().fg(Color::DarkGray)));
        }
        let side = Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" game "));
        frame.render_widget(side, area);
    }
}

fn event_loop<G: Playable>(
    terminal: &mut DefaultTerminal,
    app: &mut App<'_, G>,
) -> std::io::Result<()> {
    let watching = Player::BOTH
        .iter()
        .all(|&p| matches!(app.table.seat(p), Seat::Ai(_)));
    while !app.quit {
        terminal.draw(|frame| app.draw(frame))?;
        // A pass the rules force was played by the table itself.
        if app.viewing.is_none() && app.table.ai_to_move() {
            if watching && event::poll(WATCH_PAUSE)? {
                handle(app, event::read()?);
                continue;
            }
            app.ai_move();
            continue;
        }
        handle(app, event::read()?);
    }
    Ok(())
}

fn handle<G: Playable>(app: &mut App<'_, G>, event: Event) {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => app.key(key),
        Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
            app.click(mouse.column, mouse.row);
        }
        _ => {}
    }
}

/// Plays the game full screen until a player quits, keeping the record after every move;
/// returns the table for its record.
pub(super) fn run<G: Playable>(
    table: Table<G>,
    ai: Opponent<G>,
    keeper: &Keeper,
) -> Result<Table<G>, CliError> {
    let mut terminal = ratatui::init();
    let _ = crossterm::execute!(std::io::stdout(), EnableMouseCapture);
    let mut app = App::new(table, ai, keeper);
    let result = event_loop(&mut terminal, &mut app);
    let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result.map_err(|e| CliError::Failure(e.into()))?;
    Ok(app.table)
}

#[cfg(test)]
mod tests {
    use swapboard_ai::Level;
    use swapboard_grid::Cell;
    use swapboard_swaptimum::Swaptimum;

    use swapboard_play::{Millis, Opponent, Seat, Table, TimeControl, UndoPolicy};

    use super::App;
    use crate::play::Keeper;

    /// Writes no record.
    static NO_RECORD: Keeper = Keeper { path: None };

    /// The screen of a game of two people from `pos`.
    fn two_people(pos: Swaptimum) -> App<'static, Swaptimum> {
        let people = [Seat::Person("ann".into()), Seat::Person("bob".into())];
        let ai = Opponent::new(Level::MIN, &pos, 1);
        let table = Table::new(
            pos,
            people,
            TimeControl::None,
            UndoPolicy::Allowed,
            Millis(0),
        );
        App::new(table, ai, &NO_RECORD)
    }

    /// A Swaptimum placement that forms a crosscut waits for its swap: its cell shows the
    /// mover's checker meanwhile, and goes back to empty when the choice is taken back.
    #[test]
    fn a_pending_placement_shows_the_movers_checker() {
        let pos: Swaptimum = "swaptimum ...../...../...../.R.../RB... B".parse().unwrap();
        let mut app = two_people(pos);
        let a2: Cell = "a2".parse().unwrap();
        let shown = |app: &App<'_, Swaptimum>| {
            let view = app.table.view();
            app.cell_span(&view, a2).content.trim().to_string()
        };
        assert_eq!(shown(&app), "·");
        app.choose(a2);
        assert_eq!(
            app.selection.cells,
            [a2],
            "the placement waits for its swap"
        );
        assert_eq!(shown(&app), "B");
        app.choose(a2);
        assert!(app.selection.cells.is_empty());
        assert_eq!(shown(&app), "·");
    }

    /// Earlier boards are viewed without taking moves back, and no cell is chosen meanwhile.
    #[test]
    fn earlier_boards_are_browsed_without_undoing() {
        let pos: Swaptimum = "swaptimum ...../...../...../...../..... R".parse().unwrap();
        let mut app = two_people(pos);
        app.command("c3");
        app.command("b2");
        assert_eq!(app.table.ply(), 2);
        app.browse(-1);
        assert_eq!(app.viewing, Some(1));
        app.browse(-5);
        assert_eq!(app.viewing, Some(0));
        app.choose("a1".parse().unwrap());
        assert!(
            app.selection.cells.is_empty(),
            "no move is built while looking back"
        );
        app.browse(9);
        assert_eq!((app.viewing, app.table.ply()), (None, 2));
    }
}
