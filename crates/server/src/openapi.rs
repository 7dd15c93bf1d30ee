//! The OpenAPI document, generated from the handlers' annotations so that it cannot drift.

use std::sync::Arc;

use axum::response::{IntoResponse as _, Response};
use axum::{Extension, Json};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::{accounts, analysis, app, games, lists, live, review};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "swapboard",
        description = "Play Swaptimum and Flipstop (Mark Steere), Scware (Christian Freeling), \
                       Rapid Transit (Phil Leduc) and Swap 61 over HTTP. Served now: accounts, \
                       tokens and sessions; two-player games against people or the AI, with \
                       clocks, live sockets, records and pictures, invite links, rematches \
                       and the AI's analysis of finished games; Swap 61 rooms come next \
                       (docs/API.md)."
    ),
    paths(
        accounts::sign_up,
        accounts::create_token,
        accounts::revoke_token,
        accounts::log_in_session,
        accounts::log_out_session,
        accounts::me,
        games::create,
        games::catalogue,
        games::show,
        games::join,
        games::play,
        games::resign,
        games::draft,
        games::my_turn,
        live::socket,
        review::view,
        review::moves,
        review::record,
        review::svg,
        lists::lobby,
        lists::games_of,
        app::healthz,
        app::readyz,
        document,
        games::rematch,
        analysis::analysis,
        analysis::review,
    ),
    modifiers(&Credentials)
)]
struct ApiDoc;

/// Declares the two ways to authenticate the handlers name in `security(...)`.
struct Credentials;

impl Modify for Credentials {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(
                crate::auth::SESSION_COOKIE,
            ))),
        );
    }
}

/// The document served: the paths listed above and those the areas' routers declare
/// (`crate::rooms::router`), put together once when the router is built.
#[derive(Clone)]
pub(crate) struct Document(Arc<utoipa::openapi::OpenApi>);

impl Document {
    /// This server's document, with the paths and schemas of the areas' routers.
    pub(crate) fn with(areas: utoipa::openapi::OpenApi) -> Document {
        let mut doc = ApiDoc::openapi();
        doc.merge(areas);
        Document(Arc::new(doc))
    }
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "server",
    responses((status = 200, description = "The OpenAPI document of this server", body = Object)))]
pub(crate) async fn document(Extension(doc): Extension<Document>) -> Response {
    Json(&*doc.0).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_and_error_body_is_documented() {
        let served = Document::with(crate::rooms::router().into_openapi());
        let doc = serde_json::to_value(&*served.0).unwrap();
        for path in [
            "/api/accounts",
            "/api/tokens",
            "/api/tokens/current",
            "/api/session",
            "/api/me",
            "/api/games",
            "/api/games/catalogue",
            "/api/games/{id}",
            "/api/games/{id}/join",
            "/api/games/{id}/moves",
            "/api/games/{id}/resign",
            "/api/games/{id}/draft",
            "/api/me/turn",
            "/api/me/rooms",
            "/healthz",
            "/readyz",
            "/api/games/{id}/rematch",
            "/api/games/{id}/analysis",
            "/api/games/{id}/review",
            "/api/rooms",
            "/api/rooms/{id}",
            "/api/rooms/{id}/submission",
        ] {
            assert!(doc["paths"][path].is_object(), "{path} is missing");
        }
        // What a schema-driven fuzzer may send is what the server takes.
        let parameter = |path: &str, name: &str| {
            doc["paths"][path]["get"]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap()["schema"]
                .clone()
        };
        let level = parameter("/api/games/{id}/analysis", "level");
        assert_eq!(
            (&level["minimum"], &level["maximum"]),
            (&1.into(), &8.into())
        );
        let status = parameter("/api/accounts/{name}/games", "status");
        assert_eq!(status["pattern"], "^(waiting|playing|finished)$");
        assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
        assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    }
}
