//! The OpenAPI document, generated from the handlers' annotations so that it cannot drift.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use axum::Json;
use utoipa::openapi::path::Operation;
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
    DOCUMENT.get_or_init(|| {
        let mut document = crate::app::api().into_openapi();
        unique_operation_ids(&mut document);
        document
    })
}

/// Prefixes an operation id that several operations share with the operation's tag
/// (`show` becomes `games_show`, `rooms_show`, ...). Each id is its handler's name, and
/// areas name theirs alike; OpenAPI wants them unique, and code generated from the document
/// (the web client's types) is keyed by them.
fn unique_operation_ids(document: &mut utoipa::openapi::OpenApi) {
    let mut uses: BTreeMap<String, usize> = BTreeMap::new();
    for operation in operations(document) {
        if let Some(id) = &operation.operation_id {
            *uses.entry(id.clone()).or_default() += 1;
        }
    }
    for operation in operations(document) {
        if let (Some(id), Some([tag, ..])) =
            (&mut operation.operation_id, operation.tags.as_deref())
            && uses[id.as_str()] > 1
        {
            *id = format!("{tag}_{id}");
        }
    }
}

/// Every operation of the document, path by path.
fn operations(document: &mut utoipa::openapi::OpenApi) -> impl Iterator<Item = &mut Operation> {
    document.paths.paths.values_mut().flat_map(|item| {
        [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ]
        .into_iter()
        .flatten()
    })
}

/// The route of this document, with its own entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(document))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::*;
    use crate::limits::{accounts, admin, chat, notifications, ratings, rooms, vacation};

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
    /// variants are told apart by `type`, and every socket's entry names it: the web client's
    /// `LiveMessage` is that schema (`web/src/wire.gen.ts`, generated from the document).
    #[test]
    fn live_messages_are_one_schema() {
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
    }

    /// Every operation has an id of its own.
    #[test]
    fn operation_ids_are_unique() {
        let mut document = served().clone();
        let mut ids: Vec<String> = operations(&mut document)
            .map(|operation| operation.operation_id.clone().expect("an operation id"))
            .collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "{ids:?}");
    }

    /// The document as committed for the web client, whose wire types
    /// (`web/src/wire.gen.ts`) are generated from it: a change to a handler's annotations or
    /// a view's fields must reach the client's type check. `UPDATE_OPENAPI=1` writes it.
    #[test]
    fn the_committed_document_is_the_served_one() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/openapi.json");
        let document = serde_json::to_string_pretty(served()).unwrap() + "\n";
        if std::env::var_os("UPDATE_OPENAPI").is_some() {
            std::fs::write(&path, &document).unwrap();
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == document,
            "web/openapi.json is not the document the server serves: run \
             `UPDATE_OPENAPI=1 cargo test -p swapboard-server --lib openapi`, then \
             `npm run build` in web/ (it regenerates src/wire.gen.ts), and commit them"
        );
    }

    /// The routes served outside the document: the metrics on their own listener, and the
    /// browser client's files and pages on every path outside `/api/`.
    const OUTSIDE_THE_DOCUMENT: [(&str, &str); 2] = [("GET", "/metrics"), ("GET", "/")];

    /// docs/API.md's table "What is served today" names every route the document has, each
    /// once, and no other (but those served outside it).
    #[test]
    fn the_docs_route_table_lists_exactly_the_served_routes() {
        let doc = serde_json::to_value(served()).unwrap();
        let mut served: BTreeSet<(String, String)> = BTreeSet::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for method in ["get", "put", "post", "delete", "patch", "head", "options"] {
                if item.get(method).is_some() {
                    served.insert((method.to_uppercase(), path.clone()));
                }
            }
        }
        served.extend(
            OUTSIDE_THE_DOCUMENT
                .iter()
                .map(|&(method, path)| (method.to_owned(), path.to_owned())),
        );
        let docs = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md"),
        )
        .unwrap();
        let listed = table_routes(&docs);
        let mut twice: Vec<&(String, String)> = listed
            .iter()
            .enumerate()
            .filter(|&(i, route)| listed[..i].contains(route))
            .map(|(_, route)| route)
            .collect();
        twice.dedup();
        let listed: BTreeSet<(String, String)> = listed.iter().cloned().collect();
        let show = |routes: Vec<&(String, String)>| {
            routes
                .iter()
                .map(|(method, path)| format!("`{method} {path}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let missing = show(served.difference(&listed).collect());
        let extra = show(listed.difference(&served).collect());
        assert!(
            missing.is_empty() && extra.is_empty() && twice.is_empty(),
            "docs/API.md's route table (\"What is served today\") differs from the routes \
             served; each route is written in full in its own code span, `METHOD /path`.\n\
             missing: {missing}\nnot served: {extra}\nlisted twice: {}",
            show(twice)
        );
    }

    /// The routes the first column of the table under "## What is served today" names: each
    /// code span that starts with a method, its path up to a query (`?`) or a space.
    fn table_routes(docs: &str) -> Vec<(String, String)> {
        let section = docs
            .split_once("\n## What is served today\n")
            .expect("docs/API.md has its section \"What is served today\"")
            .1;
        let rows = section
            .lines()
            .skip_while(|line| !line.starts_with('|'))
            .take_while(|line| line.starts_with('|'))
            // The header and the line under it.
            .skip(2);
        let mut routes = Vec::new();
        for row in rows {
            let first = row[1..].split(" | ").next().unwrap_or_default();
            for span in first.split('`').skip(1).step_by(2) {
                let Some((method, rest)) = span.split_once(' ') else {
                    continue;
                };
                let known = ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"];
                if !known.contains(&method) || !rest.starts_with('/') {
                    continue;
                }
                let path = rest.split(['?', ' ']).next().unwrap_or_default();
                routes.push((method.to_owned(), path.to_owned()));
            }
        }
        routes
    }

    /// utoipa takes the bounds of a schema only as literals, so the API document repeats
    /// these limits: each number it states is checked against the limit it repeats.
    #[test]
    fn the_api_document_states_the_limits_it_repeats() {
        let doc = serde_json::to_value(served()).unwrap();
        let count = |n: usize| u64::try_from(n).unwrap();
        let (name, password) = (&accounts::NAME_CHARS, &accounts::PASSWORD_CHARS);
        let mut properties = vec![
            (
                "Forgot",
                "name",
                "maxLength",
                count(accounts::MOST_ADDRESS_CHARS),
            ),
            (
                "Forgot",
                "email",
                "maxLength",
                count(accounts::MOST_ADDRESS_CHARS),
            ),
            (
                "TokenRequest",
                "expires_days",
                "maximum",
                accounts::MAX_TOKEN_DAYS as u64,
            ),
            (
                "TakeDays",
                "days",
                "maximum",
                u64::from(vacation::MOST_DAYS),
            ),
            (
                "MuteBody",
                "hours",
                "maximum",
                u64::from(chat::MAX_MUTE_HOURS),
            ),
            ("MuteBody", "reason", "maxLength", count(admin::MAX_REASON)),
            ("Reason", "reason", "maxLength", count(admin::MAX_REASON)),
            (
                "Adjudication",
                "reason",
                "maxLength",
                count(admin::MAX_REASON),
            ),
            (
                "NewReport",
                "reason",
                "maxLength",
                count(chat::MAX_REPORT_REASON),
            ),
            ("NewMessage", "text", "maxLength", count(chat::MAX_MESSAGE)),
        ];
        for schema in ["Credentials", "TokenRequest"] {
            properties.push((schema, "name", "minLength", count(*name.start())));
            properties.push((schema, "name", "maxLength", count(*name.end())));
        }
        for (schema, field) in [
            ("Credentials", "password"),
            ("TokenRequest", "password"),
            ("Reset", "password"),
            ("Deletion", "password"),
            ("PasswordChange", "password"),
            ("PasswordChange", "new_password"),
        ] {
            properties.push((schema, field, "minLength", count(*password.start())));
            properties.push((schema, field, "maxLength", count(*password.end())));
        }
        for (schema, field, keyword, limit) in properties {
            let stated = &doc["components"]["schemas"][schema]["properties"][field][keyword];
            assert_eq!(stated.as_u64(), Some(limit), "{schema}.{field} {keyword}");
        }
        let parameter = |path: &str, name: &str| {
            doc["paths"][path]["get"]["parameters"]
                .as_array()
                .and_then(|all| all.iter().find(|p| p["name"] == name))
                .unwrap_or_else(|| panic!("{path} takes no {name}"))
                .clone()
        };
        for (path, limit) in [
            ("/api/admin/log", u64::from(admin::MAX_LOG_LINES)),
            ("/api/admin/signups", u64::from(admin::MAX_LOG_LINES)),
            ("/api/puzzles", ratings::MAX_PUZZLES_LISTED as u64),
        ] {
            let stated = &parameter(path, "limit")["schema"]["maximum"];
            assert_eq!(stated.as_u64(), Some(limit), "{path} limit");
        }
        let notices = parameter("/api/me/notifications", "limit")["description"].to_string();
        let page = format!("1 to {}", notifications::PAGE_LIMIT);
        assert!(notices.contains(&page), "{notices}");
        let submission =
            doc["paths"]["/api/rooms/{id}/submission"]["put"]["requestBody"]["description"]
                .to_string();
        let most = format!("at most {} bytes", rooms::SUBMISSION_BYTES);
        assert!(submission.contains(&most), "{submission}");
    }
}
