//! Every way a request fails, mapped to the status and code of the API contract.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::limits::http::STORAGE_FULL_RETRY;

pub(crate) use crate::api::{ErrorBody, ErrorDetail};

/// A refused or failed request.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ApiError {
    /// A body, path or query that cannot be read, with the field and the reason.
    #[error("{0}")]
    BadRequest(String),
    /// Missing or wrong credentials where some are needed.
    #[error("{0}")]
    Unauthenticated(String),
    /// The caller may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// A player of the game sent a move when it is not its turn.
    #[error("{0}")]
    NotYourTurn(String),
    /// The rules refuse the move: the stable code of the rule it breaks, and why.
    #[error("{reason}")]
    IllegalMove {
        /// The rule's code (`docs/API.md` lists them).
        rule: &'static str,
        /// The refusal, in words.
        reason: String,
    },
    /// No such thing.
    #[error("{0}")]
    NotFound(String),
    /// The state moved on (a name taken, ...).
    #[error("{0}")]
    Conflict(String),
    /// Too many requests: come back after this long.
    #[error("too many requests: try again in {} s", retry_after_seconds(*.0))]
    RateLimited(Duration),
    /// The request was not done in time (a body sent too slowly, ...).
    #[error("the request took longer than {} s", .0.as_secs())]
    Timeout(Duration),
    /// A service the server depends on (the mail server) failed: try again later.
    #[error("{0}")]
    Unavailable(String),
    /// The server's own failure: logged, never shown.
    #[error("internal error")]
    Internal(#[from] anyhow::Error),
}

/// Whole seconds, rounded up, and never 0 (a client told 0 would retry at once).
fn retry_after_seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0 || wait.is_zero())
}

impl ApiError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::Unauthenticated(_) => (StatusCode::UNAUTHORIZED, "unauthenticated"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotYourTurn(_) => (StatusCode::FORBIDDEN, "not_your_turn"),
            ApiError::IllegalMove { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            ApiError::Timeout(_) => (StatusCode::REQUEST_TIMEOUT, "timeout"),
            ApiError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            ApiError::Internal(e) if storage_full(e) => {
                (StatusCode::SERVICE_UNAVAILABLE, "storage_full")
            }
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }

    /// The words for a person: an internal error's own text is never shown.
    fn message(&self) -> String {
        match self {
            ApiError::Internal(e) if storage_full(e) => {
                "the server's storage is full: nothing was stored; try again later".to_owned()
            }
            _ => self.to_string(),
        }
    }
}

/// Whether an error comes from a full disk or database quota: SQLite's `SQLITE_FULL` (13, a
/// full disk or `max_page_count` reached), PostgreSQL's `disk_full` (53100), or the
/// operating system's "no space left on device". Such a failure is the operator's to fix
/// and passes once space is freed: 503, not 500.
pub(crate) fn storage_full(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        if let Some(sqlx::Error::Database(e)) = cause.downcast_ref::<sqlx::Error>() {
            return matches!(e.code().as_deref(), Some("13" | "53100"));
        }
        if let Some(sqlx::Error::Io(e)) = cause.downcast_ref::<sqlx::Error>() {
            return e.kind() == std::io::ErrorKind::StorageFull;
        }
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::StorageFull)
    })
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let full = matches!(&self, ApiError::Internal(e) if storage_full(e));
        if let ApiError::Internal(e) = &self {
            // The chain can hold SQL and file names: the log has it, the client does not.
            tracing::error!(error = format!("{e:#}"), "internal error");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code: code.into(),
                message: self.message(),
                rule: match self {
                    ApiError::IllegalMove { rule, .. } => Some(rule.into()),
                    _ => None,
                },
            },
        };
        let mut response = (status, Json(body)).into_response();
        let retry = match self {
            ApiError::RateLimited(wait) => Some(wait),
            _ if full => Some(STORAGE_FULL_RETRY),
            _ => None,
        };
        if let Some(wait) = retry {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(retry_after_seconds(wait)),
            );
        }
        response
    }
}

/// The result of a handler.
pub(crate) type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_rounds_up_and_is_never_zero() {
        assert_eq!(retry_after_seconds(Duration::ZERO), 1);
        assert_eq!(retry_after_seconds(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_seconds(Duration::from_secs(3)), 3);
        assert_eq!(retry_after_seconds(Duration::from_millis(3001)), 4);
    }

    #[test]
    fn an_internal_error_shows_no_detail() {
        let e = ApiError::Internal(anyhow::anyhow!("secret table accounts"));
        assert_eq!(e.to_string(), "internal error");
        assert_eq!(e.status_and_code().1, "internal");
    }
}
