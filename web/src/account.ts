// The account's own pages beside the login: a forgotten password (asked for by name or
// address, then chosen on the page the mail's link opens) and the vacation bank.

import { api, failureText } from './api';
import type { Shell } from './app';
import { h } from './dom';
import type { Route } from './logic';
import type { Schemas, VacationView } from './types';

async function forgotPasswordPage(main: HTMLElement): Promise<void> {
  const who = h('input', { name: 'who', required: true, maxlength: 254, autocomplete: 'username' });
  const status = h('p', { role: 'status', 'aria-live': 'polite' });
  const form = h('form', { class: 'account' },
    h('label', { class: 'field' }, h('span', {}, 'Your name or mail address'), who), status,
    h('button', { type: 'submit', class: 'primary' }, 'Mail me a link'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = who.value.trim();
    // The server answers alike whether or not it knows the name or address.
    const body = text.includes('@') ? { email: text } : { name: text };
    api<Schemas['ForgotAnswer']>('POST', '/api/password/forgot', body).then(
      (answer) => { status.textContent = answer.message; },
      (error: unknown) => { status.textContent = failureText(error); });
  });
  main.append(h('h1', {}, 'Forgot your password?'),
    h('p', {}, 'A link to choose a new one goes to the confirmed mail address of your account.'), form);
}

async function resetPasswordPage(main: HTMLElement, shell: Shell, route: Route): Promise<void> {
  const token = route.page === 'resetPassword' ? route.token : null;
  main.append(h('h1', {}, 'Choose a new password'));
  if (!token) {
    main.append(h('p', {}, 'This link has no token: open the link of the mail whole.'));
    return;
  }
  const password = h('input', {
    name: 'password', type: 'password', required: true, minlength: 8, maxlength: 128, autocomplete: 'new-password',
  });
  const message = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'account' },
    h('label', { class: 'field' }, h('span', {}, 'New password'), password), message,
    h('button', { type: 'submit', class: 'primary' }, 'Set the password'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    message.textContent = '';
    void (async () => {
      try {
        const account = await api<Schemas['Account']>('POST', '/api/password/reset', { token, password: password.value });
        // Every session ended with the reset: log in afresh with the new password.
        const me = await api<Schemas['Account']>('POST', '/api/session', { name: account.name, password: password.value });
        shell.setMe(me.name);
        shell.go('/', true);
      } catch (error) {
        message.textContent = failureText(error);
      }
    })();
  });
  main.append(form);
}

/** The bank's words: the days left, and until when the player is away. */
export function bankWords(bank: VacationView): string {
  const left = `${bank.days_left} of ${bank.days_per_year} vacation days left in ${bank.year}.`;
  return bank.away_until_ms == null ? left : `${left} Away until ${new Date(bank.away_until_ms).toLocaleString()}.`;
}

async function vacationPage(main: HTMLElement, shell: Shell): Promise<void> {
  if (!shell.me) {
    shell.go('/login?next=/vacation', true);
    return;
  }
  const bank = await api<VacationView>('GET', '/api/me/vacation');
  const summary = h('p', { role: 'status', 'aria-live': 'polite' }, bankWords(bank));
  const log = h('ul', { class: 'vacation-log' });
  const drawLog = (entries: VacationView['log']): void => {
    log.replaceChildren(...entries.map((entry) => h('li', {},
      `${new Date(entry.at_ms).toLocaleString()}: ${entry.days} ${entry.days === 1 ? 'day' : 'days'} `,
      entry.game ? h('a', { href: `/games/${entry.game}` }, 'spent when the clock ran out') : 'taken')));
  };
  drawLog(bank.log);
  const days = h('input', { name: 'days', type: 'number', min: 1, max: 366, value: 1, required: true });
  const form = h('form', { class: 'stack', 'aria-label': 'take days' },
    h('label', { class: 'field' }, h('span', {}, 'Days away'), days),
    h('button', { type: 'submit' }, 'Take them'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    api<VacationView>('POST', '/api/me/vacation', { days: Number(days.value) }).then(
      (now) => { summary.textContent = bankWords(now); drawLog(now.log); },
      (error: unknown) => { summary.textContent = failureText(error); });
  });
  main.append(
    h('h1', {}, 'Vacation'),
    h('p', {}, 'When the clock of a correspondence game of yours would run out, a day of your bank is spent instead, ',
      'until the bank is empty. Going away? Take days for all your games at once: no clock of yours runs out meanwhile.'),
    summary, form, h('h2', {}, 'Spent'), log);
}

/** The account's pages, by route. */
export const ACCOUNT_PAGES = {
  forgotPassword: (main: HTMLElement): Promise<void> => forgotPasswordPage(main),
  resetPassword: resetPasswordPage,
  vacation: vacationPage,
};
