//! Embeds the web client: lists every file of `web/dist` (built and committed by `npm run
//! build`, so Rust alone builds the binary) as `include_bytes!` in `$OUT_DIR/web_files.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dist = manifest.join("../../web/dist");
    println!("cargo:rerun-if-changed={}", dist.display());
    let mut found = Vec::new();
    files(&dist, &mut found);
    // Sorted, so the generated table (and the binary) depend on the files alone.
    found.sort();
    let mut table = String::from("&[\n");
    for path in &found {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .strip_prefix(&dist)
            .expect("found under dist")
            .to_string_lossy()
            .replace('\\', "/");
        let _ = writeln!(
            table,
            "    ({:?}, include_bytes!({:?})),",
            format!("/{name}"),
            path.display().to_string()
        );
    }
    table.push(']');
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("web_files.rs"), table).expect("OUT_DIR is writable");
}
