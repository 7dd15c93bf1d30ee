// The page shell: the session, the header, the router (History API) and the banner shown
// while the server cannot be reached.

import { ApiFailure, api, whenUnauthenticated } from './api';
import { loadCatalogue } from './catalogue';
import { fill, h } from './dom';
import { LiveInbox } from './live';
import { backoff, parseRoute, type Route } from './logic';
import { showTurnBadge } from './pushdata';
import type { Schemas } from './types';

/** What a page gives back: how to stop its timers and sockets when it is left. */
export type Cleanup = () => void;

/** What every page may use. */
export interface Shell {
  /** The logged-in account's name, or null. */
  me: string | null;
  /** Whether that account is a guest's (it plays the AI only, until it signs up). */
  guest: boolean;
  /** The roles it holds beyond playing (`admin`, `moderator`): the moderators' page is offered. */
  roles: string[];
  /** Goes to a page of the client (pushes a history entry unless `replace`). */
  go(path: string, replace?: boolean): void;
  /** Shows a page's own failure to load, retrying when the server is down. */
  failed(error: unknown): void;
  /** Sets the account after a login, a guest's start or a logout, and redraws the header. */
  setMe(name: string | null, guest?: boolean): void;
}

type Page = (main: HTMLElement, shell: Shell, route: Route) => Promise<Cleanup | void>;

const state = { me: null as string | null, guest: false, roles: [] as string[], cleanup: null as Cleanup | null, retries: 0, retryTimer: 0, generation: 0 };

/** The unread count in the header, kept by the inbox's socket while someone is logged in. */
const inbox = { socket: null as LiveInbox | null, badge: h('span', { class: 'badge', 'aria-live': 'polite' }) };

/**
 * Opens the inbox's socket when someone is logged in, closes it when nobody is. The app's
 * badge follows it: an opponent's move comes with a notice, so each change of the inbox
 * may be a change of the games waiting for the player's move.
 */
function followInbox(me: string | null): void {
  if (me && !inbox.socket) {
    inbox.socket = new LiveInbox({
      inbox: (message) => {
        inbox.badge.textContent = message.unread > 0 ? ` ${message.unread}` : '';
        inbox.badge.setAttribute('aria-label', `${message.unread} unread`);
        void showTurnBadge(navigator);
      },
    });
  } else if (!me && inbox.socket) {
    inbox.socket.close();
    inbox.socket = null;
    inbox.badge.textContent = '';
    if ('clearAppBadge' in navigator) void navigator.clearAppBadge().catch(() => undefined);
  }
}

function header(shell: Shell): HTMLElement {
  const link = (href: string, text: string): HTMLAnchorElement => h('a', { href }, text);
  const nav = h('nav', { 'aria-label': 'main' }, link('/', 'Home'), link('/new', 'New game'), link('/learn', 'Learn'), link('/puzzles', 'Puzzles'), link('/tournaments', 'Tournaments'), link('/leaderboards/swaptimum', 'Leaderboards'), link('/players', 'Players'));
  followInbox(shell.me);
  if (shell.me && shell.guest) {
    // A guest keeps its games by signing up from this session; logging out would lose them.
    nav.append(
      link(`/players/${encodeURIComponent(shell.me)}`, `${shell.me} (guest)`),
      link('/signup', 'Sign up to keep your games'),
      link('/login', 'Log in'),
    );
  } else if (shell.me) {
    nav.append(
      link(`/players/${encodeURIComponent(shell.me)}`, shell.me),
      h('a', { href: '/notifications' }, 'Inbox', inbox.badge),
      link('/settings', 'Settings'),
      ...(shell.roles.length > 0 ? [link('/moderation', 'Moderation')] : []),
      h('button', {
        type: 'button', class: 'link', onclick: () => {
          void api('DELETE', '/api/session', undefined, { quiet401: true }).finally(() => {
            shell.setMe(null);
            shell.go('/');
          });
        },
      }, 'Log out'),
    );
  } else {
    nav.append(link('/login', 'Log in'), link('/signup', 'Sign up'), link('/settings', 'Settings'));
  }
  return h('header', {}, h('a', { href: '/', class: 'brand' }, 'swapboard'), nav);
}

/** Starts the client on the page's root element. */
export function start(root: HTMLElement, pages: Record<Route['page'], Page>): void {
  const top = h('div', { id: 'top' });
  const banner = h('div', { id: 'banner', role: 'status', 'aria-live': 'polite' });
  const main = h('main', { id: 'main' });
  const footer = h('footer', {}, h('nav', { 'aria-label': 'about' },
    h('a', { href: '/about' }, 'About'), h('a', { href: '/help' }, 'Help'), h('a', { href: '/rules' }, 'Rules')));
  fill(root, top, banner, main, footer);

  const shell: Shell = {
    get me() {
      return state.me;
    },
    get guest() {
      return state.guest;
    },
    get roles() {
      return state.roles;
    },
    go(path, replace = false) {
      if (replace) history.replaceState(null, '', path);
      else history.pushState(null, '', path);
      void render();
    },
    failed(error) {
      if (error instanceof ApiFailure && error.status === 0) {
        const wait = backoff(state.retries);
        state.retries += 1;
        fill(banner, `The server cannot be reached. Retrying in ${Math.round(wait / 1000)} s…`);
        banner.className = 'down';
        window.clearTimeout(state.retryTimer);
        state.retryTimer = window.setTimeout(() => void render(), wait);
        return;
      }
      fill(main, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error)));
    },
    setMe(name, guest = false) {
      state.me = name;
      state.guest = name !== null && guest;
      state.roles = [];
      fill(top, header(shell));
      // A login may bring roles: asked once, the header then offers their pages.
      if (name !== null && !guest) {
        void api<Schemas['Me'] | null>('GET', '/api/me', undefined, { quiet401: true }).then((me) => {
          if (state.me !== name || !me || me.roles.length === 0) return;
          state.roles = me.roles;
          fill(top, header(shell));
        }, () => undefined);
      }
    },
  };

  whenUnauthenticated(() => {
    state.me = null;
    state.guest = false;
    state.roles = [];
    fill(top, header(shell));
    if (location.pathname !== '/login') {
      shell.go(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    }
  });

  async function render(): Promise<void> {
    state.cleanup?.();
    state.cleanup = null;
    const route = parseRoute(location.pathname, location.search);
    // Each page draws into its own element: one left while it still loads (a 401 that sends
    // the browser to log in, a click on a link) writes only into its detached element.
    const generation = ++state.generation;
    // "Connected again." is news for one page only.
    if (banner.className === 'up') {
      banner.replaceChildren();
      banner.className = '';
    }
    const view = h('div', { class: 'page' });
    main.replaceChildren(view);
    try {
      // The games' names and sizes come from the server's catalogue, read once.
      await loadCatalogue();
      const page = pages[route.page];
      const cleanup = await page(view, shell, route);
      if (generation !== state.generation) {
        cleanup?.();
        return;
      }
      state.cleanup = cleanup ?? null;
      // The player's own move leaves no notice: the badge is counted again at each page.
      if (state.me) void showTurnBadge(navigator);
      if (state.retries > 0) {
        state.retries = 0;
        fill(banner, 'Connected again.');
        banner.className = 'up';
      }
    } catch (error) {
      if (generation === state.generation) shell.failed(error);
    }
  }

  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest('a');
    if (!link || link.hasAttribute('download') || link.target || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    event.preventDefault();
    shell.go(url.pathname + url.search);
  });
  window.addEventListener('popstate', () => void render());
  // The service worker on every device, not only where push was asked for: it shows the
  // offline page and keeps the app's badge.
  if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js').catch(() => undefined);

  async function boot(): Promise<void> {
    try {
      // `null` for the public: a visitor's probe is no 401 in the console.
      const me = await api<Schemas['Me'] | null>('GET', '/api/me', undefined, { quiet401: true });
      state.me = me?.name ?? null;
      state.guest = me?.guest ?? false;
      state.roles = me?.roles ?? [];
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 0) {
        const wait = backoff(state.retries);
        state.retries += 1;
        fill(banner, `The server cannot be reached. Retrying in ${Math.round(wait / 1000)} s…`);
        banner.className = 'down';
        window.setTimeout(() => void boot(), wait);
        return;
      }
      state.me = null;
    }
    fill(top, header(shell));
    await render();
  }
  void boot();
}
