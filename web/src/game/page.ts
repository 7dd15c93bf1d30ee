// The game page: the board, the move builder, live updates, clocks, the move list with
// review by keys, downloads, and the analysis of finished games. The page holds its state
// (`state.ts`), draws it with the views (`views.ts`, `analysis.ts`), and changes it on the
// server's answers and the socket's messages (`handlers`, one per message type). Every word
// about a move comes from the server (`description`, `prompt`, `reason`, `ending`).

import { api, apiWithStatus, failureText } from '../api';
import type { Cleanup, Shell } from '../app';
import { chatPanel, type ChatPanel } from '../chat';
import { fill, h } from '../dom';
import { LiveGame, type Handlers } from '../live';
import { loadDraft, reviewPly, saveDraft, type Route } from '../logic';
import { confirmStep } from '../pages';
import type { Analysis, Draft, GameReview, GameMessage, GameView, MoveList, PlyView } from '../types';
import { analysisView, reviewView } from './analysis';
import { conditionalPanel } from './conditional';
import { clickStep, clockOffset, gameState, hintsOffered, isNews, mySeat, myTurn, noBuilding, takeAnswer, takeGame, type HintView } from './state';
import {
  drawActions, drawAnalysis, drawBoard, drawClocks, drawHeader, drawLive, drawMoves, drawPrompt, drawShown, gameElements, gameLayout,
  type GameActions,
} from './views';

/** The game page. */
export async function gamePage(main: HTMLElement, shell: Shell, route: Route): Promise<Cleanup | void> {
  if (route.page !== 'game') return;
  const id = route.id;
  const invited = route.invite !== null;
  const path = `/api/games/${encodeURIComponent(id)}`;
  const game = await api<GameView>('GET', path);
  const moves = await api<MoveList>('GET', `${path}/moves`);
  const asked = route.ply !== null && route.ply < game.ply ? route.ply : null;
  const shown = await api<PlyView>('GET', asked === null ? `${path}/view` : `${path}/view?ply=${asked}`);
  const state = gameState(game, moves, shown, asked === null, Date.now());
  /** The rematch being read, so that it is read once. */
  let reading: string | null = null;
  let reviewTimer = 0;

  /** The caller's conditional moves, offered while the opponent is to move. */
  const plan = conditionalPanel(path);

  /** The chat under the board: its players' for the two players, the spectators' for anyone
   * else (docs/CHAT.md); placed again when the caller takes a seat. */
  const chatBox = h('div', { class: 'chat-box' });
  let chatChannel = '';
  let chat: ChatPanel | null = null;
  function placeChat(): void {
    const wanted = mySeat(state) === null ? 'spectators' : 'players';
    if (wanted === chatChannel) return;
    chatChannel = wanted;
    chat = chatPanel({
      title: wanted === 'players' ? 'Chat with your opponent' : "Spectators' chat",
      path: `${path}/chat`,
      channel: wanted,
      me: shell.me,
    });
    chatBox.replaceChildren(chat.element);
  }

  /** Clicks are answered one after the other, in order: none is dropped while the builder answers. */
  let clicks: Promise<void> = Promise.resolve();
  const e = gameElements((cell) => {
    clicks = clicks.then(() => click(cell)).catch((error: unknown) => showRefusal(failureText(error)));
  });

  const act: GameActions = {
    submit: (move) => void submit(move),
    send: (move) => void send(move),
    restart: () => {
      resetDraft();
      void startDraft();
    },
    endGrowth: () => void endGrowth(),
    showPly: (ply) => void showPly(ply),
    join: () => void join(),
    declineChallenge: (reason) => void answerChallenge('decline', reason.trim() ? { reason: reason.trim() } : {}),
    cancelChallenge: () => void answerChallenge('cancel'),
    resign: () => void resign(),
    rematch: () => void rematch(),
    decline: () => {
      state.declined = true;
      drawActions(e, state, shell.me, invited, act);
    },
    redrawActions: () => drawActions(e, state, shell.me, invited, act),
    analyse: (out) => void analyse(out),
    review: (out) => void reviewGame(out),
  };

  function showRefusal(text: string): void {
    e.refusal.textContent = text;
  }

  function resetDraft(): void {
    state.building = noBuilding();
    keepDraft();
  }

  /** The move being built outlives a reload of this ply (and only of this ply). */
  function keepDraft(): void {
    saveDraft(sessionStorage, id, state.game.ply, { cells: state.building.cells, split: state.building.split });
  }

  function drawAll(): void {
    drawHeader(e, state);
    drawDraft();
    drawShown(e, state, path);
    drawMoves(e, state, act);
    drawActions(e, state, shell.me, invited, act);
    drawAnalysis(e, state, act);
    e.typedForm.hidden = !myTurn(state);
    placeChat();
    void readOffer();
  }

  /** Only what the move being built changes: a click must not rebuild the move list. */
  function drawDraft(): void {
    drawBoard(e, state);
    drawPrompt(e, state, act);
  }

  /** Reads the rematch offered after this game, if one is and it is not read (or being read) yet. */
  async function readOffer(): Promise<void> {
    const wanted = state.game.rematch;
    if (!wanted || state.offer?.id === wanted || reading === wanted) return;
    reading = wanted;
    try {
      state.offer = await api<GameView>('GET', `/api/games/${encodeURIComponent(wanted)}`);
      drawActions(e, state, shell.me, invited, act);
    } catch {
      // Not readable now: the button still takes the rematch.
    } finally {
      reading = null;
    }
  }

  /** The hints' switch and words, for a player of a game against the AI (opt-in, kept in
   * the browser). */
  const hintBox = h('input', { type: 'checkbox', name: 'hints', checked: localStorage.getItem('swapboard.hints') === 'on' });
  const hintWords = h('ul', { class: 'hint', 'aria-live': 'polite' });
  const hintPanel = h('section', { class: 'hints', 'aria-label': 'hints' },
    h('label', { class: 'check' }, hintBox, ' Hints: how far each side is from its edges, and the AI\'s threats'), hintWords);
  hintBox.addEventListener('change', () => {
    localStorage.setItem('swapboard.hints', hintBox.checked ? 'on' : 'off');
    void readHint();
  });

  /** Reads the hint for the player's turn, when hints are on; clears it otherwise. */
  async function readHint(): Promise<void> {
    hintPanel.hidden = !hintsOffered(state);
    state.hint = null;
    fill(hintWords);
    if (hintPanel.hidden || !hintBox.checked || !myTurn(state) || !state.following) {
      drawBoard(e, state);
      return;
    }
    try {
      state.hint = await api<HintView>('GET', `${path}/hint`);
      fill(hintWords, ...state.hint.words.map((w) => h('li', {}, w)));
    } catch (error) {
      fill(hintWords, h('li', { class: 'error' }, failureText(error)));
    }
    drawBoard(e, state);
  }

  async function startDraft(): Promise<void> {
    drawAll();
    void readHint();
    if (!myTurn(state)) return;
    try {
      state.building = { ...state.building, draft: await api<Draft>('POST', `${path}/draft`, { cells: [] }) };
      await restoreDraft();
    } catch (error) {
      showRefusal(failureText(error));
    }
    drawDraft();
  }

  /** Takes up the move built before a reload, if the builder still accepts it. */
  async function restoreDraft(): Promise<void> {
    const saved = loadDraft(sessionStorage, id, state.game.ply);
    if (!saved) return;
    const body = saved.split === null ? { cells: saved.cells } : { cells: saved.cells, split: saved.split };
    const answer = await api<Draft>('POST', `${path}/draft`, body);
    const taken = takeAnswer(state.building, saved.cells, saved.split, answer);
    if (taken.step.kind === 'refused') {
      resetDraft();
      return;
    }
    // A whole move was waiting for its confirmation.
    state.building = taken.step.kind === 'submit' ? { ...taken.building, pending: taken.step.move } : taken.building;
  }

  async function click(cell: string): Promise<void> {
    const step = clickStep(state, cell);
    switch (step.kind) {
      case 'ignore':
        return;
      case 'refuse':
        showRefusal(step.reason);
        return;
      case 'restart':
        resetDraft();
        showRefusal('');
        await startDraft();
        return;
      case 'ask':
        break;
    }
    state.busy = true;
    let answer: Draft;
    try {
      answer = await api<Draft>('POST', `${path}/draft`, step.split === null ? { cells: step.cells } : { cells: step.cells, split: step.split });
    } catch (error) {
      state.busy = false;
      showRefusal(failureText(error));
      drawDraft();
      return;
    } finally {
      state.busy = false;
    }
    const taken = takeAnswer(state.building, step.cells, step.split, answer);
    if (taken.step.kind === 'refused') {
      showRefusal(taken.step.reason);
      drawDraft();
      return;
    }
    showRefusal('');
    state.building = taken.building;
    keepDraft();
    if (taken.step.kind === 'submit') {
      await submit(taken.step.move);
      return;
    }
    drawDraft();
  }

  async function endGrowth(): Promise<void> {
    const split = state.building.cells.length;
    try {
      const answer = await api<Draft>('POST', `${path}/draft`, { cells: state.building.cells, split });
      if (answer.verdict === 'refused') {
        showRefusal(answer.reason ?? '');
      } else {
        showRefusal('');
        state.building = { ...state.building, split, draft: answer };
        keepDraft();
      }
    } catch (error) {
      showRefusal(failureText(error));
    }
    drawDraft();
  }

  async function submit(move: string): Promise<void> {
    if (confirmStep()) {
      state.building = { ...state.building, pending: move };
      drawDraft();
      return;
    }
    await send(move);
  }

  async function send(move: string): Promise<void> {
    state.busy = true;
    try {
      const after = await api<GameView>('POST', `${path}/moves`, { move, ply: state.game.ply });
      showRefusal('');
      resetDraft();
      e.typed.value = '';
      state.busy = false;
      await changed(after, false);
    } catch (error) {
      state.busy = false;
      resetDraft();
      showRefusal(failureText(error));
      await refresh();
    }
  }

  /**
   * Takes a newer game: the board, the list and the move builder follow it. `everyone`: a
   * socket's game, which names nobody's own seat; a game starting (a join) is then read again,
   * so that a seat taken in another tab is known here.
   */
  async function changed(next: GameView, everyone: boolean): Promise<void> {
    const before = state.game;
    if (next.ply < before.ply) return;
    const moved = next.ply !== before.ply || next.status !== before.status;
    state.game = takeGame(before, next, everyone);
    state.offset = clockOffset(state.game, Date.now());
    if (moved) {
      const plyNow = state.game.ply;
      const [list, view, mine] = await Promise.all([
        api<MoveList>('GET', `${path}/moves`),
        state.following ? api<PlyView>('GET', `${path}/view`) : Promise.resolve(state.shown),
        everyone && before.status === 'waiting' ? api<GameView>('GET', path) : Promise.resolve(null),
      ]);
      if (state.game.ply !== plyNow) return;
      if (mine && mine.ply === plyNow) state.game = takeGame(state.game, mine, false);
      state.moves = list;
      state.shown = view;
      resetDraft();
      await startDraft();
      await plan.update(state.game).catch((error: unknown) => showRefusal(failureText(error)));
      return;
    }
    // While the moves of a newer ply are on their way, that answer draws (never a game
    // ahead of its move list).
    if (state.moves.moves.length === state.game.ply) drawAll();
  }

  async function refresh(): Promise<void> {
    try {
      await changed(await api<GameView>('GET', path), false);
    } catch (error) {
      showRefusal(failureText(error));
    }
    drawAll();
  }

  async function showPly(ply: number): Promise<void> {
    try {
      state.shown = await api<PlyView>('GET', `${path}/view?ply=${ply}`);
      state.following = ply === state.game.ply;
      // The ply shown is part of the URL, so a reload or a shared link shows it again.
      const url = new URL(location.href);
      if (state.following) url.searchParams.delete('ply');
      else url.searchParams.set('ply', String(ply));
      history.replaceState(null, '', url.pathname + url.search);
      if (!state.following) resetDraft();
      showRefusal('');
      if (state.following && myTurn(state)) {
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
      await changed(await api<GameView>('POST', `${path}/join`, body), false);
      await refresh();
    } catch (error) {
      showRefusal(failureText(error));
    }
  }

  async function answerChallenge(how: 'decline' | 'cancel', body?: { reason?: string }): Promise<void> {
    try {
      await changed(await api<GameView>('POST', `${path}/${how}`, body), false);
    } catch (error) {
      showRefusal(failureText(error));
      drawAll();
    }
  }

  async function resign(): Promise<void> {
    try {
      await changed(await api<GameView>('POST', `${path}/resign`), false);
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
      fill(out, ...analysisView(await api<Analysis>('GET', `${path}/analysis?ply=${state.shown.ply}`)));
    } catch (error) {
      fill(out, h('p', { class: 'error' }, failureText(error)));
    }
  }

  /** Brings the board into view when a click below it (the review's moves, on a phone)
   * showed a ply the reader could not otherwise see. */
  function revealBoard(): void {
    const box = e.board.element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) e.board.element.scrollIntoView({ block: 'nearest' });
  }

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
      state.judgements.clear();
      for (const m of body.moves) if (m.judgement) state.judgements.set(m.ply, m.judgement);
      fill(out, ...reviewView(state.game, body.moves, (ply) => void showPly(ply).then(revealBoard)));
      drawMoves(e, state, act);
    } catch (error) {
      fill(out, h('p', { class: 'error' }, failureText(error)));
    }
  }

  e.typedForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const move = e.typed.value.trim();
    if (move !== '') void send(move);
  });

  const onKey = (event: KeyboardEvent): void => {
    const target = event.target as Element | null;
    if (target && (target.closest('input, textarea, select, .board') !== null)) return;
    const ply = reviewPly(event.key, state.shown.ply, state.game.ply);
    if (ply === null || ply === state.shown.ply) return;
    event.preventDefault();
    void showPly(ply);
  };
  document.addEventListener('keydown', onKey);

  /** What each message of the game's socket does. */
  const handlers: Handlers<GameMessage> = {
    state: (message) => void changed(message.game, true),
    move: (message) => {
      if (isNews(state.game, message)) void changed(message.game, true);
    },
    chat: (message) => {
      if (message.channel === chatChannel) void chat?.refresh();
    },
  };
  const live = new LiveGame(id, () => state.game.ply, handlers, (status) => drawLive(e, status));
  const ticker = window.setInterval(() => drawClocks(state), 250);

  placeChat();
  main.append(gameLayout(e), hintPanel, plan.element, chatBox);
  await startDraft();
  await plan.update(state.game);
  if (route.invite && state.game.status === 'waiting' && mySeat(state) === null && !shell.me) {
    showRefusal('Log in or sign up to take the seat this link offers.');
  }
  return () => {
    live.close();
    window.clearInterval(ticker);
    window.clearTimeout(reviewTimer);
    document.removeEventListener('keydown', onKey);
  };
}
