//! How a command fails: bad input (exit 2, per the contract) or anything else (exit 1).

use std::process::ExitCode;

/// A failed command.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The user's input cannot be read, reached or played: the contract's exit 2.
    #[error("{0}")]
    BadInput(String),
    /// Anything else (an unwritable file, ...): exit 1.
    #[error(transparent)]
    Failure(#[from] anyhow::Error),
}

impl CliError {
    /// A bad-input error naming what was refused and why.
    pub(crate) fn bad(message: impl Into<String>) -> CliError {
        CliError::BadInput(message.into())
    }

    /// The process exit code for this error.
    pub(crate) fn exit_code(&self) -> ExitCode {
        match self {
            CliError::BadInput(_) => ExitCode::from(2),
            CliError::Failure(_) => ExitCode::from(1),
        }
    }
}

/// The result of a command.
pub(crate) type CliResult = Result<(), CliError>;
