//! Rows the store's parts share (a credential's kind and holder, a game's seat): plain
//! data with no queries, so the caches and every part can name them without naming each
//! other.

/// Whether a credential is a bearer token or a browser session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum CredentialKind {
    Token,
    Session,
}

impl CredentialKind {
    /// The kind a stored `kind` column names (the table's CHECK allows only these two).
    pub(crate) fn of_str(text: &str) -> CredentialKind {
        if text == "session" {
            CredentialKind::Session
        } else {
            CredentialKind::Token
        }
    }

    /// The word stored in the `kind` column.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CredentialKind::Token => "token",
            CredentialKind::Session => "session",
        }
    }
}

/// A credential by the hash of its secret and its kind: what the caches and the live sockets
/// know it by.
pub(crate) type CredentialKey = (String, CredentialKind);

/// The account a credential acts for.
#[derive(Clone, Debug)]
pub(crate) struct Holder {
    pub(crate) account_id: i64,
    pub(crate) name: String,
    /// Whether the account is a guest's (made without a password, to play the AI).
    pub(crate) guest: bool,
}

/// Who sits in a seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat's index (0: the first player).
    pub seat: u8,
    /// The account sitting there and its name.
    pub account: Option<(i64, String)>,
    /// The AI's level, for an AI seat.
    pub ai_level: Option<u8>,
    /// The account the seat is kept for, by id and name, until it joins.
    pub invited: Option<(i64, String)>,
}
