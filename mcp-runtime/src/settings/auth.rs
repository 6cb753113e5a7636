//! The authorization settings of the HTTP endpoint (feature `auth`): [`Authorization`] and
//! the [`TokenVerifier`] it holds, with [`AuthError`], declared here for the server to keep;
//! their constructors, their setters and the gate that applies them are `http/auth`'s.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::caller::Claims;
use crate::future::BoxFuture;

/// The OAuth 2.1 resource-server settings of a server's HTTP endpoint (feature `auth`).
///
/// Give it to the builder with [`ServerBuilder::auth`](crate::ServerBuilder::auth). Every
/// request to the MCP endpoint (both eras, and the legacy HTTP+SSE transport) must then carry
/// `Authorization: Bearer <token>`; the token is verified, the scopes the request needs are
/// checked, and the caller reaches handlers as [`Auth`](crate::auth::Auth). The protected
/// resource metadata (RFC 9728) is served at `/.well-known/oauth-protected-resource` followed by
/// the resource URI's path, and at `/.well-known/oauth-protected-resource`.
///
/// ```
/// use mcp_runtime::auth::Authorization;
/// use mcp_runtime::prelude::*;
///
/// let auth = Authorization::jwt("https://auth.example.com", "https://notes.example.com/mcp")
///     .require_scopes(["notes"])                          // every request needs it
///     .imply("notes:admin", ["notes:read", "notes:write"]) // a broader scope implies narrower ones
///     .hide_unpermitted_items(true);                      // lists show what the caller may use
/// let builder = Server::builder(server_info!()).auth(auth);
/// # let _ = builder;
/// ```
#[derive(Clone)]
#[must_use]
pub struct Authorization {
    pub(crate) verifier: Arc<dyn TokenVerifier>,
    pub(crate) resource: String,
    pub(crate) servers: Vec<String>,
    pub(crate) scopes_supported: Option<Vec<String>>,
    pub(crate) required: Vec<String>,
    pub(crate) implies: HashMap<String, Vec<String>>,
    pub(crate) hide: bool,
    pub(crate) resource_name: Option<String>,
}

impl fmt::Debug for Authorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Authorization")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.servers)
            .field("required", &self.required)
            .field("hide", &self.hide)
            .finish_non_exhaustive()
    }
}

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
