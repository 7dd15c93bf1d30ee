// The game page: the board, the move builder, live updates, clocks, the move list with
// review by keys, downloads, and the analysis of finished games. Every word about a move
// comes from the server (`description`, `prompt`, `reason`, `ending`).

import { api, apiWithStatus, failureText } from './api';
import type { Cleanup, Shell } from './app';
import { Board } from './board';
import { fill, h, s } from './dom';
import { LiveGame, type LiveStatus } from './live';
import {
  clickSelection, clocksNow, describeClock, edgesToJoin, endingWords, evaluationSeries, formatClock, judgementWords, loadDraft, pairMoves, percent,
  positionSummary, reviewPly, reviewSummary, saveDraft, seatOf, seatToMove, type Route,
} from './logic';
import { gameTitle } from './catalogue';
import { confirmStep } from './pages';
import type { Analysis, Draft, GameReview, GameView, LiveMessage, MoveList, PlyView, ReviewedMove } from './types';

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
  /** The rematch offered after this game, once read; and whether this page declined it. */
  let offer: GameView | null = null;
  let declined = false;
  let reading: string | null = null;

  const title = h('h1', {});
  /** The game and its author, as the rules engine names them. */
  const credit = h('p', { class: 'credit' });
  const players = h('div', { class: 'players' });
  const status = h('p', { class: 'status', 'aria-live': 'polite' });
  const liveStatus = h('p', { class: 'live', role: 'status' });
  const prompt = h('p', { class: 'prompt', 'aria-live': 'polite' });
  const refusal = h('p', { class: 'refusal', role: 'alert' });
  const legend = h('div', { class: 'legend-box' });
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
  /** Clicks are answered one after the other, in order: none is dropped while the builder answers. */
  let clicks: Promise<void> = Promise.resolve();
  const board = new Board((cell) => {
    clicks = clicks.then(() => click(cell)).catch((error: unknown) => showRefusal(failureText(error)));
  });

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
    keepDraft();
  }

  /** The move being built outlives a reload of this ply (and only of this ply). */
  function keepDraft(): void {
    saveDraft(sessionStorage, id, game.ply, { cells: selection, split });
  }

  function drawBoard(): void {
    const t0 = performance.now();
    const highlights = {
      next: interactive() && draft && !pending ? draft.next : [],
      chosen: interactive() ? selection : [],
      interactive: interactive(),
    };
    board.draw(shown.board, highlights);
    board.element.setAttribute('data-draw-ms', (performance.now() - t0).toFixed(2));
    fill(credit, shown.board.title, ' · ', h('a', { href: `/rules/${game.game}` }, 'Rules'), edgesToJoin(shown.board) && ` · ${edgesToJoin(shown.board)}`);
    fill(legend, board.legend(shown.board, highlights, draft?.prompt ?? ''));
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
    else words = endingWords(game, shell.me) ?? moves.ending ?? shown.ending ?? 'The game is over.';
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
    }
    const offered = draft?.actions ?? [];
    // Scware's balancing move: after it the next cell starts a new group.
    if (split === null && offered.includes('end_growth')) {
      controls.append(h('button', { type: 'button', onclick: () => void endGrowth() }, '+ new group'));
    }
    // A pass the rules allow among other moves (a forced one the server plays itself).
    if (offered.includes('pass')) {
      controls.append(h('button', { type: 'button', onclick: () => void submit('pass') }, 'Pass'));
    }
    if (selection.length > 0) {
      controls.append(h('button', { type: 'button', onclick: () => { resetDraft(); void startDraft(); } }, 'Clear'));
    }
  }

  function drawMoves(): void {
    fill(moveList, ...pairMoves(moves.moves).map((row) => h('li', {},
      h('span', { class: 'num' }, `${row.number}.`),
      ...row.plies.map((m) => {
        const mark = judgements.get(m.ply);
        return h('button', {
          type: 'button', 'data-ply': m.ply, 'aria-current': shown.ply === m.ply ? 'step' : null,
          onclick: () => void showPly(m.ply),
        }, h('span', { class: 'mv' }, `${m.move}${mark ? ` ${JUDGEMENT_MARK[mark] ?? ''}` : ''}`),
        h('span', { class: 'desc' }, m.description));
      }))));
    // The list scrolls itself to the move shown; the page never moves (a phone opens on the
    // board). The list is positioned, so a row's offsetTop is within it.
    const current = moveList.querySelector<HTMLElement>('[aria-current]') ?? moveList.lastElementChild;
    if (current instanceof HTMLElement) {
      const top = current.offsetTop;
      if (top < moveList.scrollTop || top + current.offsetHeight > moveList.scrollTop + moveList.clientHeight) {
        moveList.scrollTop = top - moveList.clientHeight / 2;
      }
    }
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
    if (game.status === 'finished') drawRematch(seat);
  }

  /**
   * The rematch: offered by a button, and once offered, said in words to the other player
   * ("alice offers a rematch") with Accept and Decline.
   */
  function drawRematch(seat: 0 | 1 | null): void {
    const offerer = offer?.status === 'waiting' ? offer.players.find((p) => p.seated)?.name ?? null : null;
    // Asking again is how the other player takes a rematch offered (and how its maker gets
    // back to it): the server answers the same game.
    const take = (words: string): HTMLElement =>
      h('button', { type: 'button', class: 'primary', onclick: () => void rematch() }, words);
    if (offerer && seat !== null && offerer.toLowerCase() !== shell.me?.toLowerCase()) {
      if (declined) return;
      actions.append(h('div', { class: 'offer', role: 'status' },
        h('span', {}, `${offerer} offers a rematch`), ' ', take('Accept'),
        h('button', { type: 'button', onclick: () => { declined = true; drawActions(); } }, 'Decline')));
    } else if (offerer && seat !== null) {
      actions.append(h('div', { class: 'offer' }, h('span', {}, 'You offered a rematch.'), ' ', take('Go to the rematch')));
    } else if (offerer && offer) {
      actions.append(h('p', { class: 'offer' }, `${offerer} offers a rematch: `, h('a', { href: `/games/${offer.id}` }, 'watch it')));
    } else if (seat !== null) {
      actions.append(take(game.rematch ? 'Go to the rematch' : 'Rematch'));
    }
  }

  /** Reads the rematch offered after this game, if one is and it is not read (or being read) yet. */
  async function readOffer(): Promise<void> {
    const wanted = game.rematch;
    if (!wanted || offer?.id === wanted || reading === wanted) return;
    reading = wanted;
    try {
      offer = await api<GameView>('GET', `/api/games/${encodeURIComponent(wanted)}`);
      drawActions();
    } catch {
      // Not readable now: the button still takes the rematch.
    } finally {
      reading = null;
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
    void readOffer();
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
      await restoreDraft();
    } catch (error) {
      showRefusal(failureText(error));
    }
    drawDraft();
  }

  /** Takes up the move built before a reload, if the builder still accepts it. */
  async function restoreDraft(): Promise<void> {
    const saved = loadDraft(sessionStorage, id, game.ply);
    if (!saved) return;
    const body = saved.split === null ? { cells: saved.cells } : { cells: saved.cells, split: saved.split };
    const answer = await api<Draft>('POST', `${path}/draft`, body);
    if (answer.verdict === 'refused') {
      resetDraft();
      return;
    }
    selection = saved.cells;
    split = saved.split;
    draft = answer;
    // A whole move was waiting for its confirmation.
    if (answer.verdict === 'complete' && !answer.more && answer.move) pending = answer.move;
  }

  async function click(cell: string): Promise<void> {
    // A move being sent: its answer redraws the board and the turn.
    if (busy) return;
    if (!interactive()) {
      if (game.status === 'playing' && mySeat() !== null && !following) {
        showRefusal('You are looking at an earlier position: press End to return to the game.');
      } else if (game.status === 'playing' && mySeat() !== null) {
        showRefusal('It is not your turn.');
      }
      return;
    }
    if (pending) {
      showRefusal(`Confirm or cancel ${pending} first.`);
      return;
    }
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
    keepDraft();
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
        keepDraft();
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
      if (result.lines.length === 0) {
        fill(out, h('p', {}, `After ply ${result.ply} the game is over: there is no move to analyse.`));
        return;
      }
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
      fill(out, evaluationGraph(body.moves), summaryTable(body.moves), h('table', { class: 'review' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Move'), h('th', {}, 'Chances before → after'), h('th', {}, 'Judgement'), h('th', {}, 'Best line'))),
        h('tbody', {}, ...body.moves.map((m) => h('tr', { class: m.judgement ?? '' },
          h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => void showPly(m.ply) }, `${m.ply}. ${m.colour} ${m.move}`)),
          h('td', {}, `${percent(m.win_before)} → ${percent(m.win_after)}`),
          h('td', {}, judgementWords(m)),
          // The line the AI preferred, shown where the move lost something.
          h('td', {}, m.judgement ? (m.best_line && m.best_line.length > 0 ? m.best_line.join(' ') : m.best ?? '') : ''))))));
      drawMoves();
    } catch (error) {
      fill(out, h('p', { class: 'error' }, failureText(error)));
    }
  }

  /**
   * The first player's win chance after every ply as a line over the game, 50% across the
   * middle, the judged moves as dots; a click on one shows that ply.
   */
  function evaluationGraph(reviewed: ReviewedMove[]): Element {
    const first = game.players[0]?.colour ?? 'R';
    const series = evaluationSeries(reviewed, first);
    // A margin of a dot's size, so that a dot at 0% or 100% is drawn whole.
    const [width, height, pad] = [400, 120, 6];
    const x = (ply: number): number => pad + (series.length > 1 ? (ply * (width - 2 * pad)) / (series.length - 1) : 0);
    const y = (chance: number): number => pad + (height - 2 * pad) * (1 - chance);
    const svg = s('svg', { class: 'eval-graph', viewBox: `0 0 ${width} ${height}`, role: 'img',
      'aria-label': `${first}'s win chance after each ply, from ${percent(series[0] ?? 0.5)} to ${percent(series[series.length - 1] ?? 0.5)}` });
    svg.append(
      s('rect', { x: 0, y: 0, width, height, class: 'eval-bg' }),
      s('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: 'eval-mid' }),
      s('polyline', { points: series.map((c, k) => `${x(k).toFixed(1)},${y(c).toFixed(1)}`).join(' '), class: 'eval-line' }),
    );
    for (const m of reviewed) {
      if (!m.judgement) continue;
      const dot = s('circle', { cx: x(m.ply).toFixed(1), cy: y(series[m.ply]).toFixed(1), r: 5, class: `eval-dot ${m.judgement}`, 'data-ply': m.ply });
      const tip = s('title');
      tip.textContent = `${m.ply}. ${m.colour} ${m.move}: ${m.judgement}`;
      dot.append(tip);
      dot.addEventListener('click', () => void showPly(m.ply));
      svg.append(dot);
    }
    return h('figure', { class: 'eval' }, svg, h('figcaption', {}, `${first}'s win chance after each ply, as the AI judged it (top: ${first} wins).`));
  }

  /** Each player's inaccuracies, mistakes and blunders. */
  function summaryTable(reviewed: ReviewedMove[]): HTMLElement {
    const nameOf = (colour: string): string => {
      const seat = game.players.find((p) => p.colour === colour);
      return seat?.name ? `${seat.name} (${colour})` : colour;
    };
    return h('table', { class: 'review-summary' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Inaccuracies'), h('th', {}, 'Mistakes'), h('th', {}, 'Blunders'))),
      h('tbody', {}, ...reviewSummary(reviewed).map((row) => h('tr', {},
        h('td', {}, nameOf(row.colour)), h('td', {}, String(row.inaccuracies)), h('td', {}, String(row.mistakes)), h('td', {}, String(row.blunders))))));
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

  // Wide screens: the board on the left, what a turn needs (clocks, prompt, buttons,
  // refusal, legend) beside it and the record under that; phones: the board first.
  main.append(
    h('div', { class: 'game' },
      h('div', { class: 'game-head' }, title, credit),
      h('div', { class: 'board-side' }, board.element),
      h('div', { class: 'panel' }, players, status, prompt, controls, refusal, legend, actions, liveStatus, describe),
      h('div', { class: 'side' }, typedForm, shownLine, notes, h('h2', {}, 'Moves'), moveList, downloads, analysis)),
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
