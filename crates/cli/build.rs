//! Records the commit the command is built from, for `swapboard --version`: $SWAPBOARD_COMMIT
//! when set (a build from a source archive), else what git says of the source tree, else
//! "unknown".

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=SWAPBOARD_COMMIT");
    let commit = std::env::var("SWAPBOARD_COMMIT")
        .ok()
        .filter(|commit| !commit.is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=SWAPBOARD_COMMIT={commit}");
}

/// The abbreviated hash of the commit checked out, rebuilding when it changes.
fn git_commit() -> Option<String> {
    let git = |args: &[&str]| {
        let output = Command::new("git").args(args).output().ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
    };
    let dir = PathBuf::from(git(&["rev-parse", "--absolute-git-dir"])?);
    // HEAD names a branch, whose file (or packed-refs) moves with each commit.
    println!("cargo:rerun-if-changed={}", dir.join("HEAD").display());
    // (A file named here that does not exist would make every build run this again.)
    let branch = git(&["symbolic-ref", "-q", "HEAD"]).map(|branch| dir.join(branch));
    for file in branch.into_iter().chain([dir.join("packed-refs")]) {
        if file.exists() {
            println!("cargo:rerun-if-changed={}", file.display());
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"])
}
