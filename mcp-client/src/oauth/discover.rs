//! Discovery: the server's `WWW-Authenticate` challenge, its protected resource metadata
//! (RFC 9728) and the authorization server's metadata (RFC 8414 / OpenID Connect).

use reqwest::Url;
use serde_json::{Map, Value};

use mcp_io::fetch::{FetchError, Fetcher, metadata};

use super::OAuthError;

/// The parameters of a `Bearer` challenge that matter to the client.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Challenge {
    pub(crate) resource_metadata: Option<String>,
    pub(crate) scope: Option<String>,
    pub(crate) error: Option<String>,
}

impl Challenge {
    /// Parses `Bearer k=v, k="quoted v", …` (other schemes' parameters are ignored).
    pub(crate) fn parse(header: &str) -> Self {
        let mut out = Self::default();
        let mut rest = header.trim();
        let mut bearer = false;
        while !rest.is_empty() {
            // A scheme name: a token not followed by `=`.
            let token_end = rest
                .find(|c: char| c == '=' || c == ',' || c.is_whitespace())
                .unwrap_or(rest.len());
            let token = &rest[..token_end];
            let after = rest[token_end..].trim_start();
            if let Some(value_part) = after.strip_prefix('=') {
                let value_part = value_part.trim_start();
                let (value, tail) = if let Some(quoted) = value_part.strip_prefix('"') {
                    let mut value = String::new();
                    let mut chars = quoted.char_indices();
                    let mut end = quoted.len();
                    while let Some((i, c)) = chars.next() {
                        match c {
                            '\\' => {
                                if let Some((_, n)) = chars.next() {
                                    value.push(n);
                                }
                            }
                            '"' => {
                                end = i + 1;
                                break;
                            }
                            c => value.push(c),
                        }
                    }
                    (value, &quoted[end.min(quoted.len())..])
                } else {
                    let end = value_part.find(',').unwrap_or(value_part.len());
                    (value_part[..end].trim().to_owned(), &value_part[end..])
                };
                if bearer {
                    match token.to_ascii_lowercase().as_str() {
                        "resource_metadata" => out.resource_metadata = Some(value),
                        "scope" => out.scope = Some(value),
                        "error" => out.error = Some(value),
                        _ => {}
                    }
                }
                rest = tail.trim_start().trim_start_matches(',').trim_start();
            } else {
                if !token.is_empty() {
                    bearer =
                        token.eq_ignore_ascii_case("bearer") || token.eq_ignore_ascii_case("dpop");
                }
                rest = after.trim_start_matches(',').trim_start();
                if token.is_empty() && after.is_empty() {
                    break;
                }
            }
        }
        out
    }

    /// The challenge's scopes.
    pub(crate) fn scopes(&self) -> Vec<String> {
        split_scopes(self.scope.as_deref())
    }
}

pub(crate) fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// The protected resource metadata of the endpoint `url`: the challenge's `resource_metadata`,
/// else the well-known URL with the endpoint's path, else the root one. `None` when none
/// answers (a server of 2025-03-26).
pub(crate) async fn resource_metadata(
    fetcher: &Fetcher,
    url: &Url,
    challenge: &Challenge,
) -> Option<Map<String, Value>> {
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    let mut candidates = Vec::new();
    if let Some(advertised) = &challenge.resource_metadata {
        candidates.push(advertised.clone());
    }
    if !path.is_empty() {
        candidates.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    candidates.push(format!("{origin}/.well-known/oauth-protected-resource"));
    for candidate in candidates {
        if let Ok(doc) = fetcher.get_json(&candidate).await {
            return Some(doc);
        }
    }
    None
}

/// Whether the metadata's `resource` names the endpoint `url`: the same origin, and the
/// endpoint's path within the resource's.
pub(crate) fn resource_matches(resource: &str, url: &Url) -> bool {
    let Ok(r) = Url::parse(resource) else {
        return false;
    };
    if r.origin() != url.origin() || r.fragment().is_some() {
        return false;
    }
    let base = r.path().trim_end_matches('/');
    let path = url.path().trim_end_matches('/');
    path == base || path.starts_with(&format!("{base}/"))
}

/// The canonical URI of the MCP server at `url` (MCP authorization, "Canonical Server URI";
/// RFC 8707 §2): lowercase scheme and host, the port unless it is the scheme's default, the
/// path without a trailing slash; no query, no fragment.
pub(crate) fn canonical_uri(url: &Url) -> String {
    let mut uri = url.origin().ascii_serialization();
    uri.push_str(url.path().trim_end_matches('/'));
    uri
}

/// The authorization server's metadata for `issuer` (whose `issuer` must be `issuer`); for a
/// server without protected resource metadata (`legacy`), the default endpoints at the issuer
/// when no metadata answers at all.
pub(crate) async fn server_metadata(
    fetcher: &Fetcher,
    issuer: &str,
    legacy: bool,
) -> Result<Map<String, Value>, OAuthError> {
    match metadata(fetcher, issuer).await {
        Ok(doc) => Ok(doc),
        Err(e) if legacy && !matches!(e, FetchError::OtherIssuer { .. }) => {
            let base = issuer.trim_end_matches('/');
            let mut doc = Map::new();
            doc.insert("issuer".into(), Value::String(issuer.to_owned()));
            for (key, path) in [
                ("authorization_endpoint", "/authorize"),
                ("token_endpoint", "/token"),
                ("registration_endpoint", "/register"),
            ] {
                doc.insert(key.into(), Value::String(format!("{base}{path}")));
            }
            Ok(doc)
        }
        Err(e) => Err(OAuthError::fetch("the authorization server metadata")(e)),
    }
}

/// A list of strings in a metadata document.
pub(crate) fn strings(doc: &Map<String, Value>, key: &str) -> Option<Vec<String>> {
    doc.get(key).and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_parse() {
        let c = Challenge::parse(
            r#"Bearer error="insufficient_scope", scope="mcp:write mcp:read", resource_metadata="http://h/.well-known/oauth-protected-resource/mcp""#,
        );
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(c.scopes(), ["mcp:write", "mcp:read"]);
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://h/.well-known/oauth-protected-resource/mcp")
        );
        let c = Challenge::parse(r#"Basic realm="x", Bearer scope=a, error="e\"q""#);
        assert_eq!(c.scope.as_deref(), Some("a"));
        assert_eq!(c.error.as_deref(), Some("e\"q"));
        assert_eq!(Challenge::parse(r#"Basic realm="x""#), Challenge::default());
        assert_eq!(Challenge::parse(""), Challenge::default());
        assert_eq!(Challenge::parse("Bearer"), Challenge::default());
    }

    #[test]
    fn canonical_uris_keep_scheme_host_port_and_path_only() {
        let c = |u: &str| canonical_uri(&Url::parse(u).unwrap());
        assert_eq!(c("http://127.0.0.1:3000/mcp"), "http://127.0.0.1:3000/mcp");
        assert_eq!(c("HTTPS://MCP.Example.com/"), "https://mcp.example.com");
        assert_eq!(
            c("https://mcp.example.com:443/mcp/"),
            "https://mcp.example.com/mcp"
        );
        assert_eq!(
            c("https://mcp.example.com:8443"),
            "https://mcp.example.com:8443"
        );
        assert_eq!(
            c("https://mcp.example.com/server/mcp?tenant=a#frag"),
            "https://mcp.example.com/server/mcp"
        );
        assert_eq!(c("http://[::1]:8080/mcp"), "http://[::1]:8080/mcp");
    }

    #[test]
    fn resources_match_by_origin_and_path() {
        let url = Url::parse("http://localhost:3000/mcp").unwrap();
        assert!(resource_matches("http://localhost:3000/mcp", &url));
        assert!(resource_matches("http://localhost:3000", &url));
        assert!(resource_matches("http://localhost:3000/", &url));
        assert!(!resource_matches("https://evil.example.com/mcp", &url));
        assert!(!resource_matches("http://localhost:3000/other", &url));
        assert!(!resource_matches("http://localhost:3000/mc", &url));
        assert!(!resource_matches("not a url", &url));
    }
}
