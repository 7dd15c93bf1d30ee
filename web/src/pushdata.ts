// What the service worker and the pages share about web push and the app: reading the
// server's key and a push's payload, and the app's badge. No DOM and no imports, so the
// service worker stays small.

/** The bytes of base64url text (the server's VAPID key), for `applicationServerKey`. */
export function base64urlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
  return bytes;
}

/** A notification to show: its title, text and the site's path a click opens. */
export interface Shown {
  title: string;
  body: string;
  url: string;
}

/**
 * The notification a push's payload (`{title, body, url}`) shows. The path must be the
 * site's own (`/games/abc`): anything else (another site, `//host`, a script URL) opens
 * the inbox instead. Text that is not a string shows a generic line.
 */
export function shownOf(payload: unknown): Shown {
  const data = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const text = (value: unknown, fallback: string): string =>
    typeof value === 'string' && value.trim() !== '' ? value.slice(0, 500) : fallback;
  const url = typeof data.url === 'string' && /^\/(?![/\\])[\w\-/.?=&%]*$/.test(data.url) ? data.url : '/notifications';
  return { title: text(data.title, 'swapboard'), body: text(data.body, 'Something happened in one of your games.'), url };
}

/** The Badging API of a navigator (a page's or the service worker's), where the browser has it. */
export type Badging = Partial<Pick<Navigator, 'setAppBadge' | 'clearAppBadge'>>;

/**
 * Sets the app's badge (on an installed app's icon) to the number of games waiting for the
 * player's move, asked of `GET /api/me/turn` with the browser's session; none clears it.
 * Nothing happens without the Badging API, a session or the server: the badge stays.
 */
export async function showTurnBadge(badging: Badging): Promise<void> {
  if (!badging.setAppBadge) return;
  try {
    // Not the pages' `api()`: a lost session here is no reason to go to the login form.
    const answer = await fetch('/api/me/turn', { credentials: 'same-origin' });
    if (!answer.ok) return;
    const games = ((await answer.json()) as { games?: unknown }).games;
    const count = Array.isArray(games) ? games.length : 0;
    if (count > 0) await badging.setAppBadge(count);
    else await badging.clearAppBadge?.();
  } catch {
    // Offline, or a browser that refuses the badge (an app not installed): nothing to show.
  }
}
