// The client's own logic, free of the DOM so that node's test runner checks it.
// Nothing here knows a game's rules: those come from the server's move builder.

import type { BoardView, CellMark, GameView, MoveView, ReviewedMove, Seat, TimeControl } from './types';

/** A cell's name: column letter from `a`, row number from 1 at the bottom. */
export function cellName(col: number, row: number): string {
  return String.fromCharCode(97 + col) + String(row + 1);
}

/** The column and row of a cell name, or null for a name outside a board of that size. */
export function parseCell(name: string, size: number): { col: number; row: number } | null {
  const m = /^([a-z])([1-9][0-9]?)$/.exec(name.trim().toLowerCase());
  if (!m) return null;
  const col = m[1].charCodeAt(0) - 97;
  const row = Number(m[2]) - 1;
  return col < size && row < size ? { col, row } : null;
}

/** The index of a cell in a view's `cells` (bottom row first, left to right). */
export function cellIndex(col: number, row: number, size: number): number {
  return row * size + col;
}

/** A mark's meaning, as a cell's label and the board's legend say it. */
export const MARK_WORDS: Record<CellMark, string> = {
  placed: 'placed by the last move',
  swapped: 'swapped by the last move',
  replaced: 'replaced by the last move',
  terminal: 'terminal piece',
  cornered: 'cornered piece',
  target: 'a target',
  refused: 'part of a refused move',
};

/** What a cell holds, as a screen reader says it: `c3, Red` or `c3, empty`, then its marks. */
export function cellLabel(view: BoardView, col: number, row: number, extra: string[] = []): string {
  const name = cellName(col, row);
  const owner = view.cells[cellIndex(col, row, view.size)];
  const parts = [name, owner ? view.names[seatIndex(owner)] : 'empty'];
  for (const [cell, mark] of view.marks) {
    if (cell === name) parts.push(MARK_WORDS[mark]);
  }
  if (view.winning.includes(name)) parts.push('on the winning path');
  return [...parts, ...extra].join(', ');
}

/** 0 for the first seat, 1 for the second: the index of its player in a game's `players`. */
/**
 * A name set apart from the text around it (Unicode's first-strong isolate and its pop), so
 * that a name written right to left never reorders the words beside it. Swap 61 seat names
 * come from game files and may be in any script; account names are ASCII.
 */
export function isolated(name: string): string {
  return `\u2068${name}\u2069`;
}

export function seatIndex(seat: Seat): 0 | 1 {
  return seat === 'first' ? 0 : 1;
}

/** A sentence describing the whole position for a screen reader. */
export function positionSummary(view: BoardView): string {
  const lists: [string[], string[]] = [[], []];
  view.cells.forEach((owner, i) => {
    if (owner) lists[seatIndex(owner)].push(cellName(i % view.size, Math.floor(i / view.size)));
  });
  const side = (k: 0 | 1): string =>
    `${view.names[k]} (${view.letters[k]}): ${lists[k].length === 0 ? 'none' : lists[k].join(' ')}`;
  return `${view.size} by ${view.size} board. ${side(0)}. ${side(1)}.`;
}

/** The cell an arrow key moves the focus to (rows grow upwards, as on the board). */
export function moveFocus(col: number, row: number, key: string, size: number): { col: number; row: number } {
  const clamp = (v: number): number => Math.max(0, Math.min(size - 1, v));
  switch (key) {
    case 'ArrowLeft': return { col: clamp(col - 1), row };
    case 'ArrowRight': return { col: clamp(col + 1), row };
    case 'ArrowUp': return { col, row: clamp(row + 1) };
    case 'ArrowDown': return { col, row: clamp(row - 1) };
    case 'Home': return { col: 0, row };
    case 'End': return { col: size - 1, row };
    default: return { col, row };
  }
}

/** The ply the review keys show: Left/Right one move, Home the start, End the last move. */
export function reviewPly(key: string, shown: number, last: number): number | null {
  switch (key) {
    case 'ArrowLeft': return Math.max(0, shown - 1);
    case 'ArrowRight': return Math.min(last, shown + 1);
    case 'Home': return 0;
    case 'End': return last;
    default: return null;
  }
}

/** A time left as a clock shows it: `1:05`, `1:02:03`, `2d 4h` (never negative). */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

/**
 * Each side's time left now: the server's figures, less the time gone since the server
 * answered for the side to move. `offset` is the server's clock minus ours, so the count
 * follows the server's times whatever the local clock says.
 */
export function clocksNow(
  remaining: readonly number[],
  running: 0 | 1 | null,
  serverNow: number,
  localNow: number,
  offset: number,
): [number, number] {
  const gone = Math.max(0, localNow + offset - serverNow);
  return [0, 1].map((k) => (k === running ? Math.max(0, remaining[k] - gone) : remaining[k])) as [number, number];
}

/** The delay before the n-th attempt to reconnect: 0.5 s doubling to at most 10 s. */
export function backoff(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.min(attempt, 5));
}

/** A page of the client, read from its URL. */
export type Route =
  | { page: 'home' }
  | { page: 'login' }
  | { page: 'signup' }
  | { page: 'new' }
  | { page: 'game'; id: string; invite: string | null; ply: number | null }
  | { page: 'player'; name: string }
  | { page: 'settings' }
  | { page: 'newRoom' }
  | { page: 'room'; id: string; invite: string | null }
  | { page: 'rules'; game: string | null }
  | { page: 'notifications' }
  | { page: 'confirmEmail'; token: string | null }
  | { page: 'unsubscribe'; token: string | null }
  | { page: 'forgotPassword' }
  | { page: 'resetPassword'; token: string | null }
  | { page: 'vacation' }
  | { page: 'puzzles'; id: string | null }
  | { page: 'tournaments'; id: string | null }
  | { page: 'leaderboard'; game: string; band: string | null; bots: boolean }
  | { page: 'players' }
  | { page: 'learn'; game: string | null }
  | { page: 'about' }
  | { page: 'help' }
  | { page: 'moderation'; tab: string; name: string | null; all: boolean; before: number | null }
  | { page: 'missing' };

/** The page a location shows. */
export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  const parts = pathname.split('/').filter((p) => p !== '');
  if (parts.length === 0) return { page: 'home' };
  if (parts.length === 1) {
    switch (parts[0]) {
      case 'login': return { page: 'login' };
      case 'signup': return { page: 'signup' };
      case 'new': return { page: 'new' };
      case 'settings': return { page: 'settings' };
      case 'rules': return { page: 'rules', game: null };
      case 'notifications': return { page: 'notifications' };
      case 'confirm-email': return { page: 'confirmEmail', token: params.get('token') };
      case 'unsubscribe': return { page: 'unsubscribe', token: params.get('token') };
      case 'forgot-password': return { page: 'forgotPassword' };
      case 'reset-password': return { page: 'resetPassword', token: params.get('token') };
      case 'vacation': return { page: 'vacation' };
      case 'puzzles': return { page: 'puzzles', id: null };
      case 'tournaments': return { page: 'tournaments', id: null };
      case 'learn': return { page: 'learn', game: null };
      case 'about': return { page: 'about' };
      case 'help': return { page: 'help' };
      case 'moderation': {
        const before = params.get('before');
        return {
          page: 'moderation',
          tab: params.get('tab') ?? 'reports',
          name: params.get('name'),
          all: params.get('all') === 'true',
          before: before !== null && /^[0-9]{1,18}$/.test(before) ? Number(before) : null,
        };
      }
      case 'players': return { page: 'players' };
    }
  }
  if (parts.length === 2 && parts[0] === 'games' && /^[0-9a-zA-Z_-]{1,64}$/.test(parts[1])) {
    const ply = params.get('ply');
    return { page: 'game', id: parts[1], invite: params.get('invite'), ply: ply !== null && /^[0-9]{1,6}$/.test(ply) ? Number(ply) : null };
  }
  if (parts.length === 2 && parts[0] === 'rooms' && parts[1] === 'new') return { page: 'newRoom' };
  if (parts.length === 2 && parts[0] === 'rooms' && /^[0-9a-zA-Z_-]{1,64}$/.test(parts[1])) {
    return { page: 'room', id: parts[1], invite: params.get('invite') };
  }
  if (parts.length === 2 && parts[0] === 'rules' && /^[a-z0-9-]{1,32}$/.test(parts[1])) return { page: 'rules', game: parts[1] };
  if (parts.length === 2 && parts[0] === 'learn' && /^[a-z0-9-]{1,32}$/.test(parts[1])) return { page: 'learn', game: parts[1] };
  if (parts.length === 2 && parts[0] === 'puzzles' && /^[0-9a-f]{1,32}$/.test(parts[1])) return { page: 'puzzles', id: parts[1] };
  if (parts.length === 2 && parts[0] === 'tournaments' && /^[0-9a-f]{1,32}$/.test(parts[1])) return { page: 'tournaments', id: parts[1] };
  if (parts.length === 2 && parts[0] === 'leaderboards' && /^[a-z0-9-]{1,32}$/.test(parts[1])) {
    const band = params.get('band');
    return { page: 'leaderboard', game: parts[1], band: band !== null && /^[a-z]{1,16}$/.test(band) ? band : null, bots: params.get('bots') === 'true' };
  }
  if (parts.length === 2 && parts[0] === 'players') {
    return { page: 'player', name: decodeURIComponent(parts[1]) };
  }
  return { page: 'missing' };
}

/** Where to go after logging in: a path of this site only, never another site. */
export function safeNext(next: string | null): string {
  if (next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')) return next;
  return '/';
}

/**
 * The next cells after a click: a new cell, or one the builder offers (a Swaptimum swap may
 * move the checker just placed), is added; another chosen one takes back itself and what
 * followed.
 */
export function clickSelection(cells: string[], cell: string, offered: string[]): { cells: string[]; added: boolean } {
  const at = cells.indexOf(cell);
  if (at >= 0 && !offered.includes(cell)) return { cells: cells.slice(0, at), added: false };
  return { cells: [...cells, cell], added: true };
}

/** The time control the new-game form asks for. */
export function timeControl(kind: string, days: number, initialMin: number, incrementS: number): TimeControl {
  if (kind === 'correspondence') return { days_per_move: days };
  if (kind === 'live') return { initial_s: Math.round(initialMin * 60), increment_s: incrementS };
  return null;
}

/** A time control in words, for lists. */
export function describeClock(clock: TimeControl): string {
  if (clock === null) return 'no clock';
  if ('days_per_move' in clock) return `${clock.days_per_move} day${clock.days_per_move === 1 ? '' : 's'} a move`;
  // Under a minute in seconds: "0.3 min" would hide a 15 s bullet game.
  if (clock.initial_s < 60) return `${clock.initial_s} s + ${clock.increment_s} s`;
  const minutes = clock.initial_s / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min + ${clock.increment_s} s`;
}

/** The opponent field of `POST /api/games` from the form's choice. */
export function opponentField(kind: string, level: number, name: string): string {
  switch (kind) {
    case 'ai': return `ai:${level}`;
    case 'user': return `user:${name.trim()}`;
    case 'invite': return 'invite';
    default: return 'open';
  }
}

/** A win rate (0..1) as a percentage. */
export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** One row of the move list: a move number and the plies played under it. */
export interface MoveRow {
  number: number;
  plies: MoveView[];
}

/** The move list paired by move number, as a chess score reads: `1. c3 d4`, `2. ...`. */
export function pairMoves(moves: MoveView[]): MoveRow[] {
  const rows: MoveRow[] = [];
  for (const move of moves) {
    const number = Math.ceil(move.ply / 2);
    const last = rows[rows.length - 1];
    if (last && last.number === number) last.plies.push(move);
    else rows.push({ number, plies: [move] });
  }
  return rows;
}

/**
 * A finished game's ending as its reader sees it: "You won by connection" to the winner,
 * "You lost on time" to the loser, "alice wins by resignation" to anyone else (the
 * reader's seat is the server's `your_seat`). The words after the subject are the
 * server's (`result.how`); null when the server gives none.
 */
export function endingWords(game: GameView): string | null {
  const result = game.result;
  if (game.status !== 'finished' || !result?.how) return null;
  const how = result.how;
  if (result.winner === null) return how === 'aborted' ? 'The game was aborted.' : `A draw ${how}.`;
  if (game.your_seat == null) return `${result.winner} wins ${how}.`;
  return game.players[seatIndex(game.your_seat)]?.name === result.winner ? `You won ${how}.` : `You lost ${how}.`;
}

/**
 * A judged move's verdict as a reader should take it: a proven one as a fact, an estimated
 * one as the AI's opinion; nothing for a move the review does not judge.
 */
export function judgementWords(move: ReviewedMove): string {
  if (move.judgement === null) return '';
  if (move.basis === 'proven') {
    return move.judgement === 'blunder' ? 'blunder: this move lost a won game (proven)' : `${move.judgement} (proven)`;
  }
  return `${move.judgement} (the AI's opinion)`;
}

/** Each colour's count of judged moves in a review. */
export interface ReviewCounts {
  colour: string;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

/** The review's summary: per colour (in the order the colours first move), its bad moves counted. */
export function reviewSummary(moves: ReviewedMove[]): ReviewCounts[] {
  const counts = new Map<string, ReviewCounts>();
  for (const m of moves) {
    const row = counts.get(m.colour) ?? { colour: m.colour, inaccuracies: 0, mistakes: 0, blunders: 0 };
    counts.set(m.colour, row);
    if (m.judgement === 'inaccuracy') row.inaccuracies += 1;
    else if (m.judgement === 'mistake') row.mistakes += 1;
    else if (m.judgement === 'blunder') row.blunders += 1;
  }
  return [...counts.values()];
}

/**
 * One colour's win chance after every ply (index 0: the start), from a review: each move
 * gives its mover's chance before and after, so the other colour's is one less it.
 */
export function evaluationSeries(moves: ReviewedMove[], colour: string): number[] {
  if (moves.length === 0) return [];
  const of = (mover: string, chance: number): number => (mover === colour ? chance : 1 - chance);
  return [of(moves[0].colour, moves[0].win_before), ...moves.map((m) => of(m.colour, m.win_after))];
}

/** A move being built, as kept across a reload. */
export interface SavedDraft {
  cells: string[];
  split: number | null;
}

/** What the drafts are kept in (the page's sessionStorage; a stub in tests). */
export type DraftStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The key of a game's draft at a ply: a draft of another ply is never offered. */
export function draftKey(id: string, ply: number): string {
  return `swapboard.draft.${id}.${ply}`;
}

/** Keeps the move being built (none: forgets it). */
export function saveDraft(store: DraftStore, id: string, ply: number, draft: SavedDraft): void {
  if (draft.cells.length === 0) store.removeItem(draftKey(id, ply));
  else store.setItem(draftKey(id, ply), JSON.stringify(draft));
}

/** The move being built kept for that ply, or null (none, or not a draft's shape). */
export function loadDraft(store: DraftStore, id: string, ply: number): SavedDraft | null {
  const text = store.getItem(draftKey(id, ply));
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { cells, split } = value as { cells?: unknown; split?: unknown };
    if (!Array.isArray(cells) || !cells.every((c) => typeof c === 'string') || cells.length === 0) return null;
    if (split !== null && (typeof split !== 'number' || !Number.isInteger(split) || split < 0 || split > cells.length)) return null;
    return { cells: cells as string[], split: split as number | null };
  } catch {
    return null;
  }
}

/** Which edges the player to move must join, read from the view's sides, or null when the
 * game is over or not won by joining edges: `Blue to move joins the left and right edges.` */
export function edgesToJoin(view: BoardView): string | null {
  if (view.outcome !== null) return null;
  const k = seatIndex(view.to_move);
  const side = view.sides[k];
  if (side === 'none') return null;
  return `${view.names[k]} to move joins the ${side === 'top_bottom' ? 'top and bottom' : 'left and right'} edges.`;
}

/** The filters of a player's game list (`/players/{name}?game=...&result=...`). */
export interface GameFilters {
  status?: string;
  game?: string;
  result?: string;
  rated?: string;
  opponent?: string;
}

/** The filters an address asks for, each kept only when the server would accept it: a
 * status, a game among `games`, a result, a rating choice, and a non-empty opponent. */
export function readFilters(search: URLSearchParams, games: string[]): GameFilters {
  const oneOf = (name: string, allowed: string[]): string | undefined => {
    const value = search.get(name);
    return value !== null && allowed.includes(value) ? value : undefined;
  };
  const opponent = search.get('opponent')?.trim();
  return {
    status: oneOf('status', ['waiting', 'playing', 'finished']),
    game: oneOf('game', games),
    result: oneOf('result', ['won', 'lost', 'drawn']),
    rated: oneOf('rated', ['true', 'false']),
    opponent: opponent ? opponent : undefined,
  };
}

/** The filters as a query (`?status=finished&opponent=bob`), in a fixed order; empty for
 * none, so that the unfiltered list has the plain address. */
export function filterQuery(filters: GameFilters): string {
  const query = new URLSearchParams();
  for (const name of ['status', 'game', 'result', 'rated', 'opponent'] as const) {
    const value = filters[name];
    if (value) query.set(name, value);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * Whether this browser is an iPhone's or iPad's outside a home-screen app: there, web push
 * is given only to a site added to the home screen (iOS 16.4 and later). An iPad asking
 * for the desktop site says "Macintosh", but has a touch screen.
 */
export function needsHomeScreen(userAgent: string, touchPoints: number, standalone: boolean): boolean {
  const ios = /\b(iPhone|iPad|iPod)\b/.test(userAgent) || (/\bMacintosh\b/.test(userAgent) && touchPoints > 1);
  return ios && !standalone;
}

/** How a chat message's time is written: compact beside it, in full as its title. */
export interface Stamp {
  /** The time of day when it was written today, else the date. */
  short: string;
  /** The date and time in full. */
  full: string;
}

/** Where a time is read: the viewer's locale and time zone unless a test names them. */
export interface Zone {
  locale?: string;
  timeZone?: string;
}

/**
 * A chat message's time in the viewer's time zone: the hour today, the day and month this
 * year, the full date before; the full date and time as a title (docs/CHAT.md).
 */
export function chatStamp(atMs: number, nowMs: number, zone: Zone = {}): Stamp {
  const { locale, timeZone } = zone;
  const at = new Date(atMs);
  // A day is compared in the viewer's zone: ISO-like parts from en-CA are YYYY-MM-DD.
  const day = (date: Date) => date.toLocaleDateString('en-CA', { timeZone });
  const now = new Date(nowMs);
  const short = day(at) === day(now)
    ? at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', timeZone })
    : day(at).slice(0, 4) === day(now).slice(0, 4)
      ? at.toLocaleDateString(locale, { day: 'numeric', month: 'short', timeZone })
      : at.toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone });
  const full = at.toLocaleString(locale, { dateStyle: 'full', timeStyle: 'short', timeZone });
  return { short, full };
}

/** The kinds of abuse a report names, in the order the report form offers them. */
export const REPORT_CATEGORIES: [string, string][] = [
  ['insult', 'Insult or harassment'],
  ['spam', 'Spam or flooding'],
  ['cheating', 'Cheating'],
  ['other', 'Something else'],
];

/** A report's body from the form: the category, and the words only when some were given. */
export function reportBody(message: number, category: string, words: string): { message: number; category: string; reason?: string } {
  const reason = words.trim();
  return reason ? { message, category, reason } : { message, category };
}
