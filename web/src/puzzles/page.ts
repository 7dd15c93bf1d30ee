// The puzzles' pages: `/puzzles` (a game's puzzles by difficulty) and `/puzzles/{id}` (one
// puzzle solved by clicking on the real board, the move built by the server's builder and
// judged by the solver's proofs), and the daily puzzle's card for the front pages. The words
// of a task, a judgement and a refutation are the server's.

import { api, failureText } from '../api';
import type { Shell } from '../app';
import { Board } from '../board';
import { loadCatalogue } from '../catalogue';
import { fill, h } from '../dom';
import { takeAnswer } from '../game/state';
import { clickSelection, positionSummary } from '../logic';
import type { Route } from '../logic';
import type { Draft, Schemas } from '../types';
import {
  BANDS, listQuery, puzzleHighlights, puzzleState, shownBoard, solving, stepLine, verdictWords,
  type AttemptAnswer, type PuzzleState, type PuzzleView,
} from './state';

/** The puzzles a list shows at once. */
const LIST_LIMIT = 50;

/** A puzzle in a list: a link with its game, size, difficulty and theme. */
function puzzleLink(puzzle: PuzzleView, names: Map<string, string>): HTMLElement {
  const name = names.get(puzzle.game) ?? puzzle.game;
  return h('li', { 'data-puzzle': puzzle.id },
    h('a', { href: `/puzzles/${puzzle.id}` }, `${name} ${puzzle.size}x${puzzle.size}: ${puzzle.task}`),
    ` (difficulty ${puzzle.difficulty}, ${puzzle.theme})`);
}

async function puzzleList(main: HTMLElement): Promise<void> {
  const catalogue = await loadCatalogue();
  const names = new Map(catalogue.map((g) => [g.id, g.name]));
  const game = h('select', { id: 'puzzle-game', name: 'game' },
    h('option', { value: '' }, 'every game'),
    ...catalogue.map((g) => h('option', { value: g.id }, g.name)));
  const band = h('select', { id: 'puzzle-band', name: 'difficulty' },
    h('option', { value: '' }, 'any difficulty'),
    ...BANDS.map((b) => h('option', { value: b.name }, `${b.name} (${b.min} to ${b.max < 10_000 ? b.max : 'more'})`)));
  // A game's card links here with `?game=`.
  const asked = new URLSearchParams(location.search).get('game');
  if (asked && catalogue.some((g) => g.id === asked)) game.value = asked;
  const list = h('ol', { class: 'puzzle-list', 'aria-live': 'polite' });
  // Answers can come back out of order (a filter changed while the first list loads): only
  // the answer to the last request asked may fill the list.
  let lastRequest = 0;
  const refresh = async (): Promise<void> => {
    const request = ++lastRequest;
    try {
      const found = await api<Schemas['PuzzleList']>('GET', `/api/puzzles?${listQuery(game.value, band.value, LIST_LIMIT)}`);
      if (request !== lastRequest) return;
      fill(list, ...found.puzzles.map((p) => puzzleLink(p, names)));
      if (found.puzzles.length === 0) fill(list, h('li', {}, 'No puzzle of this kind yet.'));
    } catch (error) {
      if (request === lastRequest) fill(list, h('li', { class: 'error' }, failureText(error)));
    }
  };
  game.addEventListener('change', () => void refresh());
  band.addEventListener('change', () => void refresh());
  main.append(
    h('h1', {}, 'Puzzles'),
    h('p', { class: 'lead' }, 'In each position exactly one move wins: the solver has proved that move wins and that every other loses.'),
    h('form', { class: 'puzzle-filter', onsubmit: (e: Event) => e.preventDefault() },
      h('label', { for: 'puzzle-game' }, 'Game'), game, ' ',
      h('label', { for: 'puzzle-band' }, 'Difficulty'), band),
    list,
  );
  await refresh();
}

async function onePuzzle(main: HTMLElement, shell: Shell, id: string): Promise<void> {
  const puzzle = await api<PuzzleView>('GET', `/api/puzzles/${encodeURIComponent(id)}`);
  const state = puzzleState(puzzle);
  const names = new Map((await loadCatalogue()).map((g) => [g.id, g.name]));
  const prompt = h('p', { class: 'prompt', 'aria-live': 'polite' });
  const refusal = h('p', { class: 'refusal', role: 'alert' });
  const verdict = h('p', { class: 'verdict', role: 'status' });
  const line = h('ol', { class: 'moves puzzle-line', 'aria-label': 'the line' });
  const stepper = h('div', { class: 'controls' });
  const summary = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const clear = h('button', { type: 'button', onclick: () => restart() }, 'Clear');
  const board = new Board((cell) => void click(cell));
  board.element.addEventListener('keydown', (event) => {
    const ply = stepLine(state, event.key);
    if (!solving(state) && ply !== null) {
      event.preventDefault();
      show(ply);
    }
  });

  function draw(): void {
    board.draw(shownBoard(state), puzzleHighlights(state));
    fill(summary, positionSummary(shownBoard(state)));
    fill(prompt, solving(state) ? state.building.draft?.prompt ?? '' : '');
    clear.hidden = !solving(state) || state.building.cells.length === 0;
  }

  function show(ply: number): void {
    state.ply = ply;
    draw();
    for (const [k, item] of [...line.children].entries()) item.classList.toggle('current', k + 1 === ply);
  }

  async function startDraft(): Promise<void> {
    try {
      state.building = { ...state.building, draft: await api<Draft>('POST', '/api/positions/draft', { position: puzzle.position, cells: [] }) };
    } catch (error) {
      fill(refusal, failureText(error));
    }
    draw();
  }

  function restart(): void {
    state.building = { ...state.building, cells: [], split: null };
    fill(refusal, '');
    void startDraft();
  }

  async function click(cell: string): Promise<void> {
    if (state.busy || !solving(state)) return;
    const { cells, draft, split } = state.building;
    const next = clickSelection(cells, cell, draft?.next ?? []);
    if (next.cells.length === 0) {
      restart();
      return;
    }
    state.busy = true;
    try {
      const body = split === null ? { position: puzzle.position, cells: next.cells } : { position: puzzle.position, cells: next.cells, split };
      const answer = await api<Draft>('POST', '/api/positions/draft', body);
      const taken = takeAnswer(state.building, next.cells, split, answer);
      if (taken.step.kind === 'refused') {
        fill(refusal, taken.step.reason);
      } else {
        fill(refusal, '');
        state.building = taken.building;
        if (taken.step.kind === 'submit') await attempt(taken.step.move);
      }
    } catch (error) {
      fill(refusal, failureText(error));
    } finally {
      state.busy = false;
    }
    draw();
  }

  async function attempt(move: string): Promise<void> {
    const answer = await api<AttemptAnswer>('POST', `/api/puzzles/${encodeURIComponent(puzzle.id)}/attempt`, { move });
    state.answer = answer;
    verdict.className = `verdict ${answer.correct ? 'correct' : 'wrong'}`;
    fill(verdict, verdictWords(answer));
    fill(line, ...answer.line.map((mv, k) => h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => show(k + 1) }, mv))));
    fill(stepper,
      h('button', { type: 'button', onclick: () => show(stepLine(state, 'ArrowLeft') ?? 0) }, 'Back'),
      h('button', { type: 'button', onclick: () => show(stepLine(state, 'ArrowRight') ?? 0) }, 'Forward'),
      answer.correct ? null : h('button', { type: 'button', onclick: () => retry() }, 'Try again'),
      h('a', { href: '/puzzles', class: 'button' }, 'More puzzles'));
    if (answer.record) {
      stepper.append(h('p', { class: 'record' },
        `Solved ${answer.record.solved}, failed ${answer.record.failed}, streak ${answer.record.streak} (best ${answer.record.best_streak}).`));
    }
    show(1);
  }

  function retry(): void {
    state.answer = null;
    state.ply = 0;
    fill(verdict, '');
    fill(line);
    fill(stepper);
    restart();
  }

  main.append(
    h('h1', {}, `${names.get(puzzle.game) ?? puzzle.game} puzzle`),
    h('p', { class: 'task' }, puzzle.task),
    h('p', { class: 'credit' }, `${puzzle.size}x${puzzle.size}, difficulty ${puzzle.difficulty}, ${puzzle.theme}. `,
      h('a', { href: `/rules/${puzzle.game}` }, 'The rules')),
    h('div', { class: 'puzzle-board' }, board.element),
    prompt, clear, refusal, summary, verdict, line, stepper,
    shell.me ? '' : h('p', {}, h('a', { href: `/signup?next=${encodeURIComponent(`/puzzles/${puzzle.id}`)}` }, 'Sign up'), ' to keep your record and streak.'),
  );
  await startDraft();
}

/** `/puzzles` and `/puzzles/{id}`. */
export async function puzzlesPage(main: HTMLElement, shell: Shell, route: Route): Promise<void> {
  if (route.page !== 'puzzles') return;
  if (route.id === null) await puzzleList(main);
  else await onePuzzle(main, shell, route.id);
}

/** The daily puzzle as a card for a front page: its board, its task and a link; nothing
 * when the server has none. */
export async function dailyCard(): Promise<HTMLElement | null> {
  let puzzle: PuzzleView;
  try {
    puzzle = await api<PuzzleView>('GET', '/api/puzzles/daily');
  } catch {
    return null;
  }
  const board = new Board(() => {});
  board.draw(puzzle.board, { next: [], chosen: [], interactive: false });
  return h('section', { class: 'daily', 'aria-labelledby': 'daily-h' },
    h('h2', { id: 'daily-h' }, 'Puzzle of the day'),
    h('div', { class: 'daily-board' }, board.element),
    h('p', {}, h('a', { href: `/puzzles/${puzzle.id}` }, puzzle.task)),
    h('p', {}, h('a', { href: '/puzzles' }, 'All puzzles')));
}
