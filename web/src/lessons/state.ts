// The lesson page's state, free of the DOM so that node's test runner checks it: the lesson,
// the step shown, the move being built with the server's builder, the judgement of the last
// attempt, and how far the learner has come. Every fact is the server's: the steps, the
// builder's `next`, the judgement and its words.

import type { Highlights } from '../board';
import { type Building, noBuilding } from '../game/state';
import type { BoardView, Schemas } from '../types';

/** A step of a lesson (`GET /api/lessons/{game}`). */
export type StepView = Schemas['StepView'];
/** A game's lesson (`GET /api/lessons/{game}`); `done` is null for the public. */
export type LessonView = Schemas['LessonView'];
/** A lesson in short (`GET /api/lessons`). */
export type LessonSummary = Schemas['LessonSummary'];
/** The judgement of a move tried in a step; `answer`: a missed win's refutation, and the board after it. */
export type LessonAttempt = Schemas['LessonAttempt'];

/** What the lesson page holds. */
export interface LessonState {
  lesson: LessonView;
  /** The step shown, from 0. */
  step: number;
  building: Building;
  /** A click or an attempt is being answered. */
  busy: boolean;
  attempt: LessonAttempt | null;
  /** The furthest step done, counted from 1 (0: none). */
  done: number;
}

/** The furthest step done: the server's for a signed-in learner (a guest too), else the
 * browser's own record (`saved`), never past the lesson's end. */
export function progressOf(lesson: LessonView, saved: number): number {
  const done = lesson.done ?? saved;
  return Math.max(0, Math.min(lesson.steps.length, Number.isFinite(done) ? Math.floor(done) : 0));
}

/** A lesson just read: it opens at the first step not done (the last one when all are). */
export function lessonState(lesson: LessonView, saved: number): LessonState {
  const done = progressOf(lesson, saved);
  return { lesson, step: Math.min(done, lesson.steps.length - 1), building: noBuilding(), busy: false, attempt: null, done };
}

/** Whether clicks still build a move in the step shown: until an attempt is judged. */
export function trying(state: LessonState): boolean {
  return state.attempt === null;
}

/** The board shown: the step's, or the position after the move tried, or after the other
 * side's answer to a missed win (the refutation, shown on the board). */
export function shownBoard(state: LessonState): BoardView {
  return state.attempt?.answer?.board ?? state.attempt?.board ?? state.lesson.steps[state.step].board;
}

/** What the board marks beside the view: the cells offered next and those chosen. */
export function lessonHighlights(state: LessonState): Highlights {
  const live = trying(state);
  const { draft, cells } = state.building;
  return { next: live && draft ? draft.next : [], chosen: live ? cells : [], interactive: live };
}

/** Takes a judgement in: the attempt shown, and the progress it makes (the server's count
 * for a signed-in learner, else this step when it is done). */
export function takeAttempt(state: LessonState, attempt: LessonAttempt): void {
  state.attempt = attempt;
  const reached = attempt.progress ?? (attempt.done ? state.step + 1 : 0);
  state.done = Math.max(state.done, Math.min(reached, state.lesson.steps.length));
}

/** Goes to a step (from 0), nothing built or tried there yet. */
export function goToStep(state: LessonState, step: number): void {
  state.step = Math.max(0, Math.min(step, state.lesson.steps.length - 1));
  state.attempt = null;
  state.building = noBuilding();
}

/** Whether the whole lesson is done. */
export function finished(state: LessonState): boolean {
  return state.done >= state.lesson.steps.length;
}

/** The verdict in a line: right or not, then the server's words. */
export function verdictWords(attempt: LessonAttempt): string {
  return `${attempt.done ? 'Right.' : 'Not this time.'} ${attempt.why}`;
}

/** Where the browser keeps a learner's progress when nobody is signed in. */
export function storageKey(game: string): string {
  return `swapboard.lesson.${game}`;
}

/** Where the browser keeps the move each step was done with when nobody is signed in, so
 * that the steps can be played again, and judged again, for the account a visitor makes. */
export function movesKey(game: string): string {
  return `swapboard.lesson.${game}.moves`;
}

/** Reads the moves kept under [`movesKey`]: step by step from the first, `null` where a
 * step was not done; anything else kept there reads as nothing. */
export function readMoves(text: string | null): (string | null)[] {
  try {
    const value: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(value) ? value.map((m) => (typeof m === 'string' ? m : null)) : [];
  } catch {
    return [];
  }
}

/** The steps a signed-in learner's browser did as a visitor beyond the server's progress,
 * in order and without a gap: each is sent again as an attempt, which the server judges
 * like any other, so nothing is counted that the engine did not see done. */
export function stepsToCarry(serverDone: number, moves: (string | null)[]): { step: number; move: string }[] {
  const carried: { step: number; move: string }[] = [];
  for (let k = serverDone; k < moves.length; k += 1) {
    const move = moves[k];
    if (move === null) break;
    carried.push({ step: k + 1, move });
  }
  return carried;
}

/** A button beside the lesson's board. */
export type LessonControl =
  /** A whole move that could still grow (a Scware growth): play it as it stands. */
  | { kind: 'play'; move: string }
  /** Scware's balancing move: the next cell starts a new group. */
  | { kind: 'new-group' }
  | { kind: 'pass' }
  | { kind: 'clear' };

/** The buttons the step offers now, from the builder's answer. */
export function lessonControls(state: LessonState): LessonControl[] {
  if (!trying(state)) return [];
  const { draft, split, cells } = state.building;
  const shown: LessonControl[] = [];
  if (draft?.verdict === 'complete' && draft.move && draft.more) shown.push({ kind: 'play', move: draft.move });
  const offered = draft?.actions ?? [];
  if (split === null && offered.includes('end_growth')) shown.push({ kind: 'new-group' });
  if (offered.includes('pass')) shown.push({ kind: 'pass' });
  if (cells.length > 0) shown.push({ kind: 'clear' });
  return shown;
}
