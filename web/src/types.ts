// The shapes of the server's JSON the client reads: each is a schema of the server's OpenAPI
// document (wire.gen.ts, generated from web/openapi.json by `npm run build`), so that a field
// the server renames, drops or retypes fails the type check here.

import type { components } from './wire.gen';

/** The document's schemas, by name: what every module's wire types are. */
export type Schemas = components['schemas'];

/** A seat of a two-player game. */
export type PlayerView = Schemas['PlayerView'];
/** A player's rating in a rated game's view. */
export type GameRatingView = Schemas['ChangeView'];
/** How a finished game ended. */
export type ResultView = Schemas['ResultView'];
/** The clocks of a game with a time control. */
export type ClocksView = Schemas['ClocksView'];
/** A time control: none, correspondence, or live. */
export type TimeControl = Schemas['TimeControl'];
/** A two-player game (`<game>` of the API). */
export type GameView = Schemas['GameView'];

/** A seat of a two-player game, by turn order (the API's `first` and `second`). */
export type Seat = Schemas['Player'];
/** How a game shown ended, by the rules. */
export type Outcome = Schemas['Outcome'];
/** The pair of opposite edges a player joins. */
export type SideOwner = Schemas['SideOwner'];
/** The board view of the play layer (`BoardView`). */
export type BoardView = Schemas['BoardView'];
/** A mark the board view puts on a cell. */
export type CellMark = BoardView['marks'][number][1];

/** `GET /api/games/{id}/view`. */
export type PlyView = Schemas['PlyView'];
/** One move of `GET /api/games/{id}/moves`. */
export type MoveView = Schemas['MoveView'];
/** `GET /api/games/{id}/moves`. */
export type MoveList = Schemas['MoveList'];

/**
 * An action the builder offers besides cells: `end_growth` (Scware's balancing move: the
 * next cell starts a new group) or `pass` (a pass is legal among other moves).
 */
export type DraftAction = Schemas['Action'];
/** The move builder's answer. */
export type Draft = Schemas['Draft_String'];

/**
 * A message of a live socket, one member per `type`. A game's socket sends `move` and
 * `state`, a room's sends `room`, a tournament's sends `tournament`, the account's inbox
 * sends `inbox`; a game's and a room's send `chat` too (a public chat's message, or `null`
 * for a private one's nudge).
 */
export type LiveMessage = Schemas['LiveMessage'];
/** A message of a game's socket. */
export type GameMessage = Extract<LiveMessage, { type: 'move' | 'state' | 'chat' }>;
/** A message of a Swap 61 room's socket. */
export type RoomMessage = Extract<LiveMessage, { type: 'room' | 'chat' }>;
/** A message of a tournament's socket. */
export type TournamentMessage = Extract<LiveMessage, { type: 'tournament' }>;
/** A message of the account's inbox socket. */
export type InboxMessage = Extract<LiveMessage, { type: 'inbox' }>;

/** One notification of the account's inbox (`GET /api/me/notifications`). */
export type NotificationView = Schemas['NotificationView'];
/** A page of the inbox. */
export type Inbox = Schemas['Inbox'];
/** The account's notification settings (`GET /api/me/notifications/settings`). */
export type NotificationSettings = Schemas['Settings'];

/** One line of the analysis of a position. */
export type AnalysisLine = Schemas['LineAnswer'];
/** `GET /api/games/{id}/analysis`. */
export type Analysis = Schemas['AnalysisAnswer'];
/** One move of a finished review. */
export type ReviewedMove = Schemas['ReviewedMove'];
/**
 * `GET /api/games/{id}/review`: done (200), or still running (202), told apart by `status`
 * (which the document types as a string).
 */
export type GameReview = (Schemas['ReviewDone'] & { status: 'done' }) | (Schemas['ReviewRunning'] & { status: 'running' });

/** `GET /api/lobby`. */
export type Lobby = Schemas['Lobby'];
/** One game of `GET /api/games/catalogue`, as its engine describes it. */
export type CatalogueEntry = Schemas['CatalogueEntry'];

/** A tournament as the list shows it (`GET /api/tournaments`). */
export type TournamentSummary = Schemas['TournamentSummary'];
/** An entrant of a tournament. */
export type EntrantView = Schemas['EntrantView'];
/** A game of a tournament's round. */
export type PairingView = Schemas['PairingView'];
/** A round of a tournament. */
export type TournamentRoundView = Schemas['TournamentRoundView'];
/** A line of a tournament's standings. */
export type TournamentStandingView = Schemas['TournamentStandingView'];
/** A tournament with its entrants, rounds and standings (`GET /api/tournaments/{id}`). */
export type TournamentView = Schemas['TournamentView'];
/** The tournaments by stage. */
export type TournamentList = Schemas['TournamentList'];

/** The caller's vacation bank (`GET /api/me/vacation`). */
export type VacationView = Schemas['VacationView'];

/** A chat's message (docs/CHAT.md). */
export type ChatMessageView = Schemas['ChatMessageView'];
/** A chat and its latest messages. */
export type ChatView = Schemas['ChatView'];
