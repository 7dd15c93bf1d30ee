// The rules pages (`/rules` and `/rules/{game}`) and the front page a visitor sees: every
// word and picture comes from the server (`GET /api/rules`, `GET /api/rules/{game}`), which
// takes them from the play crate: the client writes no rule of its own.

import { api } from './api';
import type { Shell } from './app';
import { h } from './dom';
import { playAiNow } from './guest';
import type { Route } from './logic';
import { playingNow } from './pages';
import { dailyCard } from './puzzles/page';
import type { Lobby, Schemas } from './types';

/** What swapboard is, in two sentences: the front page and `/about` say it alike. */
export const WHAT_SWAPBOARD_IS = [
  'swapboard is a place to play five new abstract strategy games, by their designers\' rules, against other people or a strong AI. ',
  'Four are duels on a square board; Swap 61 is a sealed-bid game for nine or ten players and a game master.',
];

/** A game in short (`GET /api/rules`). */
export type RulesSummary = Schemas['RulesSummary'];
/** A game's rules (`GET /api/rules/{game}`). */
export type RulesPage = Schemas['RulesPage'];
/** A section of a game's rules: the sheet's rule, swapboard's reading of it, or its own choice. */
export type RulesSection = Schemas['RulesSection'];

/** `Name by Author (year)`, as the rule sheets ask games to be credited. */
export function credited(game: { name: string; author: string; year: string }): string {
  return `${game.name} by ${game.author}${game.year ? ` (${game.year})` : ''}`;
}

/** The server's SVG document as an element of the page, named for screen readers. The
 * document is the engine's own drawing; it is parsed as XML, so nothing in it runs. */
export function picture(svg: string, label: string): Element {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.nodeName !== 'svg') return h('p', { class: 'error' }, 'This picture cannot be shown.');
  const element = document.importNode(root, true);
  element.setAttribute('role', 'img');
  element.setAttribute('aria-label', label);
  // The page sizes the picture; its viewBox keeps the proportions.
  element.removeAttribute('width');
  element.removeAttribute('height');
  return element;
}

async function gameRules(main: HTMLElement, shell: Shell, id: string): Promise<void> {
  const rules = await api<RulesPage>('GET', `/api/rules/${encodeURIComponent(id)}`);
  const play = rules.board
    ? playAiNow(shell, rules.id, 'Play the AI now')
    : h('a', { href: shell.me && !shell.guest ? '/rooms/new' : `/signup?next=${encodeURIComponent('/rooms/new')}`, class: 'button' }, 'Run a room');
  main.append(
    h('h1', {}, `Rules of ${credited(rules)}`),
    h('p', { class: 'summary' }, rules.summary),
    h('aside', { class: 'credit-box', 'aria-label': 'credit' }, ...rules.credit.map((p) => h('p', {}, p)),
      ...rules.links.map((l) => h('p', {}, h('a', { href: l.href, rel: 'noopener' }, l.text)))),
    h('p', {}, play, rules.board ? h('a', { href: `/learn/${rules.id}`, class: 'button' }, `Learn ${rules.name} step by step`) : null),
  );
  rules.sections.forEach((section, k) => {
    main.append(h('section', { class: `rules-section source-${section.source}`, 'aria-labelledby': `rules-h${k}` },
      h('p', { class: 'source-label' }, section.source_label),
      h('h2', { id: `rules-h${k}` }, section.heading),
      ...section.paragraphs.map((p) => h('p', {}, p)),
      ...section.sheet.map((q) => h('blockquote', { class: 'sheet-words' }, h('span', { class: 'sheet-words-label' }, 'The sheet: '), `“${q}”`)),
      ...section.diagrams.map((d) => h('figure', { class: 'diagram' },
        h('div', { class: 'diagram-pictures' }, ...d.pictures.map((p) => h('div', { class: 'diagram-picture' },
          p.label ? h('p', { class: 'picture-label' }, p.label) : null,
          picture(p.svg, p.label ? `${p.label}: ${d.caption}` : d.caption)))),
        h('figcaption', {}, d.caption,
          d.notes.length > 0 ? h('ul', { class: 'diagram-notes' }, ...d.notes.map((n) => h('li', {}, n))) : null,
          d.rules.length > 0 ? h('span', { class: 'rule-codes' }, ` Rule code: ${d.rules.join(', ')}.`) : null)))));
  });
  main.append(h('p', {}, h('a', { href: '/rules' }, 'The rules of the other games')));
}

/** Every game in short: picture, author, one line, and links to its rules and to play it. */
export async function gameCards(shell: Shell): Promise<HTMLElement> {
  const list = await api<Schemas['RulesList']>('GET', '/api/rules');
  const next = (path: string): string => (shell.me && !shell.guest ? path : `/signup?next=${encodeURIComponent(path)}`);
  return h('ul', { class: 'game-cards' }, ...list.games.map((game) =>
    h('li', { class: 'game-card', 'data-game': game.id },
      h('a', { href: `/rules/${game.id}`, class: 'card-picture', tabindex: -1, 'aria-hidden': 'true' }, picture(game.picture, `${game.name}: a position`)),
      h('h2', {}, game.name),
      h('p', { class: 'credit' }, `by ${game.author}${game.year ? ` (${game.year})` : ''}`),
      h('p', {}, game.summary),
      h('p', { class: 'card-links' },
        h('a', { href: `/rules/${game.id}` }, `Rules of ${game.name}`),
        game.board ? h('a', { href: `/learn/${game.id}` }, `Learn ${game.name}`) : null,
        game.board ? h('a', { href: `/puzzles?game=${game.id}` }, `${game.name} puzzles`) : null,
        game.board
          ? playAiNow(shell, game.id, `Play ${game.name} against the AI now`)
          : h('a', { href: next('/rooms/new'), class: 'button' }, 'Run a Swap 61 room')))));
}

async function rulesIndex(main: HTMLElement, shell: Shell): Promise<void> {
  main.append(h('h1', {}, 'Rules'), await gameCards(shell));
}

/** `/rules` and `/rules/{game}`. */
export async function rulesPage(main: HTMLElement, shell: Shell, route: Route): Promise<void> {
  if (route.page !== 'rules') return;
  if (route.game === null) await rulesIndex(main, shell);
  else await gameRules(main, shell, route.game);
}

/** The front page of a visitor who is not logged in (or plays as a guest): what swapboard is, the five games, and
 * the way in. */
export async function frontPage(main: HTMLElement, shell: Shell): Promise<void> {
  main.append(
    h('h1', {}, 'swapboard'),
    h('p', { class: 'lead' }, ...WHAT_SWAPBOARD_IS),
    shell.guest
      ? h('p', { class: 'way-in' }, `You are playing as the guest ${shell.me ?? ''}: `,
        h('a', { href: `/players/${encodeURIComponent(shell.me ?? '')}` }, 'your games'), '. ',
        h('a', { href: '/signup', class: 'button primary' }, 'Sign up to keep them'),
        ' and to play people.')
      : h('p', { class: 'way-in' },
        h('a', { href: '/signup', class: 'button primary' }, 'Sign up'), ' ',
        h('a', { href: '/login', class: 'button' }, 'Log in'),
        ' or play the AI at once as a guest, with no account.'),
    await gameCards(shell),
    await dailyCard() ?? '',
    playingNow((await api<Lobby>('GET', '/api/lobby')).playing),
  );
}
