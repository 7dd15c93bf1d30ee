// Unit tests of what the service worker shows for a push, and of reading the server's key.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { needsHomeScreen } from '../src/logic';
import { base64urlBytes, shownOf } from '../src/pushdata';

test('a push shows its title and text and opens the site\'s own page', () => {
  const shown = shownOf({ title: 'swapboard: your turn', body: 'Your turn against ann.', url: '/games/abc123' });
  assert.deepEqual(shown, { title: 'swapboard: your turn', body: 'Your turn against ann.', url: '/games/abc123' });
});

test('a push never opens another site or a script', () => {
  for (const url of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'games/x', 42]) {
    assert.equal(shownOf({ title: 't', body: 'b', url }).url, '/notifications', String(url));
  }
});

test('a payload that is not ours still shows something', () => {
  const shown = shownOf(null);
  assert.equal(shown.title, 'swapboard');
  assert.ok(shown.body.length > 0);
  assert.equal(shownOf({ title: '   ', body: 7 }).title, 'swapboard');
  assert.equal(shownOf({ title: 'x'.repeat(900) }).title.length, 500);
});

test('the server\'s key reads from base64url, unpadded', () => {
  assert.deepEqual([...base64urlBytes('AQID_-8')], [1, 2, 3, 255, 239]);
  const point = base64urlBytes('B' + 'A'.repeat(86));
  assert.equal(point.length, 65);
  assert.equal(point[0], 4);
});

test('an iPhone or iPad outside a home-screen app is told to add it first', () => {
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const ipadAsMac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
  assert.equal(needsHomeScreen(iphone, 5, false), true);
  assert.equal(needsHomeScreen(iphone, 5, true), false);
  assert.equal(needsHomeScreen(ipadAsMac, 5, false), true);
  // A Mac's Safari: no touch screen, and push without a home screen.
  assert.equal(needsHomeScreen(ipadAsMac, 0, false), false);
  assert.equal(needsHomeScreen(android, 5, false), false);
});
