// The game page's state, free of the DOM so that node's test runner checks it: what the page
// holds (the game, its move list, the ply shown, the move being built, the rematch offered)
// and what follows from it. Every fact is the server's (`your_seat`, `seat_to_move`, the
// builder's `next` and `actions`); nothing here reads the position text or a prompt.

import type { Highlights } from '../board';
import { clickSelection, endingWords, seatIndex } from '../logic';
import type { BoardView, CellMark, Draft, GameMessage, GameView, MoveList, PlyView, Schemas } from '../types';

/** The move being built: the cells chosen, where a new group starts, the builder's answer. */
export interface Building {
  cells: string[];
  /** Scware's balancing move: the index of the cell that starts a new group. */
  split: number | null;
  /** The builder's last answer, null before the first. */
  draft: Draft | null;
  /** A whole move waiting for its confirmation (the confirm step). */
  pending: string | null;
}

/** Nothing built yet. */
export function noBuilding(): Building {
  return { cells: [], split: null, draft: null, pending: null };
}

/** What the game page holds. */
export interface GameState {
  game: GameView;
  moves: MoveList;
  /** The position on the board: the last one, or an earlier ply under review. */
  shown: PlyView;
  /** Whether the board follows the game (else it shows an earlier ply under review). */
  following: boolean;
  building: Building;
  /** A click or a move is being answered. */
  busy: boolean;
  /** The server's clock minus ours, from the last game read. */
  offset: number;
  /** The review's judgement of each judged ply. */
  judgements: Map<number, string>;
  /** The rematch offered after this game, once read. */
  offer: GameView | null;
  /** Whether this page declined the rematch offered. */
  declined: boolean;
  /** The hint for the position on the board, when the player asked for hints. */
  hint: HintView | null;
}

/** A hint in a game against the AI (`GET /api/games/{id}/hint`). */
export type HintView = Schemas['HintView'];

/** The state of a page that has just read the game, its moves and the ply shown (`following`: the last one). */
export function gameState(game: GameView, moves: MoveList, shown: PlyView, following: boolean, now: number): GameState {
  return {
    game, moves, shown, following, building: noBuilding(), busy: false, hint: null,
    offset: clockOffset(game, now), judgements: new Map(), offer: null, declined: false,
  };
}

/** The server's clock minus ours, from a game just read. */
export function clockOffset(game: GameView, now: number): number {
  return game.clocks ? game.clocks.server_now_ms - now : 0;
}

/** The reader's seat (0 or 1), or null for a reader who does not play. */
export function mySeat(state: GameState): 0 | 1 | null {
  return state.game.your_seat == null ? null : seatIndex(state.game.your_seat);
}

/** The seat (0 or 1) whose turn it is, null unless the game is being played. */
export function seatToMove(game: GameView): 0 | 1 | null {
  return game.status === 'playing' && game.seat_to_move != null ? seatIndex(game.seat_to_move) : null;
}

/** Whether the reader is to move in the game. */
export function myTurn(state: GameState): boolean {
  const seat = mySeat(state);
  return seat !== null && seatToMove(state.game) === seat;
}

/** Whether clicks on the board build a move: the reader's turn, the last ply shown, nothing pending. */
export function interactive(state: GameState): boolean {
  return myTurn(state) && state.following && !state.busy;
}

/** What the board marks beside the view: the cells offered next and those chosen. */
export function highlights(state: GameState): Highlights {
  const live = interactive(state);
  const { draft, pending, cells } = state.building;
  return { next: live && draft && !pending ? draft.next : [], chosen: live ? cells : [], interactive: live };
}

/** The game's state in a sentence: whose move, or how it ended. */
export function statusWords(state: GameState): string {
  const { game } = state;
  if (game.status === 'waiting') return 'Waiting for a player to join.';
  if (game.status === 'declined') {
    return game.decline_reason ? `The challenge was declined: “${game.decline_reason}”` : 'The challenge was declined.';
  }
  if (game.status === 'cancelled') return 'The challenge was cancelled.';
  if (game.status === 'expired') return 'The challenge expired: nobody joined in time.';
  if (game.status === 'playing') return myTurn(state) ? 'Your move.' : `${game.to_move ?? '?'} to move.`;
  return endingWords(game) ?? state.moves.ending ?? state.shown.ending ?? 'The game is over.';
}

/** The line above the buttons: the builder's prompt, a move to confirm, or the ply under review. */
export function promptWords(state: GameState): string {
  if (!interactive(state)) {
    return state.following ? '' : `Showing the position after ply ${state.shown.ply} of ${state.game.ply}. Press End to return.`;
  }
  const { pending, draft } = state.building;
  return pending ? `Play ${pending}?` : draft?.prompt ?? '';
}

/** A button beside the prompt. */
export type Control =
  | { kind: 'confirm'; move: string }
  | { kind: 'cancel' }
  | { kind: 'play'; move: string }
  | { kind: 'new-group' }
  | { kind: 'pass' }
  | { kind: 'clear' };

/** The buttons a turn offers now, in the order they are shown. */
export function controls(state: GameState): Control[] {
  if (!interactive(state)) return [];
  const { pending, draft, split, cells } = state.building;
  if (pending) return [{ kind: 'confirm', move: pending }, { kind: 'cancel' }];
  const shown: Control[] = [];
  if (draft?.verdict === 'complete' && draft.move && draft.more) shown.push({ kind: 'play', move: draft.move });
  const offered = draft?.actions ?? [];
  // Scware's balancing move: after it the next cell starts a new group.
  if (split === null && offered.includes('end_growth')) shown.push({ kind: 'new-group' });
  // A pass the rules allow among other moves (a forced one the server plays itself).
  if (offered.includes('pass')) shown.push({ kind: 'pass' });
  if (cells.length > 0) shown.push({ kind: 'clear' });
  return shown;
}

/** What a click on a cell leads to. */
export type ClickStep =
  /** Nothing: a move is being sent, or the reader watches. */
  | { kind: 'ignore' }
  /** Refused at once, in these words. */
  | { kind: 'refuse'; reason: string }
  /** Every cell taken back: the move starts again. */
  | { kind: 'restart' }
  /** The builder is asked about these cells. */
  | { kind: 'ask'; cells: string[]; split: number | null };

/** What a click on `cell` does in this state. */
export function clickStep(state: GameState, cell: string): ClickStep {
  if (state.busy) return { kind: 'ignore' };
  if (!interactive(state)) {
    const player = state.game.status === 'playing' && mySeat(state) !== null;
    if (player && !state.following) return { kind: 'refuse', reason: 'You are looking at an earlier position: press End to return to the game.' };
    if (player) return { kind: 'refuse', reason: 'It is not your turn.' };
    return { kind: 'ignore' };
  }
  const { pending, cells, draft, split } = state.building;
  if (pending) return { kind: 'refuse', reason: `Confirm or cancel ${pending} first.` };
  const next = clickSelection(cells, cell, draft?.next ?? []);
  if (next.cells.length === 0) return { kind: 'restart' };
  return { kind: 'ask', cells: next.cells, split: split !== null && split > next.cells.length ? null : split };
}

/** What the builder's answer to a click leads to. */
export type AnswerStep =
  | { kind: 'refused'; reason: string }
  /** A whole move that cannot grow: sent (or held for its confirmation). */
  | { kind: 'submit'; move: string }
  /** Drawn, and the next click awaited. */
  | { kind: 'more' };

/** Takes the builder's answer about `cells`: the move being built follows it unless refused. */
export function takeAnswer(building: Building, cells: string[], split: number | null, answer: Draft): { building: Building; step: AnswerStep } {
  if (answer.verdict === 'refused') return { building, step: { kind: 'refused', reason: answer.reason ?? '' } };
  const next = { ...building, cells, split, draft: answer };
  if (answer.verdict === 'complete' && !answer.more && answer.move) return { building: next, step: { kind: 'submit', move: answer.move } };
  return { building: next, step: { kind: 'more' } };
}

/**
 * A newer view of the game taken into the page's. The socket's games are everyone's: they
 * carry neither the invite only the creator sees nor the reader's own seat, so those are kept
 * from the reader's own requests.
 */
export function takeGame(current: GameView, next: GameView, everyone: boolean): GameView {
  const invite = next.invite ? next.invite : current.invite;
  return everyone ? { ...next, invite, your_seat: current.your_seat } : { ...next, invite };
}

/** Whether a socket's message tells the page something new (a move it has is skipped). */
export function isNews(game: GameView, message: GameMessage): boolean {
  return message.type !== 'move' || message.ply > game.ply;
}

/** The rematch part of a finished game's actions. */
export type RematchChoice =
  /** Another player offers one: Accept and Decline. */
  | { kind: 'offered'; by: string }
  /** The reader offered it. */
  | { kind: 'mine' }
  /** Someone offers one, to a reader who did not play: a link to watch it. */
  | { kind: 'watch'; by: string; id: string }
  /** A player may ask for one (or go to the one made). */
  | { kind: 'ask'; made: boolean }
  | { kind: 'none' };

/**
 * What the page says of a rematch. An offer waiting has its maker seated; the reader made
 * it when the server names the reader's seat in it (`your_seat` of the offer as read).
 */
export function rematchChoice(state: GameState): RematchChoice {
  const { offer, game } = state;
  const player = mySeat(state) !== null;
  const by = offer?.status === 'waiting' ? offer.players.find((p) => p.seated)?.name ?? null : null;
  if (by && offer && player) {
    if (offer.your_seat !== null) return { kind: 'mine' };
    return state.declined ? { kind: 'none' } : { kind: 'offered', by };
  }
  if (by && offer) return { kind: 'watch', by, id: offer.id };
  // A tournament pairs its own next games.
  if (player && !game.tournament) return { kind: 'ask', made: Boolean(game.rematch) };
  return { kind: 'none' };
}

/** How a visitor may take a waiting game's open seat: a button, a login first, or not at all. */
export function joinChoice(state: GameState, me: string | null, invited: boolean): 'join' | 'login' | 'none' {
  const { game } = state;
  if (game.status !== 'waiting' || mySeat(state) !== null) return 'none';
  if (!me) return 'login';
  const open = game.players.find((p) => !p.seated);
  if (open && (open.name == null || open.name.toLowerCase() === me.toLowerCase() || invited)) return 'join';
  return 'none';
}

/** What a waiting game's reader may do to the challenge itself: cancel it (its challenger),
 * decline it (the account its open seat is kept for), or nothing. */
export function challengeChoice(state: GameState, me: string | null): 'cancel' | 'decline' | 'none' {
  const { game } = state;
  if (game.status !== 'waiting' || !me) return 'none';
  if (mySeat(state) !== null) return 'cancel';
  const kept = game.players.find((p) => !p.seated && p.name != null);
  return kept?.name?.toLowerCase() === me.toLowerCase() ? 'decline' : 'none';
}

/** The word of the button that ends the game for its player: the server says whether giving
 * it up now calls it off (before the second move, never in a tournament) or resigns it. */
export function resignWord(game: GameView): 'Abort' | 'Resign' {
  return game.abortable ? 'Abort' : 'Resign';
}

/** The line that says which position is shown. */
export function shownWords(shown: PlyView): string {
  return shown.ply === 0 ? 'The start position.' : `After ply ${shown.ply}: ${shown.description ?? shown.move ?? ''}`;
}

/** Whether the page offers hints: to a player of a game against the AI, while it is played. */
export function hintsOffered(state: GameState): boolean {
  const againstAi = state.game.players.some((p) => p.seated && p.name != null && p.name.startsWith('ai:'));
  return againstAi && mySeat(state) !== null && state.game.status === 'playing';
}

/** The board drawn: the view shown, with the hint's threats marked while it is the player's
 * turn on the last position. */
export function boardWithHint(state: GameState): BoardView {
  const board = state.shown.board;
  if (!state.hint || !myTurn(state) || !state.following) return board;
  return { ...board, marks: [...board.marks, ...state.hint.cells.map((cell): [string, CellMark] => [cell, 'target'])] };
}
