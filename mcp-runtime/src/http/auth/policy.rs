//! [`Authorization`]: how a server's HTTP endpoint is protected, built once and shared.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::caller::Sight;
use crate::http::auth::jwt::JwtVerifier;
use crate::http::auth::verifier::TokenVerifier;
use crate::server::ServerBuilder;
pub use crate::settings::auth::Authorization;

/// Most scopes a hierarchy walk visits (hierarchies are small; this bounds a cyclic one).
const MAX_WALK: usize = 1024;

impl Authorization {
    /// Tokens checked by `verifier`, for the resource `resource` (this server's canonical URI,
    /// e.g. `https://notes.example.com/mcp`). Name the authorization servers with
    /// [`authorization_server`](Self::authorization_server).
    ///
    /// ```
    /// use mcp_runtime::auth::{Authorization, IntrospectionVerifier};
    ///
    /// let verifier = IntrospectionVerifier::new("https://auth.example.com", "https://notes.example.com/mcp")
    ///     .client_credentials("notes", "secret");
    /// let auth = Authorization::new("https://notes.example.com/mcp", verifier)
    ///     .authorization_server("https://auth.example.com");
    /// # let _ = auth;
    /// ```
    pub fn new(resource: impl Into<String>, verifier: impl TokenVerifier) -> Self {
        Self {
            verifier: Arc::new(verifier),
            resource: resource.into(),
            servers: Vec::new(),
            scopes_supported: None,
            required: Vec::new(),
            implies: HashMap::new(),
            hide: false,
            resource_name: None,
        }
    }

    /// JWT access tokens of `issuer` for `audience` ([`JwtVerifier`] with its defaults), with
    /// `issuer` as the authorization server named in the metadata.
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://auth.example.com", "https://notes.example.com/mcp");
    /// # let _ = auth;
    /// ```
    pub fn jwt(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        let (issuer, audience) = (issuer.into(), audience.into());
        Self::new(audience.clone(), JwtVerifier::new(issuer.clone(), audience))
            .authorization_server(issuer)
    }

    /// The settings of the environment variables `MCP_AUTH_ISSUER` (the authorization server's
    /// issuer URL) and `MCP_AUTH_AUDIENCE` (this server's canonical resource URI), as the
    /// command line reads them: `Ok(None)` when neither is set, an error when only one is.
    ///
    /// ```
    /// // With neither variable set:
    /// # unsafe { std::env::remove_var("MCP_AUTH_ISSUER"); std::env::remove_var("MCP_AUTH_AUDIENCE"); }
    /// assert!(mcp_runtime::auth::Authorization::from_env().unwrap().is_none());
    /// ```
    pub fn from_env() -> Result<Option<Self>, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        match (var("MCP_AUTH_ISSUER"), var("MCP_AUTH_AUDIENCE")) {
            (None, None) => Ok(None),
            (Some(issuer), Some(audience)) => {
                mcp_io::fetch::metadata_urls(&issuer).map_err(|e| match &e {
                    mcp_io::fetch::FetchError::InvalidIssuer { source, .. } => {
                        format!("{e}: {source}")
                    }
                    _ => e.to_string(),
                })?;
                check_resource(&audience)?;
                Ok(Some(Self::jwt(issuer.trim(), audience.trim())))
            }
            (Some(_), None) => Err("MCP_AUTH_ISSUER is set but MCP_AUTH_AUDIENCE is not: give this server's canonical resource URI, e.g. https://notes.example.com/mcp".into()),
            (None, Some(_)) => Err("MCP_AUTH_AUDIENCE is set but MCP_AUTH_ISSUER is not: give the authorization server's issuer URL".into()),
        }
    }

    /// Adds an authorization server (its issuer URL) to the metadata's `authorization_servers`.
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://a.example", "https://r.example/mcp")
    ///     .authorization_server("https://b.example");
    /// # let _ = auth;
    /// ```
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        let issuer = issuer.into();
        if !self.servers.contains(&issuer) {
            self.servers.push(issuer);
        }
        self
    }

    /// Scopes every request needs, whatever it asks for.
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://a.example", "https://r.example/mcp")
    ///     .require_scopes(["mcp"]);
    /// # let _ = auth;
    /// ```
    pub fn require_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.required.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// The metadata's `scopes_supported` (default: the required scopes, every scope an item
    /// declares and every scope of the hierarchy).
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://a.example", "https://r.example/mcp")
    ///     .scopes_supported(["notes:read", "notes:write"]);
    /// # let _ = auth;
    /// ```
    pub fn scopes_supported<S: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.scopes_supported = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// Declares that holding `broader` grants each of `narrower` (and what they imply in turn).
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://a.example", "https://r.example/mcp")
    ///     .imply("notes", ["notes:read", "notes:write"]);
    /// assert!(auth.covers(&["notes".to_owned()], "notes:write"));
    /// assert!(!auth.covers(&["notes:read".to_owned()], "notes"));
    /// ```
    pub fn imply<S: Into<String>>(
        mut self,
        broader: impl Into<String>,
        narrower: impl IntoIterator<Item = S>,
    ) -> Self {
        self.implies
            .entry(broader.into())
            .or_default()
            .extend(narrower.into_iter().map(Into::into));
        self
    }

    /// Whether `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`
    /// leave out the items the caller's scopes do not cover (default `false`: everything is
    /// listed, and using an item without its scopes gets 403).
    ///
    /// An item is left out exactly when a request naming it (`tools/call`, `resources/read`,
    /// `prompts/get`, ...) is refused with 403 `insufficient_scope`: the token's scopes, through
    /// [`imply`](Self::imply), do not cover every scope of its `scopes = [..]`. That refusal
    /// stays as it is. Items without scopes, and mounted items, are listed to every caller.
    ///
    /// The lists are filtered where they are made, so every list answer is, whatever carries it:
    /// a JSON body or an SSE stream, a JSON-RPC batch (2025-03-26), the legacy HTTP+SSE
    /// transport's stream, in both eras. Pagination is the unfiltered one: a page keeps its
    /// cursor and its `nextCursor`, so it may be shorter than the others, or empty, and still
    /// name the next one; a client that follows the cursors to the end sees each item it may use
    /// exactly once. In the stateless era every page of a list whose items declare scopes says
    /// `cacheScope: "private"`: the answer depends on the token. Requests that do not come
    /// through the HTTP endpoint (stdio, in memory) have no verified caller and see every item;
    /// so do all callers while this is off (the pages prepared once, served as they are).
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://a.example", "https://r.example/mcp")
    ///     .hide_unpermitted_items(true);
    /// # let _ = auth;
    /// ```
    pub fn hide_unpermitted_items(mut self, hide: bool) -> Self {
        self.hide = hide;
        self
    }

    /// The metadata's `resource_name`: a human-readable name of this server.
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://a.example", "https://r.example/mcp")
    ///     .resource_name("Notes");
    /// # let _ = auth;
    /// ```
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// Whether the `granted` scopes cover `needed`: it is one of them, or implied by one of
    /// them through the hierarchy.
    ///
    /// ```
    /// let auth = mcp_runtime::auth::Authorization::jwt("https://a.example", "https://r.example/mcp")
    ///     .imply("admin", ["notes"]).imply("notes", ["notes:read"]);
    /// assert!(auth.covers(&["admin".to_owned()], "notes:read"));
    /// ```
    pub fn covers(&self, granted: &[String], needed: &str) -> bool {
        let mut stack: Vec<&str> = granted.iter().map(String::as_str).collect();
        let mut seen = BTreeSet::new();
        while let Some(scope) = stack.pop() {
            if scope == needed {
                return true;
            }
            if seen.len() >= MAX_WALK || !seen.insert(scope) {
                continue;
            }
            if let Some(narrower) = self.implies.get(scope) {
                stack.extend(narrower.iter().map(String::as_str));
            }
        }
        false
    }
}

/// The rule the gate applies to a request naming an item (403 unless every scope is covered)
/// is the rule lists apply to that item when they hide.
impl Sight for Authorization {
    fn permits(&self, granted: &[String], needed: &[&str]) -> bool {
        needed.iter().all(|n| self.covers(granted, n))
    }

    fn required(&self) -> &[String] {
        &self.required
    }
}

impl From<JwtVerifier> for Authorization {
    /// The verifier's tokens, for its audience as the resource, with its issuer as the
    /// authorization server named in the metadata: [`Authorization::jwt`] with a verifier
    /// configured by hand.
    ///
    /// ```
    /// use mcp_runtime::auth::{Authorization, JwtVerifier};
    /// use std::time::Duration;
    ///
    /// let auth = Authorization::from(
    ///     JwtVerifier::new("https://auth.example.com", "https://notes.example.com/mcp")
    ///         .leeway(Duration::from_secs(5)),
    /// )
    /// .imply("notes", ["notes:read", "notes:write"]);
    /// # let _ = auth;
    /// ```
    fn from(verifier: JwtVerifier) -> Self {
        let (issuer, audience) = (verifier.issuer.clone(), verifier.audience.clone());
        Authorization::new(audience, verifier).authorization_server(issuer)
    }
}

/// A canonical resource URI: absolute `http`/`https`, no fragment.
pub(crate) fn check_resource(resource: &str) -> Result<(), String> {
    let url = reqwest::Url::parse(resource)
        .map_err(|e| format!("resource URI {resource:?} is not an absolute URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") || url.fragment().is_some() {
        return Err(format!(
            "resource URI {resource:?} must be http(s) without a fragment"
        ));
    }
    Ok(())
}

impl ServerBuilder {
    /// Protects the server's HTTP endpoint as an OAuth 2.1 resource server (feature `auth`);
    /// see [`Authorization`]. Without it, a server binary's command line reads
    /// `MCP_AUTH_ISSUER` and `MCP_AUTH_AUDIENCE` when it serves HTTP.
    ///
    /// ```
    /// use mcp_runtime::auth::Authorization;
    /// use mcp_runtime::prelude::*;
    ///
    /// let server = Server::builder(server_info!())
    ///     .auth(Authorization::jwt("https://auth.example.com", "https://notes.example.com/mcp"))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
    pub fn auth(mut self, auth: Authorization) -> Self {
        self.http.auth = Some(Arc::new(auth));
        self
    }

    /// Whether [`auth`](Self::auth) was given.
    #[cfg(feature = "cli")]
    pub(crate) fn has_auth(&self) -> bool {
        self.http.auth.is_some()
    }
}
