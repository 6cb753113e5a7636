//! Redirects of the client's HTTP requests, followed here rather than by `reqwest`: a redirect
//! to another origin keeps only the headers of the protocol itself, never the client's own
//! (`Authorization`, `DPoP`, `Mcp-Session-Id`, and every header given to
//! [`ClientBuilder::header`](crate::ClientBuilder::header), such as an `X-Api-Key`).

use reqwest::header::{HeaderMap, HeaderName, LOCATION};
use reqwest::{Method, Request, Response, StatusCode};

/// How many redirects one request follows at most.
pub(crate) const MAX_REDIRECTS: usize = 10;

/// Why a request (with its redirects) got no answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SendError {
    /// `reqwest` could not make or send the request, or read the answer's head.
    #[error(transparent)]
    Request(reqwest::Error),
    /// A redirect's `Location` is not a URL.
    #[error("HTTP {status} to {location:?}, which is not a URL")]
    Location {
        status: StatusCode,
        location: String,
        #[source]
        source: url::ParseError,
    },
    /// A redirect from `https` to `http`, or to another scheme.
    #[error("HTTP {status} from {from} to {to} ({target}) is not followed")]
    Scheme {
        status: StatusCode,
        from: String,
        to: String,
        target: reqwest::Url,
    },
    /// More than [`MAX_REDIRECTS`] redirects.
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooMany,
}

/// Whether a request redirected to another origin keeps header `name`: what says how to read
/// the message (`Accept`, `Content-Type`), what mirrors its body (`MCP-Protocol-Version`,
/// `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), which goes along anyway with a 307 or 308, and
/// the `Last-Event-ID` of a resumed stream.
pub(crate) fn kept_across_origins(name: &HeaderName) -> bool {
    let name = name.as_str();
    matches!(
        name,
        "accept"
            | "content-type"
            | "mcp-protocol-version"
            | "mcp-method"
            | "mcp-name"
            | "last-event-id"
    ) || name.starts_with("mcp-param-")
}

/// Sends `req` with `http` (a client that follows no redirect itself), following at most
/// [`MAX_REDIRECTS`] redirects: 307 and 308 with the same method and body, 301 and 302 of a
/// `POST` and every 303 as a `GET` without a body. Each hop to another origin drops every
/// header [`kept_across_origins`] does not keep (and a header dropped stays dropped); a hop
/// from `https` to `http`, or to another scheme, is refused.
pub(crate) async fn send(http: &reqwest::Client, mut req: Request) -> Result<Response, SendError> {
    for _ in 0..=MAX_REDIRECTS {
        let next = req.try_clone();
        let resp = http.execute(req).await.map_err(SendError::Request)?;
        let status = resp.status();
        let redirect = matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308);
        let location = resp.headers().get(LOCATION).and_then(|v| v.to_str().ok());
        let (Some(mut next), true, Some(location)) = (next, redirect, location) else {
            return Ok(resp);
        };
        let target = resp
            .url()
            .join(location)
            .map_err(|source| SendError::Location {
                status,
                location: location.to_owned(),
                source,
            })?;
        match (resp.url().scheme(), target.scheme()) {
            ("https", "https") | ("http", "http" | "https") => {}
            (from, to) => {
                return Err(SendError::Scheme {
                    status,
                    from: from.to_owned(),
                    to: to.to_owned(),
                    target,
                });
            }
        }
        if target.origin() != next.url().origin() {
            let mut kept = HeaderMap::new();
            for (name, value) in next.headers() {
                if kept_across_origins(name) {
                    kept.append(name.clone(), value.clone());
                }
            }
            *next.headers_mut() = kept;
        }
        let to_get = status == StatusCode::SEE_OTHER && next.method() != Method::HEAD
            || matches!(status.as_u16(), 301 | 302) && next.method() == Method::POST;
        if to_get {
            *next.method_mut() = Method::GET;
            *next.body_mut() = None;
            next.headers_mut().remove(reqwest::header::CONTENT_TYPE);
            next.headers_mut().remove(reqwest::header::CONTENT_LENGTH);
        }
        *next.url_mut() = target;
        req = next;
    }
    Err(SendError::TooMany)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_protocol_headers_cross_origins() {
        let kept = |n: &str| kept_across_origins(&HeaderName::from_bytes(n.as_bytes()).unwrap());
        for name in [
            "accept",
            "content-type",
            "mcp-protocol-version",
            "mcp-method",
            "mcp-name",
            "mcp-param-region",
            "last-event-id",
        ] {
            assert!(kept(name), "{name}");
        }
        for name in [
            "authorization",
            "dpop",
            "cookie",
            "mcp-session-id",
            "x-api-key",
            "x-tenant",
        ] {
            assert!(!kept(name), "{name}");
        }
    }
}
