// The room page's views: small functions that build each part of the page from its state
// (status, grid and legend, join, seats, round, the player's part, the history). The
// elements are made once (`roomElements`), so that typing survives live updates; the game
// master's console is in `console.ts`.

import { fill, h } from '../dom';
import { HexGrid } from '../hexgrid';
import type { LiveStatus } from '../live';
import { readGrid, roundName, tokensTyped, type Check, type RoomView } from '../swap61';
import { CLICK_HINT, checkLines, deadlineWords, historyKey, joinChoice, legendLine, statusWords, type RoomState } from './state';

/** What the views' buttons ask of the page. */
export interface RoomActions {
  /** Takes a seat with the invite. */
  join(message: HTMLElement): void;
  /** Sends the bid text. */
  submit(): void;
  markFinal(): void;
}

/** The words of the live connection's states. */
const LIVE_WORDS: Record<LiveStatus, string> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', resynced: 'resynced' };

/** A form field with its visible label. */
export function field(label: string, input: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

/** A seat's colour swatch with its number (the colours are the grid's, in style.css). */
function swatch(seat: number): HTMLElement {
  return h('span', { class: `swatch seat-${seat}`, 'aria-hidden': 'true' }, String(seat));
}

/** The check of a submission: each line, the tokens, the receipt. */
export function checkView(check: Check): HTMLElement {
  const lines = checkLines(check);
  return h('div', { class: 'bid-check' },
    lines.length === 0 ? h('p', { class: 'empty' }, 'No bid lines.') : h('ul', { class: 'check-lines' }, ...lines.map((line) => h('li', { class: line.status }, line.words))),
    h('p', { class: 'tokens' }, `Tokens: ${check.tokens.spent} of ${check.tokens.allowance} placed.`),
    h('p', { class: 'receipt' }, 'Receipt: ', h('code', {}, check.receipt)));
}

/** The room page's elements, made once. */
export function roomElements(onTile: (tile: string) => void, act: RoomActions) {
  const grid = new HexGrid('The grid now', onTile);
  const legend = h('ul', { class: 'legend' });
  const bids = h('textarea', { name: 'bids', rows: 8, spellcheck: 'false', autocomplete: 'off' });
  const perClick = h('input', { name: 'tokens', type: 'number', min: 1, max: 99, value: 1 });
  const clickText = h('p', { class: 'click-hint', 'aria-live': 'polite' }, CLICK_HINT);
  const typed = h('p', { class: 'typed-tokens' });
  const editorError = h('p', { class: 'error', role: 'alert' });
  const checkBox = h('div', { class: 'check-box', 'aria-live': 'polite' });
  const finalText = h('p', { class: 'final' });
  return {
    grid,
    legend,
    title: h('h1', {}, 'Swap 61 room'),
    credit: h('p', { class: 'credit' }, "Swap 61 by 'pseudonam', a sealed-bid game for 9 or 10 players run by a game master"),
    status: h('p', { class: 'status', role: 'status' }),
    deadline: h('p', { class: 'deadline' }),
    liveText: h('p', { class: 'live', 'aria-live': 'polite' }),
    board: h('section', { class: 'grid-side', 'aria-labelledby': 'grid-h' }, h('h2', { id: 'grid-h' }, 'The grid'),
      // On a phone the grid scrolls sideways in its own box, its tiles kept at 44 px at least.
      h('div', { class: 'grid-scroll' }, grid.element), legend),
    joinBox: h('section', { class: 'join' }),
    seatsBox: h('section', { 'aria-labelledby': 'seats-h' }),
    roundBox: h('section', { 'aria-labelledby': 'round-h' }),
    youBox: h('section', { class: 'you', 'aria-labelledby': 'you-h' }),
    /** The player's seat and walls, drawn again on every read (the editor below it is not). */
    youHead: h('div', { class: 'you-head' }),
    masterBox: h('section', { class: 'console', 'aria-labelledby': 'console-h' }),
    historyBox: h('section', { class: 'history', 'aria-labelledby': 'history-h' }),
    /** The audit log shown last, kept across live updates. */
    audit: h('ol', { class: 'audit' }),
    /** What the history shows, so that an unchanged one is not drawn again. */
    shownHistory: { key: '' },
    // The bid editor: made once, so typing survives live updates.
    bids, perClick, clickText, typed, editorError, checkBox, finalText,
    editor: h('div', { class: 'editor' },
      field('Your bids (CELL CELL TOKENS, one a line)', bids),
      h('div', { class: 'row' }, field('Tokens per click', perClick)),
      clickText, typed,
      h('div', { class: 'buttons' },
        h('button', { type: 'button', class: 'primary', onclick: () => act.submit() }, 'Submit bids'),
        h('button', { type: 'button', onclick: () => act.markFinal() }, 'Mark final')),
      editorError, finalText, checkBox),
  };
}

/** The room page's elements. */
export type RoomElements = ReturnType<typeof roomElements>;

/** The page's layout: the grid beside the seats, the round, the player's part and the console; the history under them. */
export function roomLayout(e: RoomElements): HTMLElement[] {
  return [e.title, e.credit, e.status, e.deadline, e.liveText, e.joinBox,
    h('div', { class: 'room' }, e.board, h('div', { class: 'room-side' }, e.seatsBox, e.roundBox, e.youBox, e.masterBox)),
    e.historyBox];
}

/** The tokens written so far, beside the allowance of the last check. */
export function drawTyped(e: RoomElements, state: RoomState): void {
  const allowance = state.room.you?.check?.tokens.allowance;
  e.typed.textContent = `${tokensTyped(e.bids.value)} tokens written${allowance === undefined ? '' : ` (allowance ${allowance})`}.`;
}

/** The grid now, with the reader's walls, the walls they borrow and the tile chosen. */
export function drawGrid(e: RoomElements, state: RoomState): void {
  const { room } = state;
  e.board.hidden = room.grid.length === 0;
  e.grid.update(readGrid(room.grid), room.seats.map((seat) => seat.name), {
    own: room.you?.seat ?? null,
    borrowed: room.you?.borrowed.map((b) => b.seat) ?? [],
    chosen: state.first,
  });
}

/** The legend: each seat, then the kinds of tile. */
export function drawLegend(e: RoomElements, room: RoomView): void {
  fill(e.legend,
    ...room.seats.map((seat) => h('li', {}, swatch(seat.seat), legendLine(room, seat))),
    h('li', {}, h('span', { class: 'swatch node', 'aria-hidden': 'true' }), ' node'),
    h('li', {}, h('span', { class: 'swatch wild', 'aria-hidden': 'true' }), ' wild wall'),
    h('li', {}, h('span', { class: 'swatch unowned', 'aria-hidden': 'true' }), ' unowned wall'));
}

/** The status line and the deadline. */
export function drawStatus(e: RoomElements, state: RoomState): void {
  e.status.textContent = statusWords(state.room);
  drawDeadline(e, state);
}

/** The deadline, counting down. */
export function drawDeadline(e: RoomElements, state: RoomState): void {
  const words = deadlineWords(state, Date.now());
  if (words !== null) e.deadline.textContent = words;
}

/** In the lobby, an invited reader's way to a seat. */
export function drawJoin(e: RoomElements, room: RoomView, me: string | null, invited: boolean, act: RoomActions): void {
  const choice = joinChoice(room, me, invited);
  if (choice === 'none') {
    e.joinBox.replaceChildren();
  } else if (choice === 'login') {
    const next = encodeURIComponent(location.pathname + location.search);
    fill(e.joinBox, h('p', {}, 'You are invited to this room. ', h('a', { href: `/login?next=${next}` }, 'Log in'), ' or ', h('a', { href: `/signup?next=${next}` }, 'sign up'), ' to take a seat.'));
  } else {
    const message = h('p', { class: 'error', role: 'alert' });
    fill(e.joinBox, h('p', {}, 'You are invited to play in this room.'),
      h('button', { type: 'button', class: 'primary', onclick: () => act.join(message) }, 'Join this room'), message);
  }
}

/** Who has joined (the lobby), or the seats and standings. */
export function drawSeats(e: RoomElements, room: RoomView): void {
  e.seatsBox.replaceChildren(h('h2', { id: 'seats-h' }, room.status === 'lobby' ? 'Who has joined' : 'Seats and standings'));
  if (room.status === 'lobby') {
    e.seatsBox.append(room.joined.length === 0 ? h('p', { class: 'empty' }, 'Nobody yet.') : h('ol', {}, ...room.joined.map((name) => h('li', {}, name))));
    return;
  }
  const head = h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Seat'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Total')));
  const body = h('tbody', {}, ...room.standings.map((standing) => {
    const seat = room.seats.find((s) => s.seat === standing.seat);
    return h('tr', { class: standing.seat === room.you?.seat ? 'mine' : '' },
      h('td', {}, String(standing.rank)), h('td', {}, swatch(standing.seat), ` P${standing.seat}`),
      h('td', {}, h('bdi', {}, seat?.name ?? ''), seat?.bot ? ' (bot)' : ''), h('td', {}, String(standing.total)));
  }));
  e.seatsBox.append(h('table', { class: 'standings' }, head, body));
}

/** The open round's pairs and the next round's. */
export function drawRound(e: RoomElements, room: RoomView): void {
  e.roundBox.replaceChildren();
  if (room.status !== 'playing') return;
  fill(e.roundBox, h('h2', { id: 'round-h' }, `${roundName(room.round)}: the pairs`),
    room.pairs.length === 0 ? h('p', {}, 'No pairs: the pregame only places walls.') : h('p', { class: 'pairs' }, room.pairs.join(', ')),
    room.next_pairs.length > 0 && h('p', {}, `Next round: ${room.next_pairs.join(', ')}`));
}

/**
 * The server's check of the stored submission, drawn again only when it changed: the box is
 * a live region, and a screen reader would read an unchanged check out at every live update.
 */
export function drawCheck(e: RoomElements, check: Check | null | undefined): void {
  const key = check ? JSON.stringify(check) : '';
  if (e.checkBox.dataset.shown === key) return;
  e.checkBox.dataset.shown = key;
  if (check) fill(e.checkBox, h('h3', {}, 'The server\'s check'), checkView(check));
  else e.checkBox.replaceChildren();
}

/** A player's part: their seat, walls, borrowed walls and the bid editor. */
export function drawYou(e: RoomElements, state: RoomState): void {
  const { room } = state;
  const you = room.you;
  e.youBox.hidden = !you;
  if (!you) return;
  const stored = you.submission ?? '';
  // Set only when it differs: setting a textarea's value moves its caret to the end.
  if (!state.dirty && e.bids.value !== stored) e.bids.value = stored;
  drawTyped(e, state);
  e.finalText.textContent = you.final ? 'Your submission is marked final.' : '';
  drawCheck(e, you.check);
  fill(e.youHead, h('h2', { id: 'you-h' }, `You: seat P${you.seat}`),
    h('p', {}, `Your walls: ${you.walls.join(' ') || 'none'}.`),
    ...you.borrowed.map((b) => h('p', { class: 'borrowed' }, `Borrowed this round from P${b.seat} `, h('bdi', {}, b.name), `: ${b.walls.join(' ') || 'no walls'}.`)));
  // Attached once and only hidden: taking a focused field out of the page and back (a live
  // update while the player types) would blur it and send the next keys nowhere.
  if (e.editor.parentElement !== e.youBox) e.youBox.append(e.youHead, e.editor);
  e.editor.hidden = room.status !== 'playing';
}

/** The rounds played, newest first, each with the grid after it (drawn again only when they change). */
export function drawHistory(e: RoomElements, room: RoomView, path: string): void {
  const key = historyKey(room);
  if (key === e.shownHistory.key) return;
  e.shownHistory.key = key;
  e.historyBox.replaceChildren(h('h2', { id: 'history-h' }, 'Rounds played'));
  if (room.rounds.length === 0) {
    e.historyBox.append(h('p', { class: 'empty' }, 'No round resolved yet.'));
    return;
  }
  for (const record of [...room.rounds].reverse()) {
    const picture = new HexGrid(`The grid after ${roundName(record.round).toLowerCase()}`);
    picture.update(readGrid(record.grid), room.seats.map((seat) => seat.name), { own: room.you?.seat ?? null, borrowed: [], chosen: null });
    const scores = record.scores
      ? h('p', { class: 'scores' }, 'Scores: ', record.scores.map((score, k) => `P${k + 1} ${score}`).join(', '))
      : h('p', {}, 'Walls placed; no scores.');
    const base = `${path}/rounds/${record.round}`;
    e.historyBox.append(h('details', { class: 'round', open: record === room.rounds[room.rounds.length - 1] },
      h('summary', {}, `${roundName(record.round)} (${record.variation})${record.pairs.length ? `: ${record.pairs.join(', ')}` : ''}`),
      scores, picture.element,
      h('p', {}, h('a', { href: `${base}/post`, target: '_blank' }, 'Forum post (text)'), ' · ',
        h('a', { href: `${base}/svg`, download: `swap61-${room.id}-round${record.round}.svg` }, 'Picture (SVG)'))));
  }
}

/** The live connection's state. */
export function drawLive(e: RoomElements, live: LiveStatus): void {
  e.liveText.textContent = LIVE_WORDS[live];
  e.liveText.className = `live ${live}`;
}
