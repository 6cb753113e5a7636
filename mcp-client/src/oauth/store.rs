//! Where the OAuth client keeps its tokens.

use std::sync::Mutex;
use std::time::SystemTime;

/// The tokens of one MCP server (one protected resource).
///
/// ```
/// use mcp_runtime_client::oauth::Tokens;
///
/// let tokens = Tokens::new("at-123", "https://auth.example.com");
/// assert_eq!(tokens.access_token, "at-123");
/// assert!(tokens.refresh_token.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tokens {
    /// The access token, sent as `Authorization: Bearer`.
    pub access_token: String,
    /// The refresh token, when the authorization server issued one.
    pub refresh_token: Option<String>,
    /// When the access token expires, when the server said.
    pub expires_at: Option<SystemTime>,
    /// The granted scopes (space-separated), when the server said.
    pub scope: Option<String>,
    /// The issuer of the authorization server that issued them: a refresh goes there only.
    pub issuer: String,
    /// The token type: `Bearer`, or `DPoP` for a token bound to the client's DPoP key.
    pub token_type: String,
}

impl Tokens {
    /// Tokens with only an access token, issued by `issuer`.
    ///
    /// ```
    /// let t = mcp_runtime_client::oauth::Tokens::new("at", "https://as.example");
    /// assert_eq!(t.issuer, "https://as.example");
    /// ```
    #[must_use]
    pub fn new(access_token: impl Into<String>, issuer: impl Into<String>) -> Self {
        Self {
            access_token: access_token.into(),
            refresh_token: None,
            expires_at: None,
            scope: None,
            issuer: issuer.into(),
            token_type: "Bearer".into(),
        }
    }
}

/// Keeps tokens between requests (and, for a store that persists them, between runs). Keyed
/// by the MCP endpoint's URL. Called on the request path: it must not block for long.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use mcp_runtime_client::oauth::{TokenStore, Tokens};
///
/// #[derive(Default)]
/// struct Logged(Mutex<HashMap<String, Tokens>>);
///
/// impl TokenStore for Logged {
///     fn load(&self, resource: &str) -> Option<Tokens> {
///         self.0.lock().unwrap().get(resource).cloned()
///     }
///     fn save(&self, resource: &str, tokens: &Tokens) {
///         eprintln!("new tokens for {resource}");
///         self.0.lock().unwrap().insert(resource.to_owned(), tokens.clone());
///     }
/// }
/// ```
pub trait TokenStore: Send + Sync + 'static {
    /// The tokens kept for `resource`, if any.
    fn load(&self, resource: &str) -> Option<Tokens>;
    /// Keeps `tokens` for `resource`, replacing what was kept.
    fn save(&self, resource: &str, tokens: &Tokens);
}

/// A [`TokenStore`] in memory (the default): tokens last as long as the client, for 64
/// endpoints at most (the oldest entry makes room).
///
/// ```
/// use mcp_runtime_client::oauth::{MemoryTokenStore, TokenStore, Tokens};
///
/// let store = MemoryTokenStore::default();
/// store.save("https://mcp.example/mcp", &Tokens::new("at", "https://as.example"));
/// assert_eq!(store.load("https://mcp.example/mcp").unwrap().access_token, "at");
/// assert!(store.load("https://other.example/mcp").is_none());
/// ```
#[derive(Debug, Default)]
pub struct MemoryTokenStore {
    entries: Mutex<Vec<(String, Tokens)>>,
}

/// How many endpoints a [`MemoryTokenStore`] remembers.
const MAX_ENTRIES: usize = 64;

impl TokenStore for MemoryTokenStore {
    fn load(&self, resource: &str) -> Option<Tokens> {
        let entries = mcp_io::lock(&self.entries);
        entries
            .iter()
            .find(|(r, _)| r == resource)
            .map(|(_, t)| t.clone())
    }

    fn save(&self, resource: &str, tokens: &Tokens) {
        let mut entries = mcp_io::lock(&self.entries);
        entries.retain(|(r, _)| r != resource);
        if entries.len() >= MAX_ENTRIES {
            entries.remove(0);
        }
        entries.push((resource.to_owned(), tokens.clone()));
    }
}
