//! Outbound HTTP to the authorization server: its RFC 8414 / OpenID Connect metadata, its JWKS,
//! its introspection endpoint. Bounded in time and size, redirects not followed, and never
//! carrying a client's token anywhere but to introspection.

use std::sync::Mutex;
use std::time::Duration;

use reqwest::Url;
use serde_json::{Map, Value};

use crate::http::auth::verifier::AuthError;
use crate::sync::lock;

/// The largest metadata, JWKS or introspection answer read.
const MAX_ANSWER: usize = 256 * 1024;

/// The HTTP client the verifiers share.
#[derive(Debug, Clone)]
pub(crate) struct Fetcher {
    client: reqwest::Client,
}

/// A verifier's [`Fetcher`], made on first use: a verifier built before the runtime starts
/// makes no HTTP client until it fetches.
#[derive(Debug, Default)]
pub(crate) struct LazyFetcher(Mutex<Option<Fetcher>>);

impl LazyFetcher {
    /// The fetcher, made now with `timeout` if this is the first call.
    pub(crate) fn get(&self, timeout: Duration) -> Fetcher {
        let mut slot = lock(&self.0);
        slot.get_or_insert_with(|| Fetcher::new(timeout)).clone()
    }
}

impl Fetcher {
    pub(crate) fn new(timeout: Duration) -> Self {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()
            .unwrap_or_default();
        Self { client }
    }

    /// GET a JSON object.
    pub(crate) async fn get_json(&self, url: &str) -> Result<Map<String, Value>, AuthError> {
        let req = self
            .client
            .get(url)
            .header(http::header::ACCEPT, "application/json");
        read_object(url, req).await
    }

    /// POST a form, with HTTP Basic client credentials when given; the answer as a JSON object.
    pub(crate) async fn post_form(
        &self,
        url: &str,
        form: &[(&str, &str)],
        basic: Option<(&str, &str)>,
    ) -> Result<Map<String, Value>, AuthError> {
        let mut req = self
            .client
            .post(url)
            .header(http::header::ACCEPT, "application/json")
            .form(form);
        if let Some((id, secret)) = basic {
            req = req.basic_auth(form_encode(id), Some(form_encode(secret)));
        }
        read_object(url, req).await
    }

    /// The HTTP client (redirects not followed, bounded in time).
    #[cfg(feature = "client")]
    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// POST a JSON object (RFC 7591 registration); the answer as a JSON object.
    #[cfg(feature = "client")]
    pub(crate) async fn post_json(
        &self,
        url: &str,
        body: &Value,
    ) -> Result<Map<String, Value>, AuthError> {
        let req = self
            .client
            .post(url)
            .header(http::header::ACCEPT, "application/json")
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(body.to_string());
        read_object(url, req).await
    }
}

async fn read_object(
    url: &str,
    req: reqwest::RequestBuilder,
) -> Result<Map<String, Value>, AuthError> {
    let unavailable = |why: String| AuthError::unavailable(format!("{url}: {why}"));
    let resp = req
        .send()
        .await
        .map_err(|e| AuthError::unreachable(url, e))?;
    if !resp.status().is_success() {
        return Err(unavailable(format!("status {}", resp.status().as_u16())));
    }
    read_json(url, resp).await
}

/// The body of `resp` (of any status) as a JSON object, [`MAX_ANSWER`] bytes at most.
pub(crate) async fn read_json(
    url: &str,
    mut resp: reqwest::Response,
) -> Result<Map<String, Value>, AuthError> {
    let unavailable = |why: String| AuthError::unavailable(format!("{url}: {why}"));
    let mut body = Vec::new();
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|e| AuthError::unreachable(url, e))?
    {
        if body.len() + chunk.len() > MAX_ANSWER {
            return Err(unavailable(format!("answer over {MAX_ANSWER} bytes")));
        }
        body.extend_from_slice(&chunk);
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(unavailable("the answer is not a JSON object".into())),
    }
}

/// RFC 6749 §2.3.1: client credentials are form-encoded before Basic authentication.
pub(crate) fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The metadata URLs to try for `issuer`, in the order the MCP specification gives: RFC 8414
/// with the path inserted, OpenID Connect with the path inserted, OpenID Connect with the path
/// appended (the last two the same without a path).
pub(crate) fn metadata_urls(issuer: &str) -> Result<Vec<String>, String> {
    let url = Url::parse(issuer).map_err(|e| format!("issuer {issuer:?} is not a URL: {e}"))?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "issuer {issuer:?} must not have a query or fragment"
        ));
    }
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    Ok(if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    })
}

/// The issuer's metadata, from the first well-known URL that answers with a document whose
/// `issuer` is `issuer` itself (RFC 8414 §3.3).
pub(crate) async fn metadata(
    fetcher: &Fetcher,
    issuer: &str,
) -> Result<Map<String, Value>, AuthError> {
    let urls = metadata_urls(issuer).map_err(AuthError::unavailable)?;
    let mut last = AuthError::unavailable(format!("no metadata for issuer {issuer}"));
    for url in urls {
        match fetcher.get_json(&url).await {
            Ok(doc) if same_issuer(doc.get("issuer").and_then(Value::as_str), issuer) => {
                return Ok(doc);
            }
            Ok(_) => {
                last = AuthError::unavailable(format!(
                    "{url}: its `issuer` is not {issuer}; metadata refused"
                ));
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Issuers compare as strings, a trailing slash aside.
pub(crate) fn same_issuer(a: Option<&str>, b: &str) -> bool {
    a.is_some_and(|a| a.trim_end_matches('/') == b.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_urls_follow_the_spec_order() {
        assert_eq!(
            metadata_urls("https://auth.example.com/tenant1").unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("http://127.0.0.1:9000/").unwrap(),
            [
                "http://127.0.0.1:9000/.well-known/oauth-authorization-server",
                "http://127.0.0.1:9000/.well-known/openid-configuration",
            ]
        );
        assert!(metadata_urls("not a url").is_err());
        assert!(metadata_urls("https://a.example/?x=1").is_err());
    }

    #[test]
    fn credentials_are_form_encoded() {
        assert_eq!(form_encode("a b:c/é"), "a+b%3Ac%2F%C3%A9");
        assert!(same_issuer(Some("https://a/"), "https://a"));
        assert!(!same_issuer(Some("https://b"), "https://a"));
        assert!(!same_issuer(None, "https://a"));
    }
}
