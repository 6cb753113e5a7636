//! The caller of a request, as the HTTP endpoint's auth gate verified it (feature `auth`): the
//! [`Claims`] of its token, carried along the request's tasks. A leaf: the handler context and the
//! dispatcher read it; the gate (`http::auth`) sets it.

use std::future::Future;
use std::sync::Arc;

use mcp_core::ErrorObject;
use serde_json::{Map, Value};

/// What a verified access token says about its bearer.
///
/// A [`TokenVerifier`](crate::auth::TokenVerifier) builds it; handlers read it through [`Auth`](crate::auth::Auth).
///
/// ```
/// use mcp_runtime::auth::Claims;
///
/// let claims = Claims::new("user-42")
///     .with_scopes(["notes:read", "notes:write"])
///     .with_client_id("notes-app");
/// assert_eq!(claims.subject, "user-42");
/// assert!(claims.has_scope("notes:write"));
/// assert_eq!(claims.client_id.as_deref(), Some("notes-app"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Claims {
    /// The subject (`sub`): whom the token speaks for.
    pub subject: String,
    /// The scopes granted (`scope`, space-separated in the token, or `scp`).
    pub scopes: Vec<String>,
    /// The OAuth client the token was issued to (`client_id`, else `azp`).
    pub client_id: Option<String>,
    /// The issuer (`iss`).
    pub issuer: Option<String>,
    /// Expiry, in seconds since the Unix epoch (`exp`).
    pub expires_at: Option<u64>,
    /// Every claim as sent, for anything the fields above do not cover.
    pub raw: Map<String, Value>,
}

impl Claims {
    /// Claims for `subject`, with no scopes.
    ///
    /// ```
    /// let c = mcp_runtime::auth::Claims::new("ada");
    /// assert!(c.scopes.is_empty());
    /// ```
    pub fn new(subject: impl Into<String>) -> Self {
        Self {
            subject: subject.into(),
            ..Self::default()
        }
    }

    /// The same claims with these scopes.
    ///
    /// ```
    /// let c = mcp_runtime::auth::Claims::new("ada").with_scopes(["a", "b"]);
    /// assert_eq!(c.scopes, ["a", "b"]);
    /// ```
    #[must_use]
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The same claims with a client id.
    ///
    /// ```
    /// let c = mcp_runtime::auth::Claims::new("ada").with_client_id("app");
    /// assert_eq!(c.client_id.as_deref(), Some("app"));
    /// ```
    #[must_use]
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// Whether `scope` was granted as such (scope hierarchies are applied by the server's
    /// [`Authorization`](crate::auth::Authorization), not here).
    ///
    /// ```
    /// let c = mcp_runtime::auth::Claims::new("ada").with_scopes(["notes:read"]);
    /// assert!(c.has_scope("notes:read"));
    /// assert!(!c.has_scope("notes:write"));
    /// ```
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// Claims read from a token's JSON claims or an introspection answer: `sub`, `scope` (or
    /// `scp`), `client_id` (or `azp`), `iss`, `exp`; everything kept in `raw`.
    ///
    /// ```
    /// let raw = serde_json::json!({"sub": "ada", "scope": "a b", "azp": "app", "exp": 9});
    /// let c = mcp_runtime::auth::Claims::from_json(raw.as_object().unwrap().clone());
    /// assert_eq!((c.subject.as_str(), c.scopes.len(), c.expires_at), ("ada", 2, Some(9)));
    /// assert_eq!(c.client_id.as_deref(), Some("app"));
    /// ```
    pub fn from_json(raw: Map<String, Value>) -> Self {
        let text = |key: &str| raw.get(key).and_then(Value::as_str).map(str::to_owned);
        let scopes = match (raw.get("scope"), raw.get("scp")) {
            (Some(Value::String(s)), _) | (None, Some(Value::String(s))) => {
                s.split_ascii_whitespace().map(str::to_owned).collect()
            }
            (_, Some(Value::Array(list))) | (Some(Value::Array(list)), _) => list
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        Self {
            subject: text("sub").unwrap_or_default(),
            scopes,
            client_id: text("client_id").or_else(|| text("azp")),
            issuer: text("iss"),
            expires_at: raw.get("exp").and_then(Value::as_u64),
            raw,
        }
    }
}

/// The server's authorization rule, as the dispatcher applies it to a verified caller: whether a
/// token's scopes cover an item's (through the server's scope hierarchy), and the scopes every
/// request needs. [`Authorization`](crate::auth::Authorization) implements it.
pub(crate) trait Sight: Send + Sync {
    /// Whether a token granting `granted` covers every scope of `needed`.
    fn permits(&self, granted: &[String], needed: &[&str]) -> bool;

    /// The scopes every request needs (`Authorization::require_scopes`).
    fn required(&self) -> &[String];
}

/// The verified caller of a request: the [`Claims`] of its token (which it derefs to), the rule
/// its requests are authorized by, and whether lists hide from it the items it may not use.
#[derive(Clone)]
pub(crate) struct Caller {
    pub(crate) claims: Arc<Claims>,
    rule: Arc<dyn Sight>,
    hides: bool,
}

/// `data.reason` of the error refusing a request for want of scopes.
pub(crate) const INSUFFICIENT_SCOPE: &str = "insufficient_scope";

impl Caller {
    /// `claims`, authorized by `rule`; lists hide what it does not permit when `hides`.
    pub(crate) fn new(claims: Arc<Claims>, rule: Arc<dyn Sight>, hides: bool) -> Self {
        Self {
            claims,
            rule,
            hides,
        }
    }

    /// Whether this caller sees an item that needs `scopes` (every item, when the server does not
    /// hide).
    pub(crate) fn sees(&self, scopes: &[&str]) -> bool {
        !self.hides || scopes.is_empty() || self.rule.permits(&self.claims.scopes, scopes)
    }

    /// Whether the server hides from this caller the items it may not use.
    pub(crate) fn hides(&self) -> bool {
        self.hides
    }

    /// The dispatcher's decision on a request naming an item that needs `scopes`, made on the
    /// item the dispatcher looked up from its own reading of the params: `Err` with the error
    /// that refuses it (-32000, `data: {"reason": "insufficient_scope", "scope": "…"}` naming
    /// every scope the request needs, the server-wide ones included; HTTP answers it with 403 and
    /// the `insufficient_scope` challenge).
    pub(crate) fn authorize(&self, scopes: &[&str]) -> Result<(), ErrorObject> {
        if scopes.is_empty() || self.rule.permits(&self.claims.scopes, scopes) {
            return Ok(());
        }
        let mut needed: Vec<&str> = self.rule.required().iter().map(String::as_str).collect();
        needed.extend_from_slice(scopes);
        needed.sort_unstable();
        needed.dedup();
        let needed = needed.join(" ");
        let mut err = ErrorObject::new(
            mcp_core::jsonrpc::error_codes::TRANSPORT_ERROR,
            format!("Forbidden: insufficient scope, needs {needed}"),
        );
        err.data = Some(serde_json::json!({ "reason": INSUFFICIENT_SCOPE, "scope": needed }));
        Err(err)
    }
}

/// The scopes named by an error [`Caller::authorize`] made, if `err` is one.
pub(crate) fn refused_scopes(err: &ErrorObject) -> Option<&str> {
    if err.code != mcp_core::jsonrpc::error_codes::TRANSPORT_ERROR {
        return None;
    }
    let data = err.data.as_ref()?;
    if data.get("reason")?.as_str()? != INSUFFICIENT_SCOPE {
        return None;
    }
    data.get("scope")?.as_str()
}

impl std::ops::Deref for Caller {
    type Target = Claims;

    fn deref(&self) -> &Claims {
        &self.claims
    }
}

tokio::task_local! {
    /// The caller of the HTTP request being served, set by the gate around the endpoint.
    static CALLER: Option<Caller>;
}

/// The caller of the request this task serves, if it came through the gate.
pub(crate) fn current() -> Option<Caller> {
    CALLER.try_with(Clone::clone).ok().flatten()
}

/// `fut` with the current caller, for a future about to be spawned on a task of its own.
pub(crate) fn carry<F: Future>(fut: F) -> impl Future<Output = F::Output> {
    CALLER.scope(current(), fut)
}

/// `fut` served for `caller`.
pub(crate) fn serve_as<F: Future>(caller: Caller, fut: F) -> impl Future<Output = F::Output> {
    CALLER.scope(Some(caller), fut)
}
