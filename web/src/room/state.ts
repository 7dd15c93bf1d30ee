// The room page's state, free of the DOM so that node's test runner checks it: the room as
// the caller may see it, the tile half-chosen for a bid, whether the bid text was typed in,
// and what follows from them (the words of the status and the deadline, the caller's part).

import { formatClock, isolated } from '../logic';
import { addBidLine, clickBid, roundName, type Check, type RoomView } from '../swap61';

/** What the room page holds besides its elements. */
export interface RoomState {
  room: RoomView;
  /** The server's clock minus ours, from the last room read. */
  offset: number;
  /** The tile chosen by a first click, waiting for a touching one. */
  first: string | null;
  /** Whether the bid text was typed since the stored submission was shown. */
  dirty: boolean;
  /** The round the bid editor belongs to. */
  round: number;
}

/** The state of a page that has just read the room. */
export function roomState(room: RoomView, now: number): RoomState {
  return { room, offset: room.server_now_ms - now, first: null, dirty: false, round: room.round };
}

/**
 * Takes a room read again. A new round drops a player's text and half-clicked bid of the
 * round before: true when it did.
 */
export function takeRoom(state: RoomState, room: RoomView, now: number): boolean {
  state.room = room;
  state.offset = room.server_now_ms - now;
  if (!room.you || room.round === state.round) return false;
  state.round = room.round;
  state.dirty = false;
  state.first = null;
  return true;
}

/** Where the invite of a room made in this tab is kept: the server shows it only once. */
export function inviteKey(id: string): string {
  return `swapboard.room-invite.${id}`;
}

/** Whether the reader runs the room. */
export function isMaster(room: RoomView, me: string | null): boolean {
  return me !== null && me.toLowerCase() === room.master.toLowerCase();
}

/** How an invited reader may take a seat in the lobby: a button, a login first, or not at all. */
export function joinChoice(room: RoomView, me: string | null, invited: boolean): 'join' | 'login' | 'none' {
  const seated = room.joined.some((name) => name.toLowerCase() === me?.toLowerCase());
  if (room.status !== 'lobby' || !invited || seated || isMaster(room, me)) return 'none';
  return me ? 'join' : 'login';
}

/** The room's state in a sentence. */
export function statusWords(room: RoomView): string {
  if (room.status === 'lobby') return `Lobby: ${room.joined.length} of ${room.size} joined. Game master: ${room.master}.`;
  if (room.status === 'playing') {
    return `${roundName(room.round)} is open (${room.variation ?? ''}): ${room.submitted} of ${room.seats.length} seats have submitted, ${room.finals} marked final. Game master: ${room.master}.`;
  }
  return `Finished. Game master: ${room.master}.`;
}

/** When the open round resolves, counted down from the server's deadline (null: leave the line as it is). */
export function deadlineWords(state: RoomState, now: number): string | null {
  const { room } = state;
  if (room.status !== 'playing') return '';
  if (room.paused) return 'The round\'s clock is paused.';
  if (room.deadline_ms != null) return `Resolves in ${formatClock(room.deadline_ms - (now + state.offset))}.`;
  return null;
}

/** A seat's line of the legend: its number, player and the reader's part in it. */
export function legendLine(room: RoomView, seat: RoomView['seats'][number]): string {
  const you = room.you;
  const mark = seat.seat === you?.seat ? ' (you)' : you?.borrowed.some((b) => b.seat === seat.seat) ? ' (borrowed this round)' : '';
  return ` P${seat.seat} ${isolated(seat.name)}${seat.bot ? ' (bot)' : ''}${seat.vacant ? ' (vacant)' : ''}${mark}`;
}

/** The hint under the bid editor before any click. */
export const CLICK_HINT = 'Click two touching tiles on the grid to add a bid.';

/** What a click on a tile did to the bid: the hint to show, and the bid text if a line was added. */
export interface TileStep {
  hint: string;
  text: string | null;
}

/**
 * A click on a tile: the first of two touching tiles is chosen, the second adds the line
 * `A B T` to `text` with `tokens` (1-99) tokens. A player's clicks only, while the room plays.
 */
export function tileStep(state: RoomState, tile: string, text: string, tokens: number): TileStep | null {
  if (!state.room.you || state.room.status !== 'playing') return null;
  const click = clickBid(state.first, tile);
  switch (click.kind) {
    case 'first':
      state.first = click.first;
      return { hint: `${tile} chosen: click a tile that touches it.`, text: null };
    case 'cleared':
      state.first = null;
      return { hint: `${tile} no longer chosen.`, text: null };
    case 'apart':
      state.first = click.first;
      return { hint: `Those two tiles do not touch: ${tile} chosen instead.`, text: null };
    case 'line': {
      const count = Math.max(1, Math.min(99, Math.round(tokens) || 1));
      state.first = null;
      state.dirty = true;
      return { hint: `Added ${click.a} ${click.b} ${count}.`, text: addBidLine(text, click.a, click.b, count) };
    }
  }
}

/** Each line of a submission's check, in words. */
export function checkLines(check: Check): { status: string; words: string }[] {
  return check.lines.map((line) => ({
    status: line.status,
    words: line.status === 'accepted'
      ? `line ${line.line}: ${line.edge ?? ''}, ${line.tokens ?? 0} token${line.tokens === 1 ? '' : 's'}, accepted`
      : `line ${line.line}: rejected, ${line.reason ?? ''}`,
  }));
}

/** What the rounds played show: when it is unchanged, the history is not drawn again. */
export function historyKey(room: RoomView): string {
  return JSON.stringify(room.rounds.map((r) => [r.round, r.grid, r.scores])) + room.seats.map((seat) => seat.name).join();
}

/**
 * Runs `read` one at a time: a call while one runs asks for one more run after it (however
 * many calls came), so the last change is always read and never twice at once.
 */
export function serially(read: () => Promise<void>): () => Promise<void> {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await read();
      } while (again);
    } finally {
      running = false;
    }
  };
}
