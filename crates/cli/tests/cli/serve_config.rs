//! `swapboard serve --config FILE` as a user runs it: the environment comes before the file,
//! and a file the options refuse stops the command before it serves, in one line naming the
//! file and the key. (The order of the command line, the file and the defaults, and the
//! example file of deploy/, are the command's unit tests.)

use swapboard_testkit::TempFile;

use crate::common::bad_with;

#[test]
fn the_environment_comes_before_the_file() {
    // The file's value is good, the variable's is not: the variable is the one read.
    let config = TempFile::new("serve-order", "toml", "db-connections = 4\n");
    let refused = bad_with(
        &["serve", "--config", config.text_path()],
        &[("SWAPBOARD_DB_CONNECTIONS", "0")],
    );
    assert!(refused.contains("--db-connections"), "{refused}");
    assert!(refused.contains("'0'"), "{refused}");
    // The file named by its variable is read too.
    let unknown = TempFile::new(
        "serve-unknown",
        "toml",
        "db-connections = 4\nlimit-sockets-per-adress = 9\n",
    );
    let refused = bad_with(&["serve"], &[("SWAPBOARD_CONFIG", unknown.text_path())]);
    assert!(refused.starts_with("swapboard: "), "{refused}");
    assert!(refused.contains(unknown.text_path()), "{refused}");
    assert!(
        refused.contains("unknown key `limit-sockets-per-adress`"),
        "{refused}"
    );
}

#[test]
fn a_file_that_cannot_be_read_or_has_a_bad_value_stops_the_command() {
    let refused = bad_with(&["serve", "--config", "/nonexistent/swapboard.toml"], &[]);
    assert!(
        refused.contains("/nonexistent/swapboard.toml: cannot read it"),
        "{refused}"
    );
    let config = TempFile::new(
        "serve-bad",
        "toml",
        "limit-moves-per-account = \"120 a minute\"\n",
    );
    let refused = bad_with(&["serve", "--config", config.text_path()], &[]);
    assert!(refused.contains("limit-moves-per-account:"), "{refused}");
    assert!(refused.contains("BURST/PERIOD"), "{refused}");
}
