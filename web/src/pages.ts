// The home page, log in, sign up, new game and settings, and the game lists other pages
// share.

import { api, ApiFailure, failureText } from './api';
import type { Cleanup, Shell } from './app';
import { catalogueEntry, gameTitle, loadCatalogue } from './catalogue';
import { h } from './dom';
import { describeClock, opponentField, safeNext, timeControl, type Route } from './logic';
import { dailyCard } from './puzzles/page';
import { PROVISIONAL_NOTE } from './ratings';
import type { RoomView } from './swap61';
import type { CatalogueEntry, GameView, Lobby, Schemas, TimeControl, VacationView } from './types';

/** Whether a move is confirmed before it is sent (a setting; on by default on touch screens). */
export function confirmStep(): boolean {
  const saved = localStorage.getItem('swapboard.confirm');
  if (saved === 'on' || saved === 'off') return saved === 'on';
  return window.matchMedia('(pointer: coarse)').matches;
}

function seatText(game: GameView): string {
  const rating = (p: GameView['players'][number]): string =>
    p.rating ? ` (${Math.round(p.rating.before)}${p.rating.provisional ? '?' : ''})` : '';
  return game.players
    .map((p) => `${p.seated ? `${p.name ?? ''}${rating(p)}` : p.name ? `(kept for ${p.name})` : '(open)'} ${p.colour}`)
    .join(' vs ');
}

/** Sets a board size field to the sides the game's engine accepts (Rapid Transit's are even: a step of 2), at its default. */
export function fitSizeTo(size: HTMLInputElement, entry: CatalogueEntry): void {
  const sizes = entry.sizes;
  size.min = String(sizes[0]);
  size.max = String(sizes[sizes.length - 1]);
  size.step = String(sizes.length > 1 ? sizes[1] - sizes[0] : 1);
  size.value = String(entry.default_size);
}

/** One game in a list: a link to it with who plays, the clock and the state. */
export function gameItem(game: GameView, extra?: Node): HTMLLIElement {
  const state =
    game.status === 'finished'
      ? game.result?.winner
        ? `${game.result.winner} won ${game.result.how}`
        : game.result?.how === 'aborted' ? 'aborted' : `drawn ${game.result?.how ?? ''}`.trim()
      : game.status === 'playing'
        ? `move ${game.ply + 1}${game.to_move ? `, ${game.to_move} to move` : ''}`
        : game.status === 'waiting' ? 'waiting for a player' : `challenge ${game.status}`;
  return h(
    'li',
    { class: 'game-item' },
    h('a', { href: `/games/${game.id}` }, `${gameTitle(game.game)} ${game.size}×${game.size}`),
    h('span', game.players.some((p) => p.rating?.provisional) ? { title: PROVISIONAL_NOTE } : {},
      ` ${seatText(game)} · ${describeClock(game.clock)} · ${game.rated ? 'rated' : 'casual'} · ${state}`),
    extra,
  );
}

/** One room in a list: a link to it, the caller's part in it, and how far it is. */
function roomItem(room: RoomView, me: string | null): HTMLLIElement {
  const part = room.master.toLowerCase() === me?.toLowerCase() ? 'you are the game master' : `game master ${room.master}`;
  const state = room.status === 'lobby'
    ? `lobby, ${room.joined.length} of ${room.size} joined`
    : room.status === 'playing' ? `round ${room.round} open` : 'finished';
  return h('li', { class: 'game-item' },
    h('a', { href: `/rooms/${room.id}` }, `Swap 61 room ${room.id}`),
    h('span', {}, ` ${part} · ${room.size} seats · ${state}`));
}

/** A list of games, or words saying it is empty. */
export function gameList(games: GameView[], empty: string, extra?: (game: GameView) => Node | undefined): HTMLElement {
  if (games.length === 0) return h('p', { class: 'empty' }, empty);
  const list = h('ul', { class: 'games' });
  for (const game of games) list.append(gameItem(game, extra?.(game)));
  return list;
}

async function home(main: HTMLElement, shell: Shell): Promise<void> {
  const lobby = await api<Lobby>('GET', '/api/lobby');
  main.append(h('h1', {}, 'swapboard'));
  if (shell.me) {
    const [turn, playing, challenges] = await Promise.all([
      api<Schemas['TurnList']>('GET', '/api/me/turn'),
      api<Schemas['GameList']>('GET', `/api/accounts/${encodeURIComponent(shell.me)}/games?status=playing`),
      api<Schemas['ChallengeList']>('GET', '/api/me/challenges'),
    ]);
    const mine = new Set(turn.games.map((game) => game.id));
    const theirs = playing.games.filter((game) => !mine.has(game.id));
    main.append(
      h('section', { 'aria-labelledby': 'turn-h' },
        h('h2', { id: 'turn-h' }, 'Your turn'),
        turn.games.length > 0 &&
          h('button', { type: 'button', class: 'primary', onclick: () => shell.go(`/games/${turn.games[0].id}`) }, 'Next game'),
        gameList(turn.games, 'No game waits for your move.'),
      ),
      h('section', { 'aria-labelledby': 'their-h' },
        h('h2', { id: 'their-h' }, 'Waiting for your opponent'),
        gameList(theirs, 'No game waits for an opponent\'s move.'),
      ),
      // A challenge kept for one player is in no lobby: here is where that player finds it.
      h('section', { 'aria-labelledby': 'challenges-h' },
        h('h2', { id: 'challenges-h' }, 'Challenges'),
        h('h3', {}, 'For you'),
        gameList(challenges.incoming, 'Nobody is waiting for you to accept.'),
        h('h3', {}, 'Yours, waiting'),
        gameList(challenges.outgoing, 'None of your challenges waits.'),
      ),
    );
  } else {
    main.append(h('p', {}, h('a', { href: '/login' }, 'Log in'), ' or ', h('a', { href: '/signup' }, 'sign up'), ' to play.'));
  }
  main.append(h('p', {}, 'Swap 61 for 9 or 10 players: ', h('a', { href: '/rooms/new' }, 'run a room as its game master'), '.'));
  main.append(await dailyCard() ?? '');
  if (shell.me) {
    const mine = await api<Schemas['MyRooms']>('GET', '/api/me/rooms');
    main.append(h('section', { 'aria-labelledby': 'rooms-h' }, h('h2', { id: 'rooms-h' }, 'Your rooms'),
      mine.rooms.length === 0
        ? h('p', { class: 'empty' }, 'You run no room and sit in none.')
        : h('ul', { class: 'games' }, ...mine.rooms.map((room) => roomItem(room, shell.me)))));
  }
  const message = h('p', { class: 'error', role: 'alert' });
  const join = (game: GameView): Node | undefined => {
    const mine = game.players.some((p) => p.seated && p.name === shell.me);
    if (!shell.me || shell.guest || mine) return undefined;
    return h('button', {
      type: 'button', onclick: async () => {
        try {
          await api('POST', `/api/games/${game.id}/join`, {});
          shell.go(`/games/${game.id}`);
        } catch (error) {
          message.textContent = failureText(error);
        }
      },
    }, 'Join');
  };
  main.append(
    h('section', { 'aria-labelledby': 'open-h' }, h('h2', { id: 'open-h' }, 'Open challenges'), message,
      gameList(lobby.open, 'No challenge is open. Start one!', join)),
    playingNow(lobby.playing),
  );
}

/** The section of the games being played now (the lobby's), on the home and the visitor's front page. */
export function playingNow(games: GameView[]): HTMLElement {
  return h('section', { 'aria-labelledby': 'playing-h' }, h('h2', { id: 'playing-h' }, 'Being played now'),
    gameList(games, 'No game is being played.'));
}

/** A form's field: its words above its input, one label for both. */
export function field(label: string, input: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

function accountForm(main: HTMLElement, shell: Shell, signUp: boolean): void {
  const next = safeNext(new URLSearchParams(location.search).get('next'));
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 2, maxlength: 24 });
  const password = h('input', {
    name: 'password', type: 'password', required: true, minlength: 8, maxlength: 128,
    autocomplete: signUp ? 'new-password' : 'current-password',
  });
  const message = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'account' },
    field('Name', name), field('Password', password), message,
    h('button', { type: 'submit', class: 'primary' }, signUp ? 'Sign up' : 'Log in'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    const body = { name: name.value, password: password.value };
    try {
      if (signUp) await api('POST', '/api/accounts', body);
      // Signed up from a guest's session, the guest's games are the new account's.
      const me = await api<Schemas['Account']>('POST', '/api/session', body, { quiet401: true });
      shell.setMe(me.name);
      shell.go(next, true);
    } catch (error) {
      message.textContent = error instanceof ApiFailure && error.status === 401 ? 'Wrong name or password.' : failureText(error);
    }
  });
  main.append(
    h('h1', {}, signUp ? 'Sign up' : 'Log in'),
    signUp && shell.guest ? h('p', { class: 'lead' }, `You play as the guest ${shell.me ?? ''}: signing up keeps your games.`) : '',
    form,
    h('p', {}, signUp ? 'Have an account? ' : 'New here? ',
      h('a', { href: `${signUp ? '/login' : '/signup'}${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}` }, signUp ? 'Log in' : 'Sign up')),
    ...(signUp ? [] : [h('p', {}, h('a', { href: '/forgot-password' }, 'Forgot your password?'))]),
  );
}

function select(name: string, options: [string, string][], value: string): HTMLSelectElement {
  const element = h('select', { name });
  for (const [key, text] of options) element.append(h('option', { value: key, selected: key === value }, text));
  return element;
}

/** The kinds of clock a game or a tournament may have, by the words of the form. */
export const CLOCK_KINDS: [string, string][] = [['correspondence', 'Correspondence (days per move)'], ['live', 'Live (minutes + increment)']];

/**
 * A time control's fields: the kind's select (`kinds`, the first chosen), a correspondence
 * clock's days and a live clock's minutes and increment, each shown for its kind only;
 * `control()` reads what they say.
 */
export function clockFields(kinds: [string, string][]): { fields: HTMLElement[]; control(): TimeControl } {
  const clock = select('clock', kinds, kinds[0][0]);
  const days = h('input', { name: 'days', type: 'number', min: 1, max: 30, value: 3, required: true });
  // From a quarter of a minute (15 s) up to a day.
  const initial = h('input', { name: 'initial', type: 'number', min: 0.25, max: 1440, value: 10, step: 'any', required: true });
  const increment = h('input', { name: 'increment', type: 'number', min: 0, max: 600, value: 5, required: true });
  const daysField = field('Days per move', days);
  const liveFields = h('div', { class: 'row' }, field('Minutes each', initial), field('Increment (s)', increment));
  const show = (): void => {
    daysField.hidden = clock.value !== 'correspondence';
    liveFields.hidden = clock.value !== 'live';
  };
  clock.addEventListener('change', show);
  show();
  return {
    fields: [field('Time control', clock), daysField, liveFields],
    control: () => timeControl(clock.value, Number(days.value), Number(initial.value), Number(increment.value)),
  };
}

async function newGame(main: HTMLElement, shell: Shell): Promise<void> {
  if (!shell.me) {
    shell.go(`/login?next=${encodeURIComponent(`/new${location.search}`)}`, true);
    return;
  }
  const games = await loadCatalogue();
  // Each game credited to its author, as the rule sheets ask.
  const search = new URLSearchParams(location.search);
  const asked = search.get('game');
  // A profile's "Challenge NAME" comes here with the name: the game is kept for that player.
  const challenged = search.get('challenge');
  const game = select('game', games.map((g) => [g.id, `${g.name} by ${g.author}`]), games.find((g) => g.id === asked)?.id ?? games[0]?.id ?? '');
  const rules = h('a', { class: 'rules-link' });
  const size = h('input', { name: 'size', type: 'number', required: true });
  const fitSize = (): void => {
    const entry = catalogueEntry(game.value);
    if (!entry) return;
    rules.href = `/rules/${entry.id}`;
    rules.textContent = `Rules of ${entry.name}`;
    fitSizeTo(size, entry);
  };
  fitSize();
  game.addEventListener('change', fitSize);
  const colour = select('colour', [['random', 'Random'], ['first', 'First player'], ['second', 'Second player']], 'random');
  const opponent = select('opponent', [['ai', 'The AI'], ['open', 'Anyone (open challenge)'], ['user', 'A named player'], ['invite', 'Whoever has the invite link']], challenged ? 'user' : 'ai');
  const level = h('input', { name: 'level', type: 'number', min: 1, max: 8, value: 3 });
  const player = h('input', { name: 'player', maxlength: 24, value: challenged ?? '' });
  // Games between people count for the ratings unless the challenger says otherwise; the AI
  // never plays rated, so the box is shown only against a person. A board the solver has
  // proved from the start (the catalogue's `proven_sizes`) is never rated: the box is off
  // there, and says why.
  const rated = h('input', { type: 'checkbox', name: 'rated', checked: true });
  const provenNote = h('span', { class: 'note' });
  const ratedField = h('label', { class: 'check' }, rated, ' Rated', provenNote);
  const proven = (): boolean => catalogueEntry(game.value)?.proven_sizes.includes(Number(size.value)) ?? false;
  const fitRated = (): void => {
    const solved = proven();
    // Back on a board that is rated: the default again.
    if (!solved && rated.disabled) rated.checked = true;
    rated.disabled = solved;
    if (solved) rated.checked = false;
    provenNote.textContent = solved
      ? ` (never on ${size.value}\u00d7${size.value}: the solver has proved who wins from the start)`
      : '';
  };
  fitRated();
  game.addEventListener('change', fitRated);
  size.addEventListener('input', fitRated);
  const clock = clockFields([['none', 'None'], ...CLOCK_KINDS]);
  const levelField = field('AI level (1-8)', level);
  const playerField = field('Player name', player);
  const show = (): void => {
    levelField.hidden = opponent.value !== 'ai';
    playerField.hidden = opponent.value !== 'user';
    ratedField.hidden = opponent.value === 'ai';
  };
  opponent.addEventListener('change', show);
  show();
  const message = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'new-game' },
    field('Game', game), rules, field('Board size', size), field('Your colour', colour), field('Opponent', opponent),
    levelField, playerField, ratedField, ...clock.fields, message,
    h('button', { type: 'submit', class: 'primary' }, 'Create the game'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    try {
      const created = await api<GameView>('POST', '/api/games', {
        game: game.value,
        size: Number(size.value),
        colour: colour.value,
        opponent: opponentField(opponent.value, Number(level.value), player.value),
        clock: clock.control(),
        ...(opponent.value === 'ai' || proven() ? {} : { rated: rated.checked }),
      });
      shell.go(`/games/${created.id}`);
    } catch (error) {
      message.textContent = failureText(error);
    }
  });
  main.append(h('h1', {}, 'New game'), form);
}

async function settings(main: HTMLElement): Promise<void> {
  const box = h('input', { type: 'checkbox', name: 'confirm', checked: confirmStep() });
  box.addEventListener('change', () => localStorage.setItem('swapboard.confirm', box.checked ? 'on' : 'off'));
  main.append(
    h('h1', {}, 'Settings'),
    h('label', { class: 'check' }, box, ' Confirm each move before it is sent (on by default on touch screens)'),
    h('p', {}, h('a', { href: '/vacation' }, 'Vacation days'), ': your correspondence games when you are away'),
  );
}

async function missing(main: HTMLElement): Promise<void> {
  main.append(h('h1', {}, 'No such page'), h('p', {}, h('a', { href: '/' }, 'Home')));
}

/** The pages other than the game's, by route. */
export const PAGES = {
  home: (main: HTMLElement, shell: Shell): Promise<void> => home(main, shell),
  login: async (main: HTMLElement, shell: Shell): Promise<void> => accountForm(main, shell, false),
  signup: async (main: HTMLElement, shell: Shell): Promise<void> => accountForm(main, shell, true),
  new: newGame,
  settings: (main: HTMLElement): Promise<void> => settings(main),
  missing: (main: HTMLElement): Promise<void> => missing(main),
} satisfies Record<Exclude<Route['page'], 'game' | 'player' | 'newRoom' | 'room' | 'rules' | 'notifications' | 'confirmEmail' | 'unsubscribe' | 'puzzles' | 'tournaments' | 'leaderboard' | 'players' | 'learn' | 'forgotPassword' | 'resetPassword' | 'vacation' | 'about' | 'help' | 'moderation'>, (main: HTMLElement, shell: Shell, route: Route) => Promise<Cleanup | void>>;
