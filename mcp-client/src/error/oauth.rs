//! Why the OAuth client got no token.

use mcp_io::fetch::FetchError;

/// Why the OAuth client got no token; a request the server refused then fails with
/// [`ClientError::Unauthorized`](crate::ClientError::Unauthorized), this as its source.
///
/// ```
/// use std::error::Error as _;
/// use mcp_runtime_client::oauth::OAuthError;
///
/// let err = OAuthError::redirect(std::io::Error::other("the browser did not start"));
/// assert_eq!(err.to_string(), "the redirect handler failed");
/// assert_eq!(err.source().unwrap().to_string(), "the browser did not start");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OAuthError {
    /// A request to the authorization server, the identity provider or the protected
    /// resource's metadata failed, or its answer could not be read; `step` names it.
    #[error("{step} failed")]
    Fetch {
        /// What the request was for ("the token request", "dynamic client registration", …).
        step: &'static str,
        /// What went wrong.
        #[source]
        source: FetchError,
    },
    /// A document or an answer of the flow is refused: what is wrong with it (a metadata
    /// document for another resource, a redirect whose `state` or `iss` is not the one
    /// expected, an answer without a member it must have).
    #[error("{0}")]
    Refused(String),
    /// The authorization server answered the authorization request with an error (RFC 6749
    /// §4.1.2.1), in the redirect.
    #[error("the authorization server answered {error}: {description}")]
    Denied {
        /// The `error` code.
        error: String,
        /// The `error_description`, or nothing.
        description: String,
    },
    /// The token endpoint answered with an error (RFC 6749 §5.2).
    #[error("the token endpoint answered HTTP {status}: {error} {description}")]
    TokenEndpoint {
        /// The HTTP status.
        status: u16,
        /// The `error` code, or nothing.
        error: String,
        /// The `error_description`, or nothing.
        description: String,
    },
    /// A URL of the flow (an endpoint of the metadata, the redirect) does not parse.
    #[error("{what} {url:?} is not a URL")]
    InvalidUrl {
        /// Which URL.
        what: &'static str,
        /// The text.
        url: String,
        /// Why it is not a URL.
        #[source]
        source: url::ParseError,
    },
    /// The [`RedirectHandler`](crate::oauth::RedirectHandler) failed.
    #[error("the redirect handler failed")]
    Redirect(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The client's configuration cannot do what the flow needs (a grant without what it
    /// needs, no way to get a client identity).
    #[error("{0}")]
    Config(&'static str),
    /// The key given to [`OAuthBuilder::private_key_jwt`](crate::oauth::OAuthBuilder::private_key_jwt)
    /// is not PEM.
    #[error("the signing key is not PEM")]
    Pem(#[source] base64::DecodeError),
    /// Signing the client assertion (RFC 7523) failed.
    #[error("signing the client assertion failed")]
    Signing(#[source] jsonwebtoken::errors::Error),
}

impl OAuthError {
    /// A failure of a [`RedirectHandler`](crate::oauth::RedirectHandler): the user's trip through the
    /// authorization URL did not come back.
    ///
    /// ```
    /// let err = mcp_runtime_client::oauth::OAuthError::redirect("the user closed the window");
    /// assert!(matches!(err, mcp_runtime_client::oauth::OAuthError::Redirect(_)));
    /// ```
    pub fn redirect(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::Redirect(source.into())
    }

    pub(crate) fn refused(why: impl Into<String>) -> Self {
        Self::Refused(why.into())
    }

    pub(crate) fn fetch(step: &'static str) -> impl FnOnce(FetchError) -> Self {
        move |source| Self::Fetch { step, source }
    }
}
