// The conditional moves of a game one plays (docs/API.md, "Conditional moves"): while the
// opponent is to move in a game without a live clock, lines of "if they play X, play Y for
// me", kept by the server, which checks every move by the rules and plays the reply in the
// opponent's move's transaction. Only their owner sees them.

import { api, failureText } from '../api';
import { fill, h } from '../dom';
import type { GameView } from '../types';

/** The plan as the server keeps it. */
interface Plan {
  lines: string[][];
}

/** Reads the text box: one line per row, moves separated by spaces (a Scware growth keeps its commas). */
export function parsePlan(text: string): string[][] {
  return text
    .split('\n')
    .map((row) => row.trim().split(/\s+/).filter((move) => move !== ''))
    .filter((line) => line.length > 0);
}

/** A line in words: "if they play a1, play e5; then if a2, e4". */
export function lineWords(line: string[]): string {
  const pairs: string[] = [];
  for (let k = 0; k + 1 < line.length; k += 2) {
    pairs.push(k === 0 ? `if they play ${line[k]}, play ${line[k + 1]}` : `then if ${line[k]}, ${line[k + 1]}`);
  }
  return pairs.join('; ');
}

/** Whether a plan may be set now: the caller plays, the opponent is to move, no live clock. */
export function planOffered(game: GameView): boolean {
  return game.status === 'playing' && game.your_seat != null && game.seat_to_move != null
    && game.seat_to_move !== game.your_seat && !(game.clock != null && 'initial_s' in game.clock);
}

/** The panel, and what redraws it when the game changes. */
export function conditionalPanel(path: string): { element: HTMLElement; update(game: GameView): Promise<void> } {
  const list = h('ul', { class: 'plain', 'aria-label': 'Your conditional moves' });
  const box = h('textarea', { rows: 3, 'aria-label': 'Lines: one per row, their move then your reply, separated by spaces' });
  const status = h('p', { role: 'status', 'aria-live': 'polite' });
  const show = (plan: Plan): void => {
    if (plan.lines.length === 0) fill(list, h('li', {}, 'None: you play every move yourself.'));
    else fill(list, ...plan.lines.map((line) => h('li', {}, lineWords(line))));
    box.value = plan.lines.map((line) => line.join(' ')).join('\n');
  };
  const save = async (lines: string[][]): Promise<void> => {
    try {
      show(await api<Plan>('PUT', `${path}/conditional`, { lines }));
      status.textContent = lines.length === 0 ? 'Cleared.' : 'Kept: the server plays each reply when its move comes.';
    } catch (error) {
      status.textContent = failureText(error);
    }
  };
  const element = h('details', { class: 'conditional', hidden: true },
    h('summary', {}, 'Conditional moves'),
    h('p', {}, 'While your opponent thinks, leave replies: each row is their move, then yours, and on (for example “c4 d5 e2 b3”). Any other move clears them. Only you see them.'),
    list,
    h('label', {}, 'Lines ', box),
    h('div', { class: 'acts' },
      h('button', { type: 'button', onclick: () => void save(parsePlan(box.value)) }, 'Keep these lines'),
      h('button', { type: 'button', onclick: () => void save([]) }, 'Clear')),
    status);
  return {
    element,
    async update(game: GameView): Promise<void> {
      element.hidden = !planOffered(game);
      if (element.hidden) return;
      show(await api<Plan>('GET', `${path}/conditional`));
    },
  };
}
