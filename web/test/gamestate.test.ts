// Unit tests of the game page's state (src/game/state.ts): whose turn, what the prompt and
// buttons offer, what a click and the builder's answer lead to, what a socket's game keeps,
// the rematch and the join in words; and the socket's handlers by message type.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  challengeChoice, clickStep, controls, gameState, highlights, isNews, joinChoice, mySeat, myTurn, promptWords, rematchChoice, resignWord, seatToMove,
  shownWords, statusWords, takeAnswer, takeGame, type GameState,
} from '../src/game/state';
import { dispatch, type Handlers } from '../src/live';
import type { BoardView, Draft, GameMessage, GameView, PlyView, Seat } from '../src/types';

const BOARD: BoardView = {
  title: 'Swaptimum', size: 3, cells: Array(9).fill(null), letters: ['R', 'B'], names: ['Red', 'Blue'],
  sides: ['top_bottom', 'left_right'], marks: [], to_move: 'first', outcome: null, notes: [], winning: [],
};

/** ann (first, Red) against bob (second, Blue), read by the seat `yours`. */
function game(yours: Seat | null, over: Partial<GameView> = {}): GameView {
  return {
    id: 'g', game: 'swaptimum', size: 3, status: 'playing', ply: 2, position: 'swaptimum ./.R./R.. B', moves: ['a1', 'b2'],
    players: [{ name: 'ann', colour: 'R', seated: true }, { name: 'bob', colour: 'B', seated: true }],
    to_move: 'ann', seat_to_move: 'first', your_seat: yours, result: null, clock: null, clocks: null, rated: false, ...over,
  };
}

function view(ply: number): PlyView {
  return { ply, board: BOARD, move: null, description: null, ending: null };
}

function state(yours: Seat | null, over: Partial<GameView> = {}, shownPly = 2): GameState {
  const g = game(yours, over);
  return gameState(g, { moves: [], ending: null }, view(shownPly), shownPly === g.ply, 0);
}

function draft(over: Partial<Draft>): Draft {
  const more: Draft = { verdict: 'more', more: true, next: ['a1', 'c3'], prompt: 'Choose a cell.' };
  // A verdict and its fields are one member of the union: spread, they are one object again.
  return { ...more, ...over } as Draft;
}

test('the turn is the server\'s: the reader\'s seat and the seat to move, never the position text', () => {
  const ann = state('first');
  assert.equal(mySeat(ann), 0);
  assert.equal(seatToMove(ann.game), 0);
  assert.equal(myTurn(ann), true);
  assert.equal(statusWords(ann), 'Your move.');
  const bob = state('second');
  assert.equal(myTurn(bob), false);
  assert.equal(statusWords(bob), 'ann to move.');
  // The position text says Blue (B) is to move: the page does not read it.
  const watcher = state(null);
  assert.equal(mySeat(watcher), null);
  assert.equal(myTurn(watcher), false);
  assert.equal(seatToMove(game(null, { status: 'finished', seat_to_move: null })), null);
  assert.equal(statusWords(state(null, { status: 'waiting' })), 'Waiting for a player to join.');
});

test('a finished game says its ending, else the moves\' or the view\'s, else that it is over', () => {
  const result = { winner: 'bob', termination: 'rules', how: 'by connection' };
  assert.equal(statusWords(state('first', { status: 'finished', result })), 'You lost by connection.');
  const bare = state('first', { status: 'finished', result: { winner: 'bob', termination: 'rules', how: '' } });
  assert.equal(statusWords(bare), 'The game is over.');
  bare.moves = { moves: [], ending: 'Blue wins.' };
  assert.equal(statusWords(bare), 'Blue wins.');
});

test('only the player to move, on the last ply, with nothing under way, builds a move', () => {
  const s = state('first');
  s.building.draft = draft({});
  assert.deepEqual(highlights(s), { next: ['a1', 'c3'], chosen: [], interactive: true });
  assert.equal(promptWords(s), 'Choose a cell.');
  s.busy = true;
  assert.deepEqual(highlights(s), { next: [], chosen: [], interactive: false });
  const review = state('first', {}, 1);
  assert.equal(review.following, false);
  assert.equal(promptWords(review), 'Showing the position after ply 1 of 2. Press End to return.');
  assert.deepEqual(controls(review), []);
  assert.equal(promptWords(state('second')), '');
});

test('the buttons follow the builder: Play a move that can grow, its actions, Clear, Confirm', () => {
  const s = state('first');
  s.building = { cells: ['b4', 'c4'], split: null, draft: draft({ verdict: 'complete', move: 'b4+c4', actions: ['end_growth', 'pass'] }), pending: null };
  assert.deepEqual(controls(s).map((c) => c.kind), ['play', 'new-group', 'pass', 'clear']);
  assert.deepEqual(controls(s)[0], { kind: 'play', move: 'b4+c4' });
  // After the balancing move no second "+ new group".
  s.building.split = 2;
  assert.deepEqual(controls(s).map((c) => c.kind), ['play', 'pass', 'clear']);
  s.building.pending = 'b4+c4';
  assert.deepEqual(controls(s), [{ kind: 'confirm', move: 'b4+c4' }, { kind: 'cancel' }]);
  assert.equal(promptWords(s), 'Play b4+c4?');
});

test('a click is refused in words, starts again, or asks the builder', () => {
  assert.deepEqual(clickStep(state('second'), 'a1'), { kind: 'refuse', reason: 'It is not your turn.' });
  assert.deepEqual(clickStep(state('first', {}, 1), 'a1'), { kind: 'refuse', reason: 'You are looking at an earlier position: press End to return to the game.' });
  assert.deepEqual(clickStep(state(null), 'a1'), { kind: 'ignore' });
  const s = state('first');
  s.building = { cells: ['b4', 'c4', 'd4'], split: 3, draft: draft({ next: [] }), pending: null };
  assert.deepEqual(clickStep(s, 'e4'), { kind: 'ask', cells: ['b4', 'c4', 'd4', 'e4'], split: 3 });
  // Taking back the cells of the new group takes its split back too.
  assert.deepEqual(clickStep(s, 'c4'), { kind: 'ask', cells: ['b4'], split: null });
  assert.deepEqual(clickStep(s, 'b4'), { kind: 'restart' });
  s.building.pending = 'b4+c4+d4';
  assert.deepEqual(clickStep(s, 'e4'), { kind: 'refuse', reason: 'Confirm or cancel b4+c4+d4 first.' });
  s.busy = true;
  assert.deepEqual(clickStep(s, 'e4'), { kind: 'ignore' });
});

test('the builder\'s answer: refused keeps the move, a whole move is sent, else more', () => {
  const before = { cells: ['b4'], split: null, draft: draft({}), pending: null };
  const refused = takeAnswer(before, ['b4', 'z9'], null, draft({ verdict: 'refused', reason: 'z9 is off the board' }));
  assert.deepEqual(refused, { building: before, step: { kind: 'refused', reason: 'z9 is off the board' } });
  const whole = takeAnswer(before, ['b4', 'c4'], null, draft({ verdict: 'complete', more: false, move: 'b4+c4' }));
  assert.deepEqual(whole.step, { kind: 'submit', move: 'b4+c4' });
  assert.deepEqual(whole.building.cells, ['b4', 'c4']);
  const more = takeAnswer(before, ['b4', 'c4'], 1, draft({ verdict: 'complete', more: true, move: 'b4+c4' }));
  assert.deepEqual(more.step, { kind: 'more' });
  assert.equal(more.building.split, 1);
});

test('a socket\'s game keeps the reader\'s seat and invite; the reader\'s own answers replace them', () => {
  const mine = game('first', { invite: 'secret' });
  const everyone = game(null, { ply: 3, invite: null });
  assert.deepEqual(takeGame(mine, everyone, true), { ...everyone, your_seat: 'first', invite: 'secret' });
  const joined = game('second', { invite: null });
  assert.equal(takeGame(game(null), joined, false).your_seat, 'second');
});

test('a move the page has is no news; a state always is', () => {
  const g = game('first');
  const move = (ply: number): GameMessage => ({ type: 'move', ply, move: 'c3', game: g });
  assert.equal(isNews(g, move(2)), false);
  assert.equal(isNews(g, move(3)), true);
  assert.equal(isNews(g, { type: 'state', game: g }), true);
});

test('the socket\'s messages go to the handler of their type; an unknown type is ignored', () => {
  const seen: string[] = [];
  const handlers: Handlers<GameMessage> = {
    state: (m) => seen.push(`state ${m.game.ply}`),
    move: (m) => seen.push(`move ${m.ply} ${m.move}`),
    chat: (m) => seen.push(`chat ${m.channel}`),
  };
  const g = game('first');
  dispatch(handlers, { type: 'move', ply: 3, move: 'c3', game: g });
  dispatch(handlers, { type: 'state', game: g });
  dispatch(handlers, { type: 'gossip', text: 'hi' } as unknown as GameMessage);
  dispatch(handlers, { type: 'toString' } as unknown as GameMessage);
  dispatch(handlers, null as unknown as GameMessage);
  assert.deepEqual(seen, ['move 3 c3', 'state 2']);
});

test('a rematch is offered to the other player, owned by its maker, shown to watchers', () => {
  const over = { status: 'finished' as const, rematch: 'r', seat_to_move: null };
  // The offer as bob reads it: ann sits in it, bob's seat is kept for him.
  const offer = game(null, { id: 'r', status: 'waiting', players: [{ name: 'bob', colour: 'R', seated: false }, { name: 'ann', colour: 'B', seated: true }] });
  const bob = state('second', over);
  assert.deepEqual(rematchChoice(bob), { kind: 'ask', made: true });
  assert.deepEqual(rematchChoice(state('second', { ...over, tournament: 't1' })), { kind: 'none' }, 'a tournament pairs its own');
  bob.offer = offer;
  assert.deepEqual(rematchChoice(bob), { kind: 'offered', by: 'ann' });
  bob.declined = true;
  assert.deepEqual(rematchChoice(bob), { kind: 'none' });
  const ann = state('first', over);
  ann.offer = { ...offer, your_seat: 'second' };
  assert.deepEqual(rematchChoice(ann), { kind: 'mine' });
  const watcher = state(null, over);
  watcher.offer = offer;
  assert.deepEqual(rematchChoice(watcher), { kind: 'watch', by: 'ann', id: 'r' });
  assert.deepEqual(rematchChoice(state('first', { status: 'finished' })), { kind: 'ask', made: false });
  assert.deepEqual(rematchChoice(state(null, { status: 'finished' })), { kind: 'none' });
});

test('an open seat is offered to whom it is kept for, or with the invite; a visitor logs in first', () => {
  const waiting = (name: string | null): GameState =>
    state(null, { status: 'waiting', players: [{ name: 'ann', colour: 'R', seated: true }, { name, colour: 'B', seated: false }] });
  assert.equal(joinChoice(waiting(null), 'cat', false), 'join');
  assert.equal(joinChoice(waiting('Cat'), 'cat', false), 'join');
  assert.equal(joinChoice(waiting('bob'), 'cat', false), 'none');
  assert.equal(joinChoice(waiting('bob'), 'cat', true), 'join');
  assert.equal(joinChoice(waiting(null), null, false), 'login');
  assert.equal(joinChoice(state('first', { status: 'waiting' }), 'ann', false), 'none');
  assert.equal(joinChoice(state(null), 'cat', false), 'none');
});

test('a challenge is cancelled by its challenger, declined by the account it waits for, and ends in words', () => {
  const waiting = (kept: string | null, yours: Seat | null): GameState =>
    state(yours, { status: 'waiting', players: [{ name: 'ann', colour: 'R', seated: true }, { name: kept, colour: 'B', seated: false }] });
  assert.equal(challengeChoice(waiting('bob', 'first'), 'ann'), 'cancel');
  assert.equal(challengeChoice(waiting('bob', null), 'Bob'), 'decline');
  assert.equal(challengeChoice(waiting('bob', null), 'cat'), 'none');
  assert.equal(challengeChoice(waiting(null, null), 'cat'), 'none', 'an open challenge is joined, not declined');
  assert.equal(challengeChoice(waiting('bob', null), null), 'none');
  assert.equal(challengeChoice(state('first'), 'ann'), 'none', 'a game being played is no challenge');
  assert.equal(statusWords(state(null, { status: 'declined', decline_reason: 'not today' })), 'The challenge was declined: \u201cnot today\u201d');
  assert.equal(statusWords(state(null, { status: 'declined' })), 'The challenge was declined.');
  assert.equal(statusWords(state(null, { status: 'cancelled' })), 'The challenge was cancelled.');
  assert.equal(statusWords(state(null, { status: 'expired' })), 'The challenge expired: nobody joined in time.');
});

test('the server says whether giving up aborts or resigns; the shown ply in words', () => {
  assert.equal(resignWord(game('first', { ply: 1, abortable: true })), 'Abort');
  assert.equal(resignWord(game('first', { ply: 1, tournament: 't1', abortable: false })), 'Resign', 'a tournament game is never aborted');
  assert.equal(resignWord(game('first', { ply: 2, abortable: false })), 'Resign');
  assert.equal(shownWords(view(0)), 'The start position.');
  assert.equal(shownWords({ ...view(3), move: 'c3', description: 'Red c3: placed c3' }), 'After ply 3: Red c3: placed c3');
  assert.equal(shownWords({ ...view(3), move: 'c3' }), 'After ply 3: c3');
});
