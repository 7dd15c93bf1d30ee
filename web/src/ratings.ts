// Ratings in the client: a game's leaderboard (`/leaderboards/{game}`), and the ratings part
// of a player's page (each game's rating, rated games played and won, and its history as an
// inline SVG chart). Every number is the server's (`GET /api/accounts/{name}`, `.../ratings/
// {game}`, `GET /api/leaderboards/{game}`).

import { api } from './api';
import { gameTitle, loadCatalogue } from './catalogue';
import { h } from './dom';
import type { Route } from './logic';
import { ratingChart } from './tournaments/views';

/** A rating as the account shows it. */
interface RatingView {
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  provisional: boolean;
}

/** A point of a rating history. */
interface HistoryPoint {
  at_ms: number;
  game_id: string;
  rating: number;
  rd: number;
}

/** A rating in words: "1612" or "1612?" while provisional. */
export function ratingWords(rating: RatingView): string {
  return `${Math.round(rating.rating)}${rating.provisional ? '?' : ''}`;
}

/** How many of a history's games the player won: each point whose rating went up. */
export function gamesWon(points: HistoryPoint[], start: number): number {
  let before = start;
  let won = 0;
  for (const point of points) {
    if (point.rating > before) won += 1;
    before = point.rating;
  }
  return won;
}

/** The ratings part of a player's page: one block per game rated. */
export async function ratingsSection(name: string): Promise<HTMLElement> {
  await loadCatalogue();
  const account = await api<{ ratings?: Record<string, RatingView> }>('GET', `/api/accounts/${encodeURIComponent(name)}`);
  const ratings = Object.entries(account.ratings ?? {});
  const section = h('section', { class: 'ratings', 'aria-label': 'ratings' }, h('h2', {}, 'Ratings'));
  if (ratings.length === 0) {
    section.append(h('p', { class: 'empty' }, 'No rated games yet.'));
    return section;
  }
  for (const [game, rating] of ratings) {
    const history = await api<{ points: HistoryPoint[] }>('GET', `/api/accounts/${encodeURIComponent(name)}/ratings/${game}`);
    // Every new player starts at 1500 (docs/RATINGS.md).
    const won = gamesWon(history.points, 1500);
    section.append(h('div', { class: 'rating' },
      h('h3', {}, h('a', { href: `/leaderboards/${game}` }, gameTitle(game)), ` ${ratingWords(rating)}`),
      h('p', {}, `RD ${Math.round(rating.rd)}; ${rating.games} rated games played, ${won} won.`),
      ratingChart(history.points)));
  }
  return section;
}

/** `/leaderboards/{game}`: the top 100 of a game. */
export async function leaderboardPage(main: HTMLElement, _shell: unknown, route: Route): Promise<void> {
  if (route.page !== 'leaderboard') return;
  await loadCatalogue();
  const board = await api<{ game: string; players: { rank: number; name: string; rating: number; rd: number; games: number }[] }>(
    'GET', `/api/leaderboards/${encodeURIComponent(route.game)}`);
  main.append(h('h1', {}, `${gameTitle(board.game)} leaderboard`),
    h('p', {}, 'The best 100 among players whose rating deviation is at most 75 and who played a rated game in the last 90 days.'),
    board.players.length === 0 ? h('p', { class: 'empty' }, 'Nobody qualifies yet.') :
      h('table', { class: 'leaderboard' },
        h('thead', {}, h('tr', {}, ...['Rank', 'Player', 'Rating', 'RD', 'Rated games'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...board.players.map((p) => h('tr', {},
          h('td', {}, String(p.rank)), h('td', {}, h('a', { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
          h('td', {}, String(Math.round(p.rating))), h('td', {}, String(Math.round(p.rd))), h('td', {}, String(p.games)))))));
}
