// Ratings in the client: a game's leaderboard (`/leaderboards/{game}`), and the ratings part
// of a player's page (each game's rating, its rated games, and its history as an inline SVG
// chart). Every number is the server's (`GET /api/accounts/{name}`, `.../ratings/
// {game}`, `GET /api/leaderboards/{game}`).

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

/** The ratings part of a player's page: one block per game rated. */
export async function ratingsSection(name: string, account: AccountView): Promise<HTMLElement> {
  await loadCatalogue();
  const ratings = Object.entries(account.ratings ?? {});
  const section = h('section', { class: 'ratings', 'aria-label': 'ratings' }, h('h2', {}, 'Ratings'));
  if (account.bot) section.append(h('p', { class: 'bot-note' }, 'A bot: a program plays this account.'));
  if (account.swap61) section.append(await skillBlock(name, account.swap61));
  if (ratings.length === 0) {
    section.append(h('p', { class: 'empty' }, 'No rated games yet.'));
    return section;
  }
  for (const [game, rating] of ratings) {
    const history = await api<Schemas['HistoryView']>('GET', `/api/accounts/${encodeURIComponent(name)}/ratings/${game}`);
    section.append(h('div', { class: 'rating' },
      h('h3', {}, h('a', { href: `/leaderboards/${game}` }, gameTitle(game)), ` ${ratingWords(rating)}`),
      h('p', {}, `RD ${Math.round(rating.rd)}; ${rating.games} rated games played.`),
      ratingChart(history.points)));
  }
  return section;
}

/** `/leaderboards/{game}`: the top 100 of a game. */
export async function leaderboardPage(main: HTMLElement, _shell: unknown, route: Route): Promise<void> {
  if (route.page !== 'leaderboard') return;
  await loadCatalogue();
  const board = await api<Schemas['LeaderboardView']>(
    'GET', `/api/leaderboards/${encodeURIComponent(route.game)}`);
  const rooms = board.game === 'swap61';
  // Swap 61's skills are small numbers (a new player has 0), so they keep a decimal.
  const number = (x: number): string => (rooms ? x.toFixed(1) : String(Math.round(x)));
  main.append(h('h1', {}, `${poolTitle(board.game)} leaderboard`),
    h('p', {}, rooms
      ? 'The best 100 players of finished rooms, by skill less three times its uncertainty (Weng-Lin, from the final ranks).'
      : 'The best 100 among players whose rating deviation is at most 75 and who played a rated game in the last 90 days.'),
    board.players.length === 0 ? h('p', { class: 'empty' }, 'Nobody qualifies yet.') :
      h('table', { class: 'leaderboard' },
        h('thead', {}, h('tr', {}, ...['Rank', 'Player', 'Rating', rooms ? 'Uncertainty' : 'RD', rooms ? 'Rated rooms' : 'Rated games']
          .map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...board.players.map((p) => h('tr', {},
          h('td', {}, String(p.rank)),
          h('td', {}, h('a', { href: `/players/${encodeURIComponent(p.name)}` }, p.name), p.bot ? ' (bot)' : ''),
          h('td', {}, number(p.rating)), h('td', {}, number(p.rd)), h('td', {}, String(p.games)))))));
}
