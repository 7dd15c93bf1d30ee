//! The rules of the five games for pages, as `swapboard_play::rules` words them: every
//! game in short with its first picture (`GET /api/rules`), and one game's whole rules with
//! every diagram drawn as the engine's SVG (`GET /api/rules/{game}`).
//!
//! The rules never change while the server runs, so each answer is serialised once, on the
//! first request, and served from memory after that.

use std::sync::LazyLock;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use swapboard_play::rules::{self, Rules, Subject};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The rules' routes (the games' rules, for anyone), each with its OpenAPI entry.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(show))
}

/// A game in short, for a front page.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesSummary {
    /// The game's id (`rapid-transit`, `swap61`).
    id: &'static str,
    /// Its name (`Rapid Transit`).
    name: &'static str,
    /// Its designer, credited wherever the game is named.
    author: &'static str,
    /// The year(s) of its rule sheet ("" when the sheet names none).
    year: &'static str,
    /// One line of what the game is about.
    summary: &'static str,
    /// Whether it is a two-player board game (played on game pages, against people or the
    /// AI) rather than Swap 61 (played in rooms with a game master).
    board: bool,
    /// The first diagram of its rules, an SVG document.
    picture: String,
}

/// Every game in short.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesList {
    /// The five games, the board games first.
    games: Vec<RulesSummary>,
}

/// A game's rules.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesPage {
    /// The game's id.
    id: &'static str,
    /// Its name.
    name: &'static str,
    /// Its designer.
    author: &'static str,
    /// The year(s) of its rule sheet ("" when the sheet names none).
    year: &'static str,
    /// Whether it is a two-player board game (else Swap 61, played in rooms).
    board: bool,
    /// One line of what the game is about.
    summary: &'static str,
    /// The credit, paragraph by paragraph: who designed it, when, and the author's terms.
    credit: &'static [&'static str],
    /// Where the author publishes the game, or the contact the sheet gives.
    links: Vec<RulesLink>,
    /// The rules, section by section: the sheet's rules, then swapboard's readings of what
    /// the sheet leaves open, then its own choices.
    sections: Vec<RulesSection>,
}

/// One picture of a diagram.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesPicture {
    /// What it shows (`before`, `after c3`), or "" for a diagram of one picture.
    label: String,
    /// A standalone SVG document.
    svg: String,
}

/// A link of a game's credit.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesLink {
    /// What it is, in words.
    text: &'static str,
    /// Where it goes (`https://...` or `mailto:...`).
    href: &'static str,
}

/// A section of a game's rules.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesSection {
    /// Where the rule comes from: `sheet` (the author's rule), `reading` (how swapboard reads
    /// what the sheet leaves open) or `choice` (swapboard's own, where the sheet is silent).
    source: &'static str,
    /// What a page says of that source, above the heading.
    source_label: &'static str,
    /// The heading.
    heading: &'static str,
    /// The text, paragraph by paragraph.
    paragraphs: &'static [&'static str],
    /// The sheet's own words for the rule, quoted (may be empty).
    sheet: &'static [&'static str],
    /// The pictures that show it.
    diagrams: Vec<RulesDiagram>,
}

/// A picture of the rules: the engine's drawing of a real position, and its caption (the
/// caption's claims are checked through the engines by the play crate's tests).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RulesDiagram {
    /// The picture, a standalone SVG document: the board (before and after, for a move
    /// shown played), without words.
    svg: String,
    /// What it shows, in words.
    caption: &'static str,
    /// The same picture one by one, each with its label (`before`, `after c3`; "" for a
    /// diagram of one picture), for a page that lays them out to fit the screen.
    pictures: Vec<RulesPicture>,
    /// The engine's notes about the position, set under the picture (network sizes).
    notes: Vec<String>,
    /// The rule codes of the refusals it shows (`placement_restriction`), as
    /// docs/RULES-CODES.md lists them.
    rules: Vec<&'static str>,
}

fn board(rules: &Rules) -> bool {
    matches!(rules.subject, Subject::Board(_))
}

fn page(rules: &Rules) -> RulesPage {
    RulesPage {
        id: rules.id(),
        name: rules.name(),
        author: rules.author(),
        year: rules.year(),
        board: board(rules),
        summary: rules.summary,
        credit: rules.credit,
        links: rules
            .links
            .iter()
            .map(|l| RulesLink {
                text: l.text,
                href: l.href,
            })
            .collect(),
        sections: rules
            .sections
            .iter()
            .map(|s| RulesSection {
                source: s.source.as_str(),
                source_label: s.source.label(),
                heading: s.heading,
                paragraphs: s.paragraphs,
                sheet: s.sheet,
                diagrams: s
                    .diagrams
                    .iter()
                    .map(|d| RulesDiagram {
                        svg: d.svg(),
                        pictures: d
                            .pictures()
                            .into_iter()
                            .map(|(label, svg)| RulesPicture { label, svg })
                            .collect(),
                        caption: d.caption,
                        notes: d.notes(),
                        rules: d.rule_codes(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("the rules serialise")
}

/// The answers, serialised once.
/// Each game's summary as JSON, by id: the list answers the offered ones' (`--games`).
static SUMMARIES: LazyLock<Vec<(&'static str, String)>> = LazyLock::new(|| {
    rules::ALL
        .iter()
        .map(|r| {
            let summary = RulesSummary {
                id: r.id(),
                name: r.name(),
                author: r.author(),
                year: r.year(),
                summary: r.summary,
                board: board(r),
                picture: r.diagrams().next().map(|d| d.svg()).unwrap_or_default(),
            };
            (r.id(), json(&summary))
        })
        .collect()
});
static PAGES: LazyLock<Vec<(&'static str, String)>> = LazyLock::new(|| {
    rules::ALL
        .iter()
        .map(|r| (r.id(), json(&page(r))))
        .collect()
});

fn json_response(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Every game in short, with its author, one line and a picture, for anyone.
#[utoipa::path(get, path = "/api/rules", tag = "rules",
    responses(
        (status = 200, description = "The games offered (`--games`; all five by default) in short", body = RulesList),
    ))]
pub(crate) async fn list(State(state): State<AppState>) -> Response {
    // The same document as a serialised `RulesList`, of the offered games' summaries.
    let offered: Vec<&str> = SUMMARIES
        .iter()
        .filter(|(id, _)| state.offered.has_id(id))
        .map(|(_, summary)| summary.as_str())
        .collect();
    let body = format!("{{\"games\":[{}]}}", offered.join(","));
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A game's rules in the project's words, every diagram drawn by the engine, for anyone.
#[utoipa::path(get, path = "/api/rules/{game}", tag = "rules",
    params(("game" = String, Path, description = "The game: swaptimum, flipstop, scware, rapid-transit or swap61")),
    responses(
        (status = 200, description = "The rules", body = RulesPage),
        (status = 404, description = "No such game", body = ErrorBody),
    ))]
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> ApiResult<Response> {
    PAGES
        .iter()
        .find(|(id, _)| *id == game && state.offered.has_id(id))
        .map(|(_, body)| json_response(body.as_str()))
        .ok_or_else(|| {
            let known: Vec<&str> = PAGES
                .iter()
                .map(|(id, _)| *id)
                .filter(|id| state.offered.has_id(id))
                .collect();
            ApiError::NotFound(format!(
                "no such game: rules are served for {}",
                known.join(", ")
            ))
        })
}
