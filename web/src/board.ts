// The board as SVG, drawn from the server's view. The cells are made once per board size and
// then only their attributes change, so a redraw of a 26 x 26 board stays within a frame.

import { h, s } from './dom';
import { cellIndex, cellLabel, cellName, MARK_WORDS, moveFocus, parseCell, seatIndex } from './logic';
import type { BoardView, CellMark } from './types';

const CELL = 40;
const EDGE = 8;
const MARGIN = 30;

/** The page's background (`--paper` of style.css), which the board's edges are drawn on. */
export const PAPER = '#fbfaf7';
/** The board's wood (`.wood` of style.css). */
export const WOOD = '#e9d8a6';
/**
 * The colour of a side's edges, by colour name where it differs from the fill: White's
 * own fill is invisible on the page, so its edges are a warm grey, 4.46:1 against the page
 * and 3.29:1 against the wood (test/board.test.ts computes both).
 */
export const SIDE_FILLS: Record<string, string> = { White: '#75756a' };
/** The render crate's colour-blind-safe fills, by colour name. */
export const FILLS: Record<string, string> = { Red: '#d62728', Blue: '#1f5fbf', White: '#f4f4f0', Cyan: '#17becf' };
/** Darker shades for links and network outlines. */
const DARK: Record<string, string> = { Red: '#7a1517', Blue: '#0f2f60', White: '#555555', Cyan: '#0a6670' };
/** The colour of a letter written on a disc of that fill. */
const INK: Record<string, string> = { Red: '#ffffff', Blue: '#ffffff', White: '#222222', Cyan: '#0b2e33' };
/** How a mark is drawn: a dot in the corner, a square frame, or a `^` (the sign the prompt and notes name). */
type MarkShape = 'dot' | 'frame' | 'caret';
/** Mark colours of the render crate, and their shapes. */
const MARKS: Record<CellMark, [string, MarkShape]> = {
  placed: ['#ffd700', 'dot'],
  swapped: ['#ff8c00', 'frame'],
  replaced: ['#2ca02c', 'dot'],
  terminal: ['#222222', 'caret'],
  cornered: ['#9467bd', 'frame'],
  target: ['#2ca02c', 'frame'],
  refused: ['#b0126e', 'frame'],
};

interface CellParts {
  group: SVGGElement;
  disc: SVGCircleElement;
  letter: SVGTextElement;
  dot: SVGCircleElement;
  caret: SVGTextElement;
  frame: SVGRectElement;
  /** What the cell shows now, so that a redraw touches only the cells that change. */
  shown: string;
}

/** What the client adds to the view: the move being built. */
export interface Highlights {
  /** Cells the move builder offers next. */
  next: string[];
  /** Cells chosen so far. */
  chosen: string[];
  /** Whether clicks build a move (the player's turn, the last ply shown). */
  interactive: boolean;
}

/** A drawn board that calls `onChoose` with the cell name a click or Enter/Space picks. */
export class Board {
  readonly element: SVGSVGElement;
  private size = 0;
  private cells: CellParts[] = [];
  private sides!: SVGGElement;
  private overlay!: SVGGElement;
  private under!: SVGGElement;
  private focus = { col: 0, row: 0 };

  constructor(private readonly onChoose: (cell: string) => void) {
    this.element = s('svg', { class: 'board', role: 'group' });
    this.element.addEventListener('click', (event) => {
      const cell = (event.target as Element).closest('[data-cell]');
      if (cell) this.choose(cell.getAttribute('data-cell') ?? '');
    });
    this.element.addEventListener('keydown', (event) => this.key(event));
  }

  private choose(name: string): void {
    const at = parseCell(name, this.size);
    if (at) this.setFocus(at.col, at.row, false);
    this.onChoose(name);
  }

  private key(event: KeyboardEvent): void {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.choose(cellName(this.focus.col, this.focus.row));
      return;
    }
    const to = moveFocus(this.focus.col, this.focus.row, event.key, this.size);
    if (to.col !== this.focus.col || to.row !== this.focus.row || event.key.startsWith('Arrow')) {
      event.preventDefault();
      event.stopPropagation();
      this.setFocus(to.col, to.row, true);
    }
  }

  private setFocus(col: number, row: number, move: boolean): void {
    const old = this.cells[cellIndex(this.focus.col, this.focus.row, this.size)];
    old?.group.setAttribute('tabindex', '-1');
    this.focus = { col, row };
    const cell = this.cells[cellIndex(col, row, this.size)];
    cell.group.setAttribute('tabindex', '0');
    if (move) cell.group.focus();
  }

  /** Makes the cells, coordinates and layers of a board of this size. */
  private build(size: number): void {
    this.size = size;
    const total = size * CELL + 2 * MARGIN;
    const svg = this.element;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${total} ${total}`);
    this.sides = s('g');
    svg.append(this.sides);
    svg.append(s('rect', { x: MARGIN, y: MARGIN, width: size * CELL, height: size * CELL, class: 'wood' }));
    const grid = s('g', { class: 'grid' });
    for (let i = 1; i < size; i += 1) {
      const p = MARGIN + i * CELL;
      grid.append(s('line', { x1: p, y1: MARGIN, x2: p, y2: MARGIN + size * CELL }));
      grid.append(s('line', { x1: MARGIN, y1: p, x2: MARGIN + size * CELL, y2: p }));
    }
    svg.append(grid);
    const coords = s('g', { class: 'coords', 'aria-hidden': 'true' });
    for (let i = 0; i < size; i += 1) {
      const c = MARGIN + i * CELL + CELL / 2;
      const r = MARGIN + (size - 1 - i) * CELL + CELL / 2 + 5;
      for (const [x, y, text] of [
        [c, MARGIN - EDGE - 5, String.fromCharCode(97 + i)],
        [c, MARGIN + size * CELL + EDGE + 15, String.fromCharCode(97 + i)],
        [MARGIN - EDGE - 9, r, String(i + 1)],
        [MARGIN + size * CELL + EDGE + 9, r, String(i + 1)],
      ] as const) {
        const label = s('text', { x, y });
        label.textContent = text;
        coords.append(label);
      }
    }
    svg.append(coords);
    this.under = s('g', { class: 'links' });
    svg.append(this.under);
    const cells = s('g', { class: 'cells' });
    this.cells = [];
    for (let row = 0; row < size; row += 1) {
      for (let col = 0; col < size; col += 1) {
        const x = MARGIN + col * CELL;
        const y = MARGIN + (size - 1 - row) * CELL;
        const group = s('g', { 'data-cell': cellName(col, row), role: 'button', tabindex: '-1' });
        group.append(s('rect', { x, y, width: CELL, height: CELL, class: 'bg' }));
        const disc = s('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 4, class: 'disc' });
        const letter = s('text', { x: x + CELL / 2, y: y + CELL / 2 + 5, class: 'letter', 'aria-hidden': 'true' });
        // In the cell's corner, so that the colour letter stays readable under it.
        const dot = s('circle', { cx: x + CELL - 8, cy: y + 8, r: 5, class: 'dot' });
        const caret = s('text', { x: x + 8, y: y + 15, class: 'caret', 'aria-hidden': 'true' });
        caret.textContent = '^';
        const frame = s('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: 'frame' });
        group.append(disc, letter, frame, dot, caret);
        cells.append(group);
        this.cells[cellIndex(col, row, size)] = { group, disc, letter, dot, caret, frame, shown: '' };
      }
    }
    svg.append(cells);
    this.overlay = s('g', { class: 'overlay', 'aria-hidden': 'true' });
    svg.append(this.overlay);
    this.focus = { col: Math.floor(size / 2), row: Math.floor(size / 2) };
    this.cells[cellIndex(this.focus.col, this.focus.row, size)].group.setAttribute('tabindex', '0');
  }

  private centre(name: string): [number, number] | null {
    const at = parseCell(name, this.size);
    if (!at) return null;
    return [MARGIN + at.col * CELL + CELL / 2, MARGIN + (this.size - 1 - at.row) * CELL + CELL / 2];
  }

  /** Draws a view, with the move being built. */
  draw(view: BoardView, highlights: Highlights): void {
    if (view.size !== this.size) this.build(view.size);
    const size = view.size;
    const total = size * CELL;
    this.element.setAttribute('aria-label', `${view.title}, ${size} by ${size}`);
    this.element.classList.toggle('interactive', highlights.interactive);
    this.sides.replaceChildren();
    view.sides.forEach((side, k) => {
      const colour = SIDE_FILLS[view.names[k]] ?? FILLS[view.names[k]] ?? '#7f7f7f';
      const rects =
        side === 'top_bottom'
          ? [[MARGIN, MARGIN - EDGE, total, EDGE], [MARGIN, MARGIN + total, total, EDGE]]
          : side === 'left_right'
            ? [[MARGIN - EDGE, MARGIN, EDGE, total], [MARGIN + total, MARGIN, EDGE, total]]
            : [];
      for (const [x, y, width, height] of rects) {
        this.sides.append(s('rect', { x, y, width, height, fill: colour, class: 'side' }));
      }
    });
    const marks = new Map<string, CellMark[]>();
    for (const [cell, mark] of view.marks) marks.set(cell, [...(marks.get(cell) ?? []), mark]);
    const next = new Set(highlights.next);
    const chosen = new Set(highlights.chosen);
    // The move being built is drawn as the mover's stones, half transparent (a ghost).
    const mover = seatIndex(view.to_move);
    for (let row = 0; row < size; row += 1) {
      for (let col = 0; col < size; col += 1) {
        const name = cellName(col, row);
        const parts = this.cells[cellIndex(col, row, size)];
        const owner = view.cells[cellIndex(col, row, size)];
        const cellMarks = marks.get(name) ?? [];
        const extra: string[] = [];
        if (chosen.has(name)) extra.push('chosen');
        if (next.has(name)) extra.push('may come next');
        const label = cellLabel(view, col, row, extra);
        const ghost = !owner && chosen.has(name);
        const key = `${owner ?? ''}|${ghost ? mover : ''}|${view.names[0]}|${view.names[1]}|${cellMarks.join()}|${label}`;
        if (parts.shown === key) continue;
        parts.shown = key;
        const stone = owner ? seatIndex(owner) : ghost ? mover : null;
        if (stone !== null) {
          parts.disc.setAttribute('fill', FILLS[view.names[stone]] ?? '#7f7f7f');
          parts.disc.setAttribute('visibility', 'visible');
          parts.letter.textContent = view.letters[stone];
          parts.letter.setAttribute('fill', INK[view.names[stone]] ?? '#000000');
        } else {
          parts.disc.setAttribute('visibility', 'hidden');
          parts.letter.textContent = '';
        }
        const shaped = (shape: MarkShape): CellMark | undefined => cellMarks.find((m) => MARKS[m][1] === shape);
        const [dot, frame, caret] = [shaped('dot'), shaped('frame'), shaped('caret')];
        parts.dot.setAttribute('visibility', dot ? 'visible' : 'hidden');
        if (dot) parts.dot.setAttribute('fill', MARKS[dot][0]);
        parts.caret.setAttribute('visibility', caret ? 'visible' : 'hidden');
        parts.frame.setAttribute('visibility', frame ? 'visible' : 'hidden');
        if (frame) parts.frame.setAttribute('stroke', MARKS[frame][0]);
        parts.group.setAttribute('aria-label', label);
        const classes = [chosen.has(name) && 'chosen', ghost && 'ghost', next.has(name) && 'next'].filter(Boolean);
        parts.group.setAttribute('class', classes.join(' '));
      }
    }
    this.drawOverlays(view);
  }

  /**
   * What the marks drawn mean, one line each: the cells offered next (in the prompt's own
   * words), the move being built, the marks of the view, the winning path.
   */
  legend(view: BoardView, highlights: Highlights, prompt: string): HTMLElement {
    const items: HTMLElement[] = [];
    const item = (swatch: SVGSVGElement, words: string, kind: string): void => {
      items.push(h('li', { 'data-legend': kind }, swatch, ' ', words));
    };
    const swatch = (...parts: SVGElement[]): SVGSVGElement => {
      const svg = s('svg', { class: 'swatch-board', viewBox: `0 0 ${CELL} ${CELL}`, 'aria-hidden': 'true' });
      svg.append(s('rect', { x: 0, y: 0, width: CELL, height: CELL, class: 'wood' }), ...parts);
      return svg;
    };
    if (highlights.interactive && highlights.next.length > 0 && prompt !== '') {
      item(swatch(s('rect', { x: 1, y: 1, width: CELL - 2, height: CELL - 2, class: 'next-mark' })), prompt, 'next');
    }
    const mover = view.names[seatIndex(view.to_move)];
    if (highlights.interactive && highlights.chosen.length > 0) {
      item(swatch(s('circle', { cx: CELL / 2, cy: CELL / 2, r: CELL / 2 - 4, fill: FILLS[mover] ?? '#7f7f7f', class: 'disc ghost-disc' })),
        'your move so far (not played yet)', 'ghost');
    }
    const seen = new Set<CellMark>();
    for (const [, mark] of view.marks) {
      if (seen.has(mark)) continue;
      seen.add(mark);
      const [colour, shape] = MARKS[mark];
      const part = shape === 'dot'
        ? s('circle', { cx: CELL - 8, cy: 8, r: 5, fill: colour, class: 'dot' })
        : shape === 'frame'
          ? s('rect', { x: 2, y: 2, width: CELL - 4, height: CELL - 4, stroke: colour, class: 'frame' })
          : s('text', { x: CELL / 2, y: CELL - 4, class: 'caret' });
      if (shape === 'caret') part.textContent = '^';
      item(swatch(part), MARK_WORDS[mark], mark);
    }
    if (view.winning.length > 0) {
      item(swatch(s('polyline', { points: `4,${CELL / 2} ${CELL - 4},${CELL / 2}`, class: 'winning' })), 'the winning path', 'winning');
    }
    return h('ul', { class: 'board-legend', 'aria-label': 'what the marks mean' }, ...items);
  }

  private drawOverlays(view: BoardView): void {
    this.under.replaceChildren();
    this.overlay.replaceChildren();
    const ownerName = (cell: string): string | null => {
      const at = parseCell(cell, view.size);
      const owner = at ? view.cells[cellIndex(at.col, at.row, view.size)] : null;
      return owner ? view.names[seatIndex(owner)] : null;
    };
    for (const [a, b] of view.links ?? []) {
      const [p, q, name] = [this.centre(a), this.centre(b), ownerName(a)];
      if (!p || !q || !name) continue;
      this.under.append(s('line', { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: DARK[name] ?? '#333', class: 'link' }));
    }
    // The largest networks' outlines go under the cells, as the links do: the last move's
    // frame and the cells a move may use, drawn with the cells, stay visible over them.
    for (const cell of view.outlined ?? []) {
      const [p, name] = [this.centre(cell), ownerName(cell)];
      if (!p || !name) continue;
      this.under.append(
        s('rect', { x: p[0] - CELL / 2 + 2, y: p[1] - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, stroke: DARK[name] ?? '#333', class: 'outline' }),
      );
    }
    const path = view.winning.map((c) => this.centre(c)).filter((p): p is [number, number] => p !== null);
    if (path.length > 0) {
      this.overlay.append(s('polyline', { points: path.map((p) => p.join(',')).join(' '), class: 'winning' }));
    }
  }
}
