//! Every way a request fails, mapped to the status and code of the API contract.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

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
    /// The server's own failure: logged, never shown.
    #[error("internal error")]
    Internal(#[from] anyhow::Error),
}

/// The body of every error answer.
#[derive(Serialize, ToSchema)]
pub(crate) struct ErrorBody {
    error: ErrorDetail,
}

/// What went wrong, for a program (`code`) and for a person (`message`).
#[derive(Serialize, ToSchema)]
pub(crate) struct ErrorDetail {
    /// A stable code: `bad_request`, `unauthenticated`, `forbidden`, `not_your_turn`,
    /// `not_found`, `conflict`, `illegal_move`, `rate_limited`, `timeout` or `internal`.
    code: &'static str,
    /// Words for a person.
    message: String,
    /// With `illegal_move` only: the stable code of the rule the move breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
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
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if let ApiError::Internal(e) = &self {
            // The chain can hold SQL and file names: the log has it, the client does not.
            tracing::error!(error = format!("{e:#}"), "internal error");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code,
                message: self.to_string(),
                rule: match self {
                    ApiError::IllegalMove { rule, .. } => Some(rule),
                    _ => None,
                },
            },
        };
        let mut response = (status, Json(body)).into_response();
        if let ApiError::RateLimited(wait) = self {
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
