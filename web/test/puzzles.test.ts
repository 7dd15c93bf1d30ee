import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseRoute } from '../src/logic';
import { listQuery, puzzleHighlights, puzzleState, shownBoard, solving, stepLine, verdictWords, type AttemptAnswer, type PuzzleView } from '../src/puzzles/state';
import type { BoardView } from '../src/types';

function board(size: number): BoardView {
  return {
    title: 'Swaptimum', size, cells: Array(size * size).fill(null), letters: ['R', 'B'], names: ['Red', 'Blue'],
    sides: ['top_bottom', 'left_right'], marks: [], to_move: 'first', outcome: null, notes: [], winning: [],
  };
}

const puzzle: PuzzleView = {
  id: 'abc', game: 'swaptimum', size: 4, position: 'swaptimum ..../..../..../.... R', difficulty: 900,
  theme: 'finish', task: 'Red to move: win at once', board: board(4),
};

const answer = (correct: boolean): AttemptAnswer => ({
  correct, solution: 'b2', line: ['c3', 'b2', 'a1'], why: 'c3 does not win: Blue answers b2 and wins in 2 moves',
  boards: [board(5), board(6), board(7)], record: null,
});

test('the list query names the game and the band, or neither', () => {
  assert.equal(listQuery('', '', 50), 'limit=50');
  assert.equal(listQuery('flipstop', 'hard', 20), 'game=flipstop&min_difficulty=1600&max_difficulty=100000&limit=20');
  assert.equal(listQuery('scware', 'medium', 5), 'game=scware&min_difficulty=1000&max_difficulty=1599&limit=5');
});

test('clicks build a move until the attempt is judged, then the line is walked', () => {
  const state = puzzleState(puzzle);
  assert.equal(solving(state), true);
  state.building = { ...state.building, cells: ['c3'], draft: { verdict: 'more', more: true, next: ['d4'], prompt: 'swap' } };
  assert.deepEqual(puzzleHighlights(state), { next: ['d4'], chosen: ['c3'], interactive: true });
  assert.equal(shownBoard(state).size, 4);
  state.answer = answer(false);
  assert.equal(solving(state), false);
  assert.deepEqual(puzzleHighlights(state), { next: [], chosen: [], interactive: false });
  assert.equal(stepLine(state, 'End'), 3);
  assert.equal(stepLine(state, 'ArrowLeft'), 0);
  state.ply = 2;
  assert.equal(shownBoard(state).size, 6);
  assert.equal(stepLine(state, 'ArrowRight'), 3);
  state.ply = 3;
  assert.equal(stepLine(state, 'ArrowRight'), 3);
  assert.equal(stepLine(state, 'Home'), 0);
  assert.equal(stepLine(state, 'x'), null);
  assert.ok(verdictWords(state.answer).startsWith('Not quite. c3 does not win'));
  assert.ok(verdictWords(answer(true)).startsWith('Solved.'));
});

test('puzzle pages have their routes', () => {
  assert.deepEqual(parseRoute('/puzzles', ''), { page: 'puzzles', id: null });
  assert.deepEqual(parseRoute('/puzzles/3f2a9c0d1e4b', ''), { page: 'puzzles', id: '3f2a9c0d1e4b' });
  assert.deepEqual(parseRoute('/puzzles/<x>', ''), { page: 'missing' });
});
