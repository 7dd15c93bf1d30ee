//! The integration tests of the flipstop crate in one test binary (one link instead of one per
//! file): each module is one area.

mod conformance;
mod rules;
