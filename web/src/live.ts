// The game's WebSocket, reconnected after a loss and resynced by ply.

import { backoff } from './logic';
import type { LiveMessage } from './types';

/** How the connection stands, for the page to show. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'resynced';

/** A socket on one game that keeps itself open until closed. */
export class LiveGame {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private timer: number | undefined;
  private closed = false;
  private lost = false;

  /**
   * `since` gives the last ply the page has, so a reconnection is sent only what it missed.
   */
  constructor(
    private readonly id: string,
    private readonly since: () => number,
    private readonly onMessage: (message: LiveMessage) => void,
    private readonly onStatus: (status: LiveStatus) => void,
  ) {
    this.open();
  }

  private open(): void {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${scheme}//${location.host}/api/games/${encodeURIComponent(this.id)}/socket?since=${this.since()}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    this.onStatus(this.lost ? 'reconnecting' : 'connecting');
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      let message: LiveMessage;
      try {
        message = JSON.parse(event.data) as LiveMessage;
      } catch {
        return;
      }
      if (message.type === 'state') {
        // The state ends the messages a (re)connection is sent first.
        this.onStatus(this.lost ? 'resynced' : 'live');
        this.attempt = 0;
      }
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (this.closed || this.socket !== socket) return;
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
