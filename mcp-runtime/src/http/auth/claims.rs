//! [`Auth`]: the handler parameter that hands over the caller's [`Claims`].

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use crate::caller::Claims;
use crate::error::HandlerError;
use crate::handler::context::{Context, FromContext};
use crate::http::auth::verifier::AuthError;

/// The claims of a verified token, named: the subject is `sub`, else the client (`client_id`,
/// else `azp`). A token that names neither is refused: tokens without a name would all share
/// one empty subject, and with it each other's sessions and tasks.
pub(crate) fn named(mut claims: Claims) -> Result<Claims, AuthError> {
    if claims.subject.is_empty()
        && let Some(client) = claims.client_id.as_ref().filter(|c| !c.is_empty())
    {
        claims.subject.clone_from(client);
    }
    if claims.subject.is_empty() {
        return Err(AuthError::invalid("the token names no subject"));
    }
    Ok(claims)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(json: serde_json::Value) -> Claims {
        let serde_json::Value::Object(map) = json else {
            unreachable!()
        };
        Claims::from_json(map)
    }

    #[test]
    fn the_subject_is_sub_else_the_client_else_refused() {
        let named_as = |json| named(claims(json)).map(|c| c.subject);
        assert_eq!(
            named_as(serde_json::json!({"sub": "ada", "client_id": "app"})).ok(),
            Some("ada".into())
        );
        assert_eq!(
            named_as(serde_json::json!({"client_id": "app"})).ok(),
            Some("app".into())
        );
        assert_eq!(
            named_as(serde_json::json!({"azp": "web"})).ok(),
            Some("web".into())
        );
        for nameless in [
            serde_json::json!({}),
            serde_json::json!({"sub": ""}),
            serde_json::json!({"sub": "", "client_id": ""}),
            serde_json::json!({"scope": "notes:read"}),
        ] {
            match named(claims(nameless.clone())) {
                Err(AuthError::InvalidToken(why)) => {
                    assert_eq!(why, "the token names no subject", "{nameless}");
                }
                other => panic!("{nameless}: {other:?}"),
            }
        }
    }
}
