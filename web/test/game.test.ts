// Unit tests of the game page's logic: the move list's rows, endings in words, the review's
// graph and summary, and the move being built kept across a reload.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { lineWords, parsePlan } from '../src/game/conditional';
import { draftKey, endingWords, evaluationSeries, judgementWords, loadDraft, pairMoves, reviewSummary, saveDraft, type DraftStore } from '../src/logic';
import type { GameView, MoveView, ReviewedMove, Seat } from '../src/types';

function finished(winner: string | null, how: string, termination = 'rules', yours: Seat | null = null): GameView {
  return {
    id: 'g', game: 'rapid-transit', size: 8, status: 'finished', ply: 40, position: '', moves: [],
    players: [{ name: 'ann', colour: 'R', seated: true }, { name: 'bob', colour: 'C', seated: true }],
    to_move: null, seat_to_move: null, your_seat: yours, result: { winner, termination, how }, clock: null, clocks: null, rated: false,
  };
}

test('the move list is paired by move number, an odd last ply alone on its row', () => {
  const moves: MoveView[] = ['c3', 'd4', 'e5'].map((move, k) => ({ ply: k + 1, move, colour: k % 2 ? 'B' : 'R', description: move, by_condition: false }));
  const rows = pairMoves(moves);
  assert.deepEqual(rows.map((r) => [r.number, r.plies.map((p) => p.move)]), [[1, ['c3', 'd4']], [2, ['e5']]]);
  assert.deepEqual(pairMoves([]), []);
});

test('an ending says You won / You lost to the players and names the winner to others', () => {
  // The reader's seat is the server's `your_seat`: ann sits first, bob second.
  const byNetwork = (yours: Seat | null): GameView => finished('ann', 'by the largest network (31 to 22)', 'rules', yours);
  assert.equal(endingWords(byNetwork('first')), 'You won by the largest network (31 to 22).');
  assert.equal(endingWords(byNetwork('second')), 'You lost by the largest network (31 to 22).');
  assert.equal(endingWords(byNetwork(null)), 'ann wins by the largest network (31 to 22).');
  assert.equal(endingWords(finished('bob', 'on time', 'timeout', 'first')), 'You lost on time.');
  assert.equal(endingWords(finished('ann', 'by resignation', 'resigned', 'second')), 'You lost by resignation.');
  assert.equal(endingWords(finished(null, 'aborted', 'aborted', 'first')), 'The game was aborted.');
  // An ending without words: the page keeps its ending line.
  assert.equal(endingWords(finished('ann', '', 'rules', 'first')), null);
  assert.equal(endingWords({ ...byNetwork('first'), status: 'playing' }), null);
});

/** A review as `GET /api/games/{id}/review` answered it for a 4-ply game. */
const REVIEW: ReviewedMove[] = JSON.parse(`[
  {"ply":1,"move":"c3","colour":"R","win_before":0.55,"win_after":0.52,"loss":0.03,"best":"c3","best_line":["c3","d4"],"judgement":null},
  {"ply":2,"move":"a1","colour":"B","win_before":0.48,"win_after":0.3,"loss":0.18,"best":"d4","best_line":["d4","e5"],"judgement":"inaccuracy"},
  {"ply":3,"move":"e5","colour":"R","win_before":0.7,"win_after":0.45,"loss":0.25,"best":"b2","best_line":["b2"],"judgement":"mistake"},
  {"ply":4,"move":"b1","colour":"B","win_before":0.55,"win_after":0.1,"loss":0.45,"best":"d1","judgement":"blunder"}
]`) as ReviewedMove[];

test('the review is summed up per colour: inaccuracies, mistakes, blunders', () => {
  assert.deepEqual(reviewSummary(REVIEW), [
    { colour: 'R', inaccuracies: 0, mistakes: 1, blunders: 0 },
    { colour: 'B', inaccuracies: 1, mistakes: 0, blunders: 1 },
  ]);
  assert.deepEqual(reviewSummary([]), []);
});

test('the evaluation graph follows one colour: the start, then after every ply', () => {
  const red = evaluationSeries(REVIEW, 'R');
  const expected = [0.55, 0.52, 0.7, 0.45, 0.9];
  assert.equal(red.length, expected.length);
  red.forEach((chance, k) => assert.ok(Math.abs(chance - expected[k]) < 1e-9, `ply ${k}: ${chance}`));
  const blue = evaluationSeries(REVIEW, 'B');
  blue.forEach((chance, k) => assert.ok(Math.abs(chance + red[k] - 1) < 1e-9));
  assert.deepEqual(evaluationSeries([], 'R'), []);
});

/** sessionStorage's three calls over a Map. */
function store(): DraftStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

test('a move being built is kept per game and ply, and forgotten once empty', () => {
  const s = store();
  saveDraft(s, 'g1', 7, { cells: ['b4', 'c4'], split: 2 });
  assert.deepEqual(loadDraft(s, 'g1', 7), { cells: ['b4', 'c4'], split: 2 });
  // Another ply or game has none: a draft never outlives the position it was built on.
  assert.equal(loadDraft(s, 'g1', 8), null);
  assert.equal(loadDraft(s, 'g2', 7), null);
  saveDraft(s, 'g1', 7, { cells: [], split: null });
  assert.equal(s.map.size, 0);
});

test('a kept draft that is not a draft shape is ignored', () => {
  const s = store();
  for (const text of ['not json', 'null', '{"cells":"b4"}', '{"cells":[],"split":null}', '{"cells":["b4"],"split":3}', '{"cells":[1],"split":null}']) {
    s.setItem(draftKey('g', 1), text);
    assert.equal(loadDraft(s, 'g', 1), null, text);
  }
  s.setItem(draftKey('g', 1), '{"cells":["b4"],"split":null}');
  assert.deepEqual(loadDraft(s, 'g', 1), { cells: ['b4'], split: null });
});

test('a proven judgement reads as a fact, an estimated one as the AI\'s opinion', () => {
  const move = (judgement: ReviewedMove['judgement'], basis?: ReviewedMove['basis']): ReviewedMove => ({
    ply: 3, move: 'c3', colour: 'R', win_before: 1, win_after: 0, loss: 1, best: 'd4', judgement, basis,
  });
  assert.equal(judgementWords(move('blunder', 'proven')), 'blunder: this move lost a won game (proven)');
  assert.equal(judgementWords(move('mistake', 'estimated')), "mistake (the AI's opinion)");
  assert.equal(judgementWords(move('inaccuracy')), "inaccuracy (the AI's opinion)");
  assert.equal(judgementWords(move(null, 'proven')), '');
});

test('conditional moves are read one line per row and said in words', () => {
  assert.deepEqual(parsePlan(' a1 e5  a2 e4\n\nc3,d5 b2\n'), [['a1', 'e5', 'a2', 'e4'], ['c3,d5', 'b2']]);
  assert.deepEqual(parsePlan('   \n'), []);
  assert.equal(lineWords(['a1', 'e5', 'a2', 'e4']), 'if they play a1, play e5; then if a2, e4');
});
