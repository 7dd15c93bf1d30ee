// A chat panel (docs/CHAT.md): a game's players' or spectators' chat, a room's table-talk or
// a seat's thread with the game master. Messages are shown as text nodes only (`h` never
// reads markup), so whatever a message says is shown as written. The socket only says that
// a chat changed; the panel then reads it again with the page's credentials. Each message
// shows its time in the viewer's zone; a report is a small form in the message's line (no
// dialog); a chat closed to the caller (a block, a moderator's mute) says why in a sentence.

import { api, failureText } from './api';
import { fill, h } from './dom';
import { REPORT_CATEGORIES, chatStamp, reportBody } from './logic';
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
  const closed = h('p', { class: 'chat-closed', hidden: true });
  const mute = h('button', { type: 'button', class: 'link', hidden: place.me === null }, 'Mute');
  const details = h('details', { class: 'chat', open: true }, h('summary', {}, place.title, ' ', mute), list, form, closed, error);
  let key = '';
  let muted = false;
  const query = place.channel ? `?channel=${encodeURIComponent(place.channel)}` : '';
  // The lines drawn, by message id, with what they showed: a read that changes nothing of
  // a line keeps it, so a report form being filled in survives a new message.
  const lines = new Map<number, { shown: string; element: HTMLElement }>();

  function line(message: ChatMessageView): HTMLElement {
    const stamp = chatStamp(message.at_ms, Date.now());
    const time = h('time', { datetime: new Date(message.at_ms).toISOString(), title: stamp.full }, stamp.short);
    const li = h('li', { class: message.hidden ? 'hidden' : null },
      time, ' ', h('b', {}, message.author), ' ', h('span', { class: 'chat-text' }, messageWords(message)), ' ');
    if (place.me === null || place.me === message.author) return li;
    if (message.reported_by_me) {
      li.append(h('span', { class: 'reported' }, 'Reported'));
      return li;
    }
    const report = h('button', { type: 'button', class: 'link report', 'aria-expanded': 'false' }, 'Report');
    report.addEventListener('click', () => openReport(message, li, report));
    li.append(report);
    return li;
  }

  /** The report form, in the message's line: a category and optional words. */
  function openReport(message: ChatMessageView, li: HTMLElement, report: HTMLButtonElement): void {
    if (li.querySelector('form.report-form')) return;
    const category = h('select', { name: 'category' },
      ...REPORT_CATEGORIES.map(([word, words]) => h('option', { value: word }, words)));
    const words = h('input', { type: 'text', name: 'reason', maxlength: 500, placeholder: 'What happened (optional)' });
    const why = h('p', { class: 'error', role: 'alert' });
    const cancel = h('button', { type: 'button' }, 'Cancel');
    const form = h('form', { class: 'report-form', 'aria-label': `Report the message of ${message.author}` },
      h('label', {}, 'Why ', category), ' ',
      h('label', {}, 'Words for the moderators ', words), ' ',
      h('button', { type: 'submit' }, 'Send report'), ' ', cancel, why);
    const close = () => {
      form.remove();
      report.setAttribute('aria-expanded', 'false');
      report.focus();
    };
    cancel.addEventListener('click', close);
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
      }
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await api('POST', '/api/reports', reportBody(message.id, category.value, words.value));
        form.remove();
        report.replaceWith(h('span', { class: 'reported', tabindex: -1 }, 'Reported'));
        // The line now says it was reported: the next read keeps it so.
        lines.delete(message.id);
        li.querySelector<HTMLElement>('.reported')?.focus();
      } catch (failure) {
        why.textContent = failureText(failure);
      }
    });
    report.setAttribute('aria-expanded', 'true');
    li.append(form);
    category.focus();
  }

  /** Draws the messages, keeping each line that shows the same as before. */
  function draw(messages: ChatMessageView[]): void {
    const elements = messages.map((message) => {
      const shown = JSON.stringify([message.text, message.hidden, message.reported_by_me]);
      const kept = lines.get(message.id);
      if (kept && kept.shown === shown) return kept.element;
      const element = line(message);
      lines.set(message.id, { shown, element });
      return element;
    });
    // Lines no longer read (past the latest 200) are forgotten.
    const read = new Set(messages.map((message) => message.id));
    for (const id of lines.keys()) if (!read.has(id)) lines.delete(id);
    const current = Array.from(list.children);
    // Only new lines at the end: append them, moving none (a focused form keeps focus).
    if (current.length <= elements.length && current.every((child, i) => child === elements[i])) {
      list.append(...elements.slice(current.length));
    } else {
      fill(list, ...elements);
    }
  }

  async function refresh(): Promise<void> {
    try {
      const chat = await api<ChatView>('GET', `${place.path}${query}`);
      key = chat.chat;
      muted = chat.muted;
      draw(chat.messages);
      form.hidden = !chat.writable;
      // Why the caller may not write here, in the server's words (a block, a mute).
      closed.hidden = chat.writable || place.me === null || !chat.refusal;
      closed.textContent = chat.refusal ?? '';
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
      // A mute or a block that came meanwhile: the read says why and closes the box.
      await refresh();
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
