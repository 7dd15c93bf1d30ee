// Unit tests of the room page's state (src/room/state.ts): the status and deadline in words,
// the reader's part, bids by clicks, a new round, and the room read one request at a time.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  checkLines, deadlineWords, historyKey, isMaster, joinChoice, legendLine, roomState, serially, statusWords, takeRoom, tileStep,
} from '../src/room/state';
import type { RoomView, You } from '../src/swap61';

function room(over: Partial<RoomView> = {}): RoomView {
  return {
    id: 'r1', status: 'playing', master: 'Gm', size: 9, round5: 'theme', round_hours: 24, round: 1, variation: 'theme',
    joined: [], seats: [{ seat: 1, name: 'ann', bot: false, vacant: false }, { seat: 2, name: 'bot', bot: true, vacant: false }],
    grid: [], pairs: ['P1-P2'], next_pairs: [], submitted: 1, finals: 0, totals: [0, 0], standings: [], rounds: [],
    deadline_ms: 1_000_000 + 65_000, paused: false, server_now_ms: 1_000_000, invite: null, you: null, submissions: null, ...over,
  };
}

const ANN: You = { seat: 1, walls: ['A1'], borrowed: [{ seat: 2, name: 'bot', walls: ['B1'] }], submission: null, check: null, final: false };

test('the room\'s state in words: lobby, the open round, finished', () => {
  assert.equal(statusWords(room({ status: 'lobby', joined: ['ann'] })), 'Lobby: 1 of 9 joined. Game master: Gm.');
  assert.equal(statusWords(room()), 'Round 1 is open (theme): 1 of 2 seats have submitted, 0 marked final. Game master: Gm.');
  assert.equal(statusWords(room({ status: 'finished' })), 'Finished. Game master: Gm.');
});

test('the deadline counts down from the server\'s time, or says the clock is paused', () => {
  // Our clock is 10 s behind the server's; 5 s have gone since it answered.
  const s = roomState(room(), 1_000_000 - 10_000);
  assert.equal(deadlineWords(s, 1_000_000 - 5_000), 'Resolves in 1:00.');
  s.room = room({ paused: true });
  assert.equal(deadlineWords(s, 0), 'The round\'s clock is paused.');
  s.room = room({ status: 'lobby' });
  assert.equal(deadlineWords(s, 0), '');
  s.room = room({ deadline_ms: null });
  assert.equal(deadlineWords(s, 0), null);
});

test('the game master, and an invited reader\'s way to a seat', () => {
  const lobby = room({ status: 'lobby', joined: ['Ann'] });
  assert.equal(isMaster(lobby, 'gm'), true);
  assert.equal(isMaster(lobby, null), false);
  assert.equal(joinChoice(lobby, 'bob', true), 'join');
  assert.equal(joinChoice(lobby, null, true), 'login');
  assert.equal(joinChoice(lobby, 'ann', true), 'none');
  assert.equal(joinChoice(lobby, 'gm', true), 'none');
  assert.equal(joinChoice(lobby, 'bob', false), 'none');
  assert.equal(joinChoice(room(), 'bob', true), 'none');
});

test('the legend names the reader\'s seat and the seats they borrow', () => {
  const r = room({ you: ANN });
  assert.equal(legendLine(r, r.seats[0]), ' P1 \u2068ann\u2069 (you)');
  assert.equal(legendLine(r, r.seats[1]), ' P2 \u2068bot\u2069 (bot) (borrowed this round)');
  assert.equal(legendLine(room(), { seat: 3, name: 'cat', bot: false, vacant: true }), ' P3 \u2068cat\u2069 (vacant)');
  // A name written right to left stays between its seat and its marks.
  assert.equal(legendLine(room(), { seat: 4, name: '\u05d3\u05e0\u05d9', bot: false, vacant: false }), ' P4 \u2068\u05d3\u05e0\u05d9\u2069');
});

test('two touching tiles add a bid line; a player\'s clicks only, while the room plays', () => {
  const s = roomState(room({ you: ANN }), 0);
  assert.deepEqual(tileStep(s, 'A1', '', 2), { hint: 'A1 chosen: click a tile that touches it.', text: null });
  assert.deepEqual(tileStep(s, 'C3', '', 2), { hint: 'Those two tiles do not touch: C3 chosen instead.', text: null });
  assert.equal(s.first, 'C3');
  assert.deepEqual(tileStep(s, 'C4', 'A1 A2 1', 2), { hint: 'Added C3 C4 2.', text: 'A1 A2 1\nC3 C4 2\n' });
  assert.equal(s.first, null);
  assert.equal(s.dirty, true);
  tileStep(s, 'E5', '', 1);
  assert.deepEqual(tileStep(s, 'E5', '', 1), { hint: 'E5 no longer chosen.', text: null });
  // Tokens are 1 to 99 whatever is typed.
  tileStep(s, 'A1', '', 500);
  assert.equal(tileStep(s, 'A2', '', 500)?.text, 'A1 A2 99\n');
  assert.equal(tileStep(roomState(room(), 0), 'A1', '', 1), null);
  assert.equal(tileStep(roomState(room({ you: ANN, status: 'finished' }), 0), 'A1', '', 1), null);
});

test('a new round drops the player\'s text and half-clicked bid of the round before', () => {
  const s = roomState(room({ you: ANN }), 0);
  s.first = 'A1';
  s.dirty = true;
  assert.equal(takeRoom(s, room({ you: ANN, server_now_ms: 5 }), 0), false);
  assert.equal(s.first, 'A1');
  assert.equal(s.offset, 5);
  assert.equal(takeRoom(s, room({ you: ANN, round: 2 }), 0), true);
  assert.deepEqual([s.first, s.dirty, s.round], [null, false, 2]);
});

test('a check reads line by line', () => {
  const lines = checkLines({
    round: 1, receipt: 'x', tokens: { spent: 3, allowance: 10 },
    lines: [{ line: 1, status: 'accepted', edge: 'A1-A2', tokens: 1 }, { line: 2, status: 'accepted', edge: 'B1-B2', tokens: 2 }, { line: 3, status: 'rejected', reason: 'A1 and C3 do not touch' }],
  });
  assert.deepEqual(lines.map((l) => l.words), [
    'line 1: A1-A2, 1 token, accepted', 'line 2: B1-B2, 2 tokens, accepted', 'line 3: rejected, A1 and C3 do not touch',
  ]);
  assert.deepEqual(lines.map((l) => l.status), ['accepted', 'accepted', 'rejected']);
});

test('the history is drawn again only when its rounds or the seats\' names change', () => {
  const record = { round: 1, variation: 'theme', pairs: [], grid: ['A: W'], scores: null };
  const before = historyKey(room({ rounds: [record] }));
  assert.equal(historyKey(room({ rounds: [record], submitted: 2 })), before);
  assert.notEqual(historyKey(room({ rounds: [{ ...record, scores: [1, 2] }] })), before);
  assert.notEqual(historyKey(room({ rounds: [record], seats: [] })), before);
});

test('the room is read one request at a time, and once more for changes during one', async () => {
  let reads = 0;
  let release: () => void = () => undefined;
  const read = serially(async () => {
    reads += 1;
    if (reads === 1) await new Promise<void>((done) => { release = done; });
  });
  const first = read();
  // Three changes while the first read runs: one more read, not three.
  await Promise.all([read(), read(), read()]);
  assert.equal(reads, 1);
  release();
  await first;
  assert.equal(reads, 2);
  await read();
  assert.equal(reads, 3);
});

