//! The Server Card at `<endpoint>/server-card` and the AI Catalog at
//! `/.well-known/ai-catalog.json`, with the headers `docs/discovery.md` asks for: the media type,
//! `Cache-Control: public, max-age=3600`, an `ETag` honoured by `If-None-Match` (304), and the
//! CORS headers of "CORS Requirements" (a preflight `OPTIONS` is answered 204). The bytes are the
//! ones built with the server; nothing is made per request. Like the health endpoints they are
//! outside the authorization gate and the Host/Origin check: "AI Catalogs and Server Cards used
//! for public discovery are publicly accessible by design".

use std::sync::Arc;

use axum::Router;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use mcp_core::server_card::{CARD_SUFFIX, CATALOG_MEDIA_TYPE, CATALOG_PATH, MEDIA_TYPE};

use crate::card::{Built, Catalog};
use crate::server::ServerInner;

/// `Cache-Control` of both documents.
pub(crate) const CACHE_CONTROL: &str = "public, max-age=3600";

/// The card's path for an endpoint at `path` (`/mcp` → `/mcp/server-card`, `/` →
/// `/server-card`).
pub(crate) fn card_path(path: &str) -> String {
    format!("{}{CARD_SUFFIX}", path.trim_end_matches('/'))
}

/// The paths the card routes take for an endpoint at `path`, `standalone` for the server's own
/// listener: none without a card.
pub(crate) fn paths(server: &ServerInner, path: &str, standalone: bool) -> Vec<String> {
    let Some(card) = &server.card else {
        return Vec::new();
    };
    let mut paths = vec![card_path(path)];
    if serves_catalog(card, standalone) {
        paths.push(CATALOG_PATH.to_owned());
    }
    paths
}

fn serves_catalog(card: &Built, standalone: bool) -> bool {
    match card.catalog {
        Catalog::Always => true,
        Catalog::Auto => standalone,
        Catalog::Never => false,
    }
}

/// One document: its bytes, media type and entity tag.
#[derive(Clone)]
struct Document {
    body: Arc<str>,
    media_type: &'static str,
    etag: HeaderValue,
}

/// Adds the card (and the catalog, when it is served) to `router`.
pub(crate) fn routes(router: Router, server: &ServerInner, path: &str, standalone: bool) -> Router {
    let Some(card) = &server.card else {
        return router;
    };
    let mut router = route(
        router,
        &card_path(path),
        Document {
            body: Arc::clone(&card.json),
            media_type: MEDIA_TYPE,
            etag: HeaderValue::from_str(&card.etag).unwrap_or(HeaderValue::from_static("\"0\"")),
        },
    );
    if serves_catalog(card, standalone) {
        router = route(
            router,
            CATALOG_PATH,
            Document {
                body: Arc::clone(&card.catalog_json),
                media_type: CATALOG_MEDIA_TYPE,
                etag: HeaderValue::from_str(&card.catalog_etag)
                    .unwrap_or(HeaderValue::from_static("\"0\"")),
            },
        );
    }
    router
}

fn route(router: Router, path: &str, doc: Document) -> Router {
    let doc = Arc::new(doc);
    router.route(
        path,
        axum::routing::get(move |headers: HeaderMap| async move { answer(&doc, &headers) })
            .options(|| async { preflight() }),
    )
}

/// The CORS headers of every answer.
fn cors(headers: &mut HeaderMap) {
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("Content-Type, If-None-Match"),
    );
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("ETag"),
    );
}

/// 204 to a preflight, with the CORS headers.
fn preflight() -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    cors(response.headers_mut());
    response
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 §13.1.2 says) or is `*`.
fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag).as_bytes() == etag)
}

/// 200 with the document, or 304 when the client holds it.
fn answer(doc: &Document, headers: &HeaderMap) -> Response {
    let fresh = not_modified(headers, &doc.etag);
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = doc.body.to_string().into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(doc.media_type),
        );
        response
    };
    let out = response.headers_mut();
    out.insert(header::ETAG, doc.etag.clone());
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL),
    );
    cors(out);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists_and_a_star() {
        let etag = HeaderValue::from_static("\"abc\"");
        let with = |v: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_static(v));
            not_modified(&h, &etag)
        };
        assert!(with("\"abc\""));
        assert!(with("W/\"abc\""));
        assert!(with("\"x\", \"abc\""));
        assert!(with("*"));
        assert!(!with("\"abd\""));
        assert!(!with("abc"));
        assert!(!not_modified(&HeaderMap::new(), &etag));
    }

    #[test]
    fn the_card_path_follows_the_endpoint() {
        assert_eq!(card_path("/mcp"), "/mcp/server-card");
        assert_eq!(card_path("/"), "/server-card");
        assert_eq!(card_path("/a/b/"), "/a/b/server-card");
    }
}
