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
//!   [`Server::router_at`](crate::Server::router_at). Under a nested
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
//! A server binary that runs [`ServerBuilder::run`](crate::ServerBuilder::run) and has no
//! [`ServerBuilder::auth`](crate::ServerBuilder::auth) reads `MCP_AUTH_ISSUER` and
//! `MCP_AUTH_AUDIENCE` when its `http` command starts: with both set, it serves as
//! [`Authorization::jwt`]`(issuer, audience)`; `MCP_AUTH_ALLOW_JWT_TYP=1` also accepts access
//! tokens typed `JWT` or untyped ([`JwtVerifier::allow_jwt_typ`]). Another `MCP_AUTH_*` variable
//! is refused (a misspelt name would leave the server open). A binary built without this
//! feature refuses to serve HTTP when any `MCP_AUTH_*` variable is set (exit code 6), and any
//! server whose items declare scopes refuses to serve HTTP with no authorization configured
//! unless told it is meant to
//! ([`ServerBuilder::allow_unprotected`](crate::ServerBuilder::allow_unprotected)).

mod bind;
mod challenge;
mod claims;
mod gate;
mod introspect;
mod jwt;
mod metadata;
mod policy;
mod verifier;

use std::sync::Arc;

use axum::Router;

pub use crate::caller::Claims;
pub use claims::Auth;
pub use introspect::IntrospectionVerifier;
pub use jsonwebtoken::Algorithm;
pub use jwt::JwtVerifier;
pub use mcp_io::fetch::FetchError;
pub use policy::Authorization;
pub use verifier::{AuthError, TokenVerifier};

use crate::http::endpoint::Http;
use crate::server::{Server, ServerInner};

/// The `MCP_AUTH_*` variables the command line knows.
#[cfg(feature = "cli")]
const AUTH_ENV: [&str; 3] = [
    "MCP_AUTH_ISSUER",
    "MCP_AUTH_AUDIENCE",
    "MCP_AUTH_ALLOW_JWT_TYP",
];

/// The authorization `MCP_AUTH_ISSUER`, `MCP_AUTH_AUDIENCE` and `MCP_AUTH_ALLOW_JWT_TYP` ask
/// for, if any. Another `MCP_AUTH_*` variable (a misspelt one would leave the server open) is an
/// error, and so is `MCP_AUTH_ALLOW_JWT_TYP` without an issuer or with a value other than `1`,
/// `true`, `0` or `false`.
///
/// `ServerBuilder::run` gives what this returns to the builder it builds (when the builder has
/// no authorization of its own), so the settings belong to that one server; the `http` command
/// reads the variables again to report what is wrong with them ([`check_env`]).
#[cfg(feature = "cli")]
pub(crate) fn env_authorization() -> Result<Option<Authorization>, String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let mut unknown: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| k.starts_with("MCP_AUTH_") && !AUTH_ENV.contains(&k.as_str()))
        .filter(|k| var(k).is_some())
        .collect();
    if !unknown.is_empty() {
        unknown.sort();
        return Err(format!(
            "unknown variable {}: this binary reads {}",
            unknown.join(", "),
            AUTH_ENV.join(", ")
        ));
    }
    let plain_typ = match var("MCP_AUTH_ALLOW_JWT_TYP").map(|v| v.trim().to_ascii_lowercase()) {
        None => None,
        Some(v) if v == "1" || v == "true" => Some(true),
        Some(v) if v == "0" || v == "false" => Some(false),
        Some(v) => {
            return Err(format!(
                "MCP_AUTH_ALLOW_JWT_TYP={v:?}: give 1 (also accept tokens typed `JWT` or untyped) or 0"
            ));
        }
    };
    let auth = Authorization::from_env()?;
    if auth.is_none() && plain_typ.is_some() {
        return Err(
            "MCP_AUTH_ALLOW_JWT_TYP is set but MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE are not"
                .into(),
        );
    }
    Ok(auth.map(|mut auth| {
        if plain_typ == Some(true) {
            // `from_env` is `Authorization::jwt(issuer, audience)`: the same, more lenient on `typ`.
            let issuer = auth.servers.first().cloned().unwrap_or_default();
            auth.verifier =
                Arc::new(JwtVerifier::new(issuer, auth.resource.clone()).allow_jwt_typ(true));
        }
        auth
    }))
}

/// The `http` command's check of the `MCP_AUTH_*` variables: `Err` with the problem when they
/// are malformed; `Ok(true)` when they ask for authorization that `server` does not have (it was
/// built without reading them: [`ServerBuilder::build`](crate::ServerBuilder::build) and then
/// [`Server::run`] rather than [`ServerBuilder::run`](crate::ServerBuilder::run)); `Ok(false)`
/// otherwise. A protected server's requirement is written on stderr.
#[cfg(feature = "cli")]
pub(crate) fn check_env(server: &Server) -> Result<bool, String> {
    let asked = env_authorization()?.is_some();
    match settings(&server.inner) {
        Some(auth) => {
            eprintln!(
                "protected resource {}: bearer tokens of {} required",
                auth.resource,
                auth.servers.join(", ")
            );
            Ok(false)
        }
        None => Ok(asked),
    }
}

/// The settings of a server's endpoint, if it is protected.
fn settings(server: &ServerInner) -> Option<Arc<Authorization>> {
    server.http.auth.clone()
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
    /// nests [`Server::router`] (the standalone server and [`Server::router_at`] serve them by
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

/// The answer to a request the dispatcher refused for want of `scopes` (`Caller::authorize`):
/// 403 with the `insufficient_scope` challenge naming them, and `body`, the dispatcher's reply
/// (its JSON-RPC error, with the request's id).
pub(crate) fn insufficient_scope(
    server: &ServerInner,
    body: Vec<u8>,
    scopes: &str,
) -> axum::response::Response {
    let metadata_url = settings(server)
        .map(|auth| metadata::url(&auth.resource))
        .unwrap_or_default();
    let challenger = challenge::Challenger {
        metadata_url: &metadata_url,
        scope: "",
    };
    let refusal = challenge::Refusal::Insufficient(scopes.split(' ').map(str::to_owned).collect());
    let mut r = crate::http::endpoint::json_response(http::StatusCode::FORBIDDEN, body, None);
    if let Some(value) = challenger
        .header(&refusal)
        .and_then(|v| http::HeaderValue::from_str(&v).ok())
    {
        r.headers_mut()
            .insert(http::header::WWW_AUTHENTICATE, value);
    }
    r
}

/// Whether [`protect`] puts the gate in front of the endpoint (the server has authorization).
pub(crate) fn gated(server: &ServerInner) -> bool {
    settings(server).is_some()
}
