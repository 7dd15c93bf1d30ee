//! Storage: one `sqlx::AnyPool` on SQLite or PostgreSQL, the migrations of each backend, and
//! the queries the handlers need. The SQL is written once with `$N` placeholders, which both
//! drivers read, so the handlers never ask which backend runs; the few statements that must
//! differ (transaction start, row locks) are chosen here.

mod accounts;
mod addresses;
mod admin;
mod ai_jobs;
mod analyses;
mod cache;
mod challenges;
mod chat;
mod games;
mod guests;
mod instances;
mod lessons;
mod moderation;
pub(crate) mod outbox;
mod pool;
pub(crate) mod push;
pub(crate) mod puzzles;
pub(crate) mod ratings;
pub(crate) mod records;
mod resets;
mod reviews;
pub(crate) mod room_skills;
mod rooms;
mod rows;
mod safety;
mod tournament_rounds;
pub(crate) mod tournaments;
mod vacation;

pub(crate) use accounts::{Login, NewAccount};
pub use admin::{AdminEntry, BanOrder, BanTerms, LogFilter, Role, Signup};
pub(crate) use ai_jobs::{AiJob, LeasedJob};
pub(crate) use analyses::AnalysisJob;
pub use challenges::{CloseError, Closing};
pub use chat::{Channel, ChatMessage, ChatRef, ThreadAudit};
pub use games::moves::{Claim, Landed, MoveRequest, OnTime, Played, Timeout};
pub use games::{
    Closed, Finish, JoinError, MoveError, NewGame, Rematch, Seat, Status, StoredGame, Termination,
    Times, seat_of,
};
pub use moderation::{AccountFile, Note, RoleHolder, Standing, StandingLine};
pub(crate) use pool::{
    Backend, create_private, default_sqlite_url, move_payload, notify_channel, sqlite_file,
};
pub use pool::{Migrations, POSTGRES_CONNECTIONS, Store, StoreOptions};
pub(crate) use reviews::ReviewJob;
pub use reviews::ReviewState;
pub use rooms::{
    AuditEntry, BotSubmission, ImportedRoom, NewRoom, Occupant, RoomError, RoomSeat, RoomStatus,
    RoundInput, RoundResult, SeatAssignment, Started, StoredRoom, StoredRound, StoredSubmission,
    Trigger,
};
pub use rows::SeatRow;
pub(crate) use rows::{CredentialKey, CredentialKind, Holder};
pub use safety::{ChatMute, ReportCategory, ReportTarget, StoredReport};
pub use vacation::Bank;
pub(crate) use vacation::{Spent, TakeError, Vacation};
