// The game page's views: small functions that build each part of the page from its state
// (header, board, prompt, moves, actions). The elements are made once (`gameElements`), so
// that live regions announce only a change and the board keeps its cells; the page's
// requests are the caller's, reached through `GameActions`.

import { Board } from '../board';
import { gameTitle } from '../catalogue';
import { fill, h } from '../dom';
import { clocksNow, describeClock, edgesToJoin, formatClock, pairMoves, positionSummary } from '../logic';
import type { LiveStatus } from '../live';
import { ratingChangeWords, ratingElement } from '../ratings';
import {
  boardWithHint, challengeChoice, controls, highlights, joinChoice, mySeat, promptWords, rematchChoice, resignWord, seatToMove, shownWords, statusWords,
  type Control, type GameState,
} from './state';

/** What the views' buttons ask of the page. */
export interface GameActions {
  /** Plays a move (or holds it for its confirmation). */
  submit(move: string): void;
  /** Sends a move confirmed. */
  send(move: string): void;
  /** Drops the move being built and starts again. */
  restart(): void;
  /** Scware's balancing move: the next cell starts a new group. */
  endGrowth(): void;
  /** Shows a ply of the game. */
  showPly(ply: number): void;
  /** Takes the open seat (with the invite of the address, if any). */
  join(): void;
  /** Declines the challenge kept for the reader, with these words (none when empty). */
  declineChallenge(reason: string): void;
  /** Cancels the reader's own challenge. */
  cancelChallenge(): void;
  /** Resigns, or aborts before the second move. */
  resign(): void;
  /** Offers the rematch, or takes (goes to) the one offered. */
  rematch(): void;
  /** Dismisses the rematch offered, on this page only. */
  decline(): void;
  /** Draws the game's actions again (a question answered "No"). */
  redrawActions(): void;
  /** The AI's best moves in the position shown, into `out`. */
  analyse(out: HTMLElement): void;
  /** The review of the whole game, into `out`. */
  review(out: HTMLElement): void;
}

/** The judgement marks lichess shows beside a move. */
const JUDGEMENT_MARK: Record<string, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The words of the live connection's states. */
const LIVE_WORDS: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live.',
  reconnecting: 'Connection lost: reconnecting…',
  resynced: 'Reconnected and resynced.',
};

/** The game page's elements, made once. */
export function gameElements(onCell: (cell: string) => void) {
  const typed = h('input', { id: 'typed-move', name: 'move', autocomplete: 'off', spellcheck: 'false', placeholder: 'c3, c3:d4-e5, a6-d5…' });
  return {
    title: h('h1', {}),
    /** The game and its author, as the rules engine names them. */
    credit: h('p', { class: 'credit' }),
    players: h('div', { class: 'players' }),
    status: h('p', { class: 'status', 'aria-live': 'polite' }),
    liveStatus: h('p', { class: 'live', role: 'status' }),
    prompt: h('p', { class: 'prompt', 'aria-live': 'polite' }),
    refusal: h('p', { class: 'refusal', role: 'alert' }),
    legend: h('div', { class: 'legend-box' }),
    controls: h('div', { class: 'controls' }),
    actions: h('div', { class: 'actions' }),
    describe: h('div', { class: 'sr-only', 'aria-live': 'polite' }),
    shownLine: h('p', { class: 'shown' }),
    notes: h('ul', { class: 'notes' }),
    moveList: h('ol', { class: 'moves', 'aria-label': 'moves' }),
    downloads: h('p', { class: 'downloads' }),
    analysis: h('section', { class: 'analysis', 'aria-labelledby': 'analysis-h' }),
    typed,
    typedForm: h('form', { class: 'typed' },
      h('label', { for: 'typed-move' }, 'Type a move'), typed,
      h('button', { type: 'submit' }, 'Send')),
    board: new Board(onCell),
  };
}

/** The game page's elements. */
export type GameElements = ReturnType<typeof gameElements>;

/**
 * The page's layout. Wide screens: the board on the left, what a turn needs (clocks,
 * prompt, buttons, refusal, legend) beside it and the record under that; phones: the board
 * first.
 */
export function gameLayout(e: GameElements): HTMLElement {
  return h('div', { class: 'game' },
    h('div', { class: 'game-head' }, e.title, e.credit),
    h('div', { class: 'board-side' }, e.board.element),
    h('div', { class: 'panel' }, e.players, e.status, e.prompt, e.controls, e.refusal, e.legend, e.actions, e.liveStatus, e.describe),
    h('div', { class: 'side' }, e.typedForm, e.shownLine, e.notes, h('h2', {}, 'Moves'), e.moveList, e.downloads, e.analysis));
}

/** The header: the title, the players (the one to move marked, their clocks) and the status. */
export function drawHeader(e: GameElements, state: GameState): void {
  const { game } = state;
  e.title.textContent = `${gameTitle(game.game)} ${game.size}×${game.size}`;
  fill(e.players, ...game.players.map((p, k) => {
    const name = p.seated ? p.name ?? '?' : p.name ? `kept for ${p.name}` : 'open seat';
    const who = p.seated && p.name && !p.name.startsWith('ai:')
      ? h('a', { href: `/players/${encodeURIComponent(p.name)}` }, name)
      : h('span', {}, name);
    return h('div', { class: `player${seatToMove(game) === k ? ' to-move' : ''}` },
      h('span', { class: `chip col-${p.colour}`, 'aria-hidden': 'true' }, p.colour), ' ', who,
      p.rating && h('span', { class: 'game-rating' },
        ' ', ratingElement({ rating: p.rating.before, provisional: p.rating.provisional }),
        p.rating.change != null && h('span', { class: 'rating-change' }, ` ${ratingChangeWords(p.rating.change)}`)),
      (p.vacation_days ?? 0) > 0 && h('span', { class: 'vacation' },
        ` (${p.vacation_days} vacation ${p.vacation_days === 1 ? 'day' : 'days'} spent)`),
      game.clock !== null && h('span', { class: 'clock', id: `clock-${k}`, 'aria-label': `${p.colour} clock` }));
  }));
  const words = statusWords(state);
  // The status is a live region: only a change is announced.
  if (e.status.firstChild?.textContent !== words) {
    fill(e.status, words, h('span', { class: 'clock-kind' }, `Clock: ${describeClock(game.clock)}`));
  }
  drawClocks(state);
}

/** The clocks, counting down from the server's times. */
export function drawClocks(state: GameState): void {
  const { game } = state;
  if (!game.clocks) return;
  const running = seatToMove(game);
  const now = clocksNow(game.clocks.remaining_ms, running, game.clocks.server_now_ms, Date.now(), state.offset);
  for (const k of [0, 1] as const) {
    const element = document.getElementById(`clock-${k}`);
    if (element) {
      element.textContent = formatClock(now[k]);
      element.classList.toggle('running', running === k);
    }
  }
}

/** The board, its credit and its legend. */
export function drawBoard(e: GameElements, state: GameState): void {
  const t0 = performance.now();
  const marked = highlights(state);
  const board = boardWithHint(state);
  e.board.draw(board, marked);
  e.board.element.setAttribute('data-draw-ms', (performance.now() - t0).toFixed(2));
  const edges = edgesToJoin(state.shown.board);
  const tournament = state.game.tournament;
  fill(e.credit, state.shown.board.title, ' · ', h('a', { href: `/rules/${state.game.game}` }, 'Rules'),
    tournament && ' · ', tournament && h('a', { href: `/tournaments/${encodeURIComponent(tournament)}` }, 'Tournament game'),
    edges && ` · ${edges}`);
  fill(e.legend, e.board.legend(board, marked, state.building.draft?.prompt ?? ''));
}

/** The prompt and the buttons of the turn. */
export function drawPrompt(e: GameElements, state: GameState, act: GameActions): void {
  e.prompt.textContent = promptWords(state);
  fill(e.controls, ...controls(state).map((control) => controlButton(control, act)));
}

function controlButton(control: Control, act: GameActions): HTMLButtonElement {
  switch (control.kind) {
    case 'confirm': return h('button', { type: 'button', class: 'primary', onclick: () => act.send(control.move) }, `Confirm ${control.move}`);
    case 'cancel': return h('button', { type: 'button', onclick: () => act.restart() }, 'Cancel');
    case 'play': return h('button', { type: 'button', class: 'primary', onclick: () => act.submit(control.move) }, `Play ${control.move}`);
    case 'new-group': return h('button', { type: 'button', onclick: () => act.endGrowth() }, '+ new group');
    case 'pass': return h('button', { type: 'button', onclick: () => act.submit('pass') }, 'Pass');
    case 'clear': return h('button', { type: 'button', onclick: () => act.restart() }, 'Clear');
  }
}

/** The move list, paired by move number, scrolled (by itself) to the move shown. */
export function drawMoves(e: GameElements, state: GameState, act: GameActions): void {
  const list = e.moveList;
  fill(list, ...pairMoves(state.moves.moves).map((row) => h('li', {},
    h('span', { class: 'num' }, `${row.number}.`),
    ...row.plies.map((m) => {
      const mark = state.judgements.get(m.ply);
      return h('button', {
        type: 'button', 'data-ply': m.ply, 'aria-current': state.shown.ply === m.ply ? 'step' : null,
        onclick: () => act.showPly(m.ply),
      }, h('span', { class: 'mv' }, `${m.move}${mark ? ` ${JUDGEMENT_MARK[mark] ?? ''}` : ''}`),
      h('span', { class: 'desc' }, m.by_condition ? `${m.description} (by condition)` : m.description));
    }))));
  // The list scrolls itself to the move shown; the page never moves (a phone opens on the
  // board). The list is positioned, so a row's offsetTop is within it.
  const current = list.querySelector<HTMLElement>('[aria-current]') ?? list.lastElementChild;
  if (current instanceof HTMLElement) {
    const top = current.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

/** The position shown: its line, the view's notes, the screen reader's summary, the downloads. */
export function drawShown(e: GameElements, state: GameState, path: string): void {
  const { shown } = state;
  e.shownLine.textContent = shownWords(shown);
  // The view's own notes: counts, network sizes, the rule that ended the game.
  fill(e.notes, ...shown.board.notes.map((note) => h('li', {}, note)));
  const words = `${shown.description ?? 'The start position.'} ${positionSummary(shown.board)}`;
  // Only a change is announced: a redraw for another reason must not repeat it.
  if (e.describe.textContent !== words) e.describe.textContent = words;
  const id = state.game.id;
  fill(e.downloads,
    h('a', { href: `${path}/record`, download: `swapboard-${id}.txt` }, 'Download the record'), ' · ',
    h('a', { href: `${path}/svg?ply=${shown.ply}`, download: `swapboard-${id}-ply${shown.ply}.svg` }, 'Download this position (SVG)'));
}

/** The game's actions: join, the invite link, resign or abort (asked in the page), the rematch. */
export function drawActions(e: GameElements, state: GameState, me: string | null, invited: boolean, act: GameActions): void {
  const { game } = state;
  fill(e.actions);
  const join = joinChoice(state, me, invited);
  if (join === 'join') {
    e.actions.append(h('button', { type: 'button', class: 'primary', onclick: () => act.join() }, 'Join this game'));
  } else if (join === 'login') {
    e.actions.append(h('a', { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, 'Log in to join'));
  }
  const answer = challengeChoice(state, me);
  if (answer === 'cancel') {
    e.actions.append(h('button', { type: 'button', onclick: () => act.cancelChallenge() }, 'Cancel this challenge'));
  } else if (answer === 'decline') {
    e.actions.append(declineBox(act));
  }
  if (game.expires_at && game.status === 'waiting') {
    e.actions.append(h('p', { class: 'expires' }, `Open until ${new Date(game.expires_at).toLocaleString()}.`));
  }
  if (game.invite) e.actions.append(inviteBox(`${location.origin}/games/${game.id}?invite=${game.invite}`));
  if (mySeat(state) !== null && game.status === 'playing') {
    const word = resignWord(game);
    const ask = h('button', { type: 'button', onclick: () => {
      fill(ask.parentElement ?? e.actions,
        h('span', {}, `${word} this game?`),
        h('button', { type: 'button', class: 'danger', onclick: () => act.resign() }, `Yes, ${word.toLowerCase()}`),
        h('button', { type: 'button', onclick: () => act.redrawActions() }, 'No'));
    } }, word);
    e.actions.append(h('span', { class: 'resign' }, ask));
  }
  if (game.status === 'finished') {
    const offer = rematchView(state, act);
    if (offer) e.actions.append(offer);
  }
}

/** Declining a challenge kept for the reader: a reason (optional, as the server allows) and the button. */
function declineBox(act: GameActions): HTMLElement {
  const reason = h('input', { id: 'decline-reason', maxlength: 200, placeholder: 'optional' }) as HTMLInputElement;
  return h('div', { class: 'decline' },
    h('label', { for: 'decline-reason' }, 'Reason'), reason,
    h('button', { type: 'button', class: 'danger', onclick: () => act.declineChallenge(reason.value) }, 'Decline'));
}

/** The invite link with a button that copies it. */
function inviteBox(link: string): HTMLElement {
  const copied = h('span', { role: 'status' });
  return h('div', { class: 'invite' },
    h('label', { for: 'invite-link' }, 'Invite link'),
    h('input', { id: 'invite-link', readonly: true, value: link }),
    h('button', { type: 'button', onclick: () => {
      void navigator.clipboard?.writeText(link).then(() => { copied.textContent = 'Copied.'; }, () => { copied.textContent = 'Select the link and copy it.'; });
    } }, 'Copy'), copied);
}

/**
 * The rematch: offered by a button, and once offered, said in words to the other player
 * ("alice offers a rematch") with Accept and Decline.
 */
function rematchView(state: GameState, act: GameActions): HTMLElement | null {
  // Asking again is how the other player takes a rematch offered (and how its maker gets
  // back to it): the server answers the same game.
  const take = (words: string): HTMLElement => h('button', { type: 'button', class: 'primary', onclick: () => act.rematch() }, words);
  const choice = rematchChoice(state);
  switch (choice.kind) {
    case 'offered':
      return h('div', { class: 'offer', role: 'status' },
        h('span', {}, `${choice.by} offers a rematch`), ' ', take('Accept'),
        h('button', { type: 'button', onclick: () => act.decline() }, 'Decline'));
    case 'mine':
      return h('div', { class: 'offer' }, h('span', {}, 'You offered a rematch.'), ' ', take('Go to the rematch'));
    case 'watch':
      return h('p', { class: 'offer' }, `${choice.by} offers a rematch: `, h('a', { href: `/games/${choice.id}` }, 'watch it'));
    case 'ask':
      return take(choice.made ? 'Go to the rematch' : 'Rematch');
    case 'none':
      return null;
  }
}

/** The analysis panel of a finished game (made once: its answers stay while the page redraws). */
export function drawAnalysis(e: GameElements, state: GameState, act: GameActions): void {
  if (state.game.status !== 'finished') {
    fill(e.analysis);
    return;
  }
  if (e.analysis.childElementCount > 0) return;
  const out = h('div', { class: 'analysis-out', 'aria-live': 'polite' });
  fill(e.analysis,
    h('h2', { id: 'analysis-h' }, 'Analysis'),
    h('button', { type: 'button', onclick: () => act.analyse(out) }, 'Best moves here'),
    h('button', { type: 'button', onclick: () => act.review(out) }, 'Review the whole game'),
    out);
}

/** The live connection's state. */
export function drawLive(e: GameElements, live: LiveStatus): void {
  e.liveStatus.textContent = LIVE_WORDS[live];
  e.liveStatus.className = `live ${live}`;
}
