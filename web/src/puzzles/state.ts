// The puzzle page's state, free of the DOM so that node's test runner checks it: the puzzle,
// the move being built with the server's builder, the answer once judged, and the ply of the
// answer's line shown. Every fact is the server's: the builder's `next`, the judgement, its
// words and the boards of its line.

import type { Highlights } from '../board';
import { type Building, noBuilding } from '../game/state';
import type { BoardView, Schemas } from '../types';

/** A puzzle as the server lists it (`GET /api/puzzles`), without its solution. */
export type PuzzleView = Schemas['PuzzleView'];
/** An account's record at the puzzles. */
export type PuzzleRecord = Schemas['PuzzleRecord'];
/** The judgement of an attempt (`POST /api/puzzles/{id}/attempt`), with the boards of its line. */
export type AttemptAnswer = Schemas['AttemptAnswer'];

/** What the puzzle page holds. */
export interface PuzzleState {
  puzzle: PuzzleView;
  building: Building;
  /** A click or an attempt is being answered. */
  busy: boolean;
  answer: AttemptAnswer | null;
  /** The ply of the answer's line shown: 0 the puzzle's position, n after its n-th move. */
  ply: number;
}

/** A puzzle just read, nothing built. */
export function puzzleState(puzzle: PuzzleView): PuzzleState {
  return { puzzle, building: noBuilding(), busy: false, answer: null, ply: 0 };
}

/** Whether clicks still build a move: until the attempt is judged. */
export function solving(state: PuzzleState): boolean {
  return state.answer === null;
}

/** The board shown: the puzzle's, or the answer's line at the ply shown. */
export function shownBoard(state: PuzzleState): BoardView {
  const { answer, ply } = state;
  if (answer && ply > 0) return answer.boards[Math.min(ply, answer.boards.length) - 1];
  return state.puzzle.board;
}

/** What the board marks beside the view: the cells offered next and those chosen. */
export function puzzleHighlights(state: PuzzleState): Highlights {
  const live = solving(state);
  const { draft, cells } = state.building;
  return { next: live && draft ? draft.next : [], chosen: live ? cells : [], interactive: live };
}

/** The ply of the line a key shows: Left/Right one move, Home the puzzle, End the line's end. */
export function stepLine(state: PuzzleState, key: string): number | null {
  const last = state.answer?.boards.length ?? 0;
  switch (key) {
    case 'ArrowLeft': return Math.max(0, state.ply - 1);
    case 'ArrowRight': return Math.min(last, state.ply + 1);
    case 'Home': return 0;
    case 'End': return last;
    default: return null;
  }
}

/** The judgement in a line: the verdict, then the server's words. */
export function verdictWords(answer: AttemptAnswer): string {
  return `${answer.correct ? 'Solved.' : 'Not quite.'} ${answer.why}`;
}

/** The difficulty bands the list offers, by name, with their bounds. */
export const BANDS: { name: string; min: number; max: number }[] = [
  { name: 'easy', min: 0, max: 999 },
  { name: 'medium', min: 1000, max: 1599 },
  { name: 'hard', min: 1600, max: 100_000 },
];

/** The query of the list for a game ('' for all) and a band ('' for all). */
export function listQuery(game: string, band: string, limit: number): string {
  const params = new URLSearchParams();
  if (game) params.set('game', game);
  const found = BANDS.find((b) => b.name === band);
  if (found) {
    params.set('min_difficulty', String(found.min));
    params.set('max_difficulty', String(found.max));
  }
  params.set('limit', String(limit));
  return params.toString();
}
