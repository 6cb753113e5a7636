//! RFC 9728 protected resource metadata: the document, and where it is served.

use std::collections::BTreeSet;

use axum::Router;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, header};
use serde_json::{Value, json};

use crate::http::auth::policy::Authorization;
use crate::server::ServerInner;

/// The root well-known path.
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The resource URI split into origin and path (`""` for the root).
pub(crate) fn split(resource: &str) -> (String, String) {
    match reqwest::Url::parse(resource) {
        Ok(url) => (
            url.origin().ascii_serialization(),
            url.path().trim_end_matches('/').to_owned(),
        ),
        Err(_) => (String::new(), String::new()),
    }
}

/// The metadata's URL: the well-known path with the resource's path appended (RFC 9728 §3.1).
pub(crate) fn url(resource: &str) -> String {
    let (origin, path) = split(resource);
    format!("{origin}{WELL_KNOWN}{path}")
}

/// The metadata document.
pub(crate) fn document(auth: &Authorization, server: &ServerInner) -> Value {
    let scopes: Vec<String> = match &auth.scopes_supported {
        Some(scopes) => scopes.clone(),
        None => {
            let live = server.live();
            let c = &live.catalog;
            let mut all: BTreeSet<&str> = auth.required.iter().map(String::as_str).collect();
            all.extend(c.tools.iter().flat_map(|t| t.record.scopes.iter().copied()));
            all.extend(
                c.resources
                    .iter()
                    .flat_map(|r| r.record.scopes.iter().copied()),
            );
            all.extend(
                c.templates
                    .iter()
                    .flat_map(|t| t.record.scopes.iter().copied()),
            );
            all.extend(
                c.prompts
                    .iter()
                    .flat_map(|p| p.record.scopes.iter().copied()),
            );
            for (broader, narrower) in &auth.implies {
                all.insert(broader);
                all.extend(narrower.iter().map(String::as_str));
            }
            all.into_iter().map(str::to_owned).collect()
        }
    };
    let mut doc = json!({
        "resource": auth.resource,
        "authorization_servers": auth.servers,
        "scopes_supported": scopes,
        "bearer_methods_supported": ["header"],
    });
    if let Some(name) = &auth.resource_name {
        doc["resource_name"] = json!(name);
    }
    doc
}

/// The routes serving the document at both well-known paths.
pub(crate) fn routes(
    auth: std::sync::Arc<Authorization>,
    server: std::sync::Arc<ServerInner>,
) -> Router {
    let (_, path) = split(&auth.resource);
    let serve = move || {
        let (auth, server) = (auth.clone(), server.clone());
        async move {
            let body = serde_json::to_vec(&document(&auth, &server)).unwrap_or_default();
            let mut r: Response = body.into_response();
            let h = r.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            h.insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("max-age=300"),
            );
            h.insert(
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            );
            r
        }
    };
    let mut router = Router::new().route(WELL_KNOWN, axum::routing::get(serve.clone()));
    if !path.is_empty() {
        router = router.route(&format!("{WELL_KNOWN}{path}"), axum::routing::get(serve));
    }
    router
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_well_known_forms() {
        assert_eq!(
            url("https://example.com/public/mcp"),
            "https://example.com/.well-known/oauth-protected-resource/public/mcp"
        );
        assert_eq!(
            url("https://example.com"),
            "https://example.com/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            url("http://127.0.0.1:8000/mcp/"),
            "http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp"
        );
    }
}
