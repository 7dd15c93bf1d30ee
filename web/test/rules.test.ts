// The rules pages' routes and the game page's line about the edges to join.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { edgesToJoin, parseRoute } from '../src/logic';
import type { BoardView } from '../src/types';

test('rules pages have their routes', () => {
  assert.deepEqual(parseRoute('/rules', ''), { page: 'rules', game: null });
  assert.deepEqual(parseRoute('/rules/rapid-transit', ''), { page: 'rules', game: 'rapid-transit' });
  assert.deepEqual(parseRoute('/rules/swap61', ''), { page: 'rules', game: 'swap61' });
  assert.deepEqual(parseRoute('/rules/<x>', ''), { page: 'missing' });
  assert.deepEqual(parseRoute('/rules/a/b', ''), { page: 'missing' });
});

test('the player to move is told which edges to join', () => {
  const view: BoardView = {
    title: 'Swaptimum by Mark Steere (2023)', size: 3, cells: Array(9).fill(null), letters: ['R', 'B'],
    names: ['Red', 'Blue'], sides: ['top_bottom', 'left_right'], marks: [], to_move: 'first', outcome: null,
    notes: [], winning: [],
  };
  assert.equal(edgesToJoin(view), 'Red to move joins the top and bottom edges.');
  assert.equal(edgesToJoin({ ...view, to_move: 'second' }), 'Blue to move joins the left and right edges.');
  assert.equal(edgesToJoin({ ...view, outcome: { win: 'first' } }), null);
  assert.equal(edgesToJoin({ ...view, sides: ['none', 'none'] }), null);
});
