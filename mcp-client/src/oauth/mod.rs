//! The OAuth 2.1 client of the MCP authorization specification (feature `oauth`).
//!
//! Attached with [`ClientBuilder::oauth`](crate::ClientBuilder::oauth), it stays idle until the
//! server refuses a request, then:
//!
//! 1. finds the protected resource metadata (RFC 9728): the `resource_metadata` of the
//!    `WWW-Authenticate` challenge, else the well-known URL with the endpoint's path, else the
//!    root one; its `resource` must name the server the client speaks to, and is sent as the
//!    RFC 8707 `resource` indicator of the authorization and token requests (metadata without
//!    `resource`, or none at all, sends the server's canonical URI instead: scheme, host, port
//!    and path of the URL connected to, no trailing slash, query or fragment; a server of
//!    2025-03-26 without that metadata is its own authorization server, with the default
//!    endpoints when it has no metadata either);
//! 2. reads the authorization server's RFC 8414 or OpenID Connect metadata, whose `issuer` must
//!    be the one asked for;
//! 3. picks the client identity: pre-registered credentials, else a client ID metadata document
//!    URL when the server supports them, else dynamic client registration (RFC 7591), one
//!    registration per authorization server;
//! 4. picks the scopes: the challenge's `scope` (joined with those asked before on a 403
//!    `insufficient_scope` step-up), else the resource's `scopes_supported`, else none, plus
//!    `offline_access` when the authorization server lists it;
//! 5. gets the token: the authorization code grant with PKCE (S256), the browser step left to a
//!    [`RedirectHandler`], the `iss` of the answer checked (RFC 9207); or the client credentials
//!    grant; the token endpoint authenticated as registered (`none`, `client_secret_basic`,
//!    `client_secret_post`, `private_key_jwt`);
//! 6. keeps the tokens in a [`TokenStore`] and uses the refresh token first when the access
//!    token is refused again.
//!
//! A request is authorized at most three times before its refusal is final.
//!
//! ```no_run
//! use mcp_runtime_client::Client;
//! use mcp_runtime_client::oauth::{FollowRedirect, OAuth};
//!
//! # async fn f() -> Result<(), mcp_runtime_client::ClientError> {
//! let oauth = OAuth::builder()
//!     .client_name("my-agent")
//!     .redirect_uri("http://127.0.0.1:8976/callback")
//!     .redirect_handler(FollowRedirect::new())
//!     .build();
//! let client = Client::builder().oauth(oauth).connect_http("https://mcp.example.com/mcp").await?;
//! # let _ = client; Ok(()) }
//! ```

mod discover;
mod dpop;
mod flow;
mod ident;
mod store;
mod token;

use std::sync::{Arc, Mutex};

pub use crate::error::OAuthError;
pub use jsonwebtoken::Algorithm;
use mcp_io::fetch::FetchError;
use mcp_io::{BoxFuture, lock};
pub use store::{MemoryTokenStore, TokenStore, Tokens};

use crate::error::ClientError;
use crate::http::Authorizer;

/// The user-agent step of the authorization code grant: the user is sent to the authorization
/// URL, and the redirect that comes back (the `redirect_uri` with `code`, `state` and maybe
/// `iss`) is returned whole.
///
/// ```
/// use mcp_runtime_client::BoxFuture;
/// use mcp_runtime_client::oauth::{OAuthError, RedirectHandler};
///
/// /// Prints the URL and reads the redirect the user pastes back.
/// struct Terminal;
///
/// impl RedirectHandler for Terminal {
///     fn authorize<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<String, OAuthError>> {
///         Box::pin(async move {
///             println!("open {url} and paste the address you land on:");
///             let mut line = String::new();
///             std::io::stdin().read_line(&mut line).map_err(OAuthError::redirect)?;
///             Ok(line.trim().to_owned())
///         })
///     }
/// }
/// ```
pub trait RedirectHandler: Send + Sync + 'static {
    /// Sends the user to `url`; resolves to the URL the authorization server redirected to
    /// (a failure of the handler itself is [`OAuthError::redirect`]).
    fn authorize<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<String, OAuthError>>;
}

/// A [`RedirectHandler`] for authorization servers that approve at once (test servers,
/// headless hosts): it fetches the authorization URL and returns the `Location` it redirects
/// to, without following it.
///
/// ```
/// let _ = mcp_runtime_client::oauth::FollowRedirect::new();
/// ```
#[derive(Debug, Clone)]
pub struct FollowRedirect {
    http: reqwest::Client,
}

impl FollowRedirect {
    /// A handler with a 10-second limit per authorization.
    #[must_use]
    pub fn new() -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(std::time::Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        Self { http }
    }
}

impl Default for FollowRedirect {
    fn default() -> Self {
        Self::new()
    }
}

impl RedirectHandler for FollowRedirect {
    fn authorize<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<String, OAuthError>> {
        Box::pin(async move {
            let resp = self.http.get(url).send().await.map_err(|e| {
                OAuthError::fetch("the authorization request")(FetchError::Request {
                    url: url.to_owned(),
                    source: Arc::new(e),
                })
            })?;
            if !resp.status().is_redirection() {
                return Err(OAuthError::refused(format!(
                    "the authorization endpoint answered HTTP {} instead of a redirect",
                    resp.status().as_u16()
                )));
            }
            let location = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| OAuthError::refused("the redirect has no Location"))?;
            resp.url()
                .join(location)
                .map(String::from)
                .map_err(|source| OAuthError::InvalidUrl {
                    what: "the redirect's Location",
                    url: location.to_owned(),
                    source,
                })
        })
    }
}

/// Which grant obtains tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Grant {
    AuthorizationCode,
    ClientCredentials,
    JwtBearer,
}

/// Where the assertion of the JWT bearer grant comes from.
#[derive(Debug, Clone)]
enum Assertion {
    /// Given: a workload identity token.
    Given(String),
    /// Exchanged (RFC 8693) at the enterprise identity provider's token endpoint for an
    /// identity assertion grant (ID-JAG) aimed at the authorization server.
    Exchanged {
        endpoint: String,
        id_token: String,
        client_id: Option<String>,
    },
}

/// The client's configuration, shared by its flows.
struct Config {
    client_name: String,
    redirect_uri: String,
    redirect: Arc<dyn RedirectHandler>,
    metadata_url: Option<String>,
    preregistered: Option<(String, Option<String>)>,
    issuer: Option<String>,
    signing_key: Option<(String, Algorithm)>,
    grant: Grant,
    offline_access: bool,
    store: Arc<dyn TokenStore>,
    assertion: Option<Assertion>,
    dpop: dpop::DpopKey,
}

/// An OAuth client for one MCP server; see the [module docs](self). Cheap to clone.
///
/// ```
/// use mcp_runtime_client::oauth::OAuth;
///
/// let oauth = OAuth::builder().preregistered("my-client", Some("s3cret")).build();
/// # let _ = oauth;
/// ```
#[derive(Clone)]
pub struct OAuth {
    config: Arc<Config>,
    /// One flow at a time; what the flows learn.
    state: Arc<tokio::sync::Mutex<flow::State>>,
    /// The tokens in use (read on every request).
    current: Arc<Mutex<Option<Tokens>>>,
    /// The resource server's last DPoP nonce.
    nonce: Arc<Mutex<Option<String>>>,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("client_name", &self.config.client_name)
            .field("grant", &self.config.grant)
            .finish_non_exhaustive()
    }
}

impl OAuth {
    /// A builder: dynamic registration as `mcp-runtime-client`, the authorization code grant
    /// with [`FollowRedirect`] and `http://127.0.0.1:8976/callback`, tokens in memory.
    ///
    /// ```
    /// let _ = mcp_runtime_client::oauth::OAuth::builder();
    /// ```
    pub fn builder() -> OAuthBuilder {
        OAuthBuilder {
            config: Config {
                client_name: "mcp-runtime-client".into(),
                redirect_uri: "http://127.0.0.1:8976/callback".into(),
                redirect: Arc::new(FollowRedirect::new()),
                metadata_url: None,
                preregistered: None,
                issuer: None,
                signing_key: None,
                grant: Grant::AuthorizationCode,
                offline_access: true,
                store: Arc::new(MemoryTokenStore::default()),
                assertion: None,
                dpop: dpop::DpopKey::generate(),
            },
        }
    }
}

/// Configures an [`OAuth`] client.
///
/// ```
/// use mcp_runtime_client::oauth::{MemoryTokenStore, OAuth};
///
/// let oauth = OAuth::builder()
///     .client_name("nightly-report")
///     .client_metadata_url("https://agent.example.com/client.json")
///     .token_store(MemoryTokenStore::default())
///     .build();
/// # let _ = oauth;
/// ```
#[must_use]
pub struct OAuthBuilder {
    config: Config,
}

impl std::fmt::Debug for OAuthBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthBuilder")
            .field("client_name", &self.config.client_name)
            .finish_non_exhaustive()
    }
}

impl OAuthBuilder {
    /// The `client_name` sent in dynamic registration.
    pub fn client_name(mut self, name: impl Into<String>) -> Self {
        self.config.client_name = name.into();
        self
    }

    /// The `redirect_uri` of the authorization code grant.
    pub fn redirect_uri(mut self, uri: impl Into<String>) -> Self {
        self.config.redirect_uri = uri.into();
        self
    }

    /// Who takes the user through the authorization URL ([`FollowRedirect`] unless set).
    pub fn redirect_handler(mut self, handler: impl RedirectHandler) -> Self {
        self.config.redirect = Arc::new(handler);
        self
    }

    /// The HTTPS URL of this client's metadata document, used as its `client_id` by
    /// authorization servers that advertise `client_id_metadata_document_supported`.
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.config.metadata_url = Some(url.into());
        self
    }

    /// Credentials registered with the authorization server beforehand (no registration).
    pub fn preregistered(mut self, client_id: impl Into<String>, secret: Option<&str>) -> Self {
        self.config.preregistered = Some((client_id.into(), secret.map(str::to_owned)));
        self
    }

    /// Restricts the pre-registered credentials to the authorization server with this issuer
    /// (others get dynamic registration).
    pub fn preregistered_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.config.issuer = Some(issuer.into());
        self
    }

    /// Authenticates at the token endpoint with a JWT signed by this PEM key (`private_key_jwt`,
    /// RFC 7523), for the pre-registered client.
    pub fn private_key_jwt(mut self, pem: impl Into<String>, algorithm: Algorithm) -> Self {
        self.config.signing_key = Some((pem.into(), algorithm));
        self
    }

    /// Uses the client credentials grant (a machine client, no user) instead of the
    /// authorization code grant; needs pre-registered credentials.
    pub fn client_credentials(mut self) -> Self {
        self.config.grant = Grant::ClientCredentials;
        self
    }

    /// Uses the JWT bearer grant (RFC 7523) with this assertion: workload identity federation,
    /// the token of the platform the client runs on presented for an access token. A refused
    /// assertion is final (no other grant is tried).
    pub fn jwt_bearer(mut self, assertion: impl Into<String>) -> Self {
        self.config.grant = Grant::JwtBearer;
        self.config.assertion = Some(Assertion::Given(assertion.into()));
        self
    }

    /// Enterprise-managed authorization: the user's ID token from the enterprise identity
    /// provider is exchanged (RFC 8693) at `idp_token_endpoint` for an identity assertion
    /// grant aimed at the MCP server's authorization server, which the JWT bearer grant then
    /// presents there (with the pre-registered client's credentials).
    pub fn enterprise(
        mut self,
        idp_token_endpoint: impl Into<String>,
        id_token: impl Into<String>,
        idp_client_id: Option<&str>,
    ) -> Self {
        self.config.grant = Grant::JwtBearer;
        self.config.assertion = Some(Assertion::Exchanged {
            endpoint: idp_token_endpoint.into(),
            id_token: id_token.into(),
            client_id: idp_client_id.map(str::to_owned),
        });
        self
    }

    /// Whether `offline_access` is asked for when the authorization server supports it (a
    /// refresh token); on unless turned off.
    pub fn offline_access(mut self, on: bool) -> Self {
        self.config.offline_access = on;
        self
    }

    /// Where tokens are kept ([`MemoryTokenStore`] unless set).
    pub fn token_store(mut self, store: impl TokenStore) -> Self {
        self.config.store = Arc::new(store);
        self
    }

    /// The client.
    pub fn build(self) -> OAuth {
        OAuth {
            config: Arc::new(self.config),
            state: Arc::new(tokio::sync::Mutex::new(flow::State::default())),
            current: Arc::new(Mutex::new(None)),
            nonce: Arc::new(Mutex::new(None)),
        }
    }
}

impl Authorizer for OAuth {
    fn authorization(&self, method: &str, url: &reqwest::Url) -> Option<(String, Option<String>)> {
        let mut current = lock(&self.current);
        if current.is_none() {
            *current = self.config.store.load(url.as_str());
        }
        let tokens = current.as_ref()?;
        if tokens.token_type.eq_ignore_ascii_case("dpop") {
            let nonce = lock(&self.nonce).clone();
            let proof = self.config.dpop.proof(
                method,
                url.as_str(),
                Some(&tokens.access_token),
                nonce.as_deref(),
            );
            Some((format!("DPoP {}", tokens.access_token), Some(proof)))
        } else {
            Some((format!("Bearer {}", tokens.access_token), None))
        }
    }

    fn challenge<'a>(
        &'a self,
        url: &'a reqwest::Url,
        status: u16,
        www_authenticate: Option<&'a str>,
        dpop_nonce: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), ClientError>> {
        Box::pin(async move {
            let challenge = discover::Challenge::parse(www_authenticate.unwrap_or(""));
            if let Some(nonce) = dpop_nonce
                && challenge.error.as_deref() == Some("use_dpop_nonce")
            {
                // RFC 9449 §9: the same token again, with a proof carrying the nonce.
                *lock(&self.nonce) = Some(nonce.to_owned());
                return Ok(());
            }
            let access = |c: &Option<Tokens>| c.as_ref().map(|t| t.access_token.clone());
            let refused = access(&lock(&self.current));
            let mut state = self.state.lock().await;
            // Another request's flow may have replaced the refused token meanwhile.
            let now = access(&lock(&self.current));
            if now.is_some() && now != refused {
                return Ok(());
            }
            let tokens = flow::authorize(&self.config, &mut state, url, status, &challenge)
                .await
                .map_err(|source| ClientError::Unauthorized { status, source })?;
            self.config.store.save(url.as_str(), &tokens);
            *lock(&self.current) = Some(tokens);
            Ok(())
        })
    }
}
