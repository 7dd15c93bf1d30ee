// The shapes of the server's JSON, as docs/API.md describes them. Only what the client reads.

import type { RoomView } from './swap61';

/** A seat of a two-player game. */
export interface PlayerView {
  name: string | null;
  colour: string;
  seated: boolean;
  /** Days of the player's vacation bank spent in this game so their clock did not run out. */
  vacation_days?: number;
  /** A rated game's rating of the player: absent for a game not rated, waiting or aborted. */
  rating?: GameRatingView;
}

/** A player's rating in a rated game's view. */
export interface GameRatingView {
  /** While the game is played, the rating now; once finished, the one it was rated from. */
  before: number;
  /** The points won or lost once the game is finished, `null` while it is played. */
  change: number | null;
  provisional: boolean;
}

/** How a finished game ended. */
export interface ResultView {
  winner: string | null;
  termination: string;
  /** The ending in words without its subject: `by connection`, `on time`, `aborted`. */
  how?: string;
}

/** The clocks of a game with a time control. */
export interface ClocksView {
  remaining_ms: [number, number];
  deadline_ms: number | null;
  server_now_ms: number;
}

/** A time control: none, correspondence, or live. */
export type TimeControl = null | { days_per_move: number } | { initial_s: number; increment_s: number };

/** A two-player game (`<game>` of the API). */
export interface GameView {
  id: string;
  game: string;
  size: number;
  players: PlayerView[];
  status: 'waiting' | 'playing' | 'finished';
  ply: number;
  position: string;
  moves: string[];
  /** The name of the player to move, `null` unless the game is being played. */
  to_move: string | null;
  /** The seat to move, `null` unless the game is being played. */
  seat_to_move: Seat | null;
  /**
   * The caller's own seat: `null` for a caller who does not sit in the game, and in what is
   * the same for everyone (lists, the socket's messages).
   */
  your_seat: Seat | null;
  result: ResultView | null;
  clock: TimeControl;
  clocks: ClocksView | null;
  /** Shown to the creator of an invite challenge only. */
  invite?: string | null;
  /** The game a rematch made, once one has. */
  rematch?: string | null;
  /** The tournament that made the game, if one did. */
  tournament?: string | null;
}

/** A seat of a two-player game, by turn order (the API's `first` and `second`). */
export type Seat = 'first' | 'second';
/** How a game shown ended, by the rules. */
export type Outcome = { win: Seat } | 'draw';
/** The pair of opposite edges a player joins. */
export type SideOwner = 'top_bottom' | 'left_right' | 'none';
/** A mark the board view puts on a cell. */
export type CellMark = 'placed' | 'swapped' | 'replaced' | 'terminal' | 'cornered' | 'target' | 'refused';

/** The board view of the play layer (`BoardView`). */
export interface BoardView {
  title: string;
  size: number;
  /** Each cell's owner, bottom row first, left to right. */
  cells: (Seat | null)[];
  letters: [string, string];
  names: [string, string];
  sides: [SideOwner, SideOwner];
  marks: [string, CellMark][];
  to_move: Seat;
  outcome: Outcome | null;
  notes: string[];
  winning: string[];
  links?: [string, string][];
  outlined?: string[];
}

/** `GET /api/games/{id}/view`. */
export interface PlyView {
  ply: number;
  board: BoardView;
  move: string | null;
  description: string | null;
  ending: string | null;
}

/** One move of `GET /api/games/{id}/moves`. */
export interface MoveView {
  ply: number;
  move: string;
  colour: string;
  description: string;
}

/** `GET /api/games/{id}/moves`. */
export interface MoveList {
  moves: MoveView[];
  ending: string | null;
}

/**
 * An action the builder offers besides cells: `end_growth` (Scware's balancing move: the
 * next cell starts a new group) or `pass` (a pass is legal among other moves).
 */
export type DraftAction = 'end_growth' | 'pass';

/** The move builder's answer. */
export interface Draft {
  verdict: 'complete' | 'more' | 'refused';
  move?: string;
  reason?: string;
  more: boolean;
  next: string[];
  prompt: string;
  actions?: DraftAction[];
}

/**
 * A message of a live socket: the server's `LiveMessage` (its OpenAPI components), one
 * member per `type`; a server test checks these are exactly the server's. A game's socket
 * sends `move` and `state`, a room's sends `room`, a tournament's sends `tournament`, the
 * account's inbox sends `inbox`; a game's and a room's send `chat` too (a public chat's
 * message, or `null` for a private one's nudge).
 */
export type LiveMessage =
  | { type: 'move'; ply: number; move: string; game: GameView }
  | { type: 'state'; game: GameView }
  | { type: 'chat'; channel: string; message: ChatMessageView | null }
  | { type: 'room'; room: RoomView }
  | { type: 'tournament'; tournament: TournamentView }
  | { type: 'inbox'; unread: number; latest: NotificationView[] };

/** A message of a game's socket. */
export type GameMessage = Extract<LiveMessage, { type: 'move' | 'state' | 'chat' }>;

/** A message of a Swap 61 room's socket. */
export type RoomMessage = Extract<LiveMessage, { type: 'room' | 'chat' }>;

/** A message of a tournament's socket. */
export type TournamentMessage = Extract<LiveMessage, { type: 'tournament' }>;

/** A message of the account's inbox socket. */
export type InboxMessage = Extract<LiveMessage, { type: 'inbox' }>;

/** One notification of the account's inbox (`GET /api/me/notifications`). */
export interface NotificationView {
  id: number;
  kind: string;
  message: string;
  game_id: string | null;
  room_id: string | null;
  created_ms: number;
  read: boolean;
  delivery: string;
}

/** A page of the inbox. */
export interface Inbox {
  unread: number;
  notifications: NotificationView[];
}

/** The account's notification settings (`GET /api/me/notifications/settings`). */
export interface NotificationSettings {
  mail_enabled: boolean;
  email: { email: string; confirmed: boolean; digest_hour: number } | null;
  mail: Record<string, 'immediate' | 'digest' | 'off'>;
  /** The caller's browsers that are pushed to. */
  push: { endpoint: string; created_ms: number }[];
}

/** One line of the analysis of a position. */
export interface AnalysisLine {
  move: string;
  win_rate: number;
  visits: number;
  pv: string[];
  proven: null | 'win' | 'loss';
}

/** `GET /api/games/{id}/analysis`. */
export interface Analysis {
  ply: number;
  to_move: string;
  nodes: number;
  lines: AnalysisLine[];
}

/** One move of a finished review. */
export interface ReviewedMove {
  ply: number;
  move: string;
  colour: string;
  win_before: number;
  win_after: number;
  loss: number;
  best: string | null;
  /** The line the AI expected from the position before the move, its best move first. */
  best_line?: string[];
  judgement: null | 'inaccuracy' | 'mistake' | 'blunder';
  /** What the judgement rests on: the solver's proof, or the search's estimates (absent from older reviews). */
  basis?: 'proven' | 'estimated';
}

/** `GET /api/games/{id}/review`. */
export type GameReview =
  | { status: 'done'; moves: ReviewedMove[] }
  | { status: 'running'; done: number; total: number };

/** `GET /api/lobby`. */
export interface Lobby {
  open: GameView[];
  playing: GameView[];
}

/** One game of `GET /api/games/catalogue`, as its engine describes it. */
export interface CatalogueEntry {
  id: string;
  name: string;
  author: string;
  year: string;
  title: string;
  /** Every board side the engine accepts, smallest first. */
  sizes: number[];
  default_size: number;
  /** The colour names, the first player's first. */
  colours: [string, string];
}

/** A tournament as the list shows it (`GET /api/tournaments`). */
export interface TournamentSummary {
  id: string;
  game: string;
  size: number;
  format: 'round_robin' | 'swiss';
  status: 'open' | 'running' | 'finished';
  clock: TimeControl;
  starts_at: string;
  total_rounds: number;
  round: number;
  player_count: number;
  min_players: number;
  max_players: number;
  rated: boolean;
  /** Whether a player's vacation bank may save them in its games. */
  vacation?: boolean;
  finished_at: string | null;
  creator: string | null;
}

/** An entrant of a tournament. */
export interface EntrantView {
  name: string;
  rating: number;
  division: number | null;
  withdrawn: boolean;
}

/** A game of a tournament's round. */
export interface PairingView {
  id: string | null;
  division: number | null;
  first: string;
  second: string;
  result: 'first' | 'second' | 'draw' | null;
}

/** A round of a tournament. */
export interface TournamentRoundView {
  round: number;
  games: PairingView[];
  bye: string | null;
}

/** A line of a tournament's standings. */
export interface TournamentStandingView {
  rank: number;
  name: string;
  points: number;
  sonneborn_berger: number;
  second_player_wins: number;
  rating: number;
  division: number | null;
}

/** A tournament with its entrants, rounds and standings (`GET /api/tournaments/{id}`). */
export interface TournamentView extends TournamentSummary {
  players: EntrantView[];
  rounds: TournamentRoundView[];
  standings: TournamentStandingView[];
}

/** The tournaments by stage. */
export interface TournamentList {
  upcoming: TournamentSummary[];
  running: TournamentSummary[];
  finished: TournamentSummary[];
}

/** The caller's vacation bank (`GET /api/me/vacation`). */
export interface VacationView {
  days_per_year: number;
  year: number;
  days_left: number;
  away_until_ms: number | null;
  log: { game: string | null; days: number; reason: string; at_ms: number }[];
}

/** A chat's message (docs/CHAT.md). */
export interface ChatMessageView {
  id: number;
  author: string;
  at_ms: number;
  /** `null` when a moderator hid it. */
  text: string | null;
  hidden: boolean;
}

/** A chat and its latest messages. */
export interface ChatView {
  /** Its key, for a mute. */
  chat: string;
  messages: ChatMessageView[];
  writable: boolean;
  muted: boolean;
}
