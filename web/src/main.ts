// The client's entry point: the pages by route.

import { start } from './app';
import { gamePage } from './game/page';
import { PAGES } from './pages';
import { newRoomPage, roomPage } from './room/page';

const root = document.getElementById('app');
if (root) start(root, { ...PAGES, game: gamePage, newRoom: newRoomPage, room: roomPage });
