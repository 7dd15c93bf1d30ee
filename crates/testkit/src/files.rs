//! Files a test writes for the code under test to read (a configuration file), removed after.

use std::path::{Path, PathBuf};

/// A file of the temporary folder, named for the test and this process (tests of one process
/// give different names), removed when dropped.
#[derive(Debug)]
pub struct TempFile(PathBuf);

impl TempFile {
    /// Writes `text` to `swapboard-NAME-PID.EXTENSION` in the temporary folder.
    pub fn new(name: &str, extension: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!(
            "swapboard-{name}-{}.{extension}",
            std::process::id()
        ));
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        TempFile(path)
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Where it is, as text (the temporary folder's path is UTF-8 where the tests run).
    pub fn text_path(&self) -> &str {
        self.0.to_str().expect("a temporary path in UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
