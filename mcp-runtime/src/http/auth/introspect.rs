//! [`IntrospectionVerifier`]: opaque tokens checked with the authorization server (RFC 7662).

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::caller::Claims;
use crate::future::BoxFuture;
use crate::http::auth::claims::named;
use crate::http::auth::verifier::{AuthError, TokenVerifier};
use crate::sync::lock;
use mcp_io::fetch::{self as discovery, Fetcher, LazyFetcher};

/// Most answers cached at once.
const CACHE_LIMIT: usize = 4096;

/// Verifies tokens by asking the authorization server's introspection endpoint (RFC 7662), for
/// opaque (non-JWT) access tokens.
///
/// The endpoint is read from the issuer's metadata (`introspection_endpoint`) unless given.
/// The server authenticates with client credentials (HTTP Basic). An answer is trusted when it
/// says `active: true`, its `iss` (when present) is the issuer, and its `aud` contains the
/// audience (this server's resource URI). Answers are cached for a short while (default 30 s,
/// never past the token's `exp`), keyed by a hash of the token, in a bounded table.
///
/// ```
/// use mcp_runtime::auth::IntrospectionVerifier;
///
/// let verifier = IntrospectionVerifier::new("https://auth.example.com", "https://notes.example.com/mcp")
///     .client_credentials("notes-server", "s3cret")
///     .endpoint("https://auth.example.com/oauth/introspect");
/// # let _ = verifier;
/// ```
pub struct IntrospectionVerifier {
    issuer: String,
    audience: String,
    endpoint: Option<String>,
    credentials: Option<(String, String)>,
    cache_for: Duration,
    timeout: Duration,
    fetcher: LazyFetcher,
    discovered: Mutex<Option<String>>,
    cache: Mutex<HashMap<[u8; 32], (Instant, Claims)>>,
}

impl fmt::Debug for IntrospectionVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntrospectionVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl IntrospectionVerifier {
    /// Tokens of `issuer` for `audience` (this server's canonical resource URI).
    ///
    /// ```
    /// let v = mcp_runtime::auth::IntrospectionVerifier::new("https://a.example", "https://r.example/mcp");
    /// # let _ = v;
    /// ```
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        Self {
            issuer: issuer.into(),
            audience: audience.into(),
            endpoint: None,
            credentials: None,
            cache_for: Duration::from_secs(30),
            timeout: Duration::from_secs(10),
            fetcher: LazyFetcher::default(),
            discovered: Mutex::new(None),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The introspection endpoint, instead of reading it from the issuer's metadata.
    ///
    /// ```
    /// let v = mcp_runtime::auth::IntrospectionVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .endpoint("https://a.example/introspect");
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn endpoint(mut self, url: impl Into<String>) -> Self {
        self.endpoint = Some(url.into());
        self
    }

    /// The credentials this server authenticates to the endpoint with.
    ///
    /// ```
    /// let v = mcp_runtime::auth::IntrospectionVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .client_credentials("rs", "secret");
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn client_credentials(mut self, id: impl Into<String>, secret: impl Into<String>) -> Self {
        self.credentials = Some((id.into(), secret.into()));
        self
    }

    /// How long an answer is reused (default 30 s; zero turns the cache off).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let v = mcp_runtime::auth::IntrospectionVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .cache_for(Duration::from_secs(5));
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn cache_for(mut self, ttl: Duration) -> Self {
        self.cache_for = ttl;
        self
    }

    async fn endpoint_url(&self, fetcher: &Fetcher) -> Result<String, AuthError> {
        if let Some(url) = &self.endpoint {
            return Ok(url.clone());
        }
        if let Some(url) = lock(&self.discovered).clone() {
            return Ok(url);
        }
        let meta = discovery::metadata(fetcher, &self.issuer).await?;
        let url = meta
            .get("introspection_endpoint")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                AuthError::unavailable("the issuer's metadata has no `introspection_endpoint`")
            })?
            .to_owned();
        *lock(&self.discovered) = Some(url.clone());
        Ok(url)
    }

    fn cached(&self, key: &[u8; 32]) -> Option<Claims> {
        let mut cache = lock(&self.cache);
        match cache.get(key) {
            Some((until, claims)) if Instant::now() < *until => Some(claims.clone()),
            Some(_) => {
                cache.remove(key);
                None
            }
            None => None,
        }
    }

    fn remember(&self, key: [u8; 32], claims: &Claims) {
        let mut ttl = self.cache_for;
        if let Some(exp) = claims.expires_at {
            ttl = ttl.min(Duration::from_secs(exp.saturating_sub(now())));
        }
        if ttl.is_zero() {
            return;
        }
        let mut cache = lock(&self.cache);
        if cache.len() >= CACHE_LIMIT {
            let t = Instant::now();
            cache.retain(|_, (until, _)| *until > t);
            if cache.len() >= CACHE_LIMIT {
                cache.clear();
            }
        }
        cache.insert(key, (Instant::now() + ttl, claims.clone()));
    }

    async fn check(&self, token: &str) -> Result<Claims, AuthError> {
        let key: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(claims) = self.cached(&key) {
            return Ok(claims);
        }
        let fetcher = self.fetcher.get(self.timeout);
        let url = self.endpoint_url(&fetcher).await?;
        let basic = self
            .credentials
            .as_ref()
            .map(|(id, secret)| (id.as_str(), secret.as_str()));
        let answer = fetcher
            .post_form(
                &url,
                &[("token", token), ("token_type_hint", "access_token")],
                basic,
            )
            .await?;
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err(AuthError::invalid("the token is not active"));
        }
        if let Some(iss) = answer.get("iss")
            && !discovery::same_issuer(iss.as_str(), &self.issuer)
        {
            return Err(AuthError::invalid("the token was issued by another issuer"));
        }
        let for_us = match answer.get("aud") {
            Some(Value::String(a)) => *a == self.audience,
            Some(Value::Array(list)) => list.iter().any(|a| a.as_str() == Some(&self.audience)),
            _ => false,
        };
        if !for_us {
            return Err(AuthError::invalid("the token is not for this resource"));
        }
        let now = now();
        if answer
            .get("exp")
            .and_then(Value::as_u64)
            .is_some_and(|exp| exp <= now)
        {
            return Err(AuthError::invalid("the token has expired"));
        }
        if answer
            .get("nbf")
            .and_then(Value::as_u64)
            .is_some_and(|nbf| nbf > now)
        {
            return Err(AuthError::invalid("the token is not valid yet"));
        }
        let claims = named(Claims::from_json(answer))?;
        self.remember(key, &claims);
        Ok(claims)
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(
        &'a self,
        token: &'a str,
        _request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>> {
        Box::pin(self.check(token))
    }
}
