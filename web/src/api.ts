// Every request to the server goes through here: JSON in and out, and one shape of failure.

/** A refusal of the server (`{"error": {"code", "message"}}`), or `offline` when it cannot be reached. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Called when a request needs a login the browser no longer has (an expired session). */
let onUnauthenticated: () => void = () => {};

/** Sets what happens on a 401 (the router sends the user to log in and back). */
export function whenUnauthenticated(handler: () => void): void {
  onUnauthenticated = handler;
}

/** Tells the router that the browser's login has ended, learnt other than by a 401 (a socket closed for it). */
export function loginEnded(): void {
  onUnauthenticated();
}

function errorOf(status: number, body: unknown): ApiFailure {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: { code?: unknown; message?: unknown } }).error;
    if (typeof error.code === 'string' && typeof error.message === 'string') {
      return new ApiFailure(status, error.code, error.message);
    }
  }
  return new ApiFailure(status, 'http', `the server answered ${status}`);
}

/** Options of one request. */
export interface RequestOptions {
  /** A 401 is the caller's business (the login form, the first `GET /api/me`). */
  quiet401?: boolean;
}

/**
 * Sends a request and reads its JSON answer (null for an empty one); throws an ApiFailure.
 * A string body is sent as plain text (a room submission), anything else as JSON.
 */
export async function api<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiFailure(0, 'offline', 'the server cannot be reached');
  }
  const text = await response.text();
  let json: unknown = null;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!response.ok) {
    if (response.status === 401 && !options.quiet401) onUnauthenticated();
    if (response.status >= 502 && response.status <= 504) {
      throw new ApiFailure(0, 'offline', 'the server cannot be reached');
    }
    throw errorOf(response.status, json);
  }
  return json as T;
}

/** The status code of an answer as well as its body (for `202 running`). */
export async function apiWithStatus<T>(path: string): Promise<{ status: number; body: T }> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new ApiFailure(0, 'offline', 'the server cannot be reached');
  }
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) throw errorOf(response.status, json);
  return { status: response.status, body: json as T };
}

/** The message to show for any failure. */
export function failureText(error: unknown): string {
  if (error instanceof ApiFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}
