import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  finished, goToStep, lessonControls, lessonHighlights, lessonState, movesKey, progressOf, readMoves, shownBoard,
  stepsToCarry, storageKey, takeAttempt, trying, verdictWords, type LessonAttempt, type LessonView,
} from '../src/lessons/state';
import { parseRoute } from '../src/logic';
import type { BoardView } from '../src/types';

function board(size: number): BoardView {
  return {
    title: 'Flipstop', size, cells: Array(size * size).fill(null), letters: ['R', 'B'], names: ['Red', 'Blue'],
    sides: ['top_bottom', 'left_right'], marks: [], to_move: 'first', outcome: null, notes: [], winning: [],
  };
}

function lesson(done: number | null): LessonView {
  return {
    game: 'flipstop', name: 'Flipstop', author: 'Mark Steere', intro: 'Six steps.', done,
    steps: [1, 2, 3].map((k) => ({ title: `step ${k}`, task: 'do it', position: 'flipstop ..../..../..../.... R', board: board(4) })),
  };
}

const attempt = (done: boolean, progress: number | null): LessonAttempt => ({
  done, why: done ? 'It flips.' : 'No crosscut.', move: 'c3', position: 'flipstop ..../..../..R./.... B', board: board(5), ending: null, progress, answer: null,
});

test('the routes of the about and help pages', () => {
  assert.deepEqual(parseRoute('/about', ''), { page: 'about' });
  assert.deepEqual(parseRoute('/help', ''), { page: 'help' });
  assert.deepEqual(parseRoute('/about/more', ''), { page: 'missing' });
});

test('the routes of the lessons', () => {
  assert.deepEqual(parseRoute('/learn', ''), { page: 'learn', game: null });
  assert.deepEqual(parseRoute('/learn/rapid-transit', ''), { page: 'learn', game: 'rapid-transit' });
  assert.deepEqual(parseRoute('/learn/<x>', ''), { page: 'missing' });
});

test('a lesson opens at the first step not done, from the server or the browser', () => {
  assert.equal(lessonState(lesson(1), 0).step, 1);
  assert.equal(lessonState(lesson(null), 2).step, 2);
  // All done: the last step is shown; a stored number out of range is bounded.
  assert.equal(lessonState(lesson(3), 0).step, 2);
  assert.equal(progressOf(lesson(null), 99), 3);
  assert.equal(progressOf(lesson(null), Number.NaN), 0);
  assert.equal(storageKey('scware'), 'swapboard.lesson.scware');
});

test('a move built, judged, and the next step opened', () => {
  const state = lessonState(lesson(null), 0);
  assert.equal(trying(state), true);
  state.building = { ...state.building, cells: ['c3'], draft: { verdict: 'complete', move: 'c3,d4', more: true, next: ['d4'], prompt: 'grow', actions: ['end_growth'] } };
  assert.deepEqual(lessonHighlights(state), { next: ['d4'], chosen: ['c3'], interactive: true });
  assert.deepEqual(lessonControls(state).map((c) => c.kind), ['play', 'new-group', 'clear']);
  takeAttempt(state, attempt(false, null));
  assert.equal(trying(state), false);
  assert.equal(state.done, 0);
  assert.equal(shownBoard(state).size, 5);
  assert.deepEqual(lessonControls(state), []);
  assert.equal(verdictWords(attempt(false, null)), 'Not this time. No crosscut.');
  // A missed win shows the other side's answer on the board.
  takeAttempt(state, { ...attempt(false, null), answer: { move: 'd4', position: 'flipstop ...', board: board(6) } });
  assert.equal(shownBoard(state).size, 6);
  goToStep(state, 0);
  takeAttempt(state, attempt(true, null));
  assert.equal(state.done, 1);
  goToStep(state, 5);
  assert.equal(state.step, 2);
  assert.equal(shownBoard(state).size, 4);
  // The server's count wins for a signed-in learner.
  takeAttempt(state, attempt(true, 3));
  assert.equal(finished(state), true);
});

test('a visitor\'s done steps are carried to the account in order, up to the first gap', () => {
  assert.equal(movesKey('flipstop'), 'swapboard.lesson.flipstop.moves');
  assert.deepEqual(readMoves('["c3", "c3", null, "b2"]'), ['c3', 'c3', null, 'b2']);
  assert.deepEqual(readMoves('{"a": 1}'), []);
  assert.deepEqual(readMoves('not json'), []);
  assert.deepEqual(readMoves(null), []);
  assert.deepEqual(readMoves('[3, "c2"]'), [null, 'c2']);
  const moves = ['c3', 'c3', 'c2', null, 'b2'];
  assert.deepEqual(stepsToCarry(0, moves), [{ step: 1, move: 'c3' }, { step: 2, move: 'c3' }, { step: 3, move: 'c2' }]);
  // The server's progress is the start: nothing it has already is sent again.
  assert.deepEqual(stepsToCarry(2, moves), [{ step: 3, move: 'c2' }]);
  assert.deepEqual(stepsToCarry(3, moves), []);
  assert.deepEqual(stepsToCarry(6, moves), []);
});
