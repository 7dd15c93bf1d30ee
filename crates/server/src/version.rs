//! The server's version: what each instance records in the database beside the schema it
//! expects, what `/metrics` labels its build with, and what the upgrade's refusals name.

/// The server's version (the workspace's).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
