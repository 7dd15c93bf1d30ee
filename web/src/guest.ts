// Playing the AI at once (issue 25): a visitor who is not logged in becomes a guest (a session
// with no password, `POST /api/session/guest`), then a game against the AI starts. Signing up
// later from the same browser keeps the guest's games (the server turns the guest into the
// new account).

import { api, failureText } from './api';
import type { Shell } from './app';
import { h } from './dom';
import type { GameView, Schemas } from './types';

/** The AI's level in a game started at once: a gentle one for a newcomer. */
const QUICK_LEVEL = 2;

/** A button that starts a game of `game` against the AI, as a guest when nobody is logged
 * in, and opens it; a refusal is shown beside it. */
export function playAiNow(shell: Shell, game: string, label: string): HTMLElement {
  const message = h('span', { class: 'error', role: 'alert' });
  const button = h('button', { type: 'button', class: 'button primary' }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    message.textContent = '';
    try {
      if (!shell.me) {
        const me = await api<Schemas['Account']>('POST', '/api/session/guest', {});
        shell.setMe(me.name, me.guest);
      }
      const created = await api<GameView>('POST', '/api/games', { game, opponent: `ai:${QUICK_LEVEL}`, colour: 'first' });
      shell.go(`/games/${created.id}`);
    } catch (error) {
      message.textContent = failureText(error);
      button.disabled = false;
    }
  });
  return h('span', { class: 'play-now' }, button, ' ', message);
}
