//! Outbound HTTP to an authorization server (feature `fetch`): its RFC 8414 / OpenID Connect
//! metadata, its JWKS, its introspection, token and registration endpoints. Bounded in time
//! ([`Fetcher`]'s timeout) and size ([`MAX_ANSWER`]), redirects not followed. The resource
//! server's token verifiers (`mcp_runtime::auth`) and the client's OAuth
//! (`mcp_runtime_client::oauth`) share it, and both give its [`FetchError`] as the source of
//! their own errors.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::{Map, Value};

/// The largest metadata, JWKS, introspection or token answer read.
pub const MAX_ANSWER: usize = 256 * 1024;

/// Why a document could not be fetched, or was refused.
///
/// ```
/// use mcp_runtime_io::fetch::{FetchError, metadata_urls};
///
/// let err = metadata_urls("https://a.example/?x=1").unwrap_err();
/// assert!(matches!(err, FetchError::IssuerQuery { .. }));
/// assert_eq!(err.to_string(), "issuer \"https://a.example/?x=1\" must not have a query or fragment");
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The request could not be sent, or its answer could not be read.
    #[error("{url}: the request failed")]
    Request {
        /// The URL asked.
        url: String,
        /// What `reqwest` reported.
        #[source]
        source: Arc<reqwest::Error>,
    },
    /// The answer's status is not a success.
    #[error("{url}: status {status}")]
    Status {
        /// The URL asked.
        url: String,
        /// The HTTP status.
        status: u16,
    },
    /// The answer is larger than [`MAX_ANSWER`].
    #[error("{url}: answer over {limit} bytes")]
    TooLarge {
        /// The URL asked.
        url: String,
        /// The bound, in bytes.
        limit: usize,
    },
    /// The answer is not JSON.
    #[error("{url}: the answer is not JSON")]
    NotJson {
        /// The URL asked.
        url: String,
        /// What `serde_json` reported.
        #[source]
        source: Arc<serde_json::Error>,
    },
    /// The answer is JSON, but not an object.
    #[error("{url}: the answer is not a JSON object")]
    NotObject {
        /// The URL asked.
        url: String,
    },
    /// An issuer that is not a URL.
    #[error("issuer {issuer:?} is not a URL")]
    InvalidIssuer {
        /// The issuer given.
        issuer: String,
        /// Why it is not a URL.
        #[source]
        source: url::ParseError,
    },
    /// An issuer with a query or a fragment (RFC 8414 §2 allows neither).
    #[error("issuer {issuer:?} must not have a query or fragment")]
    IssuerQuery {
        /// The issuer given.
        issuer: String,
    },
    /// A metadata document whose `issuer` is not the one asked for (RFC 8414 §3.3): refused.
    #[error("{url}: its `issuer` is not {issuer}; metadata refused")]
    OtherIssuer {
        /// The URL of the document.
        url: String,
        /// The issuer asked for.
        issuer: String,
    },
}

impl FetchError {
    fn request(url: &str, source: reqwest::Error) -> Self {
        Self::Request {
            url: url.to_owned(),
            source: Arc::new(source),
        }
    }
}

/// The HTTP client of the verifiers and of the client's OAuth.
///
/// ```
/// let _ = mcp_runtime_io::fetch::Fetcher::new(std::time::Duration::from_secs(10));
/// ```
#[doc(hidden)]
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
}

/// A [`Fetcher`] made on first use: a verifier built before the runtime starts makes no HTTP
/// client until it fetches.
///
/// ```
/// let lazy = mcp_runtime_io::fetch::LazyFetcher::default();
/// let _ = lazy.get(std::time::Duration::from_secs(10));
/// ```
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct LazyFetcher(Mutex<Option<Fetcher>>);

impl LazyFetcher {
    /// The fetcher, made now with `timeout` if this is the first call.
    pub fn get(&self, timeout: Duration) -> Fetcher {
        crate::lock(&self.0)
            .get_or_insert_with(|| Fetcher::new(timeout))
            .clone()
    }
}

impl Fetcher {
    /// A fetcher whose requests (and connections) take at most `timeout`, following no
    /// redirect.
    pub fn new(timeout: Duration) -> Self {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()
            .unwrap_or_default();
        Self { client }
    }

    /// GET a JSON object.
    pub async fn get_json(&self, url: &str) -> Result<Map<String, Value>, FetchError> {
        let req = self.client.get(url).header(ACCEPT, "application/json");
        read_object(url, req).await
    }

    /// POST a form, with HTTP Basic client credentials when given; the answer as a JSON object.
    pub async fn post_form(
        &self,
        url: &str,
        form: &[(&str, &str)],
        basic: Option<(&str, &str)>,
    ) -> Result<Map<String, Value>, FetchError> {
        let mut req = self
            .client
            .post(url)
            .header(ACCEPT, "application/json")
            .form(form);
        if let Some((id, secret)) = basic {
            req = req.basic_auth(form_encode(id), Some(form_encode(secret)));
        }
        read_object(url, req).await
    }

    /// POST a JSON object (RFC 7591 registration); the answer as a JSON object.
    pub async fn post_json(
        &self,
        url: &str,
        body: &Value,
    ) -> Result<Map<String, Value>, FetchError> {
        let req = self
            .client
            .post(url)
            .header(ACCEPT, "application/json")
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_string());
        read_object(url, req).await
    }

    /// The HTTP client (redirects not followed, bounded in time).
    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }
}

async fn read_object(
    url: &str,
    req: reqwest::RequestBuilder,
) -> Result<Map<String, Value>, FetchError> {
    let resp = req.send().await.map_err(|e| FetchError::request(url, e))?;
    if !resp.status().is_success() {
        return Err(FetchError::Status {
            url: url.to_owned(),
            status: resp.status().as_u16(),
        });
    }
    read_json(url, resp).await
}

/// The body of `resp` (of any status), `limit` bytes at most: a longer one (by its
/// `Content-Length`, or as it arrives) is [`FetchError::TooLarge`] without reading the rest.
///
/// ```no_run
/// # async fn demo(resp: reqwest::Response) -> Result<(), mcp_runtime_io::fetch::FetchError> {
/// let body = mcp_runtime_io::fetch::read_body("https://example.test/", resp, 1024).await?;
/// assert!(body.len() <= 1024);
/// # Ok(()) }
/// ```
#[doc(hidden)]
pub async fn read_body(
    url: &str,
    mut resp: reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, FetchError> {
    let too_large = || FetchError::TooLarge {
        url: url.to_owned(),
        limit,
    };
    if resp.content_length().is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|e| FetchError::request(url, e))?
    {
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The body of `resp` (of any status) as a JSON object, [`MAX_ANSWER`] bytes at most.
#[doc(hidden)]
pub async fn read_json(
    url: &str,
    resp: reqwest::Response,
) -> Result<Map<String, Value>, FetchError> {
    let body = read_body(url, resp, MAX_ANSWER).await?;
    match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(FetchError::NotObject {
            url: url.to_owned(),
        }),
        Err(e) => Err(FetchError::NotJson {
            url: url.to_owned(),
            source: Arc::new(e),
        }),
    }
}

/// RFC 6749 §2.3.1: client credentials are form-encoded before Basic authentication.
///
/// ```
/// assert_eq!(mcp_runtime_io::fetch::form_encode("a b:c/é"), "a+b%3Ac%2F%C3%A9");
/// ```
#[doc(hidden)]
pub fn form_encode(s: &str) -> String {
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
///
/// ```
/// let urls = mcp_runtime_io::fetch::metadata_urls("https://auth.example.com").unwrap();
/// assert_eq!(urls[0], "https://auth.example.com/.well-known/oauth-authorization-server");
/// ```
#[doc(hidden)]
pub fn metadata_urls(issuer: &str) -> Result<Vec<String>, FetchError> {
    let url = Url::parse(issuer).map_err(|source| FetchError::InvalidIssuer {
        issuer: issuer.to_owned(),
        source,
    })?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(FetchError::IssuerQuery {
            issuer: issuer.to_owned(),
        });
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
/// `issuer` is `issuer` itself (RFC 8414 §3.3); otherwise the error of the last URL tried.
#[doc(hidden)]
pub async fn metadata(fetcher: &Fetcher, issuer: &str) -> Result<Map<String, Value>, FetchError> {
    let mut last = None;
    for url in metadata_urls(issuer)? {
        match fetcher.get_json(&url).await {
            Ok(doc) if same_issuer(doc.get("issuer").and_then(Value::as_str), issuer) => {
                return Ok(doc);
            }
            Ok(_) => {
                last = Some(FetchError::OtherIssuer {
                    url,
                    issuer: issuer.to_owned(),
                });
            }
            Err(e) => last = Some(e),
        }
    }
    // `metadata_urls` gives two URLs at least, so `last` is set.
    Err(last.unwrap_or_else(|| FetchError::NotObject {
        url: issuer.to_owned(),
    }))
}

/// Issuers compare as strings, a trailing slash aside.
///
/// ```
/// assert!(mcp_runtime_io::fetch::same_issuer(Some("https://a/"), "https://a"));
/// ```
#[doc(hidden)]
pub fn same_issuer(a: Option<&str>, b: &str) -> bool {
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
        let err = metadata_urls("not a url").unwrap_err();
        assert!(matches!(&err, FetchError::InvalidIssuer { issuer, .. } if issuer == "not a url"));
        assert_eq!(err.to_string(), "issuer \"not a url\" is not a URL");
        assert!(std::error::Error::source(&err).is_some());
        assert!(matches!(
            metadata_urls("https://a.example/?x=1"),
            Err(FetchError::IssuerQuery { .. })
        ));
    }

    #[test]
    fn credentials_are_form_encoded() {
        assert_eq!(form_encode("a b:c/é"), "a+b%3Ac%2F%C3%A9");
        assert!(same_issuer(Some("https://a/"), "https://a"));
        assert!(!same_issuer(Some("https://b"), "https://a"));
        assert!(!same_issuer(None, "https://a"));
    }
}
