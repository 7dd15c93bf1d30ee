// A player's page (`/players/{name}`): the ratings, the record in each game (played, won,
// lost, drawn), a Block button for another signed-in account, the rooms played, and the games with filters read from the page's address
// (status, game, result, rated, opponent); with an opponent, the head-to-head record first.
// Every number is the server's (`GET /api/accounts/{name}`, `.../games`, `.../versus/{o}`,
// `.../rooms`).

import { bankWords } from './account';
import { api, failureText } from './api';
import type { Shell } from './app';
import { gameTitle, loadCatalogue } from './catalogue';
import { h } from './dom';
import { filterQuery, readFilters, type GameFilters, type Route } from './logic';
import { gameList } from './pages';
import { ratingsSection, type AccountView, type RecordView } from './ratings';
import type { Schemas, VacationView } from './types';

/** A room a player sat in, as `GET /api/accounts/{name}/rooms` lists it. */
type RoomPlayed = Schemas['RoomPlayedView'];

/** A record table: one row per game, and a total row when there is more than one game. */
function recordTable(label: string, record: Record<string, RecordView>, total?: RecordView): HTMLElement {
  const rows = Object.entries(record);
  if (rows.length === 0) return h('p', { class: 'empty' }, 'No finished games yet.');
  const row = (name: string, r: RecordView): HTMLElement => h('tr', {},
    h('th', { scope: 'row' }, name), ...[r.played, r.won, r.lost, r.drawn].map((n) => h('td', {}, String(n))));
  return h('table', { class: 'leaderboard record', 'aria-label': label },
    h('thead', {}, h('tr', {}, ...['Game', 'Played', 'Won', 'Lost', 'Drawn'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows.map(([game, r]) => row(gameTitle(game), r)), total && rows.length > 1 ? row('All', total) : null));
}

/** The rooms a player sat in, each with its final rank once the room rated it. */
function roomsSection(rooms: RoomPlayed[]): HTMLElement {
  const section = h('section', { 'aria-labelledby': 'rooms-h' }, h('h2', { id: 'rooms-h' }, 'Swap 61 rooms'));
  if (rooms.length === 0) {
    section.append(h('p', { class: 'empty' }, 'No rooms played.'));
    return section;
  }
  section.append(h('ul', { class: 'games' }, ...rooms.map((room) => {
    const state = room.status === 'lobby' ? 'in its lobby'
      : room.status === 'playing' ? `round ${room.round} open`
        : room.rank !== null ? `finished, ranked ${room.rank}` : 'finished';
    return h('li', { class: 'game-item' },
      h('a', { href: `/rooms/${room.id}` }, `Swap 61 room ${room.id}`),
      h('span', {}, ` seat ${room.seat} of ${room.seats} · game master ${room.master} · ${state}`));
  })));
  return section;
}

/** The filters' form: its fields start from the page's filters; sending it opens the page
 * again with the new ones in its address, so a filtered list can be linked to. */
function filterForm(base: string, filters: GameFilters, games: string[], go: (path: string) => void): HTMLElement {
  const select = (name: keyof GameFilters, label: string, options: [string, string][]): HTMLElement => {
    const field = h('select', { name }, ...options.map(([value, text]) =>
      h('option', { value, selected: (filters[name] ?? '') === value }, text)));
    return h('label', {}, `${label} `, field);
  };
  const opponent = h('input', { name: 'opponent', type: 'text', value: filters.opponent ?? '', autocomplete: 'off', placeholder: 'a player\'s name' });
  const form = h('form', { class: 'filters', 'aria-label': 'filter the games' },
    select('status', 'Status', [['', 'Any'], ['waiting', 'Waiting'], ['playing', 'Playing'], ['finished', 'Finished']]),
    select('game', 'Game', [['', 'Any'], ...games.map((g): [string, string] => [g, gameTitle(g)])]),
    select('result', 'Result', [['', 'Any'], ['won', 'Won'], ['lost', 'Lost'], ['drawn', 'Drawn']]),
    select('rated', 'Rated', [['', 'Any'], ['true', 'Rated'], ['false', 'Not rated']]),
    h('label', {}, 'Against ', opponent),
    h('button', { type: 'submit' }, 'Show'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    go(base + filterQuery(readFilters(new URLSearchParams([...data.entries()].map(([k, v]) => [k, String(v)])), games)));
  });
  return form;
}

/** Blocks or unblocks the player (docs/CHAT.md: no challenge, rematch or players' chat
 * between the two, either way), as the caller's blocks say now. */
async function blockButton(name: string): Promise<HTMLElement> {
  const blocks = await api<Schemas['BlocksView']>('GET', '/api/me/blocks');
  let blocked = blocks.blocks.some((b) => b.name === name);
  const button = h('button', { type: 'button', class: 'block' }, blocked ? 'Unblock' : 'Block');
  const error = h('span', { class: 'error', role: 'alert' });
  button.addEventListener('click', async () => {
    try {
      await api(blocked ? 'DELETE' : 'PUT', `/api/me/blocks/${encodeURIComponent(name)}`);
      blocked = !blocked;
      button.textContent = blocked ? 'Unblock' : 'Block';
    } catch (failure) {
      error.textContent = failureText(failure);
    }
  });
  return h('p', {}, button, ' ', error);
}

/** `/players/{name}`. */
export async function playerPage(main: HTMLElement, shell: Shell, route: Route): Promise<void> {
  if (route.page !== 'player') return;
  const games = (await loadCatalogue()).map((entry) => entry.id);
  const filters = readFilters(new URLSearchParams(location.search), games);
  const name = encodeURIComponent(route.name);
  const base = `/players/${name}`;
  const [account, list, rooms] = await Promise.all([
    api<AccountView>('GET', `/api/accounts/${name}`),
    api<Schemas['GameList']>('GET', `/api/accounts/${name}/games${filterQuery(filters)}`),
    api<Schemas['RoomsPlayed']>('GET', `/api/accounts/${name}/rooms`),
  ]);
  const shown = h('section', { 'aria-labelledby': 'games-h' }, h('h2', { id: 'games-h' }, 'Games'),
    filterForm(base, filters, games, (path) => shell.go(path)));
  if (filters.opponent) {
    const versus = await api<Schemas['VersusView']>(
      'GET', `/api/accounts/${name}/versus/${encodeURIComponent(filters.opponent)}`);
    shown.append(h('h3', {}, `Against ${versus.opponent}: ${versus.total.won} won, ${versus.total.lost} lost, ${versus.total.drawn} drawn`),
      recordTable(`record against ${versus.opponent}`, versus.record, versus.total));
  }
  const filtered = filterQuery(filters) !== '';
  shown.append(gameList(list.games, filtered ? 'No games pass these filters.' : 'No games here.'));
  if (filtered) shown.append(h('p', {}, h('a', { href: base }, 'All games')));
  main.append(
    h('h1', {}, route.name),
    await ratingsSection(route.name, account),
    h('section', { 'aria-labelledby': 'record-h' }, h('h2', { id: 'record-h' }, 'Record'),
      recordTable('record', account.record ?? {})),
    // The vacation bank is its owner's to see.
    ...(shell.me === route.name ? [h('p', { class: 'vacation' },
      bankWords(await api<VacationView>('GET', '/api/me/vacation')), ' ', h('a', { href: '/vacation' }, 'Vacation'))] : []),
    ...(shell.me && !shell.guest && shell.me !== route.name
      ? [h('p', { class: 'challenge' }, h('a', { class: 'button primary', href: `/new?challenge=${encodeURIComponent(route.name)}` }, `Challenge ${route.name}`))]
      : []),
    ...(shell.me && shell.me !== route.name ? [await blockButton(route.name)] : []),
    shown,
    roomsSection(rooms.rooms),
  );
}
