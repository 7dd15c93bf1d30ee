// The client's entry point: the pages by route.

import { start } from './app';
import { gamePage } from './game/page';
import { ACCOUNT_PAGES } from './account';
import { NOTIFICATION_PAGES } from './notifications';
import { PAGES } from './pages';
import { newRoomPage, roomPage } from './room/page';
import { puzzlesPage } from './puzzles/page';
import { frontPage, rulesPage } from './rules';

const root = document.getElementById('app');
if (root) start(root, {
    ...PAGES,
    ...NOTIFICATION_PAGES,
    ...ACCOUNT_PAGES,
    // A visitor who is not logged in sees the front page (`src/rules.ts`).
    home: (main, shell) => (shell.me ? PAGES.home(main, shell) : frontPage(main, shell)),
    game: gamePage, newRoom: newRoomPage, room: roomPage, rules: rulesPage, puzzles: puzzlesPage,
  });
