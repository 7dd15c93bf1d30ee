//! A clone of the repository stands alone: no source, script or document cites a file
//! outside it. The rule sheets' readings live in docs/RULINGS.md, the text contract in
//! docs/CONTRACT.md and the HTTP API in docs/API.md; a citation of the folder that once sat
//! beside the repository would send a reader to a file a clone does not have.
//!
//! The documents are found from one index: docs/README.md links every file of docs/, which a
//! second test checks.
//!
//! The tests live in this crate because it is the cheapest of the workspace to build, and they
//! run with every `cargo test --workspace`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The extensions of the text files checked.
const CHECKED: [&str; 6] = ["rs", "md", "ts", "mjs", "toml", "sh"];

/// Folders, wherever they are, that hold build output, downloaded packages or version
/// control, not the project's own text.
const SKIPPED: [&str; 3] = ["target", "node_modules", ".git"];

/// Folders, from the root, that hold what the build and the tests write (the built client is
/// tracked, but it is output: its sources are checked).
const GENERATED: [&str; 5] = [
    "web/dist",
    "web/test-out",
    "web/test-results",
    "fuzz/corpus",
    "fuzz/artifacts",
];

/// The citations that point outside the repository. Built from pieces so that this file
/// does not cite them itself.
fn outside_citations() -> Vec<String> {
    let spec = ["spec", "/"].concat();
    vec![
        ["..", "/shared/"].concat(),
        format!("{spec}RULINGS.md"),
        format!("{spec}CONTRACT.md"),
        format!("{spec}API.md"),
    ]
}

/// The repository's root: two folders above this crate.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every checked file under `dir`, skipping the folders above.
fn text_files(dir: &Path, root: &Path, found: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            let generated = path
                .strip_prefix(root)
                .is_ok_and(|p| GENERATED.iter().any(|g| p == Path::new(g)));
            if !SKIPPED.contains(&name) && !generated {
                text_files(&path, root, found);
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| CHECKED.contains(&e))
        {
            found.push(path);
        }
    }
}

#[test]
fn no_file_cites_a_file_outside_the_repository() {
    let root = root();
    let mut files = Vec::new();
    text_files(&root, &root, &mut files);
    // The walk must have found the project, or the check below proves nothing.
    let readme = root.join("README.md");
    assert!(
        files.iter().any(|f| f == &readme),
        "README.md not found under {}",
        root.display()
    );
    assert!(files.len() > 100, "only {} files found", files.len());
    let citations = outside_citations();
    let mut offences = Vec::new();
    for file in &files {
        // A file that is not UTF-8 is no text of ours to check.
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for citation in &citations {
                if line.contains(citation.as_str()) {
                    let shown = file.strip_prefix(&root).unwrap_or(file);
                    offences.push(format!("{}:{}: {citation}", shown.display(), n + 1));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "cite the project's own file (docs/RULINGS.md, docs/CONTRACT.md, docs/API.md) instead:\n{}",
        offences.join("\n")
    );
}

/// The targets of the Markdown links of `text` (`[words](target)`) that name a file beside
/// it: no folder, no address, no anchor.
fn local_links(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        if let Some(end) = rest.find(')') {
            let target = &rest[..end];
            if !target.contains('/') && !target.contains('#') && !target.contains(':') {
                found.insert(target.to_string());
            }
        }
    }
    found
}

#[test]
fn the_index_of_the_docs_links_every_document() {
    let docs = root().join("docs");
    let index = fs::read_to_string(docs.join("README.md"))
        .expect("docs/README.md, the index of the documents by reader");
    let linked = local_links(&index);
    let mut files = BTreeSet::new();
    for entry in fs::read_dir(&docs).unwrap_or_else(|e| panic!("{}: {e}", docs.display())) {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_file() && name != "README.md" {
            files.insert(name.to_string());
        }
    }
    assert!(
        files.len() > 10,
        "only {} files found in docs/",
        files.len()
    );
    let missing: Vec<&String> = files.difference(&linked).collect();
    let dangling: Vec<&String> = linked.difference(&files).collect();
    assert!(
        missing.is_empty(),
        "docs/README.md does not link these files of docs/ (add a line for each under its reader): {missing:?}"
    );
    assert!(
        dangling.is_empty(),
        "docs/README.md links files that docs/ does not hold: {dangling:?}"
    );
}

#[test]
fn links_are_read_from_markdown() {
    let text = "[a](A.md), [b](../README.md), [c](https://x.org), [d](B.md#part), [e](C.md)";
    let links: Vec<String> = local_links(text).into_iter().collect();
    assert_eq!(links, ["A.md", "C.md"]);
}
