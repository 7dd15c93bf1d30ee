// The inbox page (the caller's notifications, mark read, delete; the mail address and the
// choice per kind; web push on this device) and the page a confirmation mail's link opens.

import { ApiFailure, api, failureText } from './api';
import type { Shell } from './app';
import { h } from './dom';
import { needsHomeScreen, type Route } from './logic';
import { base64urlBytes } from './pushdata';
import type { Inbox, NotificationSettings, NotificationView, Schemas } from './types';

/** The words of each kind of notification, in the order the settings list them. */
const KINDS: Record<string, string> = {
  your_turn: 'Your turn',
  challenge: 'A challenge',
  invitation: 'A seat given to you in a Swap 61 room',
  game_ended: 'A game ended',
  rematch: 'A rematch offer',
  round_opened: 'A Swap 61 round opened',
  round_results: 'Swap 61 results',
  deadline_24h: 'A Swap 61 round closes in 24 hours',
  deadline_1h: 'A Swap 61 round closes in an hour',
  tournament: 'A tournament started or paired you',
};

function item(notice: NotificationView): HTMLLIElement {
  const link = notice.game_id ? `/games/${notice.game_id}`
    : notice.room_id ? `/rooms/${notice.room_id}`
      : notice.tournament_id ? `/tournaments/${notice.tournament_id}` : null;
  const when = new Date(notice.created_ms).toLocaleString();
  return h('li', { class: notice.read ? 'notice' : 'notice unread' },
    link ? h('a', { href: link }, notice.message) : notice.message,
    h('span', { class: 'when' }, ` ${when}`));
}

/** The mail address form and the choice for each kind. */
function mailSettings(settings: NotificationSettings, status: HTMLElement): HTMLElement {
  const form = h('form', { class: 'stack', 'aria-label': 'mail' });
  if (!settings.mail_enabled) {
    form.append(h('p', {}, 'This server sends no mail: notifications come to this inbox only.'));
    return form;
  }
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'email', value: settings.email?.email ?? '' });
  const state = settings.email ? (settings.email.confirmed ? 'confirmed' : 'waiting for its confirmation link') : 'none';
  form.append(h('label', {}, 'Mail address ', email), h('p', {}, `Address: ${state}`));
  const selects: [string, HTMLSelectElement][] = Object.entries(KINDS).map(([kind, words]) => {
    const select = h('select', { name: kind, 'aria-label': words });
    for (const choice of ['immediate', 'digest', 'off']) {
      select.append(h('option', { value: choice, selected: settings.mail[kind] === choice }, choice));
    }
    form.append(h('label', {}, `${words}: `, select));
    return [kind, select];
  });
  // The digest's hour is stored with the address (the server refuses one without it).
  const hour = h('select', { name: 'digest_hour', 'aria-label': 'Daily digest hour (UTC)' });
  for (let at = 0; at < 24; at++) {
    hour.append(h('option', { value: String(at), selected: (settings.email?.digest_hour ?? 8) === at }, `${String(at).padStart(2, '0')}:00 UTC`));
  }
  form.append(h('label', {}, 'Daily digest (for the kinds set to digest) at ', hour));
  form.append(h('button', { type: 'submit' }, 'Save'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      try {
        const wanted = email.value.trim();
        const hasAddress = wanted !== '';
        if (wanted !== '' && wanted !== settings.email?.email) {
          await api('PUT', '/api/me/email', { email: wanted });
          status.textContent = 'Saved: a confirmation link was mailed to the address.';
        } else if (wanted === '' && settings.email) {
          await api('DELETE', '/api/me/email');
          status.textContent = 'Saved: the address is forgotten.';
        } else {
          status.textContent = 'Saved.';
        }
        const mail = Object.fromEntries(selects.map(([kind, select]) => [kind, select.value]));
        const digestHour = hasAddress ? { digest_hour: Number(hour.value) } : {};
        await api('PUT', '/api/me/notifications', { mail, ...digestHour });
      } catch (error) {
        status.textContent = failureText(error);
      }
    })();
  });
  return form;
}

/** This browser's push subscription to the site, if it has one. */
async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Asks for the permission, subscribes with the server's key and hands the subscription over. */
async function enablePush(): Promise<void> {
  if (await Notification.requestPermission() !== 'granted') {
    throw new Error('Notifications are blocked for this site: allow them in the browser first.');
  }
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const { key } = await api<Schemas['PushKey']>('GET', '/api/push/key');
  // A subscription made with another key (a server whose database was replaced) is refused
  // by the browser: start afresh.
  await (await registration.pushManager.getSubscription())?.unsubscribe();
  let subscription: PushSubscription;
  try {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(key) });
  } catch (error) {
    throw new Error(`This browser could not subscribe to notifications (${failureText(error)}).`);
  }
  await api('POST', '/api/me/push', subscription.toJSON());
}

/** Tells the server to forget this browser, then ends its subscription. */
async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await api('DELETE', '/api/me/push', { endpoint: subscription.endpoint });
  } catch (error) {
    // Already forgotten (a push service's 410, another account's subscription).
    if (!(error instanceof ApiFailure && error.status === 404)) throw error;
  }
  await subscription.unsubscribe();
}

/** The "notify me on this device" switch. */
function pushSettings(settings: NotificationSettings, status: HTMLElement): HTMLElement {
  const box = h('p', {});
  // `navigator.standalone` is Safari's own: true in an app opened from the home screen.
  const standalone = matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
  if (needsHomeScreen(navigator.userAgent, navigator.maxTouchPoints, standalone)) {
    box.append('An iPhone or iPad notifies only from a site added to its home screen. ',
      'In Safari, tap Share, then Add to Home Screen; open swapboard from its icon, and turn notifications on here.');
    return box;
  }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    box.append('This browser cannot show notifications from the site.');
    return box;
  }
  const toggle = h('input', { type: 'checkbox', name: 'push' });
  box.append(h('label', {}, toggle, ' Notify me on this device'),
    h('span', { class: 'when' }, ` (${settings.push.length} device${settings.push.length === 1 ? '' : 's'} notified; a kind set to off above is not pushed either)`));
  void currentSubscription().then((subscription) => {
    toggle.checked = subscription !== null && settings.push.some((p) => p.endpoint === subscription.endpoint);
  }, () => {});
  toggle.addEventListener('change', () => {
    void (async () => {
      toggle.disabled = true;
      try {
        if (toggle.checked) {
          await enablePush();
          status.textContent = 'This device will be notified.';
        } else {
          await disablePush();
          status.textContent = 'This device will not be notified.';
        }
      } catch (error) {
        toggle.checked = !toggle.checked;
        status.textContent = failureText(error);
      } finally {
        toggle.disabled = false;
      }
    })();
  });
  return box;
}

/** The notifications of one page of the inbox: the server's default. */
const PAGE = 50;

async function notificationsPage(main: HTMLElement, shell: Shell): Promise<void> {
  if (!shell.me) {
    shell.go('/login?next=/notifications', true);
    return;
  }
  const [inbox, settings] = await Promise.all([
    api<Inbox>('GET', '/api/me/notifications'),
    api<NotificationSettings>('GET', '/api/me/notifications/settings'),
  ]);
  const status = h('p', { role: 'status', 'aria-live': 'polite' });
  const list = h('ul', { class: 'notices' });
  for (const notice of inbox.notifications) list.append(item(notice));
  // The server gives a page at a time, newest first: older ones follow the last id shown.
  let oldest = inbox.notifications.at(-1)?.id;
  const older: HTMLButtonElement = h('button', {
    type: 'button', hidden: inbox.notifications.length < PAGE, onclick: () => {
      void api<Inbox>('GET', `/api/me/notifications?before=${oldest ?? 0}&limit=${PAGE}`).then((page) => {
        for (const notice of page.notifications) list.append(item(notice));
        oldest = page.notifications.at(-1)?.id ?? oldest;
        older.hidden = page.notifications.length < PAGE;
      }, (error: unknown) => { status.textContent = failureText(error); });
    },
  }, 'Older notifications');
  const act = (text: string, method: string, path: string, done: string): HTMLButtonElement =>
    h('button', {
      type: 'button', onclick: () => {
        void api(method, path).then(() => {
          status.textContent = done;
          if (method === 'DELETE') list.replaceChildren();
          for (const li of list.children) li.classList.remove('unread');
        }, (error: unknown) => { status.textContent = failureText(error); });
      },
    }, text);
  main.append(
    h('h1', {}, 'Notifications'),
    inbox.notifications.length === 0 ? h('p', { class: 'empty' }, 'Nothing yet.') : list,
    h('p', {}, older),
    h('p', {},
      act('Mark all read', 'POST', '/api/me/notifications/read', 'All read.'), ' ',
      act('Delete all', 'DELETE', '/api/me/notifications', 'Deleted.')),
    status,
    h('h2', {}, 'Mail'),
    mailSettings(settings, status),
    h('h2', {}, 'This device'),
    pushSettings(settings, status),
  );
}

async function confirmEmailPage(main: HTMLElement, _shell: Shell, route: Route): Promise<void> {
  const token = route.page === 'confirmEmail' ? route.token : null;
  main.append(h('h1', {}, 'Confirm your address'));
  if (!token) {
    main.append(h('p', {}, 'This link has no token: open the link of the mail whole.'));
    return;
  }
  try {
    await api('POST', '/api/me/email/confirm', { token });
    main.append(h('p', {}, 'Your address is confirmed.'), h('p', {}, h('a', { href: '/notifications' }, 'Choose what is mailed')));
  } catch (error) {
    main.append(h('p', {}, failureText(error)));
  }
}

/** The page a mail's "stop every mail" link opens: one click stops them (a link that acted
 * by itself would be followed by the mail scanners that open every link). No login needed:
 * the link's token names the account. */
async function unsubscribePage(main: HTMLElement, _shell: Shell, route: Route): Promise<void> {
  const token = route.page === 'unsubscribe' ? route.token : null;
  main.append(h('h1', {}, 'Stop every mail from swapboard'));
  if (!token) {
    main.append(h('p', {}, 'This link has no token: open the link of the mail whole.'));
    return;
  }
  const status = h('p', { role: 'status', 'aria-live': 'polite' });
  const stop = h('button', { type: 'button', class: 'primary' }, 'Stop every mail');
  stop.addEventListener('click', () => {
    stop.disabled = true;
    void api('POST', `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`).then(() => {
      stop.hidden = true;
      status.replaceChildren('Done: swapboard mails you no more. Your inbox on the site stays; ',
        h('a', { href: '/notifications' }, 'choose again what is mailed'), ' whenever you like.');
    }, (error: unknown) => {
      stop.disabled = false;
      status.textContent = failureText(error);
    });
  });
  main.append(h('p', {}, 'No more mail of any kind will be sent to your address (your inbox on the site stays).'), stop, status);
}

/** The notifications' pages, by route. */
export const NOTIFICATION_PAGES = {
  notifications: notificationsPage,
  confirmEmail: confirmEmailPage,
  unsubscribe: unsubscribePage,
};
