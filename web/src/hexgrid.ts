// Swap 61's hexagon as SVG, in the style of `swapboard swap61 show --svg`: each seat's walls
// in its colour-blind-safe colour with the seat number, nodes as rings, wild walls striped,
// unowned walls grey, every tile's name; the viewer's own walls outlined and the walls they
// borrow this round dashed. The 61 tiles are made once, then only their attributes change.

import { s } from './dom';
import { SEAT_COLOURS, TILES, stepTile, tileCentre, tileLabel, tileText, type TileContent } from './swap61';

const R = 30;
const MARGIN = 34;

/** Each grid's own id for its stripes pattern (several grids share a page). */
let patterns = 0;

interface TileParts {
  group: SVGGElement;
  hex: SVGPolygonElement;
  ring: SVGCircleElement;
  outline: SVGPolygonElement;
  text: SVGTextElement;
  small: SVGTextElement;
}

/** The corners of a pointy-top hexagon of radius `r` around a point. */
function hexagon(cx: number, cy: number, r: number): string {
  return Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k - 90);
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}

/** What a drawing shows besides the tiles. */
export interface GridFocus {
  /** The viewer's seat: its walls are outlined. */
  own: number | null;
  /** The seats whose walls the viewer borrows this round: dashed. */
  borrowed: number[];
  /** A tile picked by a click, waiting for its partner. */
  chosen: string | null;
}

/**
 * A drawn hexagon. With `onChoose` each tile is a button (one in the tab order, arrows move
 * the focus, Enter or Space chooses); without, the drawing is one picture named by `title`.
 */
export class HexGrid {
  readonly element: SVGSVGElement;
  private readonly tiles = new Map<string, TileParts>();
  private focus = 'E5';

  constructor(title: string, private readonly onChoose?: (tile: string) => void) {
    const width = Math.ceil(2 * MARGIN + 9 * R * Math.sqrt(3));
    const height = Math.ceil(2 * MARGIN + 14 * R);
    const pattern = `wild-${(patterns += 1)}`;
    this.element = s('svg', { class: 'hexgrid', viewBox: `0 0 ${width} ${height}`, role: onChoose ? 'group' : 'img', 'aria-label': title });
    const defs = s('defs');
    const stripes = s('pattern', { id: pattern, width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
    stripes.append(s('rect', { width: 8, height: 8, fill: '#999' }), s('rect', { width: 4, height: 8, fill: '#ddd' }));
    defs.append(stripes);
    this.element.append(defs);
    this.element.dataset.wild = `url(#${pattern})`;
    for (let row = 0; row < 9; row += 1) {
      const first = TILES.find((t) => t.row === row);
      if (!first) continue;
      const { x, y } = this.centre(first);
      const letter = s('text', { x: (x - R - 4).toFixed(1), y: (y + 5).toFixed(1), class: 'row-letter', 'aria-hidden': 'true' });
      letter.textContent = first.name[0];
      this.element.append(letter);
    }
    for (const tile of TILES) {
      const { x, y } = this.centre(tile);
      const group = s('g', { 'data-cell': tile.name });
      if (onChoose) {
        group.setAttribute('role', 'button');
        group.setAttribute('tabindex', tile.name === this.focus ? '0' : '-1');
      } else {
        group.setAttribute('aria-hidden', 'true');
      }
      const hex = s('polygon', { points: hexagon(x, y, R - 0.5), class: 'tile' });
      const ring = s('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: R * 0.5, class: 'ring' });
      const outline = s('polygon', { points: hexagon(x, y, R - 4), class: 'outline' });
      const text = s('text', { x: x.toFixed(1), y: (y + 6).toFixed(1), class: 'label' });
      const small = s('text', { x: x.toFixed(1), y: (y - R * 0.62).toFixed(1), class: 'name' });
      small.textContent = tile.name;
      group.append(hex, ring, outline, text, small);
      this.element.append(group);
      this.tiles.set(tile.name, { group, hex, ring, outline, text, small });
    }
    if (onChoose) {
      this.element.addEventListener('click', (event) => {
        const tile = (event.target as Element).closest('[data-cell]');
        if (tile) this.choose(tile.getAttribute('data-cell') ?? '', false);
      });
      this.element.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          this.choose(this.focus, false);
          return;
        }
        const to = stepTile(this.focus, event.key);
        if (to !== this.focus || event.key.startsWith('Arrow')) {
          event.preventDefault();
          this.choose(to, true);
        }
      });
    }
  }

  private centre(tile: (typeof TILES)[number]): { x: number; y: number } {
    const c = tileCentre(tile);
    return { x: MARGIN + (R * Math.sqrt(3)) / 2 + c.x * R, y: MARGIN + R + c.y * R };
  }

  /** A click or a key: moves the roving focus, and a choice (not a mere arrow) is reported. */
  private choose(name: string, arrow: boolean): void {
    const old = this.tiles.get(this.focus);
    const next = this.tiles.get(name);
    if (!next) return;
    old?.group.setAttribute('tabindex', '-1');
    next.group.setAttribute('tabindex', '0');
    this.focus = name;
    if (arrow) next.group.focus();
    else this.onChoose?.(name);
  }

  /** Draws the tiles' contents (`names`: the players in seat order, for the labels). */
  update(contents: TileContent[], names: string[], focus: GridFocus): void {
    TILES.forEach((tile, i) => {
      const parts = this.tiles.get(tile.name);
      const content = contents[i];
      if (!parts || !content) return;
      let fill = '#ffffff';
      let ink = '#000';
      if (content.kind === 'wall') [fill, ink] = SEAT_COLOURS[content.seat - 1] ?? ['#ffffff', '#000'];
      else if (content.kind === 'wild') fill = this.element.dataset.wild ?? '#999';
      else if (content.kind === 'unowned') [fill, ink] = ['#e8e8e8', '#777'];
      parts.hex.setAttribute('fill', fill);
      parts.ring.setAttribute('visibility', content.kind === 'node' ? 'visible' : 'hidden');
      parts.text.textContent = tileText(content);
      parts.text.setAttribute('fill', ink);
      parts.small.setAttribute('fill', ink);
      const halo = content.kind === 'wild' ? 'halo' : '';
      parts.text.setAttribute('class', `label ${halo}`);
      parts.small.setAttribute('class', `name ${halo}`);
      const extra: string[] = [];
      const seat = content.kind === 'wall' ? content.seat : null;
      let outline = 'none';
      if (seat !== null && seat === focus.own) {
        outline = 'own';
        extra.push('your wall');
      } else if (seat !== null && focus.borrowed.includes(seat)) {
        outline = 'borrowed';
        extra.push('borrowed this round');
      }
      if (focus.chosen === tile.name) extra.push('chosen');
      parts.outline.setAttribute('class', `outline ${outline}`);
      parts.group.setAttribute('class', focus.chosen === tile.name ? 'chosen' : '');
      if (this.onChoose) parts.group.setAttribute('aria-label', tileLabel(tile.name, content, names, extra));
    });
  }
}
