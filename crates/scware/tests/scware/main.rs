//! The integration tests of the scware crate in one test binary (one link instead of one per
//! file): each module is one area.

mod conformance;
mod counting;
mod exhaustive;
mod perft;
mod rules;
