// Ratings in the client: a pool's leaderboard (`/leaderboards/{game}?band=&bots=`), and the
// ratings part of a player's page (each pool's rating, its rated games, and its history as
// an inline SVG chart). A pool is a game and a band of its board sizes. Every number is the
// server's (`GET /api/accounts/{name}`, `.../ratings/{game}?band=`,
// `GET /api/leaderboards/{game}?band=&bots=`).

import { api } from './api';
import { gameTitle, loadCatalogue } from './catalogue';
import { h } from './dom';
import type { Route } from './logic';
import { ratingChart } from './tournaments/views';
import type { Schemas } from './types';

/** A rating as the account shows it. */
type RatingView = Schemas['RatingView'];

/** A rating in words: "1612" or "1612?" while provisional. */
export function ratingWords(rating: Pick<RatingView, 'rating' | 'provisional'>): string {
  return `${Math.round(rating.rating)}${rating.provisional ? '?' : ''}`;
}

/** What the "?" after a rating means, told wherever one is shown (as its tooltip). */
export const PROVISIONAL_NOTE =
  'Provisional ("?"): the rating deviation (RD) is 110 or more, so a few more rated games will still move it a lot.';

/** A rating as shown in a page: its words, the "?" explained in a tooltip when provisional. */
export function ratingElement(rating: Pick<RatingView, 'rating' | 'provisional'>): HTMLElement {
  return rating.provisional
    ? h('span', { class: 'provisional', title: PROVISIONAL_NOTE }, ratingWords(rating))
    : h('span', {}, ratingWords(rating));
}

/** A rated game's change in words, rounded: "+12", "−12" (a minus sign), "+0". */
export function ratingChangeWords(change: number): string {
  const points = Math.round(change);
  return points < 0 ? `\u2212${-points}` : `+${Math.abs(points)}`;
}

/** A pool's title: a two-player game's from the catalogue, or Swap 61's (rooms, not in it). */
function poolTitle(id: string): string {
  return id === 'swap61' ? 'Swap 61' : gameTitle(id);
}

/** A Swap 61 skill as the account shows it (Weng-Lin, from the final ranks of rooms). */
type SkillView = Schemas['SkillView'];
/** Finished games played, won, lost and drawn (the server's count). */
export type RecordView = Schemas['RecordView'];
/** An account as `GET /api/accounts/{name}` shows it. */
export type AccountView = Schemas['AccountView'];

/** The Swap 61 block of a player's page: the skill, the rooms and the history. */
async function skillBlock(name: string, skill: SkillView): Promise<HTMLElement> {
  const history = await api<Schemas['HistoryView']>('GET', `/api/accounts/${encodeURIComponent(name)}/ratings/swap61`);
  return h('div', { class: 'rating' },
    h('h3', {}, h('a', { href: '/leaderboards/swap61' }, poolTitle('swap61')), ` ${skill.rating.toFixed(1)}`),
    h('p', {}, `Skill ${skill.mu.toFixed(1)} ± ${skill.sigma.toFixed(1)} (shown: skill less three times its uncertainty); ${skill.rooms} rated rooms finished.`),
    ratingChart(history.points));
}

/** A pool's title: `Flipstop, small boards (3-7)`. */
function bandTitle(game: string, band: string, sizes: number[]): string {
  return `${gameTitle(game)}, ${band} boards (${sizes[0]}\u2013${sizes[1]})`;
}

/** The ratings part of a player's page: one block per pool (a game and a band of sizes) rated. */
export async function ratingsSection(name: string, account: AccountView): Promise<HTMLElement> {
  await loadCatalogue();
  const section = h('section', { class: 'ratings', 'aria-label': 'ratings' }, h('h2', {}, 'Ratings'));
  if (account.bot) section.append(h('p', { class: 'bot-note' }, 'A bot: a program plays this account.'));
  if (account.swap61) section.append(await skillBlock(name, account.swap61));
  if (account.pools.length === 0) {
    section.append(h('p', { class: 'empty' }, 'No rated games yet.'));
    return section;
  }
  for (const pool of account.pools) {
    const history = await api<Schemas['HistoryView']>('GET',
      `/api/accounts/${encodeURIComponent(name)}/ratings/${pool.game}?band=${pool.band}`);
    section.append(h('div', { class: 'rating' },
      h('h3', {}, h('a', { href: `/leaderboards/${pool.game}?band=${pool.band}` }, bandTitle(pool.game, pool.band, pool.sizes)), ' ', ratingElement(pool)),
      h('p', {}, `RD ${Math.round(pool.rd)}; ${pool.games} rated games played.`,
        pool.provisional ? h('span', { class: 'note' }, ` ${PROVISIONAL_NOTE}`) : null),
      ratingChart(history.points)));
  }
  return section;
}

/** `/leaderboards/{game}?band=&bots=`: the top 100 of a pool, of people or of bots. */
export async function leaderboardPage(main: HTMLElement, _shell: unknown, route: Route): Promise<void> {
  if (route.page !== 'leaderboard') return;
  const catalogue = await loadCatalogue();
  const query = new URLSearchParams();
  if (route.band !== null) query.set('band', route.band);
  if (route.bots) query.set('bots', 'true');
  const search = query.toString();
  const board = await api<Schemas['LeaderboardView']>(
    'GET', `/api/leaderboards/${encodeURIComponent(route.game)}${search ? `?${search}` : ''}`);
  const rooms = board.game === 'swap61';
  // Swap 61's skills are small numbers (a new player has 0), so they keep a decimal.
  const number = (x: number): string => (rooms ? x.toFixed(1) : String(Math.round(x)));
  const href = (game: string, band: string | null | undefined, bots: boolean): string => {
    const q = new URLSearchParams();
    if (band) q.set('band', band);
    if (bots) q.set('bots', 'true');
    const text = q.toString();
    return `/leaderboards/${game}${text ? `?${text}` : ''}`;
  };
  const choice = (label: string, target: string, current: boolean): HTMLElement =>
    current ? h('strong', { 'aria-current': 'page' }, label) : h('a', { href: target }, label);
  const spaced = (items: HTMLElement[]): (HTMLElement | string)[] => items.flatMap((item, k) => (k === 0 ? [item] : [' \u00b7 ', item]));
  const games = [...catalogue.map((g) => g.id as string), 'swap61'];
  const entry = catalogue.find((g) => g.id === board.game);
  const who = board.bots ? 'bots' : 'people';
  main.append(h('h1', {}, `${poolTitle(board.game)} leaderboard`),
    h('nav', { 'aria-label': 'leaderboards', class: 'choices' },
      h('p', {}, ...spaced(games.map((g) => choice(poolTitle(g), href(g, null, board.bots), g === board.game)))),
      entry ? h('p', {}, ...spaced(entry.bands.map((b) =>
        choice(`${b.band} (${b.sizes[0]}\u2013${b.sizes[1]})`, href(board.game, b.band, board.bots), b.band === board.band)))) : null,
      h('p', {}, ...spaced([choice('People', href(board.game, board.band, false), !board.bots),
        choice('Bots', href(board.game, board.band, true), board.bots)]))),
    h('p', {}, rooms
      ? `The best 100 ${who} of finished rooms, by skill less three times its uncertainty (Weng-Lin, from the final ranks).`
      : `The best 100 ${who} on ${board.band} boards (${board.sizes?.[0]}\u2013${board.sizes?.[1]}) who played a rated game there in the last 90 days, with a rating deviation (RD) of at most ${Math.round(board.max_rd ?? 0)} for a pool of ${board.active ?? 0} active ${who} ` +
        `(the limit is wider while few play, so that a club's players show after a few games). ${board.bots ? '' : 'Bots have their own leaderboard.'}`,
    ),
    board.players.length === 0 ? h('p', { class: 'empty' }, 'Nobody qualifies yet.') :
      h('table', { class: 'leaderboard' },
        h('thead', {}, h('tr', {}, ...['Rank', 'Player', 'Rating', rooms ? 'Uncertainty' : 'RD', rooms ? 'Rated rooms' : 'Rated games']
          .map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...board.players.map((p) => h('tr', {},
          h('td', {}, String(p.rank)),
          h('td', {}, h('a', { href: `/players/${encodeURIComponent(p.name)}` }, p.name), p.bot ? ' (bot)' : ''),
          h('td', {}, rooms ? number(p.rating) : ratingElement(p)), h('td', {}, number(p.rd)), h('td', {}, String(p.games)))))));
  if (board.players.some((p) => p.provisional)) main.append(h('p', { class: 'note' }, PROVISIONAL_NOTE));
}

/** `/players`: the players who finished a game, the most recently active first. */
export async function playersPage(main: HTMLElement): Promise<void> {
  const list = await api<Schemas['PlayersView']>('GET', '/api/players');
  main.append(h('h1', {}, 'Players'),
    h('p', {}, 'Everyone who has finished a game here, the most recently active first. Each name leads to the player\'s ratings and games; the ',
      h('a', { href: '/leaderboards/swaptimum' }, 'leaderboards'), ' rank them.'),
    list.players.length === 0 ? h('p', { class: 'empty' }, 'Nobody has finished a game yet.') :
      h('table', { class: 'leaderboard', 'aria-label': 'players' },
        h('thead', {}, h('tr', {}, ...['Player', 'Finished games', 'Last game'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...list.players.map((p) => h('tr', {},
          h('td', {}, h('a', { href: `/players/${encodeURIComponent(p.name)}` }, p.name), p.bot ? ' (bot)' : ''),
          h('td', {}, String(p.games)),
          h('td', {}, new Date(p.last_game_ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })))))));
}
