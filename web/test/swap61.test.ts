// Unit tests of the Swap 61 room pages' own logic (node's test runner).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseRoute } from '../src/logic';
import { TILES, addBidLine, clickBid, readGrid, stepTile, tileLabel, tileOf, tokensTyped, touching } from '../src/swap61';

const tile = (name: string) => {
  const t = tileOf(name);
  assert.ok(t, name);
  return t;
};

test('the hexagon has 61 named tiles, rows A to I of 5 to 9 and back', () => {
  assert.equal(TILES.length, 61);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((r) => TILES.filter((t) => t.row === r).length), [5, 6, 7, 8, 9, 8, 7, 6, 5]);
  assert.equal(TILES[0].name, 'A1');
  assert.equal(TILES[60].name, 'I5');
  assert.equal(tileOf('e9')?.name, 'E9');
  assert.equal(tileOf('A6'), null);
  assert.equal(tileOf('J1'), null);
});

test('touching tiles follow the rulings: B2 and F2 have the neighbours of the hex crate', () => {
  const around = (name: string) => TILES.filter((t) => touching(tile(name), t)).map((t) => t.name).sort();
  assert.deepEqual(around('B2'), ['A1', 'A2', 'B1', 'B3', 'C2', 'C3']);
  assert.deepEqual(around('F2'), ['E2', 'E3', 'F1', 'F3', 'G1', 'G2']);
  assert.deepEqual(around('A1'), ['A2', 'B1', 'B2']);
  assert.deepEqual(around('E9'), ['D8', 'E8', 'F8']);
});

test('the grid rows read into 61 tile contents', () => {
  const rows = [
    'A: N1 P1 P1 P1 P1',
    'B: P1 P2 P2 P2 P2 P2',
    'C: N2 P3 P3 P3 P3 P3 W',
    'D: P4 P4 P4 P4 P4 P5 P5 P5',
    'E: N3 P5 P5 P6 P6 P6 P6 P6 N4',
    'F: P7 P7 P7 P7 P7 P8 P8 P8',
    'G: P8 P8 P9 P9 P9 P9 P9',
    'H: N5 N6 N7 P10 P10 P10',
    'I: P10 P10 N8 N9 U',
  ];
  const tiles = readGrid(rows);
  assert.equal(tiles.length, 61);
  assert.deepEqual(tiles[0], { kind: 'node', node: 1 });
  assert.deepEqual(tiles[1], { kind: 'wall', seat: 1 });
  assert.deepEqual(tiles[17], { kind: 'wild' });
  assert.deepEqual(tiles[60], { kind: 'unowned' });
  assert.equal(tileLabel('A2', tiles[1], ['ann'], ['your wall']), 'A2, wall of seat 1 (ann), your wall');
  assert.equal(tileLabel('A1', tiles[0], []), 'A1, node N1');
});

test('two touching clicks write a line; a third click starts again', () => {
  assert.deepEqual(clickBid(null, 'C4'), { kind: 'first', first: 'C4' });
  assert.deepEqual(clickBid('C4', 'C4'), { kind: 'cleared' });
  assert.deepEqual(clickBid('C4', 'C5'), { kind: 'line', a: 'C4', b: 'C5' });
  assert.deepEqual(clickBid('C4', 'E7'), { kind: 'apart', first: 'E7' });
  assert.equal(addBidLine('', 'c4', 'c5', 1), 'C4 C5 1\n');
  assert.equal(addBidLine('# mine\nA1 A2 3', 'C4', 'C5', 2), '# mine\nA1 A2 3\nC4 C5 2\n');
  assert.equal(tokensTyped('# 9 tokens\nA1 A2 3\n\nC4 C5 2\nbad line\n'), 5);
});

test('arrow keys move along a row and to the nearest tile of the next row', () => {
  assert.equal(stepTile('A1', 'ArrowLeft'), 'A1');
  assert.equal(stepTile('A1', 'ArrowRight'), 'A2');
  assert.equal(stepTile('A1', 'ArrowUp'), 'A1');
  assert.equal(stepTile('A1', 'ArrowDown'), 'B2');
  assert.equal(stepTile('E1', 'ArrowDown'), 'F1');
  assert.equal(stepTile('E5', 'ArrowUp'), 'D5');
  assert.equal(stepTile('C3', 'End'), 'C7');
  for (const t of TILES) {
    for (const key of ['ArrowUp', 'ArrowDown']) {
      const to = stepTile(t.name, key);
      assert.ok(to === t.name || touching(t, tile(to)), `${t.name} ${key} -> ${to}`);
    }
  }
});

test('room routes', () => {
  assert.deepEqual(parseRoute('/rooms/new', ''), { page: 'newRoom' });
  assert.deepEqual(parseRoute('/rooms/ab12', '?invite=ff'), { page: 'room', id: 'ab12', invite: 'ff' });
  assert.deepEqual(parseRoute('/rooms/ab12', ''), { page: 'room', id: 'ab12', invite: null });
  assert.deepEqual(parseRoute('/rooms/a b', ''), { page: 'missing' });
});
