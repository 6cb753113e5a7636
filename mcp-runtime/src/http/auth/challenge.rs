//! The refusals of a protected endpoint: 401, 403 and 400 with `WWW-Authenticate: Bearer …`
//! (RFC 6750 §3, RFC 9728 §5.1), and 503 when tokens cannot be checked.

use axum::response::Response;
use http::{HeaderValue, StatusCode, header};
use mcp_core::ErrorObject;
use mcp_core::jsonrpc::error_codes;

use crate::http::endpoint::rpc_error;

/// One refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No token: 401 with `resource_metadata` and `scope`, no `error` (RFC 6750 §3.1).
    Missing,
    /// A malformed, unverifiable, expired or foreign token: 401 `invalid_token`.
    Invalid(String),
    /// Scopes missing: 403 `insufficient_scope` with the scopes the request needs.
    Insufficient(Vec<String>),
    /// A token in the query string: 400 `invalid_request`.
    InQuery,
    /// The authorization server cannot be reached: 503.
    Unavailable,
}

/// What a challenge names besides the error.
pub(crate) struct Challenger<'a> {
    /// The URL of the protected resource metadata.
    pub(crate) metadata_url: &'a str,
    /// The scopes named to a client without a token (or with an invalid one).
    pub(crate) scope: &'a str,
}

impl Challenger<'_> {
    /// The `WWW-Authenticate` value of a refusal, if it has one.
    pub(crate) fn header(&self, refusal: &Refusal) -> Option<String> {
        let meta = format!("resource_metadata=\"{}\"", quoted(self.metadata_url));
        let scope = |s: &str| (!s.is_empty()).then(|| format!(", scope=\"{}\"", quoted(s)));
        Some(match refusal {
            Refusal::Missing => format!("Bearer {meta}{}", scope(self.scope).unwrap_or_default()),
            Refusal::Invalid(why) => format!(
                "Bearer error=\"invalid_token\", error_description=\"{}\", {meta}{}",
                quoted(why),
                scope(self.scope).unwrap_or_default()
            ),
            Refusal::Insufficient(needed) => {
                let needed = needed.join(" ");
                format!(
                    "Bearer error=\"insufficient_scope\", scope=\"{}\", {meta}, error_description=\"this request needs the scopes: {}\"",
                    quoted(&needed),
                    quoted(&needed)
                )
            }
            Refusal::InQuery => format!(
                "Bearer error=\"invalid_request\", error_description=\"access tokens are not accepted in the query string; send an Authorization header\", {meta}"
            ),
            Refusal::Unavailable => return None,
        })
    }

    /// The response of a refusal: a JSON-RPC error body, the status, the challenge.
    pub(crate) fn respond(&self, refusal: &Refusal) -> Response {
        let (status, message) = match refusal {
            Refusal::Missing => (
                StatusCode::UNAUTHORIZED,
                "Unauthorized: a bearer token is required".to_owned(),
            ),
            Refusal::Invalid(why) => (StatusCode::UNAUTHORIZED, format!("Unauthorized: {why}")),
            Refusal::Insufficient(needed) => (
                StatusCode::FORBIDDEN,
                format!("Forbidden: insufficient scope, needs {}", needed.join(" ")),
            ),
            Refusal::InQuery => (
                StatusCode::BAD_REQUEST,
                "Bad Request: access tokens are not accepted in the query string".to_owned(),
            ),
            Refusal::Unavailable => (
                StatusCode::SERVICE_UNAVAILABLE,
                "Service Unavailable: the token cannot be checked now".to_owned(),
            ),
        };
        let err = ErrorObject::new(error_codes::TRANSPORT_ERROR, message);
        let mut r = rpc_error(status, None, err);
        if let Some(value) = self
            .header(refusal)
            .and_then(|v| HeaderValue::from_str(&v).ok())
        {
            r.headers_mut().insert(header::WWW_AUTHENTICATE, value);
        }
        if *refusal == Refusal::Unavailable {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        }
        r
    }
}

/// Text safe inside a quoted-string: printable ASCII without `"` and `\`.
fn quoted(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            ' '..='~' => c,
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: Challenger<'static> = Challenger {
        metadata_url: "https://r.example/.well-known/oauth-protected-resource/mcp",
        scope: "notes:read",
    };

    #[test]
    fn challenges_read_as_the_spec_writes_them() {
        assert_eq!(
            C.header(&Refusal::Missing).unwrap(),
            r#"Bearer resource_metadata="https://r.example/.well-known/oauth-protected-resource/mcp", scope="notes:read""#
        );
        assert_eq!(
            C.header(&Refusal::Invalid("the token has \"expired\"".into()))
                .unwrap(),
            r#"Bearer error="invalid_token", error_description="the token has 'expired'", resource_metadata="https://r.example/.well-known/oauth-protected-resource/mcp", scope="notes:read""#
        );
        assert_eq!(
            C.header(&Refusal::Insufficient(vec!["a".into(), "b".into()]))
                .unwrap(),
            r#"Bearer error="insufficient_scope", scope="a b", resource_metadata="https://r.example/.well-known/oauth-protected-resource/mcp", error_description="this request needs the scopes: a b""#
        );
        assert!(C.header(&Refusal::Unavailable).is_none());
        let none = Challenger { scope: "", ..C };
        assert_eq!(
            none.header(&Refusal::Missing).unwrap(),
            r#"Bearer resource_metadata="https://r.example/.well-known/oauth-protected-resource/mcp""#
        );
        assert_eq!(
            C.respond(&Refusal::InQuery).status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            C.respond(&Refusal::Unavailable).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
}
