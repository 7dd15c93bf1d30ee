//! The OpenAPI document, generated from the handlers' annotations so that it cannot drift.

use std::sync::OnceLock;

use axum::Json;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

/// The document's frame: its title and description and the ways to authenticate (every
/// route is declared with its entry by its area's `router()`).
#[derive(OpenApi)]
#[openapi(
    info(title = "swapboard"),
    modifiers(&Credentials, &Description)
)]
pub(crate) struct ApiDoc;

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

/// Writes the document's description, whose list of games and authors is read from the
/// rules' catalogue rather than written again here.
struct Description;

impl Modify for Description {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.info.description = Some(format!(
            "Play {} over HTTP. Served now: accounts, tokens and sessions; two-player games \
             against people or the AI, with clocks, live sockets, records and pictures, invite \
             links, rematches and the AI's analysis of finished games; ratings and \
             leaderboards; the rules of each game; Swap 61 rooms run by a game master \
             (docs/API.md).",
            games_by_author()
        ));
    }
}

/// The games with their authors, a designer's games named together: `Swaptimum and
/// Flipstop (Mark Steere), Scware (Christian Freeling), ... and Swap 61 ('pseudonam')`.
fn games_by_author() -> String {
    let mut groups: Vec<(Vec<&str>, &str)> = Vec::new();
    for rules in swapboard_play::rules::ALL {
        match groups.last_mut() {
            Some((names, author)) if *author == rules.author() => names.push(rules.name()),
            _ => groups.push((vec![rules.name()], rules.author())),
        }
    }
    let credits: Vec<String> = groups
        .into_iter()
        .map(|(names, author)| format!("{} ({author})", names.join(" and ")))
        .collect();
    match credits.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "server",
    responses((status = 200, description = "The OpenAPI document of this server", body = Object)))]
pub(crate) async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(served().clone())
}

/// The document of the routes the server serves ([`crate::app::api`]), made once.
fn served() -> &'static utoipa::openapi::OpenApi {
    static DOCUMENT: OnceLock<utoipa::openapi::OpenApi> = OnceLock::new();
    DOCUMENT.get_or_init(|| crate::app::api().into_openapi())
}

/// The route of this document, with its own entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(document))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's parameters say what the server takes, and its components hold the
    /// error body and the ways to authenticate.
    #[test]
    fn parameters_errors_and_credentials_are_documented() {
        let doc = serde_json::to_value(served()).unwrap();
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

    /// The description credits every game of the catalogue, a designer's games together.
    #[test]
    fn the_description_credits_the_games() {
        let description = served().info.description.clone().unwrap_or_default();
        assert!(
            description.starts_with(
                "Play Swaptimum and Flipstop (Mark Steere), Scware (Christian Freeling), \
                 Rapid Transit (Phil Leduc) and Swap 61 ('pseudonam') over HTTP. "
            ),
            "{description}"
        );
    }

    /// The live sockets' messages are one schema in the components, `LiveMessage`, whose
    /// variants are told apart by `type`; both sockets' entries name it, and the web
    /// client's `LiveMessage` type (`web/src/types.ts`) has exactly those `type`s.
    #[test]
    fn live_messages_are_one_schema_the_web_client_follows() {
        let doc = serde_json::to_value(served()).unwrap();
        let schema = &doc["components"]["schemas"]["LiveMessage"];
        let variants = schema["oneOf"].as_array().expect("LiveMessage is a oneOf");
        let mut types: Vec<&str> = variants
            .iter()
            .map(|variant| {
                let tag = &variant["properties"]["type"];
                assert!(
                    variant["required"]
                        .as_array()
                        .is_some_and(|r| r.contains(&"type".into())),
                    "{variant}"
                );
                match tag["enum"].as_array().map(Vec::as_slice) {
                    Some([only]) => only.as_str().unwrap(),
                    _ => panic!("a variant without one `type`: {variant}"),
                }
            })
            .collect();
        types.sort_unstable();
        assert_eq!(
            types,
            ["chat", "inbox", "move", "room", "state", "tournament"]
        );
        for path in [
            "/api/games/{id}/socket",
            "/api/rooms/{id}/socket",
            "/api/me/notifications/socket",
            "/api/tournaments/{id}/socket",
        ] {
            let upgrade = doc["paths"][path]["get"]["responses"]["101"]["description"]
                .as_str()
                .unwrap();
            assert!(upgrade.contains("`LiveMessage`"), "{path}: {upgrade}");
        }
        let web = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/types.ts"),
        )
        .unwrap();
        assert_eq!(web_live_types(&web), types);
    }

    /// The `type`s of the web client's `LiveMessage`: the `type: '...'` of each member of
    /// the union `export type LiveMessage = ...;` in `types.ts`.
    fn web_live_types(types_ts: &str) -> Vec<&str> {
        let start = types_ts
            .find("export type LiveMessage =")
            .expect("web/src/types.ts declares LiveMessage");
        // The union ends at the first `;` outside its members' braces.
        let mut depth = 0i32;
        let end = types_ts[start..]
            .find(|c: char| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                c == ';' && depth == 0
            })
            .expect("the union ends");
        let union = &types_ts[start..start + end];
        let mut types: Vec<&str> = union
            .split("type: '")
            .skip(1)
            .map(|rest| &rest[..rest.find('\'').expect("a quoted type")])
            .collect();
        types.sort_unstable();
        types
    }
}
