//! The web client (`web/`), embedded in the binary by the build script: its files, gzipped
//! copies beside them, and `index.html` for every page URL (the client routes by the History
//! API). The server only serves these bytes: the client's words and logic are its own, and
//! everything it says about a game comes from the API.

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// Every file of `web/dist`, by path from the site's root (`/index.html`, `/app.1a2b3c4d.js`,
/// and a `.gz` beside each compressible one).
static FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// The page every client-side URL answers with.
const INDEX: &str = "/index.html";

/// The web push service worker (`web/src/sw.ts`): its scope is the whole site.
const SERVICE_WORKER: &str = "/sw.js";

/// The web app manifest (`web/build.mjs` writes it): linked from every page by this one URL.
const MANIFEST: &str = "/manifest.webmanifest";

/// Where the page may load from and connect to: its own server only (`'self'` covers the
/// game's WebSocket too), no inline script, no frames around it.
const POLICY: &str = "default-src 'self'; connect-src 'self'; img-src 'self'; \
     style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

fn file(path: &str) -> Option<&'static [u8]> {
    FILES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, body)| *body)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("webmanifest") => "application/manifest+json",
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Whether the request takes gzip (`Accept-Encoding: gzip`, not with `q=0`).
fn takes_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// The client's answer to a GET or HEAD outside the API: the file of that path, or the page
/// for any other path (the client shows its own "no such page"). `None` for the API's paths
/// and other methods, which keep the API's JSON answers.
pub(crate) fn answer(method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<Response> {
    let path = uri.path();
    if path.starts_with("/api/") || path == "/api" || path == "/healthz" {
        return None;
    }
    if method != Method::GET && method != Method::HEAD {
        return None;
    }
    let (name, body) = match file(path).filter(|_| path != INDEX && !path.ends_with(".gz")) {
        Some(body) => (path, body),
        None => (INDEX, file(INDEX)?),
    };
    // Hashed names change with their content, so they may be kept for ever; the page itself,
    // the service worker and the manifest (each known by its one URL) are checked each time,
    // so a new version is picked up at the next load.
    let cache = if [INDEX, SERVICE_WORKER, MANIFEST].contains(&name) {
        "no-cache"
    } else {
        "public, max-age=31536000, immutable"
    };
    let gzipped = takes_gzip(headers)
        .then(|| {
            FILES
                .iter()
                .find(|(n, _)| n.strip_suffix(".gz") == Some(name))
        })
        .flatten()
        .map(|(_, gz)| *gz);
    let mut response = (StatusCode::OK, gzipped.unwrap_or(body)).into_response();
    let headers = response.headers_mut();
    let constant = HeaderValue::from_static;
    headers.insert(header::CONTENT_TYPE, constant(content_type(name)));
    headers.insert(header::CACHE_CONTROL, constant(cache));
    headers.insert(header::VARY, constant("Accept-Encoding"));
    if gzipped.is_some() {
        headers.insert(header::CONTENT_ENCODING, constant("gzip"));
    }
    headers.insert(header::CONTENT_SECURITY_POLICY, constant(POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, constant("nosniff"));
    // An invite link carries its secret in the URL: never hand it to another site.
    headers.insert(header::REFERRER_POLICY, constant("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, constant("DENY"));
    Some(response)
}
