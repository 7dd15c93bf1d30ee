// Unit tests of the chat panel's logic: a message's time, and a report's body.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { chatStamp, reportBody, REPORT_CATEGORIES } from '../src/logic';

const utc = { locale: 'en-GB', timeZone: 'UTC' };
const now = Date.UTC(2026, 11, 7, 18, 30);

test("a message of today shows its time, an older one its date, the title the full time", () => {
  const today = chatStamp(Date.UTC(2026, 11, 7, 9, 5), now, utc);
  assert.equal(today.short, '09:05');
  // The punctuation of a full date differs between ICU versions: the parts are what count.
  assert.match(today.full, /^Monday,? 7 December 2026 at 09:05$/);
  assert.equal(chatStamp(Date.UTC(2026, 11, 6, 23, 59), now, utc).short, '6 Dec');
  assert.equal(chatStamp(Date.UTC(2025, 11, 31, 12, 0), now, utc).short, '31 Dec 2025');
});

test("the day is the viewer's: late evening in UTC is tomorrow in Tokyo", () => {
  const late = Date.UTC(2026, 11, 7, 16, 0);
  const tokyo = { locale: 'en-GB', timeZone: 'Asia/Tokyo' };
  assert.equal(chatStamp(late, Date.UTC(2026, 11, 7, 16, 30), tokyo).short, '01:00');
  assert.equal(chatStamp(Date.UTC(2026, 11, 7, 14, 0), Date.UTC(2026, 11, 7, 16, 30), tokyo).short, '7 Dec');
});

test('a report sends its category, and its words only when there are some', () => {
  assert.deepEqual(reportBody(7, 'spam', '   '), { message: 7, category: 'spam' });
  assert.deepEqual(reportBody(7, 'insult', ' rude '), { message: 7, category: 'insult', reason: 'rude' });
  assert.deepEqual(REPORT_CATEGORIES.map(([word]) => word), ['insult', 'spam', 'cheating', 'other']);
});
