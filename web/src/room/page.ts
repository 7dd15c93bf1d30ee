// The Swap 61 room pages: a new room (`/rooms/new`) and the room (`/rooms/{id}`) for the
// public, a player and the game master. The page shows what `GET /api/rooms/{id}` gives the
// caller and nothing more; the room's socket says when something changed (its handlers, one
// per message type), and the page then reads the caller's own view again. The state is in
// `state.ts`, the views in `views.ts` and `console.ts`.

import { api, failureText } from '../api';
import type { Cleanup, Shell } from '../app';
import { chatPanel, type ChatPanel } from '../chat';
import { h } from '../dom';
import { LiveSocket, type Handlers } from '../live';
import type { Route } from '../logic';
import type { Check, RoomView } from '../swap61';
import type { RoomMessage } from '../types';
import { drawConsole, type MasterRun } from './console';
import { CLICK_HINT, inviteKey, roomState, serially, takeRoom, tileStep } from './state';
import {
  drawCheck, drawDeadline, drawGrid, drawHistory, drawJoin, drawLegend, drawLive, drawRound, drawSeats, drawStatus, drawTyped, drawYou, field,
  roomElements, roomLayout, type RoomActions,
} from './views';

const VARIATIONS: [string, string][] = [
  ['theme', 'Theme'],
  ['corners', 'Corners'],
  ['corners-teleport', 'Corners (teleport)'],
  ['network', 'Network'],
  ['seat-exchange', 'Seat exchange'],
];

/** `/rooms/new`: the game master's form. */
export async function newRoomPage(main: HTMLElement, shell: Shell): Promise<void> {
  if (!shell.me) {
    shell.go(`/login?next=${encodeURIComponent('/rooms/new')}`, true);
    return;
  }
  const seats = h('select', { name: 'seats' }, h('option', { value: '10', selected: true }, '10'), h('option', { value: '9' }, '9'));
  const hours = h('input', { name: 'hours', type: 'number', min: 0.0003, max: 720, step: 'any', value: 24, required: true });
  const round5 = h('select', { name: 'round5' });
  for (const [key, text] of VARIATIONS) round5.append(h('option', { value: key }, text));
  const message = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'new-room' },
    field('Seats', seats), field('Round length (hours)', hours), field("Round 5's variation", round5), message,
    h('button', { type: 'submit', class: 'primary' }, 'Create the room'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    try {
      const room = await api<RoomView>('POST', '/api/rooms', { seats: Number(seats.value), round_hours: Number(hours.value), round5: round5.value });
      if (room.invite) sessionStorage.setItem(inviteKey(room.id), room.invite);
      shell.go(`/rooms/${room.id}`);
    } catch (error) {
      message.textContent = failureText(error);
    }
  });
  main.append(h('h1', {}, 'New Swap 61 room'),
    h('p', {}, 'You run the room as its game master: you hand out the invite, start the game and may resolve a round early; you do not play.'),
    form);
}

/** `/rooms/{id}`: the room as the caller may see it. */
export async function roomPage(main: HTMLElement, shell: Shell, route: Route): Promise<Cleanup | void> {
  if (route.page !== 'room') return;
  const id = route.id;
  const invite = route.invite;
  const path = `/api/rooms/${encodeURIComponent(id)}`;
  const state = roomState(await api<RoomView>('GET', path), Date.now());

  const act: RoomActions = {
    join: (message) => void join(message),
    submit: () => void submit(),
    markFinal: () => void markFinal(),
  };
  const e = roomElements((tile) => onTile(tile), act);
  e.bids.addEventListener('input', () => {
    state.dirty = true;
    drawTyped(e, state);
  });

  /** A console's request, then the room read again; a refusal in the console's words. */
  const master: MasterRun = async (run, message) => {
    message.textContent = '';
    try {
      await run();
      await refresh();
    } catch (error) {
      message.textContent = failureText(error);
    }
  };

  function onTile(tile: string): void {
    const step = tileStep(state, tile, e.bids.value, Number(e.perClick.value));
    if (!step) return;
    e.clickText.textContent = step.hint;
    if (step.text !== null) {
      e.bids.value = step.text;
      drawTyped(e, state);
    }
    drawGrid(e, state);
  }

  async function join(message: HTMLElement): Promise<void> {
    try {
      await api('POST', `${path}/join`, { invite });
      shell.go(`/rooms/${id}`, true);
    } catch (error) {
      message.textContent = failureText(error);
    }
  }

  async function submit(): Promise<void> {
    e.editorError.textContent = '';
    try {
      const check = await api<Check>('PUT', `${path}/submission?round=${state.room.round}`, e.bids.value);
      state.dirty = false;
      drawCheck(e, check);
      await refresh();
    } catch (error) {
      e.editorError.textContent = failureText(error);
    }
  }

  async function markFinal(): Promise<void> {
    e.editorError.textContent = '';
    try {
      await api('POST', `${path}/final?round=${state.room.round}`);
      await refresh();
    } catch (error) {
      e.editorError.textContent = failureText(error);
    }
  }

  function draw(): void {
    const { room } = state;
    drawStatus(e, state);
    drawJoin(e, room, shell.me, invite !== null, act);
    // The player's part first: a new round clears the half-clicked bid the grid shows.
    drawYou(e, state);
    drawGrid(e, state);
    drawLegend(e, room);
    drawSeats(e, room);
    drawRound(e, room);
    drawConsole(e, state, shell.me, path, master);
    drawHistory(e, room, path);
  }

  /** Reads the caller's view again, one request at a time (a change during it is read once more after it). */
  const reread = serially(async () => {
    if (takeRoom(state, await api<RoomView>('GET', path), Date.now())) e.clickText.textContent = CLICK_HINT;
    draw();
  });
  async function refresh(): Promise<void> {
    try {
      await reread();
    } catch (error) {
      e.liveText.textContent = failureText(error);
    }
  }

  main.append(...roomLayout(e));
  draw();

  // The table-talk, and a seat's private thread with the game master: the seat's own, or
  // for the game master the seat picked (docs/CHAT.md).
  const table = chatPanel({ title: 'Table-talk', path: `${path}/chat`, me: shell.me });
  main.append(table.element);
  let thread: ChatPanel | null = null;
  const threadBox = h('div', { class: 'thread' });
  function openThread(seat: number, title: string): void {
    thread = chatPanel({ title, path: `${path}/seats/${seat}/thread`, me: shell.me });
    threadBox.replaceChildren(thread.element);
  }
  if (state.room.you) {
    openThread(state.room.you.seat, 'Private thread with the game master');
  } else if (shell.me !== null && shell.me === state.room.master && state.room.seats.length > 0) {
    const picker = h('select', { name: 'thread-seat', 'aria-label': 'seat' });
    for (const seat of state.room.seats) picker.append(h('option', { value: String(seat.seat) }, `Seat ${seat.seat}: ${seat.name}`));
    picker.addEventListener('change', () => openThread(Number(picker.value), 'Private thread with this seat'));
    main.append(h('p', {}, 'Private thread with ', picker));
    openThread(state.room.seats[0].seat, 'Private thread with this seat');
  }
  main.append(threadBox);

  let seen = false;
  /** What each message of the room's socket does: the public view says something changed. */
  const handlers: Handlers<RoomMessage> = {
    room: () => {
      // The first message is the room the page has just read.
      if (seen) void refresh();
      seen = true;
    },
    chat: (message) => {
      if (message.channel === 'table') void table.refresh();
      else if (message.channel === 'thread') void thread?.refresh();
    },
  };
  const live = new LiveSocket<RoomMessage>(() => `${path}/socket`, 'room', handlers, (status) => {
    if (status === 'reconnecting') seen = true;
    drawLive(e, status);
  });
  const timer = window.setInterval(() => drawDeadline(e, state), 1000);
  return () => {
    live.close();
    window.clearInterval(timer);
  };
}
