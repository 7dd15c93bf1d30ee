// Unit tests of the tournament pages' state (src/tournaments/state.ts): what the caller may
// do, the status in words, a round robin's crosstable, a pairing's words, a rating chart's
// points; and the ratings' words (src/ratings.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ratingChangeWords, ratingWords } from '../src/ratings';
import { actions, chartPoints, crosstables, pairingWords, statusWords } from '../src/tournaments/state';
import type { PairingView, TournamentView } from '../src/types';

function pairing(first: string, second: string, result: PairingView['result'], round = 1): PairingView {
  return { id: `g${round}${first}${second}`, division: 1, first, second, result };
}

function tournament(over: Partial<TournamentView> = {}): TournamentView {
  return {
    id: 't1', game: 'flipstop', size: 5, format: 'round_robin', status: 'running', clock: { days_per_move: 3 },
    starts_at: '2026-12-01T18:00:00Z', total_rounds: 6, round: 2, player_count: 3, min_players: 2, max_players: 10,
    rated: true, finished_at: null, creator: 'ann',
    players: ['ann', 'bob', 'cy'].map((name) => ({ name, rating: 1500, division: 1, withdrawn: false })),
    rounds: [
      { round: 1, games: [pairing('ann', 'bob', 'first')], bye: null },
      { round: 2, games: [pairing('bob', 'cy', null, 2)], bye: null },
      { round: 4, games: [pairing('bob', 'ann', 'draw', 4)], bye: null },
    ],
    standings: [
      { rank: 1, name: 'ann', points: 1.5, sonneborn_berger: 0.75, second_player_wins: 0, rating: 1500, division: 1 },
      { rank: 2, name: 'bob', points: 0.5, sonneborn_berger: 0.75, second_player_wins: 0, rating: 1500, division: 1 },
      { rank: 3, name: 'cy', points: 0, sonneborn_berger: 0, second_player_wins: 0, rating: 1500, division: 1 },
    ],
    ...over,
  };
}

test('the buttons follow the stage, the entry and the creator', () => {
  const open = tournament({ status: 'open', players: [{ name: 'ann', rating: 1500, division: null, withdrawn: false }], player_count: 2 });
  assert.deepEqual(actions(open, null), { join: false, leave: false, start: false });
  assert.deepEqual(actions(open, 'ann'), { join: false, leave: true, start: true });
  assert.deepEqual(actions(open, 'dee'), { join: true, leave: false, start: false });
  assert.deepEqual(actions({ ...open, player_count: 10 }, 'dee').join, false, 'a full tournament takes nobody');
  assert.deepEqual(actions({ ...open, player_count: 1 }, 'ann').start, false, 'too few players to start');
  assert.deepEqual(actions(tournament(), 'bob'), { join: false, leave: true, start: false });
  const withdrawn = tournament({ players: [{ name: 'bob', rating: 1500, division: 1, withdrawn: true }] });
  assert.equal(actions(withdrawn, 'bob').leave, false);
  assert.equal(actions(tournament({ status: 'finished' }), 'bob').leave, false);
});

test('the status in words', () => {
  assert.match(statusWords(tournament()), /Round 2 of 6 is being played/);
  assert.match(statusWords(tournament({ status: 'open', format: 'swiss' })), /^Swiss\. Open for entries: 3 of 2 to 10 players/);
  assert.match(statusWords(tournament({ status: 'finished' })), /Finished after 6 rounds/);
});

test('a round robin\'s crosstable: standings order, each pair\'s games from the row player\'s side', () => {
  const [table] = crosstables(tournament());
  assert.equal(table.division, 1);
  assert.deepEqual(table.players, ['ann', 'bob', 'cy']);
  assert.deepEqual(table.rows[0], [{ kind: 'self' }, { kind: 'games', scores: ['1', '½'] }, { kind: 'games', scores: [] }]);
  assert.deepEqual(table.rows[1][0], { kind: 'games', scores: ['0', '½'] });
  assert.deepEqual(table.rows[1][2], { kind: 'games', scores: [null] });
  assert.deepEqual(crosstables(tournament({ format: 'swiss' })), []);
});

test('a pairing in words', () => {
  assert.equal(pairingWords(pairing('ann', 'bob', 'first')), 'ann – bob 1–0');
  assert.equal(pairingWords(pairing('ann', 'bob', 'second')), 'ann – bob 0–1');
  assert.equal(pairingWords(pairing('ann', 'bob', 'draw')), 'ann – bob ½–½');
  assert.equal(pairingWords(pairing('ann', 'bob', null)), 'ann – bob');
});

test('a rating history\'s chart points: time across, the highest rating at the top', () => {
  assert.deepEqual(chartPoints([], 100, 50), []);
  assert.deepEqual(chartPoints([{ at_ms: 5, rating: 1500 }], 100, 50), [[50, 25]]);
  assert.deepEqual(chartPoints([{ at_ms: 0, rating: 1400 }, { at_ms: 10, rating: 1600 }, { at_ms: 20, rating: 1500 }], 100, 50),
    [[0, 50], [50, 0], [100, 25]]);
});

test('a rating in words', () => {
  assert.equal(ratingWords({ rating: 1612.4, provisional: true }), '1612?');
  assert.equal(ratingWords({ rating: 1612.6, provisional: false }), '1613');
});

test('a rated game\'s change in words', () => {
  assert.equal(ratingChangeWords(12.4), '+12');
  assert.equal(ratingChangeWords(-243.1), '\u2212243');
  // Rounding to nothing is no loss.
  assert.equal(ratingChangeWords(-0.4), '+0');
  assert.equal(ratingChangeWords(0), '+0');
});
