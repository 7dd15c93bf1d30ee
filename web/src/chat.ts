// A chat panel (docs/CHAT.md): a game's players' or spectators' chat, a room's table-talk or
// a seat's thread with the game master. Messages are shown as text nodes only (`h` never
// reads markup), so whatever a message says is shown as written. The socket only says that
// a chat changed; the panel then reads it again with the page's credentials.

import { api, failureText } from './api';
import { fill, h } from './dom';
import type { ChatMessageView, ChatView } from './types';

/** A chat panel on a page. */
export interface ChatPanel {
  /** The panel's element. */
  element: HTMLElement;
  /** Reads the chat again (its socket said something was written). */
  refresh: () => Promise<void>;
}

/** Where a panel reads and writes. */
export interface ChatPlace {
  /** Its heading. */
  title: string;
  /** The chat's path (`GET` reads, `POST` writes). */
  path: string;
  /** A game chat's channel, sent with each message and the read. */
  channel?: string;
  /** The signed-in account, if any (reports and mutes need one). */
  me: string | null;
}

/** The words of a message, or that a moderator hid it. */
export function messageWords(message: ChatMessageView): string {
  return message.hidden && message.text === null ? '(hidden by a moderator)' : (message.text ?? '');
}

/** A chat panel for `place`, read once now. */
export function chatPanel(place: ChatPlace): ChatPanel {
  const list = h('ol', { class: 'chat-messages', 'aria-live': 'polite' });
  const error = h('p', { class: 'error', role: 'alert' });
  const text = h('textarea', { name: 'chat', maxlength: 500, rows: 2, 'aria-label': `${place.title}: your message` });
  const form = h('form', { class: 'chat-form', hidden: true }, text, h('button', { type: 'submit' }, 'Post'));
  const mute = h('button', { type: 'button', class: 'link', hidden: place.me === null }, 'Mute');
  const details = h('details', { class: 'chat', open: true }, h('summary', {}, place.title, ' ', mute), list, form, error);
  let key = '';
  let muted = false;
  const query = place.channel ? `?channel=${encodeURIComponent(place.channel)}` : '';

  function line(message: ChatMessageView): HTMLElement {
    const report = h('button', { type: 'button', class: 'link report', hidden: place.me === null || place.me === message.author }, 'Report');
    report.addEventListener('click', () => void reportMessage(message, report));
    return h('li', { class: message.hidden ? 'hidden' : null },
      h('b', {}, message.author), ' ', h('span', { class: 'chat-text' }, messageWords(message)), ' ', report);
  }

  async function reportMessage(message: ChatMessageView, button: HTMLElement): Promise<void> {
    const reason = window.prompt('Why report this message to the moderators?');
    if (!reason) return;
    try {
      await api('POST', '/api/reports', { message: message.id, reason });
      fill(button, 'Reported');
    } catch (failure) {
      error.textContent = failureText(failure);
    }
  }

  async function refresh(): Promise<void> {
    try {
      const chat = await api<ChatView>('GET', `${place.path}${query}`);
      key = chat.chat;
      muted = chat.muted;
      fill(list, ...chat.messages.map(line));
      form.hidden = !chat.writable;
      fill(mute, muted ? 'Unmute' : 'Mute');
      // A muted chat is folded away.
      details.open = !muted;
    } catch (failure) {
      error.textContent = failureText(failure);
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const body = place.channel ? { channel: place.channel, text: text.value } : { text: text.value };
    try {
      await api('POST', place.path, body);
      text.value = '';
      await refresh();
    } catch (failure) {
      error.textContent = failureText(failure);
    }
  });
  mute.addEventListener('click', async (event) => {
    event.preventDefault();
    if (!key) return;
    try {
      await api(muted ? 'DELETE' : 'PUT', `/api/me/muted-chats/${encodeURIComponent(key)}`);
      await refresh();
    } catch (failure) {
      error.textContent = failureText(failure);
    }
  });
  void refresh();
  return { element: details, refresh };
}
