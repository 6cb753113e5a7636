//! The [`TokenVerifier`] trait (one bearer token in, `Claims` or an [`AuthError`] out) and the
//! constructors of [`AuthError`]; both types are declared in `settings/auth`.

pub use crate::settings::auth::{AuthError, TokenVerifier};

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
