//! The examples of the README and of docs/*.md stay true: every indented `swapboard ...` line
//! of a block marked `<!-- runnable -->` is run against the built binary and must succeed.

use std::path::{Path, PathBuf};

/// Splits a command line as a shell would for these examples: words separated by spaces,
/// single quotes around a word with spaces in it.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    assert!(!quoted, "unclosed quote in {line:?}");
    if started {
        words.push(word);
    }
    words
}

/// The runnable example lines of one Markdown file, each as its arguments after `swapboard`.
fn examples(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut found = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim() == "<!-- runnable -->" {
            in_block = true;
        } else if in_block {
            if let Some(command) = line.strip_prefix("    swapboard ") {
                found.push(words(command));
            } else if !line.trim().is_empty() {
                in_block = false;
            }
        }
    }
    found
}

#[test]
fn every_runnable_example_of_the_docs_succeeds() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut run = 0;
    for file in &files {
        for args in examples(file) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = crate::common::swapboard(&args);
            assert!(
                out.status.success(),
                "{}: swapboard {args:?}: {}",
                file.display(),
                crate::common::stderr(&out)
            );
            run += 1;
        }
    }
    // The README's and CONTRACT.md's blocks at least: a broken marker must not pass silently.
    assert!(run >= 6, "only {run} examples found");
}

#[test]
fn words_follow_single_quotes() {
    assert_eq!(words("apply 'a b  c' d"), ["apply", "a b  c", "d"]);
}
