// The analysis views of a finished game: the AI's best moves in a position, and the review
// of every move (the evaluation graph, each player's summary, each move's chances).

import { h, s } from '../dom';
import { evaluationSeries, judgementWords, percent, reviewSummary } from '../logic';
import type { Analysis, GameView, ReviewedMove } from '../types';

/** The AI's best moves in a position, or why there are none. */
export function analysisView(result: Analysis): HTMLElement[] {
  if (result.lines.length === 0) {
    return [h('p', {}, `After ply ${result.ply} the game is over: there is no move to analyse.`)];
  }
  return [
    h('p', {}, `After ply ${result.ply}, ${result.to_move} to move (${result.nodes} positions searched):`),
    h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, 'Move'), h('th', {}, 'Win rate'), h('th', {}, 'Visits'), h('th', {}, 'Line'))),
      h('tbody', {}, ...result.lines.map((line) => h('tr', {},
        h('td', {}, line.move),
        h('td', {}, line.proven ? `${line.proven} (proven)` : percent(line.win_rate)),
        h('td', {}, String(line.visits)),
        h('td', {}, line.pv.join(' ')))))),
  ];
}

/** The review of a game: its graph, each player's summary, and every move; a click shows that ply. */
export function reviewView(game: GameView, reviewed: ReviewedMove[], showPly: (ply: number) => void): Element[] {
  return [
    evaluationGraph(game, reviewed, showPly),
    summaryTable(game, reviewed),
    h('table', { class: 'review' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Move'), h('th', {}, 'Chances before → after'), h('th', {}, 'Judgement'), h('th', {}, 'Best line'))),
      h('tbody', {}, ...reviewed.map((m) => h('tr', { class: m.judgement ?? '' },
        h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => showPly(m.ply) }, `${m.ply}. ${m.colour} ${m.move}`)),
        h('td', {}, `${percent(m.win_before)} → ${percent(m.win_after)}`),
        h('td', {}, judgementWords(m)),
        // The line the AI preferred, shown where the move lost something.
        h('td', {}, m.judgement ? (m.best_line && m.best_line.length > 0 ? m.best_line.join(' ') : m.best ?? '') : ''))))),
  ];
}

/**
 * The first player's win chance after every ply as a line over the game, 50% across the
 * middle, the judged moves as dots; a click on one shows that ply.
 */
function evaluationGraph(game: GameView, reviewed: ReviewedMove[], showPly: (ply: number) => void): Element {
  const first = game.players[0]?.colour ?? 'R';
  const series = evaluationSeries(reviewed, first);
  // A margin of a dot's size, so that a dot at 0% or 100% is drawn whole.
  const [width, height, pad] = [400, 120, 6];
  const x = (ply: number): number => pad + (series.length > 1 ? (ply * (width - 2 * pad)) / (series.length - 1) : 0);
  const y = (chance: number): number => pad + (height - 2 * pad) * (1 - chance);
  const svg = s('svg', { class: 'eval-graph', viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': `${first}'s win chance after each ply, from ${percent(series[0] ?? 0.5)} to ${percent(series[series.length - 1] ?? 0.5)}` });
  svg.append(
    s('rect', { x: 0, y: 0, width, height, class: 'eval-bg' }),
    s('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: 'eval-mid' }),
    s('polyline', { points: series.map((c, k) => `${x(k).toFixed(1)},${y(c).toFixed(1)}`).join(' '), class: 'eval-line' }),
  );
  for (const m of reviewed) {
    if (!m.judgement) continue;
    const dot = s('circle', { cx: x(m.ply).toFixed(1), cy: y(series[m.ply]).toFixed(1), r: 5, class: `eval-dot ${m.judgement}`, 'data-ply': m.ply });
    const tip = s('title');
    tip.textContent = `${m.ply}. ${m.colour} ${m.move}: ${m.judgement}`;
    dot.append(tip);
    dot.addEventListener('click', () => showPly(m.ply));
    svg.append(dot);
  }
  return h('figure', { class: 'eval' }, svg, h('figcaption', {}, `${first}'s win chance after each ply, as the AI judged it (top: ${first} wins).`));
}

/** Each player's inaccuracies, mistakes and blunders. */
function summaryTable(game: GameView, reviewed: ReviewedMove[]): HTMLElement {
  const nameOf = (colour: string): string => {
    const seat = game.players.find((p) => p.colour === colour);
    return seat?.name ? `${seat.name} (${colour})` : colour;
  };
  return h('table', { class: 'review-summary' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Inaccuracies'), h('th', {}, 'Mistakes'), h('th', {}, 'Blunders'))),
    h('tbody', {}, ...reviewSummary(reviewed).map((row) => h('tr', {},
      h('td', {}, nameOf(row.colour)), h('td', {}, String(row.inaccuracies)), h('td', {}, String(row.mistakes)), h('td', {}, String(row.blunders))))));
}
