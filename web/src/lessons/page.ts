// The lessons' pages: `/learn` (every two-player game's lesson and how far the learner has
// come) and `/learn/{game}` (a game's lesson, each step done by playing a move on the real
// board: the move built by the server's builder, judged by the engine). The words of a task,
// a refusal and a judgement are the server's. Progress is the server's for a signed-in
// learner (a guest too), the browser's own (localStorage) for the public, with the move that
// did each step: on signing up, those steps are played again for the account.

import { api, failureText } from '../api';
import type { Shell } from '../app';
import { Board } from '../board';
import { fill, h } from '../dom';
import { takeAnswer } from '../game/state';
import { playAiNow } from '../guest';
import { clickSelection, positionSummary, type Route } from '../logic';
import type { Draft, Schemas } from '../types';
import {
  finished, goToStep, lessonControls, lessonHighlights, lessonState, movesKey, readMoves, shownBoard, stepsToCarry,
  storageKey, takeAttempt, trying, verdictWords, type LessonAttempt, type LessonView,
} from './state';

/** The progress this browser keeps for a game's lesson (the public's). */
function saved(game: string): number {
  return Number(localStorage.getItem(storageKey(game)) ?? '0');
}

async function lessonList(main: HTMLElement): Promise<void> {
  const list = await api<Schemas['LessonList']>('GET', '/api/lessons');
  main.append(
    h('h1', {}, 'Learn the games'),
    h('p', { class: 'lead' }, 'Each lesson is a few small positions. In each you play one move on the board; the engine says whether it does the task, and why.'),
    h('ul', { class: 'lessons' }, ...list.lessons.map((lesson) => {
      const done = Math.min(lesson.steps, lesson.done ?? saved(lesson.game));
      return h('li', { 'data-game': lesson.game },
        h('a', { href: `/learn/${lesson.game}` }, `Learn ${lesson.name}`),
        ` (${done} of ${lesson.steps} steps done). ${lesson.intro}`);
    })),
  );
}

/** Plays again, for a learner who has just signed in, the steps this browser saw done before
 * (each judged by the server again), then forgets them: a visitor's progress is kept with
 * the account, as a guest's games are. Answers the lesson as the server then has it. */
async function carryVisitorSteps(lesson: LessonView): Promise<LessonView> {
  if (lesson.done == null) return lesson;
  const carried = stepsToCarry(lesson.done, readMoves(localStorage.getItem(movesKey(lesson.game))));
  let done = lesson.done;
  for (const { step, move } of carried) {
    const path = `/api/lessons/${encodeURIComponent(lesson.game)}/steps/${step}/attempt`;
    try {
      const answer = await api<LessonAttempt>('POST', path, { move });
      if (!answer.done) break;
      done = Math.max(done, answer.progress ?? step);
    } catch {
      break;
    }
  }
  localStorage.removeItem(movesKey(lesson.game));
  localStorage.removeItem(storageKey(lesson.game));
  return { ...lesson, done };
}

async function oneLesson(main: HTMLElement, shell: Shell, game: string): Promise<void> {
  const lesson = await carryVisitorSteps(await api<LessonView>('GET', `/api/lessons/${encodeURIComponent(game)}`));
  const state = lessonState(lesson, saved(lesson.game));
  const steps = h('ol', { class: 'lesson-steps', 'aria-label': 'steps' });
  const heading = h('h2', { id: 'step-h' });
  const task = h('p', { class: 'task' });
  const prompt = h('p', { class: 'prompt', 'aria-live': 'polite' });
  const refusal = h('p', { class: 'refusal', role: 'alert' });
  const verdict = h('p', { class: 'verdict', role: 'status' });
  const controls = h('div', { class: 'controls' });
  const summary = h('p', { class: 'sr-only', 'aria-live': 'polite' });
  const buttons = h('div', { class: 'controls' });
  const board = new Board((cell) => void click(cell));

  function position(): string {
    return state.lesson.steps[state.step].position;
  }

  function draw(): void {
    const step = state.lesson.steps[state.step];
    fill(heading, `Step ${state.step + 1} of ${state.lesson.steps.length}: ${step.title}`);
    fill(task, step.task);
    board.draw(shownBoard(state), lessonHighlights(state));
    fill(summary, positionSummary(shownBoard(state)));
    fill(prompt, trying(state) ? state.building.draft?.prompt ?? '' : '');
    fill(buttons, ...lessonControls(state).map((control) => {
      switch (control.kind) {
        case 'play': return h('button', { type: 'button', class: 'primary', onclick: () => void send(control.move) }, `Play ${control.move}`);
        case 'new-group': return h('button', { type: 'button', onclick: () => void endGrowth() }, '+ new group');
        case 'pass': return h('button', { type: 'button', onclick: () => void send('pass') }, 'Pass');
        case 'clear': return h('button', { type: 'button', onclick: () => restart() }, 'Clear');
      }
    }));
    fill(steps, ...state.lesson.steps.map((s, k) => h('li', { class: k < state.done ? 'done' : '' },
      h('button', { type: 'button', class: 'link', 'aria-current': k === state.step ? 'step' : null, onclick: () => open(k) },
        `${s.title}${k < state.done ? ' (done)' : ''}`))));
    const attempt = state.attempt;
    verdict.className = attempt ? `verdict ${attempt.done ? 'correct' : 'wrong'}` : 'verdict';
    fill(verdict, attempt ? verdictWords(attempt) : '');
    const last = state.step === state.lesson.steps.length - 1;
    fill(controls,
      attempt && !attempt.done ? h('button', { type: 'button', onclick: () => open(state.step) }, 'Try again') : null,
      attempt?.done && !last ? h('button', { type: 'button', class: 'primary', onclick: () => open(state.step + 1) }, 'Next step') : null,
      attempt?.done && last && finished(state)
        ? h('p', { class: 'lesson-done' }, `Lesson done. `, playAiNow(shell, state.lesson.game, `Play ${state.lesson.name} against the AI now`))
        : null);
  }

  async function startDraft(): Promise<void> {
    try {
      state.building = { ...state.building, draft: await api<Draft>('POST', '/api/positions/draft', { position: position(), cells: [] }) };
    } catch (error) {
      fill(refusal, failureText(error));
    }
    draw();
  }

  function open(step: number): void {
    goToStep(state, step);
    fill(refusal, '');
    draw();
    void startDraft();
  }

  function restart(): void {
    state.building = { ...state.building, cells: [], split: null };
    fill(refusal, '');
    void startDraft();
  }

  async function click(cell: string): Promise<void> {
    if (state.busy || !trying(state)) return;
    const { cells, draft, split } = state.building;
    const next = clickSelection(cells, cell, draft?.next ?? []);
    if (next.cells.length === 0) {
      restart();
      return;
    }
    state.busy = true;
    try {
      const body = split === null ? { position: position(), cells: next.cells } : { position: position(), cells: next.cells, split };
      const answer = await api<Draft>('POST', '/api/positions/draft', body);
      const taken = takeAnswer(state.building, next.cells, split, answer);
      if (taken.step.kind === 'refused') {
        // The rule's refusal, in the engine's words.
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

  /** Sends a move built by a button (a growth played as it stands, a pass). */
  async function send(move: string): Promise<void> {
    if (state.busy) return;
    state.busy = true;
    try {
      await attempt(move);
    } catch (error) {
      fill(refusal, failureText(error));
    } finally {
      state.busy = false;
    }
    draw();
  }

  async function endGrowth(): Promise<void> {
    const split = state.building.cells.length;
    try {
      const answer = await api<Draft>('POST', '/api/positions/draft', { position: position(), cells: state.building.cells, split });
      if (answer.verdict === 'refused') {
        fill(refusal, answer.reason ?? '');
      } else {
        fill(refusal, '');
        state.building = { ...state.building, split, draft: answer };
      }
    } catch (error) {
      fill(refusal, failureText(error));
    }
    draw();
  }

  async function attempt(move: string): Promise<void> {
    const path = `/api/lessons/${encodeURIComponent(state.lesson.game)}/steps/${state.step + 1}/attempt`;
    const answer = await api<LessonAttempt>('POST', path, { move });
    takeAttempt(state, answer);
    if (state.lesson.done === null) {
      localStorage.setItem(storageKey(state.lesson.game), String(state.done));
      if (answer.done) {
        const moves = readMoves(localStorage.getItem(movesKey(state.lesson.game)));
        while (moves.length <= state.step) moves.push(null);
        moves[state.step] = answer.move;
        localStorage.setItem(movesKey(state.lesson.game), JSON.stringify(moves));
      }
    }
    draw();
    // The judgement and the way on (Next step, Try again) in view, wherever the click was.
    controls.scrollIntoView({ block: 'nearest' });
  }

  main.append(
    h('h1', {}, `Learn ${state.lesson.name} by ${state.lesson.author}`),
    h('p', { class: 'lead' }, state.lesson.intro, ' ', h('a', { href: `/rules/${state.lesson.game}` }, `The rules of ${state.lesson.name}`), '.'),
    h('nav', { 'aria-label': 'the lesson\'s steps' }, steps),
    h('section', { class: 'lesson-step', 'aria-labelledby': 'step-h' },
      heading, task,
      h('div', { class: 'lesson-play' },
        h('div', { class: 'puzzle-board' }, board.element),
        h('div', { class: 'lesson-side' }, prompt, buttons, refusal, summary, verdict, controls))),
    state.lesson.done === null
      ? h('p', {}, 'Your progress is kept in this browser. ', h('a', { href: '/signup' }, 'Sign up'), ' to keep it with your account.')
      : '',
  );
  draw();
  await startDraft();
}

/** `/learn` and `/learn/{game}`. */
export async function lessonsPage(main: HTMLElement, shell: Shell, route: Route): Promise<void> {
  if (route.page !== 'learn') return;
  if (route.game === null) await lessonList(main);
  else await oneLesson(main, shell, route.game);
}
