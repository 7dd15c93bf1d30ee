// The tournament pages' views: each part drawn from the state into elements made once.

import { gameTitle } from '../catalogue';
import { h, s } from '../dom';
import { describeClock } from '../logic';
import type { TournamentSummary, TournamentView } from '../types';
import { actions, chartPoints, crosstables, pairingWords, statusWords } from './state';

/** A line of the list: the game, format, clock, players and start, linking to the page. */
export function summaryItem(t: TournamentSummary): HTMLLIElement {
  const format = t.format === 'swiss' ? `Swiss, ${t.total_rounds} rounds` : 'Round robin';
  const by = t.creator === null ? 'monthly' : `by ${t.creator}`;
  return h('li', {},
    h('a', { href: `/tournaments/${t.id}` }, `${gameTitle(t.game)} ${t.size}×${t.size}`),
    ` — ${format}, ${describeClock(t.clock)}, ${t.player_count} players, ${t.rated ? 'rated' : 'unrated'}, ${by}, starts ${t.starts_at}`);
}

/** The elements of a tournament's page, made once. */
export interface TournamentElements {
  title: HTMLElement;
  status: HTMLElement;
  live: HTMLElement;
  buttons: HTMLElement;
  join: HTMLButtonElement;
  leave: HTMLButtonElement;
  start: HTMLButtonElement;
  message: HTMLElement;
  players: HTMLElement;
  standings: HTMLElement;
  crosstable: HTMLElement;
  rounds: HTMLElement;
}

/** Makes the page's elements; the buttons call `act`. */
export function tournamentElements(act: { join(): void; leave(): void; start(): void }): TournamentElements {
  const button = (text: string, run: () => void): HTMLButtonElement => h('button', { type: 'button', onclick: () => run() }, text);
  const join = button('Join', () => act.join());
  const leave = button('Leave', () => act.leave());
  const start = button('Start now', () => act.start());
  return {
    title: h('h1', {}),
    status: h('p', { class: 'status' }),
    live: h('p', { class: 'live', 'aria-live': 'polite' }),
    buttons: h('div', { class: 'tournament-actions' }, join, leave, start),
    join, leave, start,
    message: h('p', { class: 'error', role: 'alert' }),
    players: h('section', { 'aria-label': 'players' }),
    standings: h('section', { 'aria-label': 'standings' }),
    crosstable: h('section', { 'aria-label': 'crosstable' }),
    rounds: h('section', { 'aria-label': 'rounds' }),
  };
}

/** Draws every part of the page from the tournament. */
export function drawTournament(e: TournamentElements, t: TournamentView, me: string | null): void {
  e.title.textContent = `${gameTitle(t.game)} tournament`;
  e.status.textContent = `${statusWords(t)} ${describeClock(t.clock)}, ${t.rated ? 'rated' : 'unrated'}${t.vacation === false ? ', no vacation days' : ''}.`;
  const can = actions(t, me);
  e.join.hidden = !can.join;
  e.leave.hidden = !can.leave;
  e.leave.textContent = t.status === 'running' ? 'Withdraw (your games are forfeited)' : 'Leave';
  e.start.hidden = !can.start;
  e.players.replaceChildren(h('h2', {}, `Players (${t.players.length})`),
    h('ul', { class: 'entrants' }, ...t.players.map((p) => h('li', {},
      h('a', { href: `/players/${encodeURIComponent(p.name)}` }, p.name), ` ${Math.round(p.rating)}`,
      p.division !== null ? ` (division ${p.division})` : '', p.withdrawn ? ' — withdrew' : ''))));
  e.standings.replaceChildren(...(t.standings.length === 0 ? [] : [h('h2', {}, 'Standings'), standingsTable(t)]));
  e.crosstable.replaceChildren(...crosstables(t).flatMap((table) => [
    h('h2', {}, `Division ${table.division}`),
    h('table', { class: 'crosstable' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), ...table.players.map((_, i) => h('th', { scope: 'col' }, String(i + 1))))),
      h('tbody', {}, ...table.rows.map((row, i) => h('tr', {},
        h('th', { scope: 'row' }, `${i + 1}. ${table.players[i]}`),
        ...row.map((cell) => h('td', {}, cell.kind === 'self' ? '—' : cell.scores.map((x) => x ?? '·').join(' ')))))))]));
  // Every format's rounds, each pairing linking to its game; the reader's own marked.
  e.rounds.replaceChildren(...(t.rounds.length === 0 ? [] : [h('h2', {}, 'Rounds'),
    ...(t.rounds_note ? [h('p', { class: 'note' }, t.rounds_note)] : []),
    ...t.rounds.map((r) => h('div', { class: 'round' }, h('h3', {}, `Round ${r.round}`),
      h('ol', {}, ...r.games.map((g) => {
        const mine = me !== null && (g.first === me || g.second === me);
        const words = `${pairingWords(g)}${g.division != null ? ` (division ${g.division})` : ''}`;
        return h('li', { class: mine ? 'mine' : '' }, g.id == null ? words : h('a', { href: `/games/${g.id}` }, words), mine ? h('strong', {}, ' — your game') : null);
      })),
      r.bye !== null ? h('p', {}, `Bye: ${r.bye}`) : null))]));
}

function standingsTable(t: TournamentView): HTMLTableElement {
  const division = t.format === 'round_robin';
  return h('table', { class: 'standings' },
    h('thead', {}, h('tr', {}, ...['Rank', ...(division ? ['Division'] : []), 'Player', 'Points', 'Sonneborn-Berger', 'Wins as second', 'Rating']
      .map((text) => h('th', { scope: 'col' }, text)))),
    h('tbody', {}, ...t.standings.map((line) => h('tr', {},
      h('td', {}, String(line.rank)), division ? h('td', {}, String(line.division ?? '')) : null,
      h('td', {}, line.name), h('td', {}, String(line.points)), h('td', {}, String(line.sonneborn_berger)),
      h('td', {}, String(line.second_player_wins)), h('td', {}, String(Math.round(line.rating)))))));
}

/**
 * A rating history drawn as an inline SVG line chart with its axes: the lowest and highest
 * rating on the left, the first and last game's dates below, and its range in words for
 * screen readers.
 */
export function ratingChart(points: { at_ms: number; rating: number }[]): SVGSVGElement {
  // The plot, and the margins its axes' values take.
  const [plotWidth, plotHeight, left, top, bottom, right] = [300, 110, 44, 8, 20, 8];
  const [width, height] = [left + plotWidth + right, top + plotHeight + bottom];
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', class: 'rating-chart' });
  const ratings = points.map((p) => Math.round(p.rating));
  const label = s('title');
  label.textContent = ratings.length === 0 ? 'No rated games' : `Rating from ${ratings[0]} to ${ratings[ratings.length - 1]} over ${ratings.length} games (low ${Math.min(...ratings)}, high ${Math.max(...ratings)})`;
  svg.append(label);
  const axis = { stroke: 'currentColor', 'stroke-width': 1, opacity: 0.5 };
  svg.append(s('line', { x1: left, y1: top, x2: left, y2: top + plotHeight, ...axis }),
    s('line', { x1: left, y1: top + plotHeight, x2: left + plotWidth, y2: top + plotHeight, ...axis }));
  const text = (x: number, y: number, anchor: string, words: string): SVGElement => {
    const t = s('text', { x, y, 'text-anchor': anchor, 'font-size': 11, fill: 'currentColor', class: 'axis-value' });
    t.textContent = words;
    return t;
  };
  const xy = chartPoints(points, plotWidth, plotHeight);
  if (xy.length > 0) {
    const [low, high] = [Math.min(...ratings), Math.max(...ratings)];
    // The highest rating sits at the top of the plot and the lowest at its bottom (one
    // value in the middle when they are equal).
    if (low === high) svg.append(text(left - 4, top + plotHeight / 2 + 4, 'end', String(low)));
    else svg.append(text(left - 4, top + 8, 'end', String(high)), text(left - 4, top + plotHeight, 'end', String(low)));
    const day = (ms: number): string => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
    const [first, last] = [points[0].at_ms, points[points.length - 1].at_ms];
    svg.append(text(left, height - 4, 'start', day(first)));
    if (day(last) !== day(first)) svg.append(text(left + plotWidth, height - 4, 'end', day(last)));
    const moved = xy.map(([x, y]) => [x + left, y + top] as const);
    svg.append(s('polyline', { points: moved.map(([x, y]) => `${x},${y}`).join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }));
    // A dot per game, so that a history of one game shows too; its value in a tooltip.
    moved.forEach(([cx, cy], k) => {
      const dot = s('circle', { cx, cy, r: 3, fill: 'currentColor' });
      const tip = s('title');
      tip.textContent = `${ratings[k]} after the game of ${day(points[k].at_ms)}`;
      dot.append(tip);
      svg.append(dot);
    });
  }
  return svg;
}
