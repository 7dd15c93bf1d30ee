// The Swap 61 room pages: a new room (`/rooms/new`) and the room (`/rooms/{id}`) for the
// public, a player and the game master. The page shows what `GET /api/rooms/{id}` gives the
// caller and nothing more; the room's socket says when something changed, and the page then
// reads the caller's own view again.

import { api, failureText } from './api';
import type { Cleanup, Shell } from './app';
import { fill, h } from './dom';
import { HexGrid } from './hexgrid';
import { LiveSocket, type LiveStatus } from './live';
import { formatClock, type Route } from './logic';
import {
  addBidLine,
  clickBid,
  readGrid,
  roundName,
  tokensTyped,
  type AuditEntry,
  type Check,
  type RoomView,
} from './swap61';

const VARIATIONS: [string, string][] = [
  ['theme', 'Theme'],
  ['corners', 'Corners'],
  ['corners-teleport', 'Corners (teleport)'],
  ['network', 'Network'],
  ['seat-exchange', 'Seat exchange'],
];

/** Where the invite of a room made in this tab is kept: the server shows it only once. */
function inviteKey(id: string): string {
  return `swapboard.room-invite.${id}`;
}

function field(label: string, input: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), input);
}

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

/** The players' names in seat order. */
function namesOf(room: RoomView): string[] {
  return room.seats.map((seat) => seat.name);
}

/** A seat's colour swatch with its number (the colours are the grid's, in style.css). */
function swatch(seat: number): HTMLElement {
  return h('span', { class: `swatch seat-${seat}`, 'aria-hidden': 'true' }, String(seat));
}

/** The check of a submission: each line, the tokens, the receipt. */
function checkView(check: Check): HTMLElement {
  const list = h('ul', { class: 'check-lines' });
  for (const line of check.lines) {
    list.append(h('li', { class: line.status },
      line.status === 'accepted'
        ? `line ${line.line}: ${line.edge ?? ''}, ${line.tokens ?? 0} token${line.tokens === 1 ? '' : 's'}, accepted`
        : `line ${line.line}: rejected, ${line.reason ?? ''}`));
  }
  return h('div', { class: 'bid-check' },
    check.lines.length === 0 ? h('p', { class: 'empty' }, 'No bid lines.') : list,
    h('p', { class: 'tokens' }, `Tokens: ${check.tokens.spent} of ${check.tokens.allowance} placed.`),
    h('p', { class: 'receipt' }, 'Receipt: ', h('code', {}, check.receipt)));
}

/** `/rooms/{id}`: the room as the caller may see it. */
export async function roomPage(main: HTMLElement, shell: Shell, route: Route): Promise<Cleanup | void> {
  if (route.page !== 'room') return;
  const id = route.id;
  const invited = route.invite;
  const path = `/api/rooms/${encodeURIComponent(id)}`;
  let room = await api<RoomView>('GET', path);
  let offset = room.server_now_ms - Date.now();

  // What lives across redraws: the grid, the bid being written, the live status.
  let first: string | null = null;
  let dirty = false;
  let shownRound = room.round;
  let historyKey = '';
  const grid = new HexGrid('The grid now', (tile) => onTile(tile));
  const title = h('h1', {}, 'Swap 61 room');
  const credit = h('p', { class: 'credit' }, "Swap 61 by 'pseudonam', a sealed-bid game for 9 or 10 players run by a game master");
  const status = h('p', { class: 'status', role: 'status' });
  const deadline = h('p', { class: 'deadline' });
  const liveText = h('p', { class: 'live', 'aria-live': 'polite' });
  const legend = h('ul', { class: 'legend' });
  const board = h('section', { class: 'grid-side', 'aria-labelledby': 'grid-h' }, h('h2', { id: 'grid-h' }, 'The grid'),
    // On a phone the grid scrolls sideways in its own box, its tiles kept at 44 px at least.
    h('div', { class: 'grid-scroll' }, grid.element), legend);
  const joinBox = h('section', { class: 'join' });
  const seatsBox = h('section', { 'aria-labelledby': 'seats-h' });
  const roundBox = h('section', { 'aria-labelledby': 'round-h' });
  const youBox = h('section', { class: 'you', 'aria-labelledby': 'you-h' });
  const masterBox = h('section', { class: 'console', 'aria-labelledby': 'console-h' });
  const historyBox = h('section', { class: 'history', 'aria-labelledby': 'history-h' });

  // The bid editor: made once, so typing survives live updates.
  const bids = h('textarea', { name: 'bids', rows: 8, spellcheck: 'false', autocomplete: 'off' });
  const perClick = h('input', { name: 'tokens', type: 'number', min: 1, max: 99, value: 1 });
  const clickText = h('p', { class: 'click-hint', 'aria-live': 'polite' }, 'Click two touching tiles on the grid to add a bid.');
  const typed = h('p', { class: 'typed-tokens' });
  const editorError = h('p', { class: 'error', role: 'alert' });
  const checkBox = h('div', { class: 'check-box', 'aria-live': 'polite' });
  // The audit log shown last, kept across live updates.
  const audit = h('ol', { class: 'audit' });
  const showTyped = (): void => {
    const allowance = room.you?.check?.tokens.allowance;
    typed.textContent = `${tokensTyped(bids.value)} tokens written${allowance === undefined ? '' : ` (allowance ${allowance})`}.`;
  };
  bids.addEventListener('input', () => {
    dirty = true;
    showTyped();
  });
  const submit = async (): Promise<void> => {
    editorError.textContent = '';
    try {
      const check = await api<Check>('PUT', `${path}/submission?round=${room.round}`, bids.value);
      dirty = false;
      fill(checkBox, h('h3', {}, 'The server\'s check'), checkView(check));
      await refresh();
    } catch (error) {
      editorError.textContent = failureText(error);
    }
  };
  const markFinal = async (): Promise<void> => {
    editorError.textContent = '';
    try {
      await api('POST', `${path}/final?round=${room.round}`);
      await refresh();
    } catch (error) {
      editorError.textContent = failureText(error);
    }
  };
  const finalText = h('p', { class: 'final' });
  const editor = h('div', { class: 'editor' },
    field('Your bids (CELL CELL TOKENS, one a line)', bids),
    h('div', { class: 'row' }, field('Tokens per click', perClick)),
    clickText, typed,
    h('div', { class: 'buttons' },
      h('button', { type: 'button', class: 'primary', onclick: () => void submit() }, 'Submit bids'),
      h('button', { type: 'button', onclick: () => void markFinal() }, 'Mark final')),
    editorError, finalText, checkBox);

  function onTile(tile: string): void {
    if (!room.you || room.status !== 'playing') return;
    const click = clickBid(first, tile);
    switch (click.kind) {
      case 'first':
        first = click.first;
        clickText.textContent = `${tile} chosen: click a tile that touches it.`;
        break;
      case 'cleared':
        first = null;
        clickText.textContent = `${tile} no longer chosen.`;
        break;
      case 'apart':
        first = click.first;
        clickText.textContent = `Those two tiles do not touch: ${tile} chosen instead.`;
        break;
      case 'line': {
        const tokens = Math.max(1, Math.min(99, Math.round(Number(perClick.value)) || 1));
        bids.value = addBidLine(bids.value, click.a, click.b, tokens);
        dirty = true;
        first = null;
        clickText.textContent = `Added ${click.a} ${click.b} ${tokens}.`;
        showTyped();
        break;
      }
    }
    drawGrid();
  }

  function drawGrid(): void {
    board.hidden = room.grid.length === 0;
    grid.update(readGrid(room.grid), namesOf(room), {
      own: room.you?.seat ?? null,
      borrowed: room.you?.borrowed.map((b) => b.seat) ?? [],
      chosen: first,
    });
  }

  function drawLegend(): void {
    legend.replaceChildren();
    for (const seat of room.seats) {
      const mark = seat.seat === room.you?.seat ? ' (you)' : room.you?.borrowed.some((b) => b.seat === seat.seat) ? ' (borrowed this round)' : '';
      legend.append(h('li', {}, swatch(seat.seat), ` P${seat.seat} ${seat.name}${seat.bot ? ' (bot)' : ''}${seat.vacant ? ' (vacant)' : ''}${mark}`));
    }
    legend.append(h('li', {}, h('span', { class: 'swatch node', 'aria-hidden': 'true' }), ' node'),
      h('li', {}, h('span', { class: 'swatch wild', 'aria-hidden': 'true' }), ' wild wall'),
      h('li', {}, h('span', { class: 'swatch unowned', 'aria-hidden': 'true' }), ' unowned wall'));
  }

  function drawStatus(): void {
    if (room.status === 'lobby') {
      status.textContent = `Lobby: ${room.joined.length} of ${room.size} joined. Game master: ${room.master}.`;
    } else if (room.status === 'playing') {
      status.textContent = `${roundName(room.round)} is open (${room.variation ?? ''}): ${room.submitted} of ${room.seats.length} seats have submitted, ${room.finals} marked final. Game master: ${room.master}.`;
    } else {
      status.textContent = `Finished. Game master: ${room.master}.`;
    }
    tick();
  }

  function tick(): void {
    if (room.status !== 'playing') deadline.textContent = '';
    else if (room.paused) deadline.textContent = 'The round\'s clock is paused.';
    else if (room.deadline_ms !== null) deadline.textContent = `Resolves in ${formatClock(room.deadline_ms - (Date.now() + offset))}.`;
  }

  function drawJoin(): void {
    joinBox.replaceChildren();
    const seated = room.joined.some((name) => name.toLowerCase() === shell.me?.toLowerCase());
    if (room.status !== 'lobby' || !invited || seated || isMaster()) return;
    const message = h('p', { class: 'error', role: 'alert' });
    if (!shell.me) {
      const next = encodeURIComponent(location.pathname + location.search);
      joinBox.append(h('p', {}, 'You are invited to this room. ', h('a', { href: `/login?next=${next}` }, 'Log in'), ' or ', h('a', { href: `/signup?next=${next}` }, 'sign up'), ' to take a seat.'));
      return;
    }
    joinBox.append(h('p', {}, 'You are invited to play in this room.'),
      h('button', {
        type: 'button', class: 'primary', onclick: async () => {
          try {
            await api('POST', `${path}/join`, { invite: invited });
            shell.go(`/rooms/${id}`, true);
          } catch (error) {
            message.textContent = failureText(error);
          }
        },
      }, 'Join this room'), message);
  }

  function drawSeats(): void {
    seatsBox.replaceChildren(h('h2', { id: 'seats-h' }, room.status === 'lobby' ? 'Who has joined' : 'Seats and standings'));
    if (room.status === 'lobby') {
      seatsBox.append(room.joined.length === 0 ? h('p', { class: 'empty' }, 'Nobody yet.') : h('ol', {}, ...room.joined.map((name) => h('li', {}, name))));
      return;
    }
    const table = h('table', { class: 'standings' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Seat'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Total'))));
    const body = h('tbody');
    for (const standing of room.standings) {
      const seat = room.seats.find((s) => s.seat === standing.seat);
      body.append(h('tr', { class: standing.seat === room.you?.seat ? 'mine' : '' },
        h('td', {}, String(standing.rank)), h('td', {}, swatch(standing.seat), ` P${standing.seat}`),
        h('td', {}, `${seat?.name ?? ''}${seat?.bot ? ' (bot)' : ''}`), h('td', {}, String(standing.total))));
    }
    table.append(body);
    seatsBox.append(table);
  }

  function drawRound(): void {
    roundBox.replaceChildren();
    if (room.status !== 'playing') return;
    fill(roundBox, h('h2', { id: 'round-h' }, `${roundName(room.round)}: the pairs`),
      room.pairs.length === 0 ? h('p', {}, 'No pairs: the pregame only places walls.') : h('p', { class: 'pairs' }, room.pairs.join(', ')),
      room.next_pairs.length > 0 && h('p', {}, `Next round: ${room.next_pairs.join(', ')}`));
  }

  function drawYou(): void {
    const you = room.you;
    youBox.hidden = !you;
    if (!you) return;
    if (room.round !== shownRound) {
      // A new round: the old round's text and half-clicked bid belong to it.
      shownRound = room.round;
      dirty = false;
      first = null;
      clickText.textContent = 'Click two touching tiles on the grid to add a bid.';
    }
    if (!dirty) bids.value = you.submission ?? '';
    showTyped();
    finalText.textContent = you.final ? 'Your submission is marked final.' : '';
    if (you.check) fill(checkBox, h('h3', {}, 'The server\'s check'), checkView(you.check));
    else checkBox.replaceChildren();
    fill(youBox, h('h2', { id: 'you-h' }, `You: seat P${you.seat}`),
      h('p', {}, `Your walls: ${you.walls.join(' ') || 'none'}.`),
      ...you.borrowed.map((b) => h('p', { class: 'borrowed' }, `Borrowed this round from P${b.seat} ${b.name}: ${b.walls.join(' ') || 'no walls'}.`)),
      room.status === 'playing' && editor);
  }

  function isMaster(): boolean {
    return shell.me !== null && shell.me.toLowerCase() === room.master.toLowerCase();
  }

  function masterAction(label: string, run: () => Promise<unknown>, message: HTMLElement, kind = ''): HTMLButtonElement {
    return h('button', {
      type: 'button', class: kind, onclick: async () => {
        message.textContent = '';
        try {
          await run();
          await refresh();
        } catch (error) {
          message.textContent = failureText(error);
        }
      },
    }, label);
  }

  function drawMaster(): void {
    masterBox.hidden = !isMaster();
    if (!isMaster()) return;
    const message = h('p', { class: 'error', role: 'alert' });
    masterBox.replaceChildren(h('h2', { id: 'console-h' }, 'Game master'));
    const invite = sessionStorage.getItem(inviteKey(id));
    if (room.status === 'lobby') {
      const link = invite ? `${location.origin}/rooms/${id}?invite=${invite}` : '';
      const bots = h('input', { type: 'checkbox', name: 'fill', checked: true });
      masterBox.append(
        link ? field('Invite link', h('input', { readonly: true, value: link, class: 'invite-link' })) : h('p', {}, 'The invite was shown when the room was made; make a new one to see it here.'),
        masterAction('New invite', async () => {
          const made = await api<{ invite: string }>('POST', `${path}/invite`);
          sessionStorage.setItem(inviteKey(id), made.invite);
        }, message),
        h('label', { class: 'check' }, bots, ' Fill the empty seats with the bot'),
        masterAction('Start the game', () => api('POST', `${path}/start`, { fill_with_bots: bots.checked }), message, 'primary'),
      );
    }
    if (room.status === 'playing') {
      const minutes = h('input', { name: 'minutes', type: 'number', min: 1, max: 20160, value: 60 });
      masterBox.append(
        h('div', { class: 'buttons' },
          masterAction('Resolve now', () => api('POST', `${path}/resolve?round=${room.round}`), message, 'primary'),
          room.paused
            ? masterAction('Resume the clock', () => api('POST', `${path}/resume`), message)
            : masterAction('Pause the clock', () => api('POST', `${path}/pause`), message)),
        h('div', { class: 'row extend' }, field('Minutes to add', minutes),
          masterAction('Extend the deadline', () => api('POST', `${path}/deadline`, { seconds: Math.round(Number(minutes.value) * 60) }), message)),
      );
      const list = h('ul', { class: 'submissions' });
      for (const sub of room.submissions ?? []) {
        const seat = room.seats.find((s) => s.seat === sub.seat);
        list.append(h('li', {}, h('strong', {}, `P${sub.seat} ${seat?.name ?? ''}`),
          ` ${sub.check.tokens.spent} of ${sub.check.tokens.allowance} tokens${sub.final ? ', final' : ''}, receipt ${sub.check.receipt.slice(0, 12)}…`,
          h('pre', {}, sub.submission)));
      }
      masterBox.append(h('h3', {}, `Submissions (${room.submissions?.length ?? 0})`), list);
    }
    if (room.status !== 'lobby') {
      const seat = h('select', { name: 'seat' });
      for (const one of room.seats) seat.append(h('option', { value: String(one.seat) }, `P${one.seat} ${one.name}${one.bot ? ' (bot)' : ''}`));
      const account = h('input', { name: 'account', maxlength: 24, autocomplete: 'off' });
      const put = (body: unknown): Promise<unknown> => api('PUT', `${path}/seats/${seat.value}`, body);
      masterBox.append(h('h3', {}, 'Seats'),
        h('div', { class: 'row' }, field('Seat', seat), field('Account', account)),
        h('div', { class: 'buttons' },
          masterAction('Give the seat to the account', () => put({ account: account.value.trim() }), message),
          masterAction('Let the bot play it', () => put({ bot: true }), message)));
    }
    if (room.rounds.length > 0) {
      const last = room.rounds[room.rounds.length - 1].round;
      // Taking a round back is asked twice, in the page.
      const sure = h('span', { class: 'buttons', hidden: true }, `Take back ${roundName(last).toLowerCase()}?`,
        masterAction('Yes, undo it', () => api('POST', `${path}/undo`), message, 'danger'));
      masterBox.append(h('div', { class: 'buttons' },
        h('button', { type: 'button', onclick: () => { sure.hidden = false; } }, 'Undo the last resolution'), sure));
    }
    masterBox.append(message);
    if (room.status !== 'lobby') {
      masterBox.append(h('p', {}, h('a', { href: `${path}/file`, download: `swap61-${id}.json` }, 'Download the game file')));
    }
    masterBox.append(
      h('button', {
        type: 'button', onclick: async () => {
          message.textContent = '';
          try {
            const log = await api<{ entries: AuditEntry[] }>('GET', `${path}/audit`);
            fill(audit, ...log.entries.map((e) => h('li', {}, `${new Date(e.at_ms).toISOString().slice(0, 19).replace('T', ' ')} ${e.actor} ${e.action} ${e.detail}`)));
          } catch (error) {
            message.textContent = failureText(error);
          }
        },
      }, 'Show the audit log'),
      audit,
    );
  }

  function drawHistory(): void {
    const key = JSON.stringify(room.rounds.map((r) => [r.round, r.grid, r.scores])) + namesOf(room).join();
    if (key === historyKey) return;
    historyKey = key;
    historyBox.replaceChildren(h('h2', { id: 'history-h' }, 'Rounds played'));
    if (room.rounds.length === 0) {
      historyBox.append(h('p', { class: 'empty' }, 'No round resolved yet.'));
      return;
    }
    for (const record of [...room.rounds].reverse()) {
      const picture = new HexGrid(`The grid after ${roundName(record.round).toLowerCase()}`);
      picture.update(readGrid(record.grid), namesOf(room), { own: room.you?.seat ?? null, borrowed: [], chosen: null });
      const scores = record.scores
        ? h('p', { class: 'scores' }, 'Scores: ', record.scores.map((score, k) => `P${k + 1} ${score}`).join(', '))
        : h('p', {}, 'Walls placed; no scores.');
      const base = `${path}/rounds/${record.round}`;
      historyBox.append(h('details', { class: 'round', open: record === room.rounds[room.rounds.length - 1] },
        h('summary', {}, `${roundName(record.round)} (${record.variation})${record.pairs.length ? `: ${record.pairs.join(', ')}` : ''}`),
        scores, picture.element,
        h('p', {}, h('a', { href: `${base}/post`, target: '_blank' }, 'Forum post (text)'), ' · ',
          h('a', { href: `${base}/svg`, download: `swap61-${id}-round${record.round}.svg` }, 'Picture (SVG)'))));
    }
  }

  function draw(): void {
    drawStatus();
    drawJoin();
    // The player's part first: a new round clears the half-clicked bid the grid shows.
    drawYou();
    drawGrid();
    drawLegend();
    drawSeats();
    drawRound();
    drawMaster();
    drawHistory();
  }

  let fetching = false;
  let again = false;
  async function refresh(): Promise<void> {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        room = await api<RoomView>('GET', path);
        offset = room.server_now_ms - Date.now();
        draw();
      } while (again);
    } catch (error) {
      liveText.textContent = failureText(error);
    } finally {
      fetching = false;
    }
  }

  main.append(title, credit, status, deadline, liveText, joinBox,
    h('div', { class: 'room' }, board, h('div', { class: 'room-side' }, seatsBox, roundBox, youBox, masterBox)),
    historyBox);
  draw();

  const words: Record<LiveStatus, string> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', resynced: 'resynced' };
  let seen = false;
  const live = new LiveSocket<{ type: 'room' }>(() => `${path}/socket`, 'room', () => {
    // The first message is the room the page has just read.
    if (seen) void refresh();
    seen = true;
  }, (state) => {
    if (state === 'reconnecting') seen = true;
    liveText.textContent = words[state];
    liveText.className = `live ${state}`;
  });
  const timer = window.setInterval(tick, 1000);
  return () => {
    live.close();
    window.clearInterval(timer);
  };
}
