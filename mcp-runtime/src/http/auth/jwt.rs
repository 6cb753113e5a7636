//! [`JwtVerifier`]: JWT access tokens checked against the authorization server's signing keys.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};

use crate::caller::Claims;
use crate::future::BoxFuture;
use crate::http::auth::claims::named;
use crate::http::auth::verifier::{AuthError, TokenVerifier};
use crate::sync::lock;
use mcp_io::fetch::{self as discovery, Fetcher, LazyFetcher};

/// The asymmetric algorithms accepted unless told otherwise (never `none`, never HS*: a
/// resource server holds no shared secret with the authorization server).
const DEFAULT_ALGORITHMS: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Verifies JWT access tokens (RFC 9068) signed by the authorization server.
///
/// The signing keys come from the issuer's JWKS, whose URL is read from its RFC 8414 (or OpenID
/// Connect) metadata on first use, or given with [`jwks_uri`](Self::jwks_uri). Keys are cached;
/// a token naming an unknown `kid` refetches them, at most once per
/// [`min_refresh_interval`](Self::min_refresh_interval), so that a flood of forged tokens
/// cannot turn into a flood of requests to the authorization server.
///
/// A token passes when its header's `typ` is `at+jwt` (RFC 9068 access tokens; also
/// `application/at+jwt`; see [`allow_jwt_typ`](Self::allow_jwt_typ) for authorization servers
/// that send `JWT`), its algorithm is on the allow-list (asymmetric only by default), its
/// signature verifies with the issuer's key, `iss` is the issuer, `aud` contains the audience
/// (this server's canonical resource URI, RFC 8707), `exp` / `nbf` hold within the leeway, and
/// it names its subject (`sub`, else `client_id` or `azp`).
///
/// ```
/// use mcp_runtime::auth::JwtVerifier;
/// use std::time::Duration;
///
/// let verifier = JwtVerifier::new("https://auth.example.com", "https://notes.example.com/mcp")
///     .leeway(Duration::from_secs(30))
///     .min_refresh_interval(Duration::from_secs(60));
/// # let _ = verifier;
/// ```
pub struct JwtVerifier {
    pub(super) issuer: String,
    pub(super) audience: String,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    jwks_uri: Option<String>,
    min_refresh: Duration,
    max_age: Duration,
    timeout: Duration,
    /// Tokens typed `JWT`, or not typed, pass too.
    plain_typ: bool,
    fetcher: LazyFetcher,
    keys: Mutex<Keys>,
    /// Held while the keys are fetched, so that concurrent misses fetch once.
    refreshing: tokio::sync::Mutex<()>,
}

/// The cached key set.
#[derive(Default)]
struct Keys {
    set: Option<Arc<JwkSet>>,
    fetched: Option<Instant>,
    /// The JWKS URL found in the issuer's metadata.
    discovered: Option<String>,
}

impl fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("algorithms", &self.algorithms)
            .field("leeway", &self.leeway)
            .field("allow_jwt_typ", &self.plain_typ)
            .finish_non_exhaustive()
    }
}

impl JwtVerifier {
    /// Tokens from `issuer` (the authorization server's issuer identifier) for `audience`
    /// (this server's canonical resource URI, e.g. `https://notes.example.com/mcp`).
    ///
    /// ```
    /// let v = mcp_runtime::auth::JwtVerifier::new("https://auth.example.com", "https://notes.example.com/mcp");
    /// assert_eq!(v.issuer(), "https://auth.example.com");
    /// ```
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        Self {
            issuer: issuer.into(),
            audience: audience.into(),
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            leeway: Duration::from_secs(30),
            jwks_uri: None,
            min_refresh: Duration::from_secs(30),
            max_age: Duration::from_secs(600),
            timeout: Duration::from_secs(10),
            plain_typ: false,
            fetcher: LazyFetcher::default(),
            keys: Mutex::new(Keys::default()),
            refreshing: tokio::sync::Mutex::new(()),
        }
    }

    /// The issuer tokens must come from.
    ///
    /// ```
    /// let v = mcp_runtime::auth::JwtVerifier::new("https://a.example", "https://r.example/mcp");
    /// assert_eq!(v.issuer(), "https://a.example");
    /// ```
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The algorithms accepted (default: RS256/384/512, PS256/384/512, ES256/384, EdDSA). The
    /// symmetric HS* algorithms are refused whatever is given here, and so is `none`, which is
    /// no algorithm at all.
    ///
    /// ```
    /// use mcp_runtime::auth::JwtVerifier;
    /// use mcp_runtime::auth::Algorithm;
    ///
    /// let v = JwtVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .algorithms([Algorithm::ES256, Algorithm::HS256]); // HS256 is dropped
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|a| !matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512))
            .collect();
        self
    }

    /// Clock skew allowed on `exp` and `nbf` (default 30 s).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let v = mcp_runtime::auth::JwtVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .leeway(Duration::from_secs(5));
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The JWKS URL, instead of reading it from the issuer's metadata.
    ///
    /// ```
    /// let v = mcp_runtime::auth::JwtVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .jwks_uri("https://a.example/jwks");
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn jwks_uri(mut self, url: impl Into<String>) -> Self {
        self.jwks_uri = Some(url.into());
        self
    }

    /// The shortest time between two fetches of the keys (default 30 s): a token with an
    /// unknown `kid` refetches them only when the last fetch is at least this old.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let v = mcp_runtime::auth::JwtVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .min_refresh_interval(Duration::from_secs(10));
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn min_refresh_interval(mut self, interval: Duration) -> Self {
        self.min_refresh = interval;
        self
    }

    /// How long fetched keys are used before they are fetched again (default 10 min).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let v = mcp_runtime::auth::JwtVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .max_key_age(Duration::from_secs(3600));
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn max_key_age(mut self, age: Duration) -> Self {
        self.max_age = age;
        self
    }

    /// The time limit of each request to the authorization server (default 10 s).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let v = mcp_runtime::auth::JwtVerifier::new("https://a.example", "https://r.example/mcp")
    ///     .fetch_timeout(Duration::from_secs(3));
    /// # let _ = v;
    /// ```
    #[must_use]
    pub fn fetch_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Also accepts tokens whose header says `typ: JWT` (or `application/jwt`), or has no `typ`
    /// at all (default off: only `at+jwt` and `application/at+jwt`, as RFC 9068 requires).
    ///
    /// RFC 9068 types access tokens `at+jwt` so that an ID token or another JWT signed by the
    /// same keys cannot be replayed as an access token; some authorization servers still type
    /// their access tokens `JWT`. Turn this on for those (on the command line:
    /// `MCP_AUTH_ALLOW_JWT_TYP=1`), and keep the audience specific to this server.
    ///
    /// ```
    /// use mcp_runtime::auth::{Authorization, JwtVerifier};
    ///
    /// let verifier = JwtVerifier::new("https://auth.example.com", "https://notes.example.com/mcp")
    ///     .allow_jwt_typ(true);
    /// let auth = Authorization::from(verifier); // its issuer named in the metadata
    /// # let _ = auth;
    /// ```
    #[must_use]
    pub fn allow_jwt_typ(mut self, on: bool) -> Self {
        self.plain_typ = on;
        self
    }

    /// Whether the header's `typ` is one this verifier accepts.
    fn check_typ(&self, typ: Option<&str>) -> Result<(), AuthError> {
        let at_jwt = |t: &str| {
            t.eq_ignore_ascii_case("at+jwt") || t.eq_ignore_ascii_case("application/at+jwt")
        };
        let plain =
            |t: &str| t.eq_ignore_ascii_case("jwt") || t.eq_ignore_ascii_case("application/jwt");
        match typ {
            Some(t) if at_jwt(t) => Ok(()),
            Some(t) if self.plain_typ && plain(t) => Ok(()),
            None if self.plain_typ => Ok(()),
            None => Err(AuthError::invalid(
                "the token is not typed as an access token (no typ; expected 'at+jwt')",
            )),
            Some(t) => Err(AuthError::invalid(format!(
                "the token is not typed as an access token (typ '{}'; expected 'at+jwt')",
                t.chars().take(40).collect::<String>()
            ))),
        }
    }

    fn cached(&self) -> (Option<Arc<JwkSet>>, Option<Instant>) {
        let keys = lock(&self.keys);
        (keys.set.clone(), keys.fetched)
    }

    /// The key set: cached, or fetched when there is none, it is too old, or `missing` (an
    /// unknown `kid`) and the last fetch is older than the refresh interval.
    async fn key_set(&self, missing: bool) -> Result<Arc<JwkSet>, AuthError> {
        let fresh = |fetched: Option<Instant>, limit: Duration| {
            fetched.is_some_and(|t| t.elapsed() < limit)
        };
        let (set, fetched) = self.cached();
        if let Some(set) = &set
            && fresh(fetched, self.max_age)
            && (!missing || fresh(fetched, self.min_refresh))
        {
            return Ok(Arc::clone(set));
        }
        let _one = self.refreshing.lock().await;
        let (set, after) = self.cached();
        if let Some(set) = set
            && (after != fetched || fresh(after, self.min_refresh))
        {
            // Another request fetched meanwhile, or the last fetch is too recent.
            return Ok(set);
        }
        let fetcher = self.fetcher.get(self.timeout);
        let url = match self.jwks_url(&fetcher).await {
            Ok(url) => url,
            Err(e) => {
                self.note_failed_fetch();
                return Err(e);
            }
        };
        let doc = match fetcher.get_json(&url).await {
            Ok(doc) => doc,
            Err(e) => {
                self.note_failed_fetch();
                return Err(e.into());
            }
        };
        let set: JwkSet = parse_jwks(doc)?;
        let set = Arc::new(set);
        let mut keys = lock(&self.keys);
        keys.set = Some(Arc::clone(&set));
        keys.fetched = Some(Instant::now());
        Ok(set)
    }

    /// A failed fetch counts for the refresh rate too (an unreachable server is not hammered),
    /// but keeps the keys already known.
    fn note_failed_fetch(&self) {
        let mut keys = lock(&self.keys);
        if keys.set.is_some() {
            keys.fetched = Some(Instant::now());
        }
    }

    async fn jwks_url(&self, fetcher: &Fetcher) -> Result<String, AuthError> {
        if let Some(url) = &self.jwks_uri {
            return Ok(url.clone());
        }
        let known = lock(&self.keys).discovered.clone();
        if let Some(url) = known {
            return Ok(url);
        }
        let meta = discovery::metadata(fetcher, &self.issuer).await?;
        let url = meta
            .get("jwks_uri")
            .and_then(Value::as_str)
            .ok_or_else(|| AuthError::unavailable("the issuer's metadata has no `jwks_uri`"))?
            .to_owned();
        lock(&self.keys).discovered = Some(url.clone());
        Ok(url)
    }

    async fn check(&self, token: &str) -> Result<Claims, AuthError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| AuthError::invalid("the token is not a JWT with a supported algorithm"))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(AuthError::invalid(format!(
                "the token's algorithm {:?} is not accepted",
                header.alg
            )));
        }
        self.check_typ(header.typ.as_deref())?;
        let set = self.key_set(false).await?;
        let jwk = match find_key(&set, header.kid.as_deref(), header.alg) {
            Some(jwk) => jwk.clone(),
            None => {
                let set = self.key_set(true).await?;
                find_key(&set, header.kid.as_deref(), header.alg)
                    .cloned()
                    .ok_or_else(|| AuthError::invalid("the token is signed by an unknown key"))?
            }
        };
        let key = DecodingKey::from_jwk(&jwk)
            .map_err(|_| AuthError::invalid("the token is signed by an unusable key"))?;
        let mut validation = Validation::new(header.alg);
        validation.algorithms = vec![header.alg];
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[self.issuer.as_str(), self.issuer.trim_end_matches('/')]);
        validation.set_audience(&[self.audience.as_str()]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| AuthError::invalid(describe(e.kind())))?;
        named(Claims::from_json(data.claims))
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(
        &'a self,
        token: &'a str,
        _request: &'a http::request::Parts,
    ) -> BoxFuture<'a, Result<Claims, AuthError>> {
        Box::pin(self.check(token))
    }
}

/// A JWKS document: keys this crate cannot use are skipped, not fatal.
fn parse_jwks(doc: Map<String, Value>) -> Result<JwkSet, AuthError> {
    let Some(Value::Array(keys)) = doc.get("keys") else {
        return Err(AuthError::unavailable("the JWKS has no `keys` array"));
    };
    let keys = keys
        .iter()
        .filter_map(|k| serde_json::from_value::<Jwk>(k.clone()).ok())
        .collect();
    Ok(JwkSet { keys })
}

/// The key for a token: by `kid`, else the only key of the algorithm's family; a key that
/// names its algorithm must name the token's.
fn find_key<'a>(set: &'a JwkSet, kid: Option<&str>, alg: Algorithm) -> Option<&'a Jwk> {
    let fits = |k: &&Jwk| {
        let family = match &k.algorithm {
            jsonwebtoken::jwk::AlgorithmParameters::RSA(_) => jsonwebtoken::AlgorithmFamily::Rsa,
            jsonwebtoken::jwk::AlgorithmParameters::EllipticCurve(_) => {
                jsonwebtoken::AlgorithmFamily::Ec
            }
            jsonwebtoken::jwk::AlgorithmParameters::OctetKeyPair(_) => {
                jsonwebtoken::AlgorithmFamily::Ed
            }
            jsonwebtoken::jwk::AlgorithmParameters::OctetKey(_) => {
                jsonwebtoken::AlgorithmFamily::Hmac
            }
        };
        let named = k
            .common
            .key_algorithm
            .is_none_or(|a| a.to_string() == format!("{alg:?}"));
        family == alg.family() && named
    };
    match kid {
        Some(kid) => set
            .keys
            .iter()
            .filter(|k| k.common.key_id.as_deref() == Some(kid))
            .find(fits),
        None => {
            let mut candidates = set.keys.iter().filter(fits);
            match (candidates.next(), candidates.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        }
    }
}

/// What the client is told about a token that failed.
fn describe(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired",
        ErrorKind::ImmatureSignature => "the token is not valid yet",
        ErrorKind::InvalidIssuer => "the token was issued by another issuer",
        ErrorKind::InvalidAudience => "the token is not for this resource",
        ErrorKind::InvalidSignature => "the token's signature does not verify",
        ErrorKind::MissingRequiredClaim(_) => "the token lacks a required claim (exp, iss, aud)",
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key",
        _ => "the token is malformed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(r: Result<(), AuthError>) -> String {
        match r {
            Ok(()) => "ok".into(),
            Err(AuthError::InvalidToken(why)) => why,
            Err(other) => format!("{other:?}"),
        }
    }

    #[test]
    fn typ_is_at_jwt_unless_told_otherwise() {
        let strict = JwtVerifier::new("https://a.example", "https://r.example/mcp");
        let lenient =
            JwtVerifier::new("https://a.example", "https://r.example/mcp").allow_jwt_typ(true);
        for ok in ["at+jwt", "AT+JWT", "application/at+jwt"] {
            assert_eq!(why(strict.check_typ(Some(ok))), "ok", "{ok}");
            assert_eq!(why(lenient.check_typ(Some(ok))), "ok", "{ok}");
        }
        for plain in ["JWT", "jwt", "application/jwt"] {
            assert_eq!(
                why(strict.check_typ(Some(plain))),
                format!(
                    "the token is not typed as an access token (typ '{plain}'; expected 'at+jwt')"
                )
            );
            assert_eq!(why(lenient.check_typ(Some(plain))), "ok", "{plain}");
        }
        assert_eq!(
            why(strict.check_typ(None)),
            "the token is not typed as an access token (no typ; expected 'at+jwt')"
        );
        assert_eq!(why(lenient.check_typ(None)), "ok");
        for other in ["id+jwt", "secevent+jwt", "", "at+jwt "] {
            let expected = format!(
                "the token is not typed as an access token (typ '{other}'; expected 'at+jwt')"
            );
            assert_eq!(why(strict.check_typ(Some(other))), expected);
            assert_eq!(why(lenient.check_typ(Some(other))), expected);
        }
    }
}
