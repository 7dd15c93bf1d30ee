// What the Swap 61 room pages need of their own, free of the DOM so that node's test runner
// checks it: the room's JSON shapes, the hexagon's geometry (names, centres, which tiles
// touch), reading the server's grid rows, and the bid text the clicks write. Every rule
// (what a bid may be, the allowance, the scores) stays on the server.

import type { Schemas } from './types';

/** A seat as the room shows it. */
export type RoomSeat = Schemas['SeatView'];
/** One line of a checked submission. */
export type CheckLine = Schemas['LineView'];
/** The server's check of a submission (`<check>`), with its receipt. */
export type Check = Schemas['CheckView'];
/** The seats whose walls a player borrows this round. */
export type Borrowed = Schemas['BorrowedView'];
/** What only a player's own seat sees. */
export type You = Schemas['YouView'];
/** One seat's submission, for the game master. */
export type SeatSubmission = Schemas['SubmissionView'];
/** A resolved round. */
export type RoundRecord = Schemas['RoundView'];
/** A room as the caller may see it (`<room>`). */
export type RoomView = Schemas['RoomView'];
/** One entry of the audit log. */
export type AuditEntry = Schemas['AuditLine'];

/** The hexagon's rows, `A` (top) to `I`. */
export const ROWS = 9;
const MIDDLE = 4;

/** The number of tiles in a row (0 = `A`). */
export function rowLength(row: number): number {
  return ROWS - Math.abs(row - MIDDLE);
}

/** A tile of the hexagon, by row (0 = `A`) and place in the row (0 = `1`). */
export interface HexTile {
  row: number;
  place: number;
  name: string;
}

/** The 61 tiles in reading order, `A1` first. */
export const TILES: HexTile[] = Array.from({ length: ROWS }, (_, row) =>
  Array.from({ length: rowLength(row) }, (_, place) => ({ row, place, name: `${String.fromCharCode(65 + row)}${place + 1}` })),
).flat();

/** The tile of a name like `C4` (either case), or null. */
export function tileOf(name: string): HexTile | null {
  const m = /^([A-Ia-i])([1-9])$/.exec(name.trim());
  if (!m) return null;
  const row = m[1].toUpperCase().charCodeAt(0) - 65;
  const place = Number(m[2]) - 1;
  return place < rowLength(row) ? TILES.find((t) => t.row === row && t.place === place) ?? null : null;
}

/** Twice a tile's column in half tile widths: rows are shifted by half a tile each. */
function halfColumn(tile: HexTile): number {
  return Math.abs(tile.row - MIDDLE) + 2 * tile.place;
}

/** A tile's centre in units of the tile's radius (pointy-top hexagons, `A1` near the top left). */
export function tileCentre(tile: HexTile): { x: number; y: number } {
  return { x: (halfColumn(tile) * Math.sqrt(3)) / 2, y: 1.5 * tile.row };
}

/** Whether two tiles share an edge. */
export function touching(a: HexTile, b: HexTile): boolean {
  const dx = Math.abs(halfColumn(a) - halfColumn(b));
  const dr = Math.abs(a.row - b.row);
  return (dr === 0 && dx === 2) || (dr === 1 && dx === 1);
}

/** What a tile holds, read from the grid's text. */
export type TileContent =
  | { kind: 'node'; node: number }
  | { kind: 'wall'; seat: number }
  | { kind: 'wild' }
  | { kind: 'unowned' };

/** The contents of the 61 tiles in reading order from the server's nine rows (`A: N1 P3 W ...`). */
export function readGrid(rows: string[]): TileContent[] {
  const tiles: TileContent[] = [];
  for (const row of rows) {
    const body = row.includes(':') ? row.slice(row.indexOf(':') + 1) : row;
    for (const token of body.trim().split(/\s+/).filter((t) => t !== '')) {
      const upper = token.toUpperCase();
      if (upper === 'W') tiles.push({ kind: 'wild' });
      else if (upper.startsWith('N')) tiles.push({ kind: 'node', node: Number(upper.slice(1)) });
      else if (upper.startsWith('P')) tiles.push({ kind: 'wall', seat: Number(upper.slice(1)) });
      else tiles.push({ kind: 'unowned' });
    }
  }
  return tiles;
}

/**
 * Ten colours told apart with every common colour-vision deficiency, those of
 * `swapboard swap61 show --svg` (Paul Tol's "muted" and Okabe and Ito's orange): fill and ink.
 */
export const SEAT_COLOURS: [string, string][] = [
  ['#CC6677', '#000'],
  ['#332288', '#fff'],
  ['#DDCC77', '#000'],
  ['#117733', '#fff'],
  ['#88CCEE', '#000'],
  ['#882255', '#fff'],
  ['#44AA99', '#000'],
  ['#999933', '#000'],
  ['#AA4499', '#fff'],
  ['#E69F00', '#000'],
];

/** The short text written on a tile: `N2`'s `2`, a seat's number, `W`, `U`. */
export function tileText(content: TileContent): string {
  switch (content.kind) {
    case 'node': return String(content.node);
    case 'wall': return String(content.seat);
    case 'wild': return 'W';
    case 'unowned': return 'U';
  }
}

/** A tile as a screen reader says it: `C4, wall of seat 3 (ann)`, then `extra`. */
export function tileLabel(name: string, content: TileContent, names: string[], extra: string[] = []): string {
  let what: string;
  switch (content.kind) {
    case 'node': what = `node N${content.node}`; break;
    case 'wall': {
      const who = names[content.seat - 1];
      what = `wall of seat ${content.seat}${who ? ` (${who})` : ''}`;
      break;
    }
    case 'wild': what = 'wild wall'; break;
    case 'unowned': what = 'unowned wall'; break;
  }
  return [name, what, ...extra].join(', ');
}

/** The bid text with one more line `A B TOKENS`, on a line of its own. */
export function addBidLine(text: string, a: string, b: string, tokens: number): string {
  const line = `${a.toUpperCase()} ${b.toUpperCase()} ${tokens}`;
  if (text === '') return `${line}\n`;
  return `${text}${text.endsWith('\n') ? '' : '\n'}${line}\n`;
}

/**
 * The tokens written in a bid text so far: the last number of each line of three fields
 * (blank and `#` lines left out). Only a count as one types; the server's check decides.
 */
export function tokensTyped(text: string): number {
  let sum = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    if (fields.length === 3 && /^[0-9]{1,4}$/.test(fields[2])) sum += Number(fields[2]);
  }
  return sum;
}

/** What a click on a tile does to the bid being clicked: the first tile, a line, or a restart. */
export type ClickBid =
  | { kind: 'first'; first: string }
  | { kind: 'cleared' }
  | { kind: 'line'; a: string; b: string }
  | { kind: 'apart'; first: string };

/** A click on `name` when `first` was clicked before (or nothing): two touching tiles make a line. */
export function clickBid(first: string | null, name: string): ClickBid {
  if (first === null) return { kind: 'first', first: name };
  if (first === name) return { kind: 'cleared' };
  const a = tileOf(first);
  const b = tileOf(name);
  if (a && b && touching(a, b)) return { kind: 'line', a: first, b: name };
  return { kind: 'apart', first: name };
}

/** The tile the focus moves to on a key: along the row, or to the nearest tile of the row above or below. */
export function stepTile(name: string, key: string): string {
  const tile = tileOf(name);
  if (!tile) return name;
  const rowTiles = (row: number): HexTile[] => TILES.filter((t) => t.row === row);
  const here = rowTiles(tile.row);
  switch (key) {
    case 'ArrowLeft': return here[Math.max(0, tile.place - 1)].name;
    case 'ArrowRight': return here[Math.min(here.length - 1, tile.place + 1)].name;
    case 'Home': return here[0].name;
    case 'End': return here[here.length - 1].name;
    case 'ArrowUp':
    case 'ArrowDown': {
      const row = tile.row + (key === 'ArrowUp' ? -1 : 1);
      if (row < 0 || row >= ROWS) return name;
      const x = halfColumn(tile);
      // The nearest by column; of two at the same distance, the one to the right.
      let best = rowTiles(row)[0];
      for (const t of rowTiles(row)) {
        if (Math.abs(halfColumn(t) - x) < Math.abs(halfColumn(best) - x) || (Math.abs(halfColumn(t) - x) === Math.abs(halfColumn(best) - x) && t.place > best.place)) best = t;
      }
      return best.name;
    }
    default: return name;
  }
}

/** The round's name: the pregame or `Round K`. */
export function roundName(round: number): string {
  return round === 0 ? 'The pregame' : `Round ${round}`;
}
