// The client's entry point: the pages by route.

import { aboutPage, helpPage } from './about';
import { start } from './app';
import { gamePage } from './game/page';
import { ACCOUNT_PAGES } from './account';
import { NOTIFICATION_PAGES } from './notifications';
import { PAGES } from './pages';
import { newRoomPage, roomPage } from './room/page';
import { lessonsPage } from './lessons/page';
import { puzzlesPage } from './puzzles/page';
import { playerPage } from './profile';
import { moderationPage } from './moderation';
import { leaderboardPage, playersPage } from './ratings';
import { frontPage, rulesPage } from './rules';
import { tournamentsPage } from './tournaments/page';

const root = document.getElementById('app');
if (root) start(root, {
    ...PAGES,
    ...NOTIFICATION_PAGES,
    ...ACCOUNT_PAGES,
    // A visitor who is not logged in, or a guest, sees the front page (`src/rules.ts`).
    home: (main, shell) => (shell.me && !shell.guest ? PAGES.home(main, shell) : frontPage(main, shell)),
    game: gamePage, newRoom: newRoomPage, room: roomPage, rules: rulesPage, puzzles: puzzlesPage, learn: lessonsPage,
    tournaments: tournamentsPage, leaderboard: leaderboardPage, players: playersPage, player: playerPage, about: aboutPage, help: helpPage,
    moderation: moderationPage,
  });
