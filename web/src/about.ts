// `/about` (what swapboard is, and each game's credit as its author's sheet asks) and `/help`
// (how the site is used). The games' credits come from the server (`GET /api/rules/{game}`),
// which takes them from the play crate; the help describes the pages, not the rules.

import { api } from './api';
import type { Shell } from './app';
import { h } from './dom';
import { credited, type RulesPage, WHAT_SWAPBOARD_IS } from './rules';
import type { Schemas } from './types';

/** `/about`: what the site is, the games with their authors' credits and terms, and the ways in for bot authors. */
export async function aboutPage(main: HTMLElement, _shell: Shell): Promise<void> {
  const list = await api<Schemas['RulesList']>('GET', '/api/rules');
  const pages = await Promise.all(list.games.map((g) => api<RulesPage>('GET', `/api/rules/${encodeURIComponent(g.id)}`)));
  main.append(
    h('h1', {}, 'About swapboard'),
    h('p', { class: 'lead' }, ...WHAT_SWAPBOARD_IS),
    h('p', {}, 'Every rule is played by the same engine that draws the rules pages, checks the lessons and proves the puzzles; ',
      'every refused move is explained in the words of the rule it breaks.'),
    h('h2', {}, 'The games and their authors'),
    ...pages.map((page) => h('section', { class: 'about-game', 'aria-label': page.name },
      h('h3', {}, h('a', { href: `/rules/${page.id}` }, credited(page))),
      ...page.credit.map((p) => h('p', {}, p)),
      ...page.links.map((l) => h('p', {}, h('a', { href: l.href, rel: 'noopener' }, l.text))))),
    h('h2', {}, 'For bot authors'),
    h('p', {}, 'Everything the pages do goes through the HTTP API, described by its ',
      h('a', { href: '/api/openapi.json' }, 'OpenAPI document'),
      '. A bot account plays with a token, and the swapboard command plays through it with swapboard bot.'),
    h('p', {}, h('a', { href: '/help' }, 'How to use the site'), ' · ', h('a', { href: '/rules' }, 'The rules')),
  );
}

/** One topic of the help: a heading and its paragraphs. */
function topic(heading: string, ...paragraphs: (string | Node)[][]): HTMLElement {
  return h('section', { class: 'help-topic' }, h('h2', {}, heading), ...paragraphs.map((p) => h('p', {}, ...p)));
}

/** `/help`: how to play on the site, from a first game to notifications. */
export async function helpPage(main: HTMLElement, _shell: Shell): Promise<void> {
  main.append(
    h('h1', {}, 'How to use swapboard'),
    topic('Learning a game',
      ['Each game has ', h('a', { href: '/rules' }, 'a rules page'), ' with pictures drawn by the engine, ',
        h('a', { href: '/learn' }, 'a lesson'), ' played on the real board, and ', h('a', { href: '/puzzles' }, 'puzzles'),
        ' whose answers the solver has proved.'],
      ['You can play the AI at once from the front page, without an account; sign up later and your games stay yours.']),
    topic('Making a move',
      ['Click the cells of your move one by one. The cells that can start or continue a legal move are outlined in dashed green; ',
        'a click the rules refuse is answered beside the board with the reason. Click a chosen cell again to take it back.'],
      ['A move that could still grow shows a "Play" button; "Pass" and "+ new group" appear only when the rules offer them. ',
        'A turn with no legal move is passed for you. You can also type a move in the game\'s notation.'],
      ['On a touch screen a move waits for "Confirm"; ', h('a', { href: '/settings' }, 'Settings'), ' turns that step on or off.']),
    topic('Clocks, correspondence and time away',
      ['A game has no clock, a number of days a move (correspondence), or minutes and an increment (live). ',
        'In correspondence, a clock that runs out spends a day of your ', h('a', { href: '/vacation' }, 'vacation bank'),
        ' instead, as long as days are left; you can also take days on purpose.']),
    topic('Being told it is your turn',
      ['The Inbox in the header counts what is new and lists it. There you choose, ',
        'for each kind of event, mail at once, a daily digest or nothing, and you can turn on notifications on this device.']),
    topic('Reviewing a game',
      ['A finished game has an analysis of any position and a review of every move, with the win chance after each ply. ',
        'Use the move list, or the arrow keys, to step through it.']),
    topic('Talking, and keeping safe',
      ['Each game has a chat for its players and one for spectators; a Swap 61 room has its table-talk and a private thread between each seat and the game master. ',
        '"Mute" folds a chat away, "Report" sends a message to the moderators, and "Block" on a player\'s page stops their challenges and messages.']),
    topic('Ratings and tournaments',
      ['Rated games between two accounts change both players\' ratings (a "?" marks one not yet settled); each game has a ',
        'leaderboard, and ', h('a', { href: '/tournaments' }, 'tournaments'), ' pair their players and start their games by themselves.']),
    h('p', {}, h('a', { href: '/about' }, 'About swapboard')),
  );
}
