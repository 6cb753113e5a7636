//! Security schemes (`components.securitySchemes`) and the credentials a request carries.

use serde_json::Value;

/// Where and how one security scheme puts its credential on a request.
///
/// ```
/// use mcp_runtime_openapi::{ApiKeyIn, Scheme};
///
/// let scheme = Scheme::ApiKey { location: ApiKeyIn::Header, name: "X-API-Key".into() };
/// assert_eq!(scheme, Scheme::ApiKey { location: ApiKeyIn::Header, name: "X-API-Key".into() });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scheme {
    /// `type: apiKey`: the key as the header, query parameter or cookie `name`.
    ApiKey {
        /// `in`.
        location: ApiKeyIn,
        /// `name`.
        name: String,
    },
    /// `type: http, scheme: bearer`, and `oauth2` / `openIdConnect` (a token obtained
    /// elsewhere): `Authorization: Bearer TOKEN`.
    Bearer,
    /// `type: http, scheme: basic`: `Authorization: Basic base64(user:password)`.
    Basic,
}

/// Where an API key goes.
///
/// ```
/// use mcp_runtime_openapi::ApiKeyIn;
/// assert_ne!(ApiKeyIn::Header, ApiKeyIn::Query);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ApiKeyIn {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
}

/// The credential configured for one scheme.
///
/// ```
/// use mcp_runtime_openapi::Credential;
///
/// let basic = Credential::basic("ada", "secret");
/// assert_eq!(basic, Credential::Basic { user: "ada".into(), password: "secret".into() });
/// ```
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Credential {
    /// An API key or a bearer token.
    Secret(String),
    /// HTTP basic authentication.
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: String,
    },
}

impl Credential {
    /// An API key or a bearer token.
    ///
    /// ```
    /// use mcp_runtime_openapi::Credential;
    /// assert_eq!(Credential::secret("t0k"), Credential::Secret("t0k".into()));
    /// ```
    pub fn secret(value: impl Into<String>) -> Self {
        Self::Secret(value.into())
    }

    /// HTTP basic authentication.
    ///
    /// ```
    /// use mcp_runtime_openapi::Credential;
    /// let c = Credential::basic("u", "p");
    /// assert!(matches!(c, Credential::Basic { .. }));
    /// ```
    pub fn basic(user: impl Into<String>, password: impl Into<String>) -> Self {
        Self::Basic {
            user: user.into(),
            password: password.into(),
        }
    }
}

impl std::fmt::Debug for Credential {
    /// Never shows the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Secret(_) => f.write_str("Secret(..)"),
            Self::Basic { user, .. } => write!(f, "Basic {{ user: {user:?}, .. }}"),
        }
    }
}

/// One alternative of an operation's `security`: every scheme named in it applies at once.
///
/// ```
/// use mcp_runtime_openapi::{Requirement, Scheme};
/// let both: Requirement = vec![("token".into(), Scheme::Bearer), ("basic".into(), Scheme::Basic)];
/// assert_eq!(both.len(), 2);
/// ```
pub type Requirement = Vec<(String, Scheme)>;

/// The scheme a `securitySchemes` entry describes, `None` for one that is not sent on a
/// request by us (`mutualTLS`, unknown types, an `http` scheme other than bearer and basic).
pub(crate) fn scheme(value: &Value) -> Option<Scheme> {
    let text = |k: &str| value.get(k).and_then(Value::as_str);
    match text("type")? {
        "apiKey" => {
            let location = match text("in")? {
                "header" => ApiKeyIn::Header,
                "query" => ApiKeyIn::Query,
                "cookie" => ApiKeyIn::Cookie,
                _ => return None,
            };
            Some(Scheme::ApiKey {
                location,
                name: text("name")?.to_owned(),
            })
        }
        "http" => match text("scheme")?.to_ascii_lowercase().as_str() {
            "bearer" => Some(Scheme::Bearer),
            "basic" => Some(Scheme::Basic),
            _ => None,
        },
        "oauth2" | "openIdConnect" => Some(Scheme::Bearer),
        _ => None,
    }
}
