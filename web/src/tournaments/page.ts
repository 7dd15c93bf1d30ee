// The tournament pages: the list with a create form (`/tournaments`) and a tournament
// (`/tournaments/{id}`: crosstable for a round robin, pairings by round with game links for both, join,
// leave and start, live over the tournament's socket). The state is in `state.ts`, the views
// in `views.ts`.

import { api, failureText } from '../api';
import type { Cleanup, Shell } from '../app';
import { catalogueEntry, loadCatalogue } from '../catalogue';
import { h } from '../dom';
import { LiveSocket, type Handlers } from '../live';
import type { Route } from '../logic';
import { CLOCK_KINDS, clockFields, field, fitSizeTo } from '../pages';
import type { TournamentList, TournamentMessage, TournamentView } from '../types';
import { drawTournament, summaryItem, tournamentElements } from './views';

/** The form that creates a tournament, for a logged-in user: every size the game allows,
 * a correspondence or a live clock. */
async function createForm(shell: Shell): Promise<HTMLFormElement> {
  const games = await loadCatalogue();
  const game = h('select', { name: 'game' }, ...games.map((g) => h('option', { value: g.id }, g.name)));
  const size = h('input', { name: 'size', type: 'number', required: true });
  const fit = (): void => {
    const entry = catalogueEntry(game.value);
    if (entry) fitSizeTo(size, entry);
  };
  fit();
  game.addEventListener('change', fit);
  const format = h('select', { name: 'format' }, h('option', { value: 'swiss' }, 'Swiss'), h('option', { value: 'round_robin' }, 'Round robin (every pair twice)'));
  const rounds = h('input', { name: 'rounds', type: 'number', min: 1, max: 20, value: 5, required: true });
  const roundsField = field('Rounds', rounds);
  const clock = clockFields(CLOCK_KINDS);
  const show = (): void => {
    roundsField.hidden = format.value !== 'swiss';
  };
  format.addEventListener('change', show);
  show();
  const inAWeek = new Date(Date.now() + 7 * 86_400_000);
  inAWeek.setSeconds(0, 0);
  const starts = h('input', { name: 'starts_at', type: 'datetime-local', value: inAWeek.toISOString().slice(0, 16), required: true });
  const min = h('input', { name: 'min_players', type: 'number', min: 2, max: 500, value: 4, required: true });
  const max = h('input', { name: 'max_players', type: 'number', min: 2, max: 500, value: 40, required: true });
  const rated = h('input', { name: 'rated', type: 'checkbox', checked: true });
  const vacation = h('input', { name: 'vacation', type: 'checkbox', checked: true });
  const message = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'new-tournament', 'aria-label': 'new tournament' },
    field('Game', game), field('Board size', size), field('Format', format), roundsField,
    ...clock.fields,
    field('Starts (your time)', starts), field('Fewest players', min), field('Most players', max),
    h('label', { class: 'check' }, rated, ' Rated'),
    h('label', { class: 'check' }, vacation, ' Vacation days may save a player whose correspondence clock ran out'), message,
    h('button', { type: 'submit', class: 'primary' }, 'Create the tournament'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    try {
      const created = await api<TournamentView>('POST', '/api/tournaments', {
        game: game.value, size: Number(size.value), format: format.value, rounds: Number(rounds.value),
        clock: clock.control(),
        starts_at: new Date(starts.value).toISOString(),
        min_players: Number(min.value), max_players: Number(max.value), rated: rated.checked,
        vacation: vacation.checked,
      });
      shell.go(`/tournaments/${created.id}`);
    } catch (error) {
      message.textContent = failureText(error);
    }
  });
  return form;
}

/** `/tournaments`: upcoming, running and finished, and the create form for a logged-in user. */
async function listPage(main: HTMLElement, shell: Shell): Promise<void> {
  await loadCatalogue();
  const list = await api<TournamentList>('GET', '/api/tournaments');
  const part = (title: string, items: TournamentList['upcoming'], empty: string): HTMLElement =>
    h('section', { 'aria-label': title }, h('h2', {}, title),
      items.length === 0 ? h('p', { class: 'empty' }, empty) : h('ul', { class: 'tournaments' }, ...items.map(summaryItem)));
  main.append(h('h1', {}, 'Tournaments'),
    part('Upcoming', list.upcoming, 'No tournament is taking entries.'),
    part('Running', list.running, 'No tournament is being played.'),
    part('Finished', list.finished, 'No tournament has finished yet.'));
  if (shell.me) {
    main.append(h('h2', {}, 'New tournament'), await createForm(shell));
  } else {
    main.append(h('p', {}, h('a', { href: `/login?next=${encodeURIComponent('/tournaments')}` }, 'Log in'), ' to create or join one.'));
  }
}

/** `/tournaments/{id}`: the tournament, live. */
async function onePage(main: HTMLElement, shell: Shell, id: string): Promise<Cleanup> {
  await loadCatalogue();
  const path = `/api/tournaments/${encodeURIComponent(id)}`;
  let tournament = await api<TournamentView>('GET', path);
  const act = (what: 'join' | 'leave' | 'start') => async (): Promise<void> => {
    e.message.textContent = '';
    try {
      tournament = await api<TournamentView>('POST', `${path}/${what}`);
      drawTournament(e, tournament, shell.me);
    } catch (error) {
      e.message.textContent = failureText(error);
    }
  };
  const e = tournamentElements({ join: () => void act('join')(), leave: () => void act('leave')(), start: () => void act('start')() });
  main.append(e.title, e.status, e.live, e.buttons, e.message, e.standings, e.crosstable, e.rounds, e.players);
  drawTournament(e, tournament, shell.me);
  /** The socket sends the whole tournament on opening and after every change. */
  const handlers: Handlers<TournamentMessage> = {
    tournament: (message) => {
      tournament = message.tournament;
      drawTournament(e, tournament, shell.me);
    },
  };
  const live = new LiveSocket<TournamentMessage>(() => `${path}/socket`, 'tournament', handlers, (status) => {
    e.live.textContent = status === 'live' || status === 'resynced' ? 'Live.' : 'Connecting…';
  });
  return () => live.close();
}

/** The tournaments' pages, by route. */
export async function tournamentsPage(main: HTMLElement, shell: Shell, route: Route): Promise<Cleanup | void> {
  if (route.page !== 'tournaments') return;
  if (route.id === null) return listPage(main, shell);
  return onePage(main, shell, route.id);
}
