//! Running the `swapboard` binary as a user does, and the contract's two outcomes: success,
//! or bad input (exit 2, nothing on stdout, one message on stderr).

use std::process::{Command, Output};

/// Runs the binary with `args` and no standard input.
pub(crate) fn swapboard(args: &[&str]) -> Output {
    swapboard_with(args, &[])
}

/// Runs the binary with `args`, these variables added to its environment, and no standard
/// input.
pub(crate) fn swapboard_with(args: &[&str], variables: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swapboard"))
        .args(args)
        .envs(variables.iter().copied())
        .output()
        .expect("the swapboard binary runs")
}

/// The standard output, as text.
pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The standard error, as text.
pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Success: exit 0; returns the standard output.
pub(crate) fn ok(args: &[&str]) -> String {
    let out = swapboard(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    String::from_utf8(out.stdout).expect("utf-8 on stdout")
}

/// Bad input: exit 2, nothing on stdout, one message on stderr; returns the message.
pub(crate) fn bad(args: &[&str]) -> String {
    bad_with(args, &[])
}

/// [`bad`], with these variables added to the environment.
pub(crate) fn bad_with(args: &[&str], variables: &[(&str, &str)]) -> String {
    let out = swapboard_with(args, variables);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert!(out.stdout.is_empty(), "{args:?} printed {:?}", stdout(&out));
    let err = String::from_utf8(out.stderr).expect("utf-8 on stderr");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    err
}
