//! The `swapboard` binary as users and scripts run it, in one test binary: each module is one
//! area (one binary links the world once; a binary per file made the clean-clone run slow).

mod common;

mod ai;
mod crosscut_games;
mod demo;
mod doc_examples;
mod engine;
mod play;
mod puzzles;
mod rapid_transit;
mod replay;
mod rules;
mod scware;
mod serve_config;
mod solve;
mod stats;
mod swap61;
mod train;
