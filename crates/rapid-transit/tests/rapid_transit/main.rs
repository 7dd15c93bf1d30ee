//! The integration tests of the rapid-transit crate in one test binary (one link instead of
//! one per file): each module is one area.

mod common;

mod conformance;
mod parsing;
mod playouts;
mod rules;
