// The game page: the board, the move builder, live updates, clocks, the move list with
// review by keys, downloads, and the analysis of finished games. Every word about a move
// comes from the server (`description`, `prompt`, `reason`, `ending`).

import { api, apiWithStatus, failureText } from './api';
import type { Cleanup, Shell } from './app';
import { Board } from './board';
import { fill, h } from './dom';
import { LiveGame, type LiveStatus } from './live';
import { clickSelection, clocksNow, describeClock, formatClock, percent, positionSummary, reviewPly, seatOf, seatToMove, type Route } from './logic';
import { confirmStep, gameTitle } from './pages';
import type { Analysis, Draft, GameReview, GameView, LiveMessage, MoveList, PlyView } from './types';

/** The judgement marks lichess shows beside a move. */
const JUDGEMENT_MARK: Record<string, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The game page. */
export async function gamePage(main: HTMLElement, shell: Shell, route: Route): Promise<Cleanup | void> {
  if (route.page !== 'game') return;
  const id = route.id;
  const path = `/api/games/${encodeURIComponent(id)}`;
  let game = await api<GameView>('GET', path);
  let moves = await api<MoveList>('GET', `${path}/moves`);
  const asked = route.ply !== null && route.ply < game.ply ? route.ply : null;
  let shown: PlyView = await api<PlyView>('GET', asked === null ? `${path}/view` : `${path}/view?ply=${asked}`);
  /** Whether the board follows the game (else it shows an earlier ply under review). */
  let following = asked === null;
  let selection: string[] = [];
  let split: number | null = null;
  let draft: Draft | null = null;
  let pending: string | null = null;
  let busy = false;
  /** The server's clock minus ours, from the last game read. */
  let offset = 0;
  const judgements = new Map<number, string>();

  const title = h('h1', {});
  /** The game and its author, as the rules engine names them. */
  const credit = h('p', { class: 'credit' });
  const players = h('div', { class: 'players' });
  const status = h('p', { class: 'status', 'aria-live': 'polite' });
  const liveStatus = h('p', { class: 'live', role: 'status' });
  const prompt = h('p', { class: 'prompt', 'aria-live': 'polite' });
  const refusal = h('p', { class: 'refusal', role: 'alert' });
  const controls = h('div', { class: 'controls' });
  const actions = h('div', { class: 'actions' });
  const describe = h('div', { class: 'sr-only', 'aria-live': 'polite' });
  const shownLine = h('p', { class: 'shown' });
  const notes = h('ul', { class: 'notes' });
  const moveList = h('ol', { class: 'moves', 'aria-label': 'moves' });
  const downloads = h('p', { class: 'downloads' });
  const analysis = h('section', { class: 'analysis', 'aria-labelledby': 'analysis-h' });
  const typed = h('input', { name: 'move', autocomplete: 'off', spellcheck: 'false', placeholder: 'c3, c3:d4-e5, a6-d5…' });
  const typedForm = h('form', { class: 'typed' },
    h('label', { for: 'typed-move' }, 'Type a move'), typed,
    h('button', { type: 'submit' }, 'Send'));
  typed.id = 'typed-move';
  const board = new Board((cell) => void click(cell));

  const mySeat = (): 0 | 1 | null => seatOf(game, shell.me);
  const myTurn = (): boolean => game.status === 'playing' && mySeat() !== null && seatToMove(game) === mySeat();
  const interactive = (): boolean => myTurn() && following && !busy;

  function showRefusal(text: string): void {
    refusal.textContent = text;
  }

  function resetDraft(): void {
    selection = [];
    split = null;
    draft = null;
    pending = null;
  }

  function drawBoard(): void {
    const t0 = performance.now();
    board.draw(shown.board, {
      next: interactive() && draft ? draft.next : [],
      chosen: interactive() ? selection : [],
      interactive: interactive(),
    });
    board.element.setAttribute('data-draw-ms', (performance.now() - t0).toFixed(2));
    credit.textContent = shown.board.title;
  }

  function drawHeader(): void {
    title.textContent = `${gameTitle(game.game)} ${game.size}×${game.size}`;
    fill(players, ...game.players.map((p, k) => {
      const name = p.seated ? p.name ?? '?' : p.name ? `kept for ${p.name}` : 'open seat';
      const who = p.seated && p.name && !p.name.startsWith('ai:')
        ? h('a', { href: `/players/${encodeURIComponent(p.name)}` }, name)
        : h('span', {}, name);
      return h('div', { class: `player${seatToMove(game) === k ? ' to-move' : ''}` },
        h('span', { class: `chip col-${p.colour}`, 'aria-hidden': 'true' }, p.colour), ' ', who,
        game.clock !== null && h('span', { class: 'clock', id: `clock-${k}`, 'aria-label': `${p.colour} clock` }));
    }));
    let words: string;
    if (game.status === 'waiting') words = 'Waiting for a player to join.';
    else if (game.status === 'playing') words = myTurn() ? 'Your move.' : `${game.to_move ?? '?'} to move.`;
    else words = moves.ending ?? shown.ending ?? 'The game is over.';
    const clock = `Clock: ${describeClock(game.clock)}`;
    // The status is a live region: only a change is announced.
    if (status.firstChild?.textContent !== words) fill(status, words, h('span', { class: 'clock-kind' }, clock));
    drawClocks();
  }

  function drawClocks(): void {
    if (!game.clocks) return;
    const running = game.status === 'playing' ? seatToMove(game) : null;
    const now = clocksNow(game.clocks.remaining_ms, running, game.clocks.server_now_ms, Date.now(), offset);
    for (const k of [0, 1] as const) {
      const element = document.getElementById(`clock-${k}`);
      if (element) {
        element.textContent = formatClock(now[k]);
        element.classList.toggle('running', running === k);
      }
    }
  }

  function drawPrompt(): void {
    fill(controls);
    if (!interactive()) {
      prompt.textContent = following ? '' : `Showing the position after ply ${shown.ply} of ${game.ply}. Press End to return.`;
      return;
    }
    prompt.textContent = draft?.prompt ?? '';
    if (pending) {
      prompt.textContent = `Play ${pending}?`;
      controls.append(
        h('button', { type: 'button', class: 'primary', onclick: () => void send(pending ?? '') }, `Confirm ${pending}`),
        h('button', { type: 'button', onclick: () => { resetDraft(); void startDraft(); } }, 'Cancel'),
      );
      return;
    }
    if (draft?.verdict === 'complete' && draft.move && draft.more) {
      const move = draft.move;
      controls.append(h('button', { type: 'button', class: 'primary', onclick: () => void submit(move) }, `Play ${move}`));
      // Red's balancing move: offered when the builder's prompt names the `+` of the notation.
      if (split === null && draft.prompt.includes('+')) {
        controls.append(h('button', { type: 'button', onclick: () => void endGrowth() }, '+ new group'));
      }
    }
    if (selection.length > 0) {
      controls.append(h('button', { type: 'button', onclick: () => { resetDraft(); void startDraft(); } }, 'Clear'));
    }
  }

  function drawMoves(): void {
    fill(moveList, ...moves.moves.map((m) => {
      const mark = judgements.get(m.ply);
      return h('li', {},
        h('button', {
          type: 'button', 'data-ply': m.ply, 'aria-current': shown.ply === m.ply ? 'step' : null,
          onclick: () => void showPly(m.ply),
        }, h('span', { class: 'mv' }, `${m.ply}. ${m.colour} ${m.move}${mark ? ` ${JUDGEMENT_MARK[mark] ?? ''}` : ''}`),
        h('span', { class: 'desc' }, m.description)));
    }));
    const current = moveList.querySelector('[aria-current]');
    current?.scrollIntoView({ block: 'nearest' });
  }

  function drawShown(): void {
    shownLine.textContent = shown.ply === 0 ? 'The start position.' : `After ply ${shown.ply}: ${shown.description ?? shown.move ?? ''}`;
    // The view's own notes: counts, network sizes, the rule that ended the game.
    fill(notes, ...shown.board.notes.map((note) => h('li', {}, note)));
    const words = `${shown.description ?? 'The start position.'} ${positionSummary(shown.board)}`;
    // Only a change is announced: a redraw for another reason must not repeat it.
    if (describe.textContent !== words) describe.textContent = words;
    fill(downloads,
      h('a', { href: `${path}/record`, download: `swapboard-${id}.txt` }, 'Download the record'), ' · ',
      h('a', { href: `${path}/svg?ply=${shown.ply}`, download: `swapboard-${id}-ply${shown.ply}.svg` }, 'Download this position (SVG)'));
  }

  function drawActions(): void {
    fill(actions);
    const seat = mySeat();
    if (game.status === 'waiting' && seat === null && shell.me) {
      const open = game.players.find((p) => !p.seated);
      if (open && (open.name === null || open.name.toLowerCase() === shell.me.toLowerCase() || route.page === 'game' && route.invite)) {
        actions.append(h('button', { type: 'button', class: 'primary', onclick: () => void join() }, 'Join this game'));
      }
    }
    if (game.status === 'waiting' && seat === null && !shell.me) {
      actions.append(h('a', { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, 'Log in to join'));
    }
    if (game.invite) {
      const link = `${location.origin}/games/${id}?invite=${game.invite}`;
      const copied = h('span', { role: 'status' });
      actions.append(h('div', { class: 'invite' },
        h('label', { for: 'invite-link' }, 'Invite link'),
        h('input', { id: 'invite-link', readonly: true, value: link }),
        h('button', { type: 'button', onclick: () => {
          void navigator.clipboard?.writeText(link).then(() => { copied.textContent = 'Copied.'; }, () => { copied.textContent = 'Select the link and copy it.'; });
        } }, 'Copy'), copied));
    }
    if (seat !== null && game.status === 'playing') {
      // Before the second move the server aborts the game instead.
      const word = game.ply < 2 ? 'Abort' : 'Resign';
      const ask = h('button', { type: 'button', onclick: () => {
        fill(ask.parentElement ?? actions,
          h('span', {}, `${word} this game?`),
          h('button', { type: 'button', class: 'danger', onclick: () => void resign() }, `Yes, ${word.toLowerCase()}`),
          h('button', { type: 'button', onclick: () => drawActions() }, 'No'));
      } }, word);
      actions.append(h('span', { class: 'resign' }, ask));
    }
    if (game.status === 'finished' && seat !== null) {
      // Asking again is how the other player takes a rematch offered (and how its maker gets
      // back to it): the server answers the same game.
      actions.append(h('button', { type: 'button', onclick: () => void rematch() }, game.rematch ? 'Go to the rematch' : 'Rematch'));
    }
  }

  function drawAnalysis(): void {
    if (game.status !== 'finished') {
      fill(analysis);
      return;
    }
    if (analysis.childElementCount > 0) return;
    const out = h('div', { class: 'analysis-out', 'aria-live': 'polite' });
    fill(analysis,
      h('h2', { id: 'analysis-h' }, 'Analysis'),
      h('button', { type: 'button', onclick: () => void analyse(out) }, 'Best moves here'),
      h('button', { type: 'button', onclick: () => void reviewGame(out) }, 'Review the whole game'),
      out);
  }

  function drawAll(): void {
    drawHeader();
    drawBoard();
    drawPrompt();
    drawShown();
    drawMoves();
    drawActions();
    drawAnalysis();
    typedForm.hidden = !myTurn();
  }

  /** Only what the move being built changes: a click must not rebuild the move list. */
  function drawDraft(): void {
    drawBoard();
    drawPrompt();
  }

  async function startDraft(): Promise<void> {
    drawAll();
    if (!myTurn()) return;
    try {
      draft = await api<Draft>('POST', `${path}/draft`, { cells: [] });
    } catch (error) {
      showRefusal(failureText(error));
    }
    drawDraft();
  }

  async function click(cell: string): Promise<void> {
    // A click while the builder answers the last one waits for nothing: it is dropped.
    if (busy) return;
    if (!interactive()) {
      if (game.status === 'playing' && mySeat() !== null && !following) {
        showRefusal('You are looking at an earlier position: press End to return to the game.');
      } else if (game.status === 'playing' && mySeat() !== null) {
        showRefusal('It is not your turn.');
      }
      return;
    }
    if (pending) return;
    const next = clickSelection(selection, cell, draft?.next ?? []);
    const nextSplit = split !== null && split > next.cells.length ? null : split;
    if (next.cells.length === 0) {
      resetDraft();
      showRefusal('');
      await startDraft();
      return;
    }
    busy = true;
    let answer: Draft;
    try {
      answer = await api<Draft>('POST', `${path}/draft`, nextSplit === null ? { cells: next.cells } : { cells: next.cells, split: nextSplit });
    } catch (error) {
      busy = false;
      showRefusal(failureText(error));
      drawDraft();
      return;
    } finally {
      busy = false;
    }
    if (answer.verdict === 'refused') {
      showRefusal(answer.reason ?? '');
      drawDraft();
      return;
    }
    showRefusal('');
    selection = next.cells;
    split = nextSplit;
    draft = answer;
    if (answer.verdict === 'complete' && !answer.more && answer.move) {
      await submit(answer.move);
      return;
    }
    drawDraft();
  }

  async function endGrowth(): Promise<void> {
    split = selection.length;
    try {
      const answer = await api<Draft>('POST', `${path}/draft`, { cells: selection, split });
      if (answer.verdict === 'refused') {
        split = null;
        showRefusal(answer.reason ?? '');
      } else {
        showRefusal('');
        draft = answer;
      }
    } catch (error) {
      split = null;
      showRefusal(failureText(error));
    }
    drawDraft();
  }

  async function submit(move: string): Promise<void> {
    if (confirmStep()) {
      pending = move;
      drawDraft();
      return;
    }
    await send(move);
  }

  async function send(move: string): Promise<void> {
    busy = true;
    try {
      const after = await api<GameView>('POST', `${path}/moves`, { move, ply: game.ply });
      showRefusal('');
      resetDraft();
      typed.value = '';
      busy = false;
      await changed(after);
    } catch (error) {
      busy = false;
      resetDraft();
      showRefusal(failureText(error));
      await refresh();
    }
  }

  /** Takes a newer game: the board, the list and the move builder follow it. */
  async function changed(next: GameView): Promise<void> {
    if (next.ply < game.ply) return;
    const moved = next.ply !== game.ply || next.status !== game.status;
    // The socket's games are anyone's: they never carry the invite only the creator sees.
    game = next.invite ? next : { ...next, invite: game.invite };
    offset = game.clocks ? game.clocks.server_now_ms - Date.now() : 0;
    if (moved) {
      const plyNow = game.ply;
      const [list, view] = await Promise.all([
        api<MoveList>('GET', `${path}/moves`),
        following ? api<PlyView>('GET', `${path}/view`) : Promise.resolve(shown),
      ]);
      if (game.ply !== plyNow) return;
      moves = list;
      shown = view;
      resetDraft();
      await startDraft();
      return;
    }
    // While the moves of a newer ply are on their way, that answer draws (never a game
    // ahead of its move list).
    if (moves.moves.length === game.ply) drawAll();
  }

  async function refresh(): Promise<void> {
    try {
      await changed(await api<GameView>('GET', path));
    } catch (error) {
      showRefusal(failureText(error));
    }
    drawAll();
  }

  async function showPly(ply: number): Promise<void> {
    try {
      shown = await api<PlyView>('GET', `${path}/view?ply=${ply}`);
      following = ply === game.ply;
      // The ply shown is part of the URL, so a reload or a shared link shows it again.
      const url = new URL(location.href);
      if (following) url.searchParams.delete('ply');
      else url.searchParams.set('ply', String(ply));
      history.replaceState(null, '', url.pathname + url.search);
      if (!following) {
        resetDraft();
      }
      showRefusal('');
      if (following && myTurn()) {
        await startDraft();
        return;
      }
      drawAll();
    } catch (error) {
      showRefusal(failureText(error));
    }
  }

  async function join(): Promise<void> {
    try {
      const body = route.page === 'game' && route.invite ? { invite: route.invite } : {};
      await changed(await api<GameView>('POST', `${path}/join`, body));
      await refresh();
    } catch (error) {
      showRefusal(failureText(error));
    }
  }

  async function resign(): Promise<void> {
    try {
      await changed(await api<GameView>('POST', `${path}/resign`));
    } catch (error) {
      showRefusal(failureText(error));
      drawAll();
    }
  }

  async function rematch(): Promise<void> {
    try {
      const next = await api<GameView>('POST', `${path}/rematch`);
      shell.go(`/games/${next.id}`);
    } catch (error) {
      showRefusal(failureText(error));
    }
  }

  async function analyse(out: HTMLElement): Promise<void> {
    fill(out, h('p', {}, 'Thinking…'));
    try {
      const result = await api<Analysis>('GET', `${path}/analysis?ply=${shown.ply}`);
      fill(out,
        h('p', {}, `After ply ${result.ply}, ${result.to_move} to move (${result.nodes} positions searched):`),
        h('table', {},
          h('thead', {}, h('tr', {}, h('th', {}, 'Move'), h('th', {}, 'Win rate'), h('th', {}, 'Visits'), h('th', {}, 'Line'))),
          h('tbody', {}, ...result.lines.map((line) => h('tr', {},
            h('td', {}, line.move),
            h('td', {}, line.proven ? `${line.proven} (proven)` : percent(line.win_rate)),
            h('td', {}, String(line.visits)),
            h('td', {}, line.pv.join(' ')))))));
    } catch (error) {
      fill(out, h('p', { class: 'error' }, failureText(error)));
    }
  }

  let reviewTimer = 0;
  async function reviewGame(out: HTMLElement): Promise<void> {
    try {
      const { status: code, body } = await apiWithStatus<GameReview>(`${path}/review`);
      if (code === 202 || body.status === 'running') {
        const progress = body.status === 'running' ? `${body.done} of ${body.total} moves` : '';
        fill(out, h('p', {}, `The server is reviewing the game: ${progress}…`));
        reviewTimer = window.setTimeout(() => void reviewGame(out), 2000);
        return;
      }
      if (body.status !== 'done') return;
      judgements.clear();
      for (const m of body.moves) if (m.judgement) judgements.set(m.ply, m.judgement);
      fill(out, h('table', {},
        h('thead', {}, h('tr', {}, h('th', {}, 'Move'), h('th', {}, 'Chances before → after'), h('th', {}, 'Best'), h('th', {}, 'Judgement'))),
        h('tbody', {}, ...body.moves.map((m) => h('tr', { class: m.judgement ?? '' },
          h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => void showPly(m.ply) }, `${m.ply}. ${m.colour} ${m.move}`)),
          h('td', {}, `${percent(m.win_before)} → ${percent(m.win_after)}`),
          h('td', {}, m.best),
          h('td', {}, m.judgement ?? ''))))));
      drawMoves();
    } catch (error) {
      fill(out, h('p', { class: 'error' }, failureText(error)));
    }
  }

  typedForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const move = typed.value.trim();
    if (move !== '') void send(move);
  });

  const onKey = (event: KeyboardEvent): void => {
    const target = event.target as Element | null;
    if (target && (target.closest('input, textarea, select, .board') !== null)) return;
    const ply = reviewPly(event.key, shown.ply, game.ply);
    if (ply === null || ply === shown.ply) return;
    event.preventDefault();
    void showPly(ply);
  };
  document.addEventListener('keydown', onKey);

  const onLive = (message: LiveMessage): void => {
    if (message.type === 'move' && message.ply <= game.ply) return;
    void changed(message.game);
  };
  const onStatus = (state: LiveStatus): void => {
    const words: Record<LiveStatus, string> = {
      connecting: 'Connecting…',
      live: 'Live.',
      reconnecting: 'Connection lost: reconnecting…',
      resynced: 'Reconnected and resynced.',
    };
    liveStatus.textContent = words[state];
    liveStatus.className = `live ${state}`;
  };
  const live = new LiveGame(id, () => game.ply, onLive, onStatus);
  const ticker = window.setInterval(drawClocks, 250);

  main.append(
    h('div', { class: 'game' },
      h('div', { class: 'board-side' }, title, credit, players, status, board.element, prompt, controls, refusal, typedForm, describe),
      h('div', { class: 'side' }, liveStatus, actions, shownLine, notes, h('h2', {}, 'Moves'), moveList, downloads, analysis)),
  );
  offset = game.clocks ? game.clocks.server_now_ms - Date.now() : 0;
  await startDraft();
  if (route.invite && game.status === 'waiting' && mySeat() === null && !shell.me) {
    showRefusal('Log in or sign up to take the seat this link offers.');
  }
  return () => {
    live.close();
    window.clearInterval(ticker);
    window.clearTimeout(reviewTimer);
    document.removeEventListener('keydown', onKey);
  };
}
