//! [`Auth`]: the handler parameter that hands over the caller's [`Claims`].

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use crate::caller::Claims;
use crate::error::HandlerError;
use crate::handler::context::{Context, FromContext};

/// The verified caller of a request, injected into a handler like `State<T>`: name a parameter's
/// type `Auth` in a `#[tool]`, `#[resource]` or `#[prompt]` function.
///
/// It dereferences to [`Claims`]. Only requests that came through a protected HTTP endpoint
/// (feature `auth`, [`Authorization`](crate::auth::Authorization)) have a caller; elsewhere
/// (stdio, the command line) a handler taking `Auth` fails with an internal error.
///
/// ```standalone_crate
/// use mcp_runtime::auth::Auth;
/// use mcp_runtime::prelude::*;
///
/// /// Who am I?
/// #[tool(scopes = ["profile"])]
/// async fn whoami(auth: Auth) -> String {
///     format!("{} via {}", auth.subject, auth.client_id.as_deref().unwrap_or("?"))
/// }
///
/// // A handler is a plain function: call it with claims of your own in a test.
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let me = Auth::new(mcp_runtime::auth::Claims::new("ada").with_client_id("app"));
/// assert_eq!(whoami(me).await, "ada via app");
/// # }
/// ```
#[derive(Clone)]
pub struct Auth(Arc<Claims>);

impl Auth {
    /// A caller with these claims (for calling a handler directly, in tests).
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Auth::new(mcp_runtime::auth::Claims::new("ada"));
    /// assert_eq!(auth.subject, "ada");
    /// ```
    pub fn new(claims: Claims) -> Self {
        Self(Arc::new(claims))
    }

    /// The claims, shared.
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Auth::new(mcp_runtime::auth::Claims::new("ada"));
    /// assert_eq!(auth.claims().subject, "ada");
    /// ```
    pub fn claims(&self) -> &Arc<Claims> {
        &self.0
    }
}

impl fmt::Debug for Auth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Auth")
            .field("subject", &self.0.subject)
            .field("scopes", &self.0.scopes)
            .field("client_id", &self.0.client_id)
            .finish_non_exhaustive()
    }
}

impl Deref for Auth {
    type Target = Claims;
    fn deref(&self) -> &Claims {
        &self.0
    }
}

impl FromContext for Auth {
    fn from_context(ctx: &Context) -> Result<Self, HandlerError> {
        ctx.inner.auth.clone().map(Auth).ok_or_else(|| {
            HandlerError::internal(
                "no authenticated caller: `Auth` is given only to requests over an HTTP endpoint protected by `Authorization`",
            )
        })
    }
}
