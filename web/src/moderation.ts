// The moderators' page (`/moderation`, for admins and moderators; docs/DEPLOY.md,
// "Moderation"): the reports' queue with what surrounds each report and the acts on it, the
// banned and muted accounts, an account's file with notes and roles, and the admin log with
// filters. Every act names its reason, which the admin log keeps; the server checks each
// role again.

import { api, failureText } from './api';
import type { Shell } from './app';
import { fill, h } from './dom';
import { REPORT_CATEGORIES, type Route } from './logic';
import { gameItem } from './pages';
import type { Schemas } from './types';

type ReportView = Schemas['ReportView'];
type AccountFile = Schemas['AccountFileView'];
type LogLine = Schemas['LogLine'];
type BanTerms = Schemas['BanTermsView'];

/** What the last act said, shown once by the page drawn after it. */
let lastAct = '';

/** Redraws the page in place, telling what was done. */
function redrawTelling(shell: Shell, words: string): void {
  lastAct = words;
  shell.go(location.pathname + location.search, true);
}

/** The status line of a page: the last act's words, once. */
function statusLine(): HTMLElement {
  const status = h('p', { role: 'status', 'aria-live': 'polite' }, lastAct);
  lastAct = '';
  return status;
}

/** A time in the viewer's own zone and words. */
function when(ms: number): string {
  return new Date(ms).toLocaleString();
}

/** A ban in words: since, until when, why. */
function banWords(ban: BanTerms): string {
  const term = ban.until_ms == null ? 'for good' : `until ${when(ban.until_ms)}`;
  return `Banned ${term} (since ${when(ban.since_ms)})${ban.reason ? `: ${ban.reason}` : ''}`;
}

/** The page's tabs, by the `tab` of its address. */
const TABS: [string, string][] = [['reports', 'Reports'], ['accounts', 'Accounts'], ['log', 'Admin log']];

/** A link to an account's file on this page. */
function fileLink(name: string): HTMLAnchorElement {
  return h('a', { href: `/moderation?tab=accounts&name=${encodeURIComponent(name)}` }, name);
}

/** One act's controls: a reason field and the buttons that send it; `done` redraws, telling. */
function acts(status: HTMLElement, done: (words: string) => void, buttons: [string, (reason: string) => Promise<unknown>][], extra: HTMLElement[] = []): HTMLElement {
  const reason = h('input', { type: 'text', maxlength: 500, required: true, 'aria-label': 'Reason (kept in the admin log)', placeholder: 'Reason (kept in the admin log)' });
  const row = h('div', { class: 'acts' }, reason, ...extra);
  for (const [label, act] of buttons) {
    row.append(h('button', {
      type: 'button',
      onclick: () => {
        const why = reason.value.trim();
        if (why === '') {
          status.textContent = 'Give a reason first: the admin log keeps it.';
          reason.focus();
          return;
        }
        void act(why).then(() => {
          done(`${label}: done.`);
        }, (error: unknown) => {
          status.textContent = failureText(error);
        });
      },
    }, label));
  }
  return row;
}

/** A select of a ban's term: days, or for good (empty). */
function banTerm(): HTMLSelectElement {
  const select = h('select', { name: 'ban-for' });
  for (const [value, words] of [['1', '1 day'], ['7', '7 days'], ['30', '30 days'], ['', 'for good']]) {
    select.append(h('option', { value }, words));
  }
  return select;
}

/** A select of a mute's length in hours. */
function muteHours(): HTMLSelectElement {
  const select = h('select', { name: 'mute-for' });
  for (const [value, words] of [['1', '1 hour'], ['24', '1 day'], ['72', '3 days'], ['168', '7 days'], ['720', '30 days']]) {
    select.append(h('option', { value }, words));
  }
  return select;
}

/** The ban's body from the term chosen. */
function banBody(reason: string, term: HTMLSelectElement): { reason: string; days?: number } {
  return term.value === '' ? { reason } : { reason, days: Number(term.value) };
}

/** A report's category in words, as the reporter chose it in the chat's report form. */
function categoryWords(category: string): string {
  return REPORT_CATEGORIES.find(([word]) => word === category)?.[1] ?? category;
}

/** A report as a card: who, about whom, why, what surrounds it, and the acts. */
function reportCard(report: ReportView, status: HTMLElement, redraw: (words: string) => void): HTMLElement {
  const account = encodeURIComponent(report.account);
  const term = banTerm();
  const hours = muteHours();
  const reported = report.message;
  const context = h('ol', { class: 'context', 'aria-label': 'What surrounds it' });
  for (const message of report.context) {
    const mark = reported && message.id === reported.id ? 'reported' : '';
    context.append(h('li', { class: mark },
      h('span', { class: 'when' }, when(message.at_ms)), ' ',
      h('b', {}, message.author), ': ',
      message.text ?? '',
      message.hidden ? h('em', {}, ' (hidden)') : null));
  }
  const buttons: [string, (reason: string) => Promise<unknown>][] = [];
  if (reported && !reported.hidden) {
    buttons.push(['Hide the message', (reason) => api('POST', `/api/admin/messages/${reported.id}/hide`, { reason })]);
  }
  buttons.push(
    ['Mute', (reason) => api('POST', `/api/admin/accounts/${account}/mute`, { reason, hours: Number(hours.value) })],
    ['Ban', (reason) => api('POST', `/api/admin/accounts/${account}/ban`, banBody(reason, term))],
  );
  if (report.closed_ms == null) {
    buttons.push(['Dismiss', (reason) => api('POST', `/api/admin/reports/${report.id}/close`, { reason })]);
  }
  return h('article', { class: 'report-card', 'aria-label': `Report ${report.id}` },
    h('h3', {}, `Report ${report.id}: `, fileLink(report.account), ` reported by ${report.reporter}`),
    h('p', {}, h('span', { class: 'when' }, when(report.at_ms)), ' ',
      report.category ? h('span', { class: 'category' }, categoryWords(report.category)) : null,
      report.reason ? ` “${report.reason}”` : null),
    report.place ? h('p', {}, h('a', { href: report.place }, `Open the ${report.place.startsWith('/games/') ? 'game' : 'room'}`), ` (${report.chat ?? ''} chat)`) : h('p', {}, 'A report of the account: its latest messages.'),
    report.context.length > 0 ? context : h('p', {}, 'No messages.'),
    report.closed_ms == null
      ? acts(status, redraw, buttons, [h('label', {}, 'Mute for ', hours), h('label', {}, 'Ban for ', term)])
      : h('p', {}, `Closed by ${report.closed_by ?? '?'} ${when(report.closed_ms)}.`));
}

/** The reports' queue, newest first, a page at a time. */
async function reportsTab(main: HTMLElement, route: Route & { page: 'moderation' }, shell: Shell): Promise<void> {
  const all = route.all;
  const before = route.before;
  const query = new URLSearchParams({ limit: '20' });
  if (all) query.set('all', 'true');
  if (before !== null) query.set('before', String(before));
  const page = await api<Schemas['ReportsView']>('GET', `/api/admin/reports?${query.toString()}`);
  const status = statusLine();
  const redraw = (words: string): void => redrawTelling(shell, words);
  main.append(
    h('p', {}, all ? h('a', { href: '/moderation?tab=reports' }, 'Open reports only') : h('a', { href: '/moderation?tab=reports&all=true' }, 'Show closed reports too')),
    status,
    page.reports.length === 0 ? h('p', {}, all ? 'No reports.' : 'No open reports.') : h('div', { class: 'stack' }, ...page.reports.map((report) => reportCard(report, status, redraw))),
  );
  if (page.older != null) main.append(h('p', {}, h('a', { href: `/moderation?tab=reports${all ? '&all=true' : ''}&before=${page.older}` }, 'Older reports')));
}

/** The banned and the muted, each with the act that ends it. */
async function standingList(which: 'banned' | 'muted', status: HTMLElement, redraw: (words: string) => void): Promise<HTMLElement> {
  const list = await api<Schemas['StandingList']>('GET', `/api/admin/accounts?standing=${which}`);
  const section = h('section', { 'aria-label': which === 'banned' ? 'Banned accounts' : 'Muted accounts' },
    h('h3', {}, which === 'banned' ? 'Banned' : 'Muted'));
  if (list.accounts.length === 0) {
    section.append(h('p', {}, which === 'banned' ? 'Nobody is banned.' : 'Nobody is muted.'));
    return section;
  }
  const ul = h('ul', { class: 'plain' });
  for (const line of list.accounts) {
    const name = encodeURIComponent(line.name);
    const words = which === 'banned' && line.ban ? banWords(line.ban) : `Muted until ${when(line.muted_until_ms ?? 0)}`;
    const [label, path] = which === 'banned' ? ['Unban', `/api/admin/accounts/${name}/unban`] : ['Unmute', `/api/admin/accounts/${name}/unmute`];
    ul.append(h('li', {}, fileLink(line.name), ` ${words}`, acts(status, redraw, [[label, (reason) => api('POST', path, { reason })]])));
  }
  section.append(ul);
  return section;
}

/** An account's file: standing, roles, notes, reports, messages, the log about it, acts. */
async function accountFile(name: string, shell: Shell, status: HTMLElement, redraw: (words: string) => void): Promise<HTMLElement> {
  const [file, games] = await Promise.all([
    api<AccountFile>('GET', `/api/admin/accounts/${encodeURIComponent(name)}`),
    api<Schemas['GameList']>('GET', `/api/accounts/${encodeURIComponent(name)}/games`),
  ]);
  const path = `/api/admin/accounts/${encodeURIComponent(file.name)}`;
  const section = h('section', { class: 'stack', 'aria-label': `The file of ${file.name}` },
    h('h3', {}, 'Account ', h('a', { href: `/players/${encodeURIComponent(file.name)}` }, file.name)),
    h('p', {}, `Signed up ${when(file.created_ms)}`, file.signup_address ? ` from ${file.signup_address}` : '',
      file.guest ? ' (a guest)' : '', file.bot ? ' (a bot account)' : ''),
    h('p', { class: 'standing' }, file.ban ? banWords(file.ban) : 'Not banned.',
      file.muted_until_ms != null ? ` Muted until ${when(file.muted_until_ms)}${file.muted_reason ? `: ${file.muted_reason}` : ''}.` : ''),
    h('p', {}, 'Roles: ', file.roles.length === 0 ? 'none' : file.roles.map((role) => `${role.role} (since ${when(role.granted_ms)})`).join(', ')),
  );
  const term = banTerm();
  const hours = muteHours();
  section.append(acts(status, redraw, [
    ['Ban', (reason) => api('POST', `${path}/ban`, banBody(reason, term))],
    ['Unban', (reason) => api('POST', `${path}/unban`, { reason })],
    ['Mute', (reason) => api('POST', `${path}/mute`, { reason, hours: Number(hours.value) })],
    ['Unmute', (reason) => api('POST', `${path}/unmute`, { reason })],
  ], [h('label', {}, 'Mute for ', hours), h('label', {}, 'Ban for ', term)]));
  if (shell.roles.includes('admin')) {
    const roles = h('div', { class: 'acts', 'aria-label': 'Roles' });
    for (const role of ['moderator', 'admin']) {
      const held = file.roles.some((r) => r.role === role);
      roles.append(h('button', {
        type: 'button',
        onclick: () => void api(held ? 'DELETE' : 'PUT', `${path}/roles/${role}`).then(() => {
          redraw(held ? `${file.name} is no longer ${role}.` : `${file.name} is now ${role}.`);
        }, (error: unknown) => {
          status.textContent = failureText(error);
        }),
      }, held ? `Take back ${role}` : `Make ${role}`));
    }
    section.append(roles);
  }
  const note = h('textarea', { maxlength: 2000, rows: 2, 'aria-label': 'A note for the moderators' });
  const noteForm = h('form', { class: 'stack' }, h('label', {}, 'Add a note ', note), h('button', { type: 'submit' }, 'Keep the note'));
  noteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void api('POST', `${path}/notes`, { text: note.value }).then(() => redraw('The note is kept.'), (error: unknown) => {
      status.textContent = failureText(error);
    });
  });
  section.append(
    h('h4', {}, 'Notes'),
    file.notes.length === 0 ? h('p', {}, 'No notes yet.') : h('ul', { class: 'plain notes' }, ...file.notes.map((n) => h('li', {}, h('span', { class: 'when' }, when(n.at_ms)), ` ${n.author}: ${n.text}`))),
    noteForm,
    h('h4', {}, 'Reports about this account'),
    file.reports.length === 0 ? h('p', {}, 'None.') : h('ul', { class: 'plain' }, ...file.reports.map((r) => h('li', {}, `${when(r.at_ms)} by ${r.reporter}: “${r.reason}”`, r.closed_ms != null ? ` (closed by ${r.closed_by ?? '?'})` : ' (open)'))),
    h('h4', {}, 'Latest messages'),
    file.messages.length === 0 ? h('p', {}, 'None.') : h('ul', { class: 'plain' }, ...file.messages.map((m) => h('li', {}, h('span', { class: 'when' }, when(m.at_ms)), ` ${m.text ?? ''}`, m.hidden ? h('em', {}, ' (hidden)') : null))),
    h('h4', {}, 'In the admin log'),
    logList(file.log),
    h('h4', {}, 'Latest games'),
    games.games.length === 0 ? h('p', {}, 'None.') : h('ul', { class: 'plain' }, ...games.games.slice(0, 10).map((game) => gameItem(game))),
    h('p', {}, h('a', { href: `/players/${encodeURIComponent(file.name)}` }, 'Profile and every game')),
  );
  return section;
}

/** Lines of the admin log as a list. */
function logList(lines: LogLine[]): HTMLElement {
  if (lines.length === 0) return h('p', {}, 'No lines.');
  return h('ul', { class: 'plain log' }, ...lines.map((line) => h('li', {},
    h('span', { class: 'when' }, when(line.at_ms)), ` ${line.actor} `, h('b', {}, line.action), ` ${line.target}: ${line.detail}`)));
}

/** The accounts' tab: find an account, its file, and the banned and muted lists. */
async function accountsTab(main: HTMLElement, route: Route & { page: 'moderation' }, shell: Shell): Promise<void> {
  const status = statusLine();
  const redraw = (words: string): void => redrawTelling(shell, words);
  const name = h('input', { type: 'text', name: 'name', value: route.name ?? '', 'aria-label': 'Account name', required: true });
  const find = h('form', { class: 'acts', role: 'search' }, name, h('button', { type: 'submit' }, 'Open the file'));
  find.addEventListener('submit', (event) => {
    event.preventDefault();
    shell.go(`/moderation?tab=accounts&name=${encodeURIComponent(name.value.trim())}`);
  });
  main.append(find, status);
  if (route.name) {
    try {
      main.append(await accountFile(route.name, shell, status, redraw));
    } catch (error) {
      main.append(h('p', { class: 'error', role: 'alert' }, failureText(error)));
    }
  }
  main.append(await standingList('banned', status, redraw), await standingList('muted', status, redraw));
}

/** The admin log's tab: filters, lines, older pages. */
async function logTab(main: HTMLElement, route: Route & { page: 'moderation' }, shell: Shell): Promise<void> {
  const params = new URLSearchParams(location.search);
  const query = new URLSearchParams({ limit: '50' });
  const form = h('form', { class: 'acts', 'aria-label': 'Filters' });
  for (const key of ['actor', 'action', 'target']) {
    const value = params.get(key) ?? '';
    if (value !== '') query.set(key, value);
    form.append(h('label', {}, `${key[0].toUpperCase()}${key.slice(1)} `, h('input', { type: 'text', name: key, value })));
  }
  form.append(h('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams({ tab: 'log' });
    for (const [key, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') next.set(key, value.trim());
    shell.go(`/moderation?${next.toString()}`);
  });
  if (route.before !== null) query.set('before', String(route.before));
  const log = await api<Schemas['AdminLog']>('GET', `/api/admin/log?${query.toString()}`);
  const older = new URLSearchParams(params);
  if (log.older != null) older.set('before', String(log.older));
  main.append(form, logList(log.lines));
  if (log.older != null) main.append(h('p', {}, h('a', { href: `/moderation?${older.toString()}` }, 'Older lines')));
}

/** The moderators' page. */
export async function moderationPage(main: HTMLElement, shell: Shell, route: Route): Promise<void> {
  if (route.page !== 'moderation') return;
  document.title = 'Moderation · swapboard';
  if (shell.roles.length === 0) {
    fill(main, h('h2', {}, 'Moderation'), h('p', {}, 'This page is for the site’s moderators and admins.'));
    return;
  }
  const tabs = h('nav', { class: 'tabs', 'aria-label': 'Moderation' }, ...TABS.map(([tab, words]) =>
    h('a', { href: `/moderation?tab=${tab}`, 'aria-current': route.tab === tab ? 'page' : null }, words)));
  const body = h('div', { class: 'stack' });
  fill(main, h('h2', {}, 'Moderation'), tabs, body);
  if (route.tab === 'accounts') await accountsTab(body, route, shell);
  else if (route.tab === 'log') await logTab(body, route, shell);
  else await reportsTab(body, route, shell);
}
