//! The integration tests of the swaptimum crate in one test binary (one link instead of one per
//! file): each module is one area.

mod conformance;
mod rules;
