//! Buffered standard output that treats a closed pipe (`swapboard moves ... | head`) as a
//! normal end, not an error.

use crate::error::{CliError, CliResult};
use crate::files::Destination;
use std::fmt::Display;
use std::io::{BufWriter, ErrorKind, StdoutLock, Write};

/// Buffered, locked standard output.
pub(crate) struct Output {
    inner: BufWriter<StdoutLock<'static>>,
    closed: bool,
}

impl Output {
    /// Standard output, locked for the life of the command.
    pub(crate) fn stdout() -> Output {
        Output {
            inner: BufWriter::new(std::io::stdout().lock()),
            closed: false,
        }
    }

    /// Writes one line. After the reader has gone away, writes nothing and succeeds.
    pub(crate) fn line(&mut self, value: impl Display) -> CliResult {
        self.write(format_args!("{value}\n"))
    }

    /// Writes an SVG picture to its destination. Returns whether it came here (standard
    /// output), so that the command then prints nothing else there.
    pub(crate) fn svg(&mut self, to: Destination, picture: &str) -> Result<bool, CliError> {
        match to {
            Destination::Stdout => {
                self.text(picture)?;
                Ok(true)
            }
            Destination::File(file) => {
                file.write(picture)?;
                Ok(false)
            }
        }
    }

    /// Writes text as it is.
    pub(crate) fn text(&mut self, value: impl Display) -> CliResult {
        self.write(format_args!("{value}"))
    }

    fn write(&mut self, args: std::fmt::Arguments<'_>) -> CliResult {
        if self.closed {
            return Ok(());
        }
        match self.inner.write_fmt(args) {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other.map_err(|e| CliError::Failure(e.into())),
        }
    }

    /// Sends what is buffered now (interactive commands, before waiting for input).
    pub(crate) fn flush(&mut self) -> CliResult {
        match self.inner.flush() {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other.map_err(|e| CliError::Failure(e.into())),
        }
    }

    /// Flushes what is buffered.
    pub(crate) fn finish(mut self) -> CliResult {
        match self.inner.flush() {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
            other => other.map_err(|e| CliError::Failure(e.into())),
        }
    }
}

/// A progress bar (or spinner, with no `total`) on stderr, drawn only when stderr is a
/// terminal so that logs and pipes stay clean. `template` is indicatif's.
pub(crate) fn progress_bar(total: Option<u64>, template: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;

    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let fallback = if total.is_some() {
        ProgressStyle::default_bar()
    } else {
        ProgressStyle::default_spinner()
    };
    let bar = ProgressBar::with_draw_target(total, target);
    bar.set_style(ProgressStyle::with_template(template).unwrap_or(fallback));
    bar
}

/// How a long run tells its progress on stderr: a spinner with the latest message when
/// stderr is a terminal, otherwise (a run in the background, its stderr in a log) a line
/// with the elapsed seconds about once a minute.
pub(crate) struct Ticker {
    spinner: indicatif::ProgressBar,
    terminal: bool,
    started: std::time::Instant,
    last_line: std::time::Instant,
}

impl Ticker {
    /// How often a line is written when stderr is not a terminal.
    const LINE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

    /// A ticker starting now.
    pub(crate) fn new() -> Ticker {
        use std::io::IsTerminal;
        let now = std::time::Instant::now();
        Ticker {
            spinner: progress_bar(None, "{spinner} {msg} [{elapsed}]"),
            terminal: std::io::stderr().is_terminal(),
            started: now,
            last_line: now,
        }
    }

    /// Shows `message` (built only when it will be shown).
    pub(crate) fn tell(&mut self, message: impl FnOnce() -> String) {
        if self.terminal {
            self.spinner.set_message(message());
            self.spinner.tick();
        } else if self.last_line.elapsed() >= Ticker::LINE_EVERY {
            self.last_line = std::time::Instant::now();
            eprintln!(
                "[{:.0} s] {}",
                self.started.elapsed().as_secs_f64(),
                message()
            );
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.spinner.finish_and_clear();
    }
}
