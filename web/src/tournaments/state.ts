// The tournament pages' state, DOM-free: what the caller may do, the crosstable of a round
// robin division, a Swiss's rounds, and a rating history as the points of a chart. Every fact
// is the server's (`GET /api/tournaments/{id}`): nothing here pairs or ranks.

import type { PairingView, TournamentView } from '../types';

/** The buttons a tournament page offers the caller. */
export interface Actions {
  join: boolean;
  leave: boolean;
  start: boolean;
}

/** What the caller (`me`, null when logged out) may do with the tournament now. */
export function actions(t: TournamentView, me: string | null): Actions {
  if (me === null) return { join: false, leave: false, start: false };
  const entry = t.players.find((p) => p.name === me);
  const open = t.status === 'open';
  return {
    join: open && entry === undefined && t.player_count < t.max_players,
    leave: entry !== undefined && !entry.withdrawn && t.status !== 'finished',
    start: open && t.creator === me && t.player_count >= t.min_players,
  };
}

/** The status in words: entries, the round being played, or the end. */
export function statusWords(t: TournamentView): string {
  const format = t.format === 'swiss' ? 'Swiss' : 'Round robin (divisions of 10 at most, each pair twice)';
  if (t.status === 'open') {
    return `${format}. Open for entries: ${t.player_count} of ${t.min_players} to ${t.max_players} players. Starts ${t.starts_at} with at least ${t.min_players}.`;
  }
  if (t.status === 'running') return `${format}. Round ${t.round} of ${t.total_rounds} is being played.`;
  return `${format}. Finished after ${t.total_rounds} rounds.`;
}

/** One cell of a crosstable: the row player's results against the column player, in order. */
export type Cell = { kind: 'self' } | { kind: 'games'; scores: (string | null)[] };

/** A division's crosstable: its players (standings order) and a row of cells each. */
export interface Crosstable {
  division: number;
  players: string[];
  rows: Cell[][];
}

/** What a player scored in a game: 1, ½, 0, or null while it is not decided. */
function scoreOf(game: PairingView, player: string): string | null {
  if (game.result === null) return null;
  if (game.result === 'draw') return '½';
  const won = (game.result === 'first') === (game.first === player);
  return won ? '1' : '0';
}

/** The crosstables of a round robin, one per division, players in standings order. */
export function crosstables(t: TournamentView): Crosstable[] {
  if (t.format !== 'round_robin') return [];
  const divisions = [...new Set(t.players.map((p) => p.division).filter((d): d is number => d !== null))].sort((a, b) => a - b);
  const games = t.rounds.flatMap((r) => r.games);
  return divisions.map((division) => {
    const ranked = t.standings.filter((s) => s.division === division).map((s) => s.name);
    const players = ranked.length > 0 ? ranked : t.players.filter((p) => p.division === division).map((p) => p.name);
    const rows = players.map((row): Cell[] => players.map((column): Cell => {
      if (row === column) return { kind: 'self' };
      const between = games.filter((g) => (g.first === row && g.second === column) || (g.first === column && g.second === row));
      return { kind: 'games', scores: between.map((g) => scoreOf(g, row)) };
    }));
    return { division, players, rows };
  });
}

/** A pairing in words: "ann – bob 1–0", or "ann – bob" while it is played. */
export function pairingWords(game: PairingView): string {
  const score = game.result === null ? '' : game.result === 'draw' ? ' ½–½' : game.result === 'first' ? ' 1–0' : ' 0–1';
  return `${game.first} – ${game.second}${score}`;
}

/** A rating history as chart points: x from 0 to `width` by time, y from `height` (lowest) to 0 (highest). */
export function chartPoints(points: { at_ms: number; rating: number }[], width: number, height: number): [number, number][] {
  if (points.length === 0) return [];
  const times = points.map((p) => p.at_ms);
  const ratings = points.map((p) => p.rating);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [r0, r1] = [Math.min(...ratings), Math.max(...ratings)];
  const x = (t: number): number => (t1 === t0 ? width / 2 : ((t - t0) / (t1 - t0)) * width);
  const y = (r: number): number => (r1 === r0 ? height / 2 : height - ((r - r0) / (r1 - r0)) * height);
  return points.map((p) => [Math.round(x(p.at_ms) * 10) / 10, Math.round(y(p.rating) * 10) / 10]);
}
