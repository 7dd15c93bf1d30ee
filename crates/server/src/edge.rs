//! The edge: request bodies and the caller's address read into typed values, every refusal
//! worded as the API's `bad_request`.

use std::net::IpAddr;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::limits::http::BODY_LIMIT;

/// A JSON body read into `T`; a bad one answers 400 naming the field and the reason.
pub(crate) struct Body<T>(pub(crate) T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(ApiError::BadRequest(body_refusal(&rejection))),
        }
    }
}

/// A JSON body read into `T` when the request has one: an empty body is `None` (an endpoint
/// whose every field is optional may be called with none), anything else is read as [`Body`].
pub(crate) struct MaybeBody<T>(pub(crate) Option<T>);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for MaybeBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        let bytes = axum::body::to_bytes(body, BODY_LIMIT).await.map_err(|_| {
            ApiError::BadRequest(format!(
                "body: cannot be read whole (at most {BODY_LIMIT} bytes)"
            ))
        })?;
        if bytes.is_empty() {
            return Ok(MaybeBody(None));
        }
        let req = Request::from_parts(parts, axum::body::Body::from(bytes));
        let Body(value) = Body::from_request(req, state).await?;
        Ok(MaybeBody(Some(value)))
    }
}

/// Why a body was refused, in words; a data error keeps serde's path to the field.
fn body_refusal(rejection: &JsonRejection) -> String {
    match rejection {
        JsonRejection::JsonDataError(e) => {
            // axum's text is "Failed to deserialize ...: <path>: <reason> at line L column C";
            // the part after the first ": " is the field and the reason.
            let text = e.body_text();
            let detail = text
                .split_once(": ")
                .map_or(text.as_str(), |(_, rest)| rest);
            format!("body: {detail}")
        }
        JsonRejection::JsonSyntaxError(_) => "body: not valid JSON".to_owned(),
        JsonRejection::MissingJsonContentType(_) => {
            "body: the Content-Type header must be application/json".to_owned()
        }
        JsonRejection::BytesRejection(_) => {
            format!("body: cannot be read whole (at most {BODY_LIMIT} bytes)")
        }
        _ => "body: cannot be read".to_owned(),
    }
}

/// A URL query read into `T`; a bad one answers 400 naming the parameter and the reason.
pub(crate) struct Params<T>(pub(crate) T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Params(value)),
            Err(rejection) => {
                // axum's text is "Failed to deserialize query string: <field>: <reason>".
                let text = rejection.body_text();
                let detail = text
                    .split_once(": ")
                    .map_or(text.as_str(), |(_, rest)| rest);
                Err(ApiError::BadRequest(format!("query: {detail}")))
            }
        }
    }
}

/// The address the request came from: the TCP peer, or behind a trusted proxy the client the
/// proxy names (put in the request's extensions by the router's outermost layer, which reads
/// `--trusted-proxy`; see `crate::proxy`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientAddr(pub(crate) IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("no client address on a request")))
    }
}
