// The game master's console of a room: the invite, the start, resolving, the clock, the
// submissions, the seats, taking a round back, the game file and the audit log.

import { api, failureText } from '../api';
import { fill, h } from '../dom';
import { isolated } from '../logic';
import { roundName } from '../swap61';
import { inviteKey, isMaster, type RoomState } from './state';
import { field, type RoomElements } from './views';
import type { Schemas } from '../types';

/** Runs a request of the console; the page reads the room again after it. */
export type MasterRun = (run: () => Promise<unknown>, message: HTMLElement) => Promise<void>;

/** The console, for the game master only. */
export function drawConsole(e: RoomElements, state: RoomState, me: string | null, path: string, master: MasterRun): void {
  const { room } = state;
  const box = e.masterBox;
  box.hidden = !isMaster(room, me);
  if (box.hidden) return;
  const message = h('p', { class: 'error', role: 'alert' });
  const button = (label: string, run: () => Promise<unknown>, kind = ''): HTMLButtonElement =>
    h('button', { type: 'button', class: kind, onclick: () => void master(run, message) }, label);
  box.replaceChildren(h('h2', { id: 'console-h' }, 'Game master'));
  const invite = sessionStorage.getItem(inviteKey(room.id));
  if (room.status === 'lobby') {
    const link = invite ? `${location.origin}/rooms/${room.id}?invite=${invite}` : '';
    const bots = h('input', { type: 'checkbox', name: 'fill', checked: true });
    box.append(
      link ? field('Invite link', h('input', { readonly: true, value: link, class: 'invite-link' })) : h('p', {}, 'The invite was shown when the room was made; make a new one to see it here.'),
      button('New invite', async () => {
        const made = await api<Schemas['InviteView']>('POST', `${path}/invite`);
        sessionStorage.setItem(inviteKey(room.id), made.invite);
      }),
      h('label', { class: 'check' }, bots, ' Fill the empty seats with the bot'),
      button('Start the game', () => api('POST', `${path}/start`, { fill_with_bots: bots.checked }), 'primary'),
    );
  }
  if (room.status === 'playing') {
    const minutes = h('input', { name: 'minutes', type: 'number', min: 1, max: 20160, value: 60 });
    box.append(
      h('div', { class: 'buttons' },
        button('Resolve now', () => api('POST', `${path}/resolve?round=${room.round}`), 'primary'),
        room.paused
          ? button('Resume the clock', () => api('POST', `${path}/resume`))
          : button('Pause the clock', () => api('POST', `${path}/pause`))),
      h('div', { class: 'row extend' }, field('Minutes to add', minutes),
        button('Extend the deadline', () => api('POST', `${path}/deadline`, { seconds: Math.round(Number(minutes.value) * 60) }))),
    );
    const list = h('ul', { class: 'submissions' }, ...(room.submissions ?? []).map((sub) => {
      const seat = room.seats.find((s) => s.seat === sub.seat);
      return h('li', {}, h('strong', {}, `P${sub.seat} ${isolated(seat?.name ?? '')}`),
        ` ${sub.check.tokens.spent} of ${sub.check.tokens.allowance} tokens${sub.final ? ', final' : ''}, receipt ${sub.check.receipt.slice(0, 12)}…`,
        h('pre', {}, sub.submission));
    }));
    box.append(h('h3', {}, `Submissions (${room.submissions?.length ?? 0})`), list);
  }
  if (room.status !== 'lobby') {
    const seat = h('select', { name: 'seat' }, ...room.seats.map((one) => h('option', { value: String(one.seat) }, `P${one.seat} ${isolated(one.name)}${one.bot ? ' (bot)' : ''}`)));
    const account = h('input', { name: 'account', maxlength: 24, autocomplete: 'off' });
    const put = (body: unknown): Promise<unknown> => api('PUT', `${path}/seats/${seat.value}`, body);
    box.append(h('h3', {}, 'Seats'),
      h('div', { class: 'row' }, field('Seat', seat), field('Account', account)),
      h('div', { class: 'buttons' },
        button('Give the seat to the account', () => put({ account: account.value.trim() })),
        button('Let the bot play it', () => put({ bot: true }))));
  }
  if (room.rounds.length > 0) {
    const last = room.rounds[room.rounds.length - 1].round;
    // Taking a round back is asked twice, in the page.
    const sure = h('span', { class: 'buttons', hidden: true }, `Take back ${roundName(last).toLowerCase()}?`,
      button('Yes, undo it', () => api('POST', `${path}/undo`), 'danger'));
    box.append(h('div', { class: 'buttons' },
      h('button', { type: 'button', onclick: () => { sure.hidden = false; } }, 'Undo the last resolution'), sure));
  }
  box.append(message);
  if (room.status !== 'lobby') {
    box.append(h('p', {}, h('a', { href: `${path}/file`, download: `swap61-${room.id}.json` }, 'Download the game file')));
  }
  box.append(
    h('button', {
      type: 'button', onclick: async () => {
        message.textContent = '';
        try {
          const log = await api<Schemas['AuditView']>('GET', `${path}/audit`);
          fill(e.audit, ...log.entries.map((entry) => h('li', {}, `${new Date(entry.at_ms).toISOString().slice(0, 19).replace('T', ' ')} ${entry.actor} ${entry.action} ${entry.detail}`)));
        } catch (error) {
          message.textContent = failureText(error);
        }
      },
    }, 'Show the audit log'),
    e.audit,
  );
}
