//! What every admin and moderator route checks first: that the caller holds a role, and
//! that a reason or a list's length is within bounds.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::limits::admin::{MAX_LOG_LINES, MAX_REASON};
use crate::state::AppState;
use crate::store::Role;

/// The roles that moderate: ban, mute, hide, read the reports and the admin log.
pub(crate) const MODERATORS: &[Role] = &[Role::Admin, Role::Moderator];

/// Why an account is banned or unbanned.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Reason {
    /// Words for the admin log, 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    pub(crate) reason: String,
}

/// The caller, if it holds one of `roles`; 403 otherwise.
pub(crate) async fn holding(state: &AppState, caller: &Caller, roles: &[Role]) -> ApiResult<()> {
    if state
        .store
        .has_role(caller.holder.account_id, roles)
        .await?
    {
        Ok(())
    } else {
        let names: Vec<&str> = roles.iter().map(|role| role.as_str()).collect();
        Err(ApiError::Forbidden(format!(
            "this needs the role {}",
            names.join(" or ")
        )))
    }
}

/// A list's `limit`: 1 to [`MAX_LOG_LINES`], 100 when absent.
pub(crate) fn limit_of(limit: Option<u32>) -> ApiResult<u32> {
    let limit = limit.unwrap_or(100);
    if (1..=MAX_LOG_LINES).contains(&limit) {
        Ok(limit)
    } else {
        Err(ApiError::BadRequest(format!(
            "limit: {limit} is not 1 to {MAX_LOG_LINES}"
        )))
    }
}

/// A reason checked for length.
pub(crate) fn reason_of(reason: Reason) -> ApiResult<String> {
    trimmed_words("reason", &reason.reason, MAX_REASON)
}

/// Words a moderator gives (a reason, a note), trimmed and checked: 1 to `most`
/// characters, refused naming `field` otherwise.
pub(crate) fn trimmed_words(field: &str, text: &str, most: usize) -> ApiResult<String> {
    let text = text.trim();
    let length = text.chars().count();
    if length == 0 || length > most {
        return Err(ApiError::BadRequest(format!(
            "{field}: {length} characters, expected 1 to {most}"
        )));
    }
    Ok(text.to_owned())
}
