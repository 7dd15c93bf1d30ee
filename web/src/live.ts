// The live WebSockets (a game's, a room's), reconnected after a loss.

import { loginEnded } from './api';
import { backoff } from './logic';
import type { GameMessage, InboxMessage } from './types';

/**
 * What a page does with each type of message: one handler per type, each given the
 * message of its type. A type the page has no handler for (a newer server's) is ignored.
 */
export type Handlers<M extends { type: string }> = { [T in M['type']]: (message: Extract<M, { type: T }>) => void };

/** Hands a message to the handler of its type, if there is one. */
export function dispatch<M extends { type: string }>(handlers: Handlers<M>, message: M): void {
  if (typeof message !== 'object' || message === null || !Object.prototype.hasOwnProperty.call(handlers, message.type)) return;
  const handler = handlers[message.type as M['type']] as (message: M) => void;
  handler(message);
}

/**
 * The close code of a socket whose credentials have ended (a ban, a password changed
 * elsewhere, a log-out everywhere): see docs/API.md.
 */
export const CREDENTIALS_ENDED = 4001;

/** How the connection stands, for the page to show. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'resynced';

/** A socket that keeps itself open until closed, reconnecting with a back-off. */
export class LiveSocket<M extends { type: string }> {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private timer: number | undefined;
  private closed = false;
  private lost = false;

  /**
   * `path` is asked again at each (re)connection; `ready` is the type of the message that
   * ends what a (re)connection is sent first. A socket that `needsLogin` stops for good when
   * the server closes it for ended credentials, and the router is told; any other is
   * reconnected (as the public, once the login is gone).
   */
  constructor(
    private readonly path: () => string,
    private readonly ready: M['type'],
    private readonly handlers: Handlers<M>,
    private readonly onStatus: (status: LiveStatus) => void,
    private readonly needsLogin = false,
  ) {
    this.open();
  }

  private open(): void {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}${this.path()}`);
    this.socket = socket;
    this.onStatus(this.lost ? 'reconnecting' : 'connecting');
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      let message: M;
      try {
        message = JSON.parse(event.data) as M;
      } catch {
        return;
      }
      if (message.type === this.ready) {
        this.onStatus(this.lost ? 'resynced' : 'live');
        this.attempt = 0;
      }
      dispatch(this.handlers, message);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.closed || this.socket !== socket) return;
      if (this.needsLogin && event.code === CREDENTIALS_ENDED) {
        this.closed = true;
        loginEnded();
        return;
      }
      this.lost = true;
      this.onStatus('reconnecting');
      this.timer = window.setTimeout(() => this.open(), backoff(this.attempt));
      this.attempt += 1;
    };
  }

  /** Closes the socket for good (the page is left). */
  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
    this.socket?.close();
  }
}

/** A socket on one game; `since` gives the last ply the page has, so a reconnection is sent only what it missed. */
export class LiveGame extends LiveSocket<GameMessage> {
  constructor(id: string, since: () => number, handlers: Handlers<GameMessage>, onStatus: (status: LiveStatus) => void) {
    // The state ends the messages a (re)connection is sent first.
    super(() => `/api/games/${encodeURIComponent(id)}/socket?since=${since()}`, 'state', handlers, onStatus);
  }
}

/** The account's inbox: its unread count and newest notifications, on every change. */
export class LiveInbox extends LiveSocket<InboxMessage> {
  constructor(handlers: Handlers<InboxMessage>) {
    super(() => '/api/me/notifications/socket', 'inbox', handlers, () => {}, true);
  }
}
