// Unit tests of the client's own logic (node's test runner).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  backoff, cellLabel, cellName, clickSelection, clocksNow, describeClock, filterQuery, formatClock, moveFocus,
  opponentField, readFilters, parseCell, parseRoute, positionSummary, reviewPly, safeNext, seatIndex, timeControl,
} from '../src/logic';
import type { BoardView } from '../src/types';

function view(): BoardView {
  // 3 x 3, bottom row first: Red on a1 and b2, Blue on c3.
  return {
    title: 'Swaptimum', size: 3,
    cells: ['first', null, null, null, 'first', null, null, null, 'second'],
    letters: ['R', 'B'], names: ['Red', 'Blue'], sides: ['top_bottom', 'left_right'],
    marks: [['b2', 'placed']], to_move: 'second', outcome: null, notes: [], winning: [],
  };
}

test('cells are named column letter then row from the bottom, and read back', () => {
  assert.equal(cellName(0, 0), 'a1');
  assert.equal(cellName(25, 25), 'z26');
  assert.deepEqual(parseCell('C3', 5), { col: 2, row: 2 });
  assert.equal(parseCell('f1', 5), null);
  assert.equal(parseCell('a0', 5), null);
  assert.equal(parseCell('a10x', 26), null);
});

test('a cell is labelled with its name first, then its content and marks', () => {
  assert.equal(cellLabel(view(), 0, 0), 'a1, Red');
  assert.equal(cellLabel(view(), 1, 0), 'b1, empty');
  assert.equal(cellLabel(view(), 1, 1), 'b2, Red, placed by the last move');
  assert.equal(cellLabel(view(), 2, 2, ['chosen']), 'c3, Blue, chosen');
  const won = { ...view(), winning: ['a1'] };
  assert.equal(cellLabel(won, 0, 0), 'a1, Red, on the winning path');
});

test('the position is summed up for screen readers', () => {
  assert.equal(positionSummary(view()), '3 by 3 board. Red (R): a1 b2. Blue (B): c3.');
});

test('arrow keys move the focus on the board and stop at its edges', () => {
  assert.deepEqual(moveFocus(0, 0, 'ArrowUp', 3), { col: 0, row: 1 });
  assert.deepEqual(moveFocus(0, 0, 'ArrowDown', 3), { col: 0, row: 0 });
  assert.deepEqual(moveFocus(1, 1, 'ArrowRight', 3), { col: 2, row: 1 });
  assert.deepEqual(moveFocus(2, 1, 'ArrowRight', 3), { col: 2, row: 1 });
  assert.deepEqual(moveFocus(1, 2, 'End', 3), { col: 2, row: 2 });
  assert.deepEqual(moveFocus(1, 2, 'x', 3), { col: 1, row: 2 });
});

test('review keys step through the plies within the game', () => {
  assert.equal(reviewPly('ArrowLeft', 3, 5), 2);
  assert.equal(reviewPly('ArrowLeft', 0, 5), 0);
  assert.equal(reviewPly('ArrowRight', 5, 5), 5);
  assert.equal(reviewPly('Home', 3, 5), 0);
  assert.equal(reviewPly('End', 1, 5), 5);
  assert.equal(reviewPly('a', 1, 5), null);
});

test('clocks read as a person reads them', () => {
  assert.equal(formatClock(65_000), '1:05');
  assert.equal(formatClock(64_001), '1:05');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(2 * 86_400_000 + 4 * 3_600_000), '2d 4h');
  assert.equal(formatClock(-5), '0:00');
});

test('only the running clock counts down, from the server time whatever ours says', () => {
  // Our clock is 10 s behind the server's (offset +10 s); 3 s have gone since it answered.
  const serverNow = 1_000_000;
  const localNow = serverNow - 10_000 + 3_000;
  assert.deepEqual(clocksNow([60_000, 50_000], 0, serverNow, localNow, 10_000), [57_000, 50_000]);
  assert.deepEqual(clocksNow([60_000, 50_000], null, serverNow, localNow, 10_000), [60_000, 50_000]);
  assert.deepEqual(clocksNow([2_000, 50_000], 0, serverNow, localNow, 10_000), [0, 50_000]);
});

test('a seat of the API is the index of its player', () => {
  assert.equal(seatIndex('first'), 0);
  assert.equal(seatIndex('second'), 1);
});

test('reconnection waits longer each time, up to ten seconds', () => {
  assert.equal(backoff(0), 500);
  assert.equal(backoff(1), 1000);
  assert.equal(backoff(10), 10_000);
});

test('every page has its URL', () => {
  assert.deepEqual(parseRoute('/', ''), { page: 'home' });
  assert.deepEqual(parseRoute('/unsubscribe', '?token=ab12'), { page: 'unsubscribe', token: 'ab12' });
  assert.deepEqual(parseRoute('/moderation', ''), { page: 'moderation', tab: 'reports', name: null, all: false, before: null });
  assert.deepEqual(parseRoute('/moderation', '?tab=accounts&name=carl'), { page: 'moderation', tab: 'accounts', name: 'carl', all: false, before: null });
  assert.deepEqual(parseRoute('/moderation', '?all=true&before=12'), { page: 'moderation', tab: 'reports', name: null, all: true, before: 12 });
  // A page mark that is no number is left out, not sent to the server.
  assert.equal((parseRoute('/moderation', '?before=1e9') as { before: number | null }).before, null);
  assert.deepEqual(parseRoute('/login', '?next=/new'), { page: 'login' });
  assert.deepEqual(parseRoute('/games/ab12', '?invite=ff&ply=3'), { page: 'game', id: 'ab12', invite: 'ff', ply: 3 });
  assert.deepEqual(parseRoute('/games/ab12/', ''), { page: 'game', id: 'ab12', invite: null, ply: null });
  assert.deepEqual(parseRoute('/games/ab12', '?ply=-1'), { page: 'game', id: 'ab12', invite: null, ply: null });
  assert.deepEqual(parseRoute('/players/Ann%20B', ''), { page: 'player', name: 'Ann B' });
  assert.deepEqual(parseRoute('/notifications', ''), { page: 'notifications' });
  assert.deepEqual(parseRoute('/confirm-email', '?token=ab12'), { page: 'confirmEmail', token: 'ab12' });
  assert.deepEqual(parseRoute('/confirm-email', ''), { page: 'confirmEmail', token: null });
  assert.deepEqual(parseRoute('/tournaments', ''), { page: 'tournaments', id: null });
  assert.deepEqual(parseRoute('/tournaments/4be1a2', ''), { page: 'tournaments', id: '4be1a2' });
  assert.deepEqual(parseRoute('/tournaments/<x>', ''), { page: 'missing' });
  assert.deepEqual(parseRoute('/leaderboards/rapid-transit', ''), { page: 'leaderboard', game: 'rapid-transit', band: null, bots: false });
  assert.deepEqual(parseRoute('/players', ''), { page: 'players' });
  assert.deepEqual(parseRoute('/leaderboards/flipstop', '?band=small&bots=true'), { page: 'leaderboard', game: 'flipstop', band: 'small', bots: true });
  assert.deepEqual(parseRoute('/leaderboards/flipstop', '?band=<x>'), { page: 'leaderboard', game: 'flipstop', band: null, bots: false });
  assert.deepEqual(parseRoute('/forgot-password', ''), { page: 'forgotPassword' });
  assert.deepEqual(parseRoute('/reset-password', '?token=cd34'), { page: 'resetPassword', token: 'cd34' });
  assert.deepEqual(parseRoute('/reset-password', ''), { page: 'resetPassword', token: null });
  assert.deepEqual(parseRoute('/vacation', ''), { page: 'vacation' });
  assert.deepEqual(parseRoute('/nowhere/at/all', ''), { page: 'missing' });
});

test('after a login only a path of this site is followed', () => {
  assert.equal(safeNext('/games/x?ply=2'), '/games/x?ply=2');
  assert.equal(safeNext('//evil.example/'), '/');
  assert.equal(safeNext('/\\evil.example'), '/');
  assert.equal(safeNext('https://evil.example/'), '/');
  assert.equal(safeNext(null), '/');
});

test('a click adds a cell, and a chosen cell takes itself and what followed back', () => {
  assert.deepEqual(clickSelection([], 'c3', []), { cells: ['c3'], added: true });
  assert.deepEqual(clickSelection(['c3', 'd4'], 'e5', []), { cells: ['c3', 'd4', 'e5'], added: true });
  assert.deepEqual(clickSelection(['c3', 'd4', 'e5'], 'd4', []), { cells: ['c3'], added: false });
  // The checker just placed may be one of the swap's two.
  assert.deepEqual(clickSelection(['c3'], 'c3', ['c3', 'd4']), { cells: ['c3', 'c3'], added: true });
});

test('the new-game form makes the API fields', () => {
  assert.equal(timeControl('none', 3, 10, 5), null);
  assert.deepEqual(timeControl('correspondence', 3, 10, 5), { days_per_move: 3 });
  assert.deepEqual(timeControl('live', 3, 1.5, 2), { initial_s: 90, increment_s: 2 });
  assert.equal(opponentField('ai', 5, ''), 'ai:5');
  assert.equal(opponentField('user', 5, ' bob '), 'user:bob');
  assert.equal(opponentField('invite', 5, ''), 'invite');
  assert.equal(opponentField('open', 5, 'x'), 'open');
  assert.equal(describeClock({ initial_s: 90, increment_s: 2 }), '1.5 min + 2 s');
  assert.equal(describeClock({ days_per_move: 1 }), '1 day a move');
});

test('a player\'s game filters: read from the address only when valid, written back in order', () => {
  const games = ['swaptimum', 'flipstop'];
  const read = (search: string) => readFilters(new URLSearchParams(search), games);
  assert.deepEqual(read(''), { status: undefined, game: undefined, result: undefined, rated: undefined, opponent: undefined });
  assert.equal(filterQuery(read('')), '');
  // Unknown values are dropped, not sent to the server to be refused.
  assert.equal(filterQuery(read('?status=over&game=chess&result=tie&rated=yes&opponent=%20%20')), '');
  assert.equal(filterQuery(read('?opponent=%20bob%20&rated=true&game=flipstop&result=won&status=finished')),
    '?status=finished&game=flipstop&result=won&rated=true&opponent=bob');
  // A name is written back escaped.
  assert.equal(filterQuery({ opponent: 'ann & co' }), '?opponent=ann+%26+co');
});
