//! Files the command reads and writes, made safe against the mistakes and attacks a game
//! master's machine meets: two writers at once, planted symbolic links, overwritten games,
//! huge inputs, and output that cannot be written after a long run.
//!
//! - [`LockedFile`]: a file changed in place (a Swap 61 game file), held under an exclusive
//!   lock from the read to the rename of its new content, so no accepted change is lost.
//! - [`NewFile`]: an output file opened before the work starts, never over a game file and
//!   never over any existing file unless `--force` is given.
//! - [`read_limited`]: a whole file or standard input, refused beyond a size.
//! - [`quote`]: user input as an error message shows it, shortened and escaped;
//!   [`printable_message`]: the same for a whole message, where every message is printed.

use std::fs::{File, Metadata, OpenOptions};
use std::hash::{BuildHasher as _, Hasher as _};
use std::io::{BufWriter, Read, Write};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use crate::error::CliError;

/// The largest file of game records read (`replay`, `play --resume`): far more than any
/// match writes per game, and a bound on the memory a file can take.
pub(crate) const RECORD_FILE_LIMIT: u64 = 64 << 20;

/// The longest piece of user input an error message quotes, in characters.
const QUOTE_CHARS: usize = 60;

/// `text` with its control characters escaped, so that a message never moves the cursor,
/// rings the bell or splits into lines.
fn escape_controls(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped = c.is_control().then(|| c.escape_default());
            escaped
                .into_iter()
                .flatten()
                .chain((!c.is_control()).then_some(c))
        })
        .collect()
}

/// User input as an error message quotes it: control characters escaped (so a message
/// never moves the cursor or rings the bell) and cut after 60 characters with an ellipsis.
pub(crate) fn quote(text: &str) -> String {
    let mut quoted = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_CHARS {
            quoted.push('…');
            break;
        }
        quoted.push_str(&escape_controls(c.encode_utf8(&mut [0; 4])));
    }
    quoted
}

/// An error message as the command prints it: control characters escaped, and every word
/// longer than 60 characters (a pasted board, a garbage argument) cut with an ellipsis, its
/// closing punctuation kept. Messages quote their input wherever it came from (the engines'
/// own refusals included), so this is applied once, where every message is printed.
pub(crate) fn printable_message(message: &str) -> String {
    let escaped = escape_controls(message);
    let mut printed = String::with_capacity(escaped.len().min(1024));
    let mut word = String::new();
    let flush = |word: &mut String, printed: &mut String| {
        if word.chars().count() > QUOTE_CHARS {
            let tail: String = word
                .chars()
                .rev()
                .take_while(|c| matches!(c, '\'' | '"' | ':' | ',' | ')'))
                .take(3)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            printed.extend(word.chars().take(QUOTE_CHARS));
            printed.push('…');
            printed.push_str(&tail);
        } else {
            printed.push_str(word);
        }
        word.clear();
    };
    for c in escaped.chars() {
        if c == ' ' {
            flush(&mut word, &mut printed);
            printed.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut printed);
    printed
}

/// A path as an error message quotes it (see [`quote`]).
pub(crate) fn quote_path(path: &Path) -> String {
    quote(&path.to_string_lossy())
}

/// Reads at most `limit` bytes of UTF-8 text from `path` (`-` is standard input); a longer
/// input is refused without being kept, so memory stays bounded whatever the file.
pub(crate) fn read_limited(what: &str, path: &Path, limit: u64) -> Result<String, CliError> {
    let name = if path == Path::new("-") {
        "standard input".to_string()
    } else {
        format!("'{}'", quote_path(path))
    };
    let bytes = if path == Path::new("-") {
        read_up_to(&mut std::io::stdin().lock(), limit)
    } else {
        File::open(path).and_then(|mut file| read_up_to(&mut file, limit))
    }
    .map_err(|e| CliError::bad(format!("{what} {name}: {e}")))?;
    text_of(what, &name, bytes, limit)
}

/// Reads at most `limit + 1` bytes, so that a longer input is seen without keeping it.
fn read_up_to(reader: &mut impl Read, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The bytes read from `name` as text, or the reason they are refused.
fn text_of(what: &str, name: &str, bytes: Vec<u8>, limit: u64) -> Result<String, CliError> {
    if bytes.len() as u64 > limit {
        return Err(CliError::bad(format!(
            "{what} {name}: longer than the limit of {limit} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::bad(format!(
            "{what} {name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The format tag every Swap 61 game file carries near its start.
const GAME_FILE_TAG: &[u8] = b"swapboard-swap61/";

/// Whether the file at `path` looks like a Swap 61 game file (its tag near the start).
fn is_game_file(path: &Path) -> bool {
    let mut head = Vec::new();
    File::open(path)
        .and_then(|file| file.take(4096).read_to_end(&mut head))
        .is_ok_and(|_| {
            head.windows(GAME_FILE_TAG.len())
                .any(|w| w == GAME_FILE_TAG)
        })
}

/// Whether two metadata describe the same file.
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// A file to be changed in place, locked exclusively from its opening until the value is
/// dropped. Another process changing the same file waits for the lock, then reads the new
/// content: every change is made on the latest one.
pub(crate) struct LockedFile {
    file: File,
    path: PathBuf,
    what: &'static str,
    mode: u32,
}

impl LockedFile {
    /// Opens and locks the file at `path`. Symbolic links, anything but a regular file and
    /// read-only files are refused: a change would otherwise land elsewhere or overrule the
    /// owner's protection.
    pub(crate) fn open(what: &'static str, path: &Path) -> Result<LockedFile, CliError> {
        let refuse =
            |reason: String| CliError::bad(format!("{what} '{}': {reason}", quote_path(path)));
        loop {
            let before = std::fs::symlink_metadata(path).map_err(|e| refuse(e.to_string()))?;
            if before.file_type().is_symlink() {
                return Err(refuse(
                    "is a symbolic link; name the file itself, it is never written through a link"
                        .to_string(),
                ));
            }
            if !before.is_file() {
                return Err(refuse("is not a regular file".to_string()));
            }
            if before.permissions().readonly() {
                return Err(refuse(
                    "is read-only; make it writable to change the game".to_string(),
                ));
            }
            let file = File::open(path).map_err(|e| refuse(e.to_string()))?;
            file.lock()
                .map_err(|e| refuse(format!("cannot lock it: {e}")))?;
            let opened = file.metadata().map_err(|e| refuse(e.to_string()))?;
            // Another writer may have replaced the file while this one waited for the lock:
            // the lock then guards the old content, so start again on the new file.
            match std::fs::symlink_metadata(path) {
                Ok(now) if same_file(&now, &opened) => {
                    let locked = LockedFile {
                        file,
                        path: path.to_path_buf(),
                        what,
                        mode: opened.permissions().mode() & 0o7777,
                    };
                    locked.remove_stale_temporaries();
                    return Ok(locked);
                }
                Ok(_) => continue,
                Err(e) => return Err(refuse(e.to_string())),
            }
        }
    }

    /// The folder of the file and the prefix of its temporary files' names.
    fn temporary_prefix(&self) -> (&Path, String) {
        let dir = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        (dir, format!(".{name}."))
    }

    /// Removes the temporary files a writer killed between creating and renaming one left
    /// beside the file. Every writer holds the lock while its temporary file exists, so
    /// under the lock any such file is a leftover.
    fn remove_stale_temporaries(&self) {
        let (dir, prefix) = self.temporary_prefix();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let stale = name
                .strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(".tmp"))
                .is_some_and(|key| key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()));
            if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// The whole content, refused beyond `limit` bytes.
    pub(crate) fn read(&mut self, limit: u64) -> Result<String, CliError> {
        let name = format!("'{}'", quote_path(&self.path));
        let bytes = read_up_to(&mut self.file, limit)
            .map_err(|e| CliError::bad(format!("{} {name}: {e}", self.what)))?;
        text_of(self.what, &name, bytes, limit)
    }

    /// Replaces the content with `text`: a new file created exclusively beside it under an
    /// unpredictable name, with the same mode, then renamed over it. On failure the
    /// temporary file is removed and the old content stays.
    pub(crate) fn replace(&self, text: &str) -> Result<(), CliError> {
        let (dir, prefix) = self.temporary_prefix();
        let failure = |e: std::io::Error| {
            CliError::Failure(anyhow::anyhow!(
                "cannot write {} '{}': {e}",
                self.what,
                quote_path(&self.path)
            ))
        };
        let (tmp, mut file) = loop {
            let tmp = dir.join(format!("{prefix}{:016x}.tmp", unpredictable()));
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(self.mode)
                .open(&tmp)
            {
                Ok(file) => break (tmp, file),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(failure(e)),
            }
        };
        let written = (|| {
            file.write_all(text.as_bytes())?;
            // The creation mode was reduced by the umask: give the file its old mode.
            file.set_permissions(std::fs::Permissions::from_mode(self.mode))?;
            file.sync_all()?;
            std::fs::rename(&tmp, &self.path)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(failure(e));
        }
        Ok(())
    }
}

/// A number no other process can guess: std's hasher keys come from the system's random
/// source.
fn unpredictable() -> u64 {
    let mut hasher = std::hash::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// Where a picture or report goes: standard output (the path `-`) or a [`NewFile`], chosen
/// and opened before the work that fills it.
pub(crate) enum Destination {
    /// Standard output: the command then prints nothing else there.
    Stdout,
    /// A file opened by [`NewFile::create`].
    File(NewFile),
}

impl Destination {
    /// Standard output for `-`, else the file at `path` opened as [`NewFile::create`] does.
    pub(crate) fn open(
        flag: &'static str,
        path: &Path,
        force: bool,
    ) -> Result<Destination, CliError> {
        if path == Path::new("-") {
            Ok(Destination::Stdout)
        } else {
            NewFile::create(flag, path, force).map(Destination::File)
        }
    }
}

/// An output file, opened before the work that fills it so that an unwritable path fails at
/// once. It is created new unless `force` is given; a Swap 61 game file and a symbolic link
/// are never overwritten. If the command fails before [`NewFile::write`], a file it created
/// is removed again.
pub(crate) struct NewFile {
    file: Option<BufWriter<File>>,
    path: PathBuf,
    flag: &'static str,
    created: bool,
}

impl NewFile {
    /// Opens the output named by `flag` (like `--svg`) at `path`.
    pub(crate) fn create(
        flag: &'static str,
        path: &Path,
        force: bool,
    ) -> Result<NewFile, CliError> {
        let refuse =
            |reason: &str| CliError::bad(format!("{flag} '{}': {reason}", quote_path(path)));
        let existing = std::fs::symlink_metadata(path).ok();
        if let Some(meta) = &existing {
            if meta.file_type().is_symlink() {
                return Err(refuse(
                    "is a symbolic link; outputs are never written through one",
                ));
            }
            if !meta.is_file() {
                return Err(refuse("exists and is not a regular file"));
            }
            if is_game_file(path) {
                return Err(refuse("is a Swap 61 game file; it is never overwritten"));
            }
            if !force {
                return Err(refuse("the file exists; give --force to overwrite it"));
            }
        }
        let mut options = OpenOptions::new();
        options.write(true);
        if existing.is_some() {
            options.truncate(true);
        } else {
            options.create_new(true);
        }
        let file = options.open(path).map_err(|e| refuse(&e.to_string()))?;
        Ok(NewFile {
            file: Some(BufWriter::new(file)),
            path: path.to_path_buf(),
            flag,
            created: existing.is_none(),
        })
    }

    /// Writes the whole content and closes the file.
    pub(crate) fn write(mut self, text: &str) -> Result<(), CliError> {
        self.append(text)?;
        self.finish()
    }

    /// Writes `text` after what was written so far, for output made piece by piece (the
    /// records of a long match). If the command then fails, a file it created is removed.
    pub(crate) fn append(&mut self, text: &str) -> Result<(), CliError> {
        match self.file.as_mut() {
            Some(file) => file
                .write_all(text.as_bytes())
                .map_err(|e| self.failure(&e)),
            None => Ok(()),
        }
    }

    /// Flushes what was written to the disk and closes the file.
    pub(crate) fn finish(mut self) -> Result<(), CliError> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let synced = file
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)
            .and_then(|file| file.sync_all());
        synced.map_err(|e| {
            if self.created {
                let _ = std::fs::remove_file(&self.path);
            }
            self.failure(&e)
        })
    }

    /// The error of a write that failed.
    fn failure(&self, e: &std::io::Error) -> CliError {
        CliError::Failure(anyhow::anyhow!(
            "{} '{}': cannot write: {e}",
            self.flag,
            quote_path(&self.path)
        ))
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        if self.file.is_some() && self.created {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
