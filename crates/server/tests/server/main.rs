//! The server over real HTTP on a real SQLite file and a real PostgreSQL database, in one test
//! binary: each module is one area (a binary per file linked the server once each).

mod controls;

mod accounts;
mod adjudicate;
mod admin;
mod ai_workers;
mod analysis;
mod backup;
mod challenges;
mod chat;
mod conditional;
mod games;
mod guests;
mod hints;
mod lessons;
mod live;
mod metrics;
mod moderation;
mod moves;
mod names;
mod notify;
mod notify_events;
mod offered;
mod password;
mod profiles;
mod push;
mod puzzles;
mod ratings;
mod review;
mod room_skills;
mod rooms;
mod rules;
mod schema;
mod shutdown;
mod social;
mod statements;
mod tournaments;
mod upgrades;
mod vacation;
mod web;
