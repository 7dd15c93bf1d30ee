// What the service worker and the settings page share about web push: reading the server's
// key and a push's payload. No DOM and no imports, so the service worker stays small.

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
