//! The [`TokenVerifier`] trait: one bearer token in, [`Claims`] or an [`AuthError`] out.

use crate::caller::Claims;
use crate::future::BoxFuture;

/// Why a token was not accepted.
///
/// ```
/// use mcp_runtime::auth::AuthError;
///
/// let e = AuthError::invalid("the token has expired");
/// assert_eq!(e.to_string(), "invalid token: the token has expired");
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// The token is malformed, unsigned, badly signed, expired, not yet valid, from another
    /// issuer or for another audience: 401 with `error="invalid_token"`.
    #[error("invalid token: {0}")]
    InvalidToken(String),
    /// The token could not be checked (the authorization server is unreachable or answered
    /// nonsense): 503, the client may retry.
    #[error("token verification unavailable: {0}")]
    Unavailable(String),
    /// The authorization server could not be asked (its metadata, JWKS or introspection
    /// endpoint unreachable, or answering nonsense): 503, the client may retry.
    ///
    /// ```
    /// use mcp_runtime::auth::{AuthError, FetchError};
    ///
    /// let e = AuthError::from(FetchError::Status { url: "https://as.example/jwks".into(), status: 502 });
    /// assert_eq!(e.to_string(), "token verification unavailable");
    /// assert_eq!(
    ///     std::error::Error::source(&e).unwrap().to_string(),
    ///     "https://as.example/jwks: status 502"
    /// );
    /// ```
    #[error("token verification unavailable")]
    Fetch(#[from] mcp_io::fetch::FetchError),
}

impl AuthError {
    /// An [`AuthError::InvalidToken`] with a description (shown to the client in
    /// `error_description`, so it names no secret).
    ///
    /// ```
    /// let e = mcp_runtime::auth::AuthError::invalid("bad signature");
    /// assert!(matches!(e, mcp_runtime::auth::AuthError::InvalidToken(_)));
    /// ```
    pub fn invalid(why: impl Into<String>) -> Self {
        Self::InvalidToken(why.into())
    }

    /// An [`AuthError::Unavailable`].
    ///
    /// ```
    /// let e = mcp_runtime::auth::AuthError::unavailable("JWKS unreachable");
    /// assert!(matches!(e, mcp_runtime::auth::AuthError::Unavailable(_)));
    /// ```
    pub fn unavailable(why: impl Into<String>) -> Self {
        Self::Unavailable(why.into())
    }
}

/// Checks a bearer token and says whom it speaks for.
///
/// Two implementations ship: [`JwtVerifier`](crate::auth::JwtVerifier) (JWT access tokens
/// against the authorization server's JWKS) and
/// [`IntrospectionVerifier`](crate::auth::IntrospectionVerifier) (RFC 7662, for opaque tokens).
/// The verifier checks the token itself (signature, issuer, audience, lifetime); scopes are
/// checked afterwards by the server against what each request needs.
///
/// ```
/// use mcp_runtime::BoxFuture;
/// use mcp_runtime::auth::{AuthError, Claims, TokenVerifier};
///
/// /// One static API key, for a test.
/// struct Static;
///
/// impl TokenVerifier for Static {
///     fn verify<'a>(&'a self, token: &'a str, _request: &'a http::request::Parts) -> BoxFuture<'a, Result<Claims, AuthError>> {
///         Box::pin(async move {
///             if token == "let-me-in" {
///                 Ok(Claims::new("tester").with_scopes(["notes:read"]))
///             } else {
///                 Err(AuthError::invalid("unknown key"))
///             }
///         })
///     }
/// }
/// # let _ = Static;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot verify bearer tokens",
    note = "implement `TokenVerifier`, or use `JwtVerifier` / `IntrospectionVerifier`"
)]
pub trait TokenVerifier: Send + Sync + 'static {
    /// Verifies `token` (the text after `Bearer `) sent with the request `request` (its method,
    /// URI and headers; the body is not read yet).
    fn verify<'a>(
        &'a self,
        token: &'a str,
        request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>>;
}
