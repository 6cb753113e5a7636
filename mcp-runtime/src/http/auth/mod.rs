//! Authorization (feature `auth`): the HTTP endpoint as an OAuth 2.1 resource server, as the
//! MCP specification's `basic/authorization` describes it.
//!
//! ```standalone_crate,no_run
//! use mcp_runtime::auth::{Auth, Authorization};
//! use mcp_runtime::prelude::*;
//!
//! /// Adds a note.
//! #[tool(scopes = ["notes:write"])]
//! async fn add_note(auth: Auth, text: String) -> String {
//!     format!("{} wrote {text:?}", auth.subject)
//! }
//!
//! # async fn demo() -> Result<(), mcp_runtime::Error> {
//! Server::builder(server_info!())
//!     .tool(add_note::TOOL)
//!     .auth(
//!         Authorization::jwt("https://auth.example.com", "https://notes.example.com/mcp")
//!             .imply("notes", ["notes:read", "notes:write"]),
//!     )
//!     .build()?
//!     .serve_http("0.0.0.0:8000")
//!     .await
//! # }
//! ```
//!
//! # What a protected endpoint does
//!
//! - **Discovery.** The protected resource metadata (RFC 9728: `resource`,
//!   `authorization_servers`, `scopes_supported`, `bearer_methods_supported`) is served at
//!   `/.well-known/oauth-protected-resource` followed by the resource URI's path, and at
//!   `/.well-known/oauth-protected-resource`, by the standalone server and by
//!   [`Server::into_router`](crate::Server::into_router). Under a nested
//!   [`Server::router`](crate::Server::router), merge
//!   [`Server::auth_metadata_router`](crate::Server::auth_metadata_router) at the app's root.
//! - **Tokens.** Every request (both eras, `GET`, `DELETE`, the legacy `/sse` and `/messages`)
//!   carries `Authorization: Bearer <token>`; the [`TokenVerifier`] checks it. Without one:
//!   401 with `WWW-Authenticate: Bearer resource_metadata="…"` (and `scope="…"` when the server
//!   requires scopes); with a bad one (malformed, unsigned, badly signed, expired, not yet valid,
//!   another issuer, another audience): 401 `error="invalid_token"`. A token in the query string
//!   (`?access_token=`) is refused with 400 `error="invalid_request"`. Tokens are never
//!   forwarded: the verifier talks to the authorization server about keys, and introspection
//!   sends a token only to the introspection endpoint.
//! - **Scopes.** [`Authorization::require_scopes`] applies to every request;
//!   `#[tool(scopes = [..])]` (and on `#[resource]`, `#[prompt]`) to requests naming that item
//!   (`tools/call`, `resources/read`, `resources/subscribe`, `prompts/get`,
//!   `completion/complete`). A token that does not cover them gets 403
//!   `error="insufficient_scope", scope="…"` naming every scope the request needs, so that the
//!   client can step up. [`Authorization::imply`] declares scope hierarchies.
//! - **Lists.** With [`Authorization::hide_unpermitted_items`], the four lists leave out the
//!   items the caller's token would get 403 for, on every transport, stream and batch; pages
//!   keep their cursors (a page may be shorter, or empty).
//! - **Callers.** Handlers take [`Auth`] like `State<T>`. A session (`Mcp-Session-Id`, or the
//!   legacy `sessionId`) is bound to the subject (and issuer) whose token opened it; another
//!   subject's token gets 404, as if the session did not exist. On replicas
//!   ([`ServerBuilder::scale_out`](crate::ServerBuilder::scale_out)) the binding travels in the
//!   shared [`SessionRecord`](crate::scale::SessionRecord), and every replica enforces it; a
//!   record without an owner is served to nobody.
//!
//! # Without code changes
//!
//! A server binary that runs [`Server::run`](crate::Server::run) and has no
//! [`ServerBuilder::auth`](crate::ServerBuilder::auth) reads `MCP_AUTH_ISSUER` and
//! `MCP_AUTH_AUDIENCE` when its `http` command starts: with both set, it serves as
//! [`Authorization::jwt`]`(issuer, audience)`.

mod bind;
mod challenge;
mod claims;
pub(crate) mod discovery;
mod gate;
mod introspect;
mod jwt;
mod metadata;
mod needs;
mod policy;
mod verifier;

use std::sync::{Arc, OnceLock};

use axum::Router;

pub use crate::caller::Claims;
pub use claims::Auth;
pub use introspect::IntrospectionVerifier;
pub use jsonwebtoken::Algorithm;
pub use jwt::JwtVerifier;
pub use policy::Authorization;
pub use verifier::{AuthError, TokenVerifier, VerifyFuture};

use crate::http::endpoint::Http;
use crate::server::{Server, ServerInner};

/// The settings the command line read from the environment (one server per process).
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
static FROM_ENV: OnceLock<Arc<Authorization>> = OnceLock::new();

/// Reads `MCP_AUTH_ISSUER` and `MCP_AUTH_AUDIENCE` for the command line's `http` command.
#[cfg(feature = "cli")]
pub(crate) fn adopt_env(server: &Server) -> Result<(), String> {
    if server.inner.extension::<Authorization>().is_some() {
        return Ok(());
    }
    if let Some(auth) = Authorization::from_env()? {
        eprintln!(
            "protected resource {}: bearer tokens of {} required",
            auth.resource,
            auth.servers.join(", ")
        );
        let _ = FROM_ENV.set(Arc::new(auth));
    }
    Ok(())
}

/// The settings of a server's endpoint, if it is protected.
fn settings(server: &ServerInner) -> Option<Arc<Authorization>> {
    server
        .extension::<Authorization>()
        .or_else(|| FROM_ENV.get().cloned())
}

/// Puts the gate in front of the endpoint's routes, and serves the metadata when the routes sit
/// at the root of the server (`at_root`).
pub(crate) fn protect(router: Router, http: &Arc<Http>, at_root: bool) -> Router {
    let Some(auth) = settings(&http.server) else {
        return router;
    };
    let gate = Arc::new(gate::Gate::new(Arc::clone(&auth), Arc::clone(http)));
    let router = router.layer(axum::middleware::from_fn_with_state(gate, gate::gate));
    if at_root {
        router.merge(metadata::routes(auth, Arc::clone(&http.server)))
    } else {
        router
    }
}

impl Server {
    /// The protected resource metadata routes (RFC 9728) of a server given
    /// [`ServerBuilder::auth`](crate::ServerBuilder::auth), to merge at the root of an app that
    /// nests [`Server::router`] (the standalone server and [`Server::into_router`] serve them by
    /// themselves). Empty for a server without authorization.
    ///
    /// ```
    /// use mcp_runtime::auth::Authorization;
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!())
    ///     .auth(Authorization::jwt("https://auth.example.com", "https://notes.example.com/mcp"))
    ///     .build()
    ///     .unwrap();
    /// let app: axum::Router = axum::Router::new()
    ///     .nest("/mcp", server.router())
    ///     .merge(server.auth_metadata_router()); // /.well-known/oauth-protected-resource[/mcp]
    /// # let _ = app;
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
    pub fn auth_metadata_router(&self) -> Router {
        match settings(&self.inner) {
            Some(auth) => metadata::routes(auth, Arc::clone(&self.inner)),
            None => Router::new(),
        }
    }
}

/// Whether [`protect`] puts the gate in front of the endpoint (the server has authorization).
pub(crate) fn gated(server: &ServerInner) -> bool {
    settings(server).is_some()
}
