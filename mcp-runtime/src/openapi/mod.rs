//! HTTP APIs as tools (feature `openapi`): an OpenAPI 3.0 or 3.1 document, read by
//! `mcp-runtime-openapi` (re-exported as [`spec`]), served as one tool per operation
//! ([`ServerBuilder::openapi`]).
//!
//! A call builds the operation's request from its arguments (`RequestPlan`), sends it with a
//! bounded client ([`OpenApi::timeout`], [`OpenApi::max_response`], no redirects followed,
//! like the crate's other outbound client) and answers with the response: a 2xx JSON body as
//! `structuredContent` (an object; anything else as `{"result": ...}`) and as text, any other
//! 2xx body as text, and any other status as an `isError` result naming the status with the
//! first [`EXCERPT`] bytes of the body.
//!
//! Credentials come from [`OpenApi::credential`], else from the environment when the
//! document is loaded: `MCP_OPENAPI_<SCHEME>` (the security scheme's name upper-cased, every
//! character but `A-Z0-9` as `_`; the prefix set by [`OpenApi::env_prefix`]) holds the API key
//! or bearer token, or `user:password` for a basic scheme. The MCP client's own credentials
//! (its `Authorization` header) are never sent on: the request is made from the arguments and
//! this configuration only.
//!
//! The tools are items of a mount (`registry::mounted`) that has no remote server: they are
//! renamed under the prefix, and [`MountOptions`](crate::transform::MountOptions)' transforms
//! (rename, arguments, tags, hide) apply to them by their generated names; the operation's
//! tags are the tool's tags (as `_meta._fastmcp.tags`, as FastMCP writes them).

mod call;
mod typed;

use std::sync::Arc;
use std::time::Duration;

use mcp_core::Tool;

pub use call::CallError;
pub use mcp_openapi as spec;
pub use mcp_openapi::{Credential, Options};
pub use typed::{HttpApi, Response};

#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use mcp_macros::openapi_tools as tools;

use crate::registry::mounted::{Forward, MountedItems, RemoteLists};
use crate::server::{Server, ServerBuilder};

/// How many bytes of a failed response's body its error result carries.
///
/// ```
/// assert_eq!(mcp_runtime::openapi::EXCERPT, 2048);
/// ```
pub const EXCERPT: usize = 2048;

/// What went wrong loading a document.
///
/// ```
/// use mcp_runtime::openapi::{LoadError, OpenApi, Options};
///
/// let err = OpenApi::from_text("openapi: 2.0", &Options::new()).unwrap_err();
/// assert!(matches!(err, LoadError::Document(_)));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The document could not be read or mapped.
    #[error(transparent)]
    Document(#[from] mcp_openapi::OpenApiError),
    /// The file could not be read.
    #[error("reading {path}: {source}")]
    File {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The URL could not be fetched (or answered with something other than 2xx).
    #[error("fetching {url}: {message}")]
    Fetch {
        /// The URL.
        url: String,
        /// Why.
        message: String,
    },
    /// The document's API cannot be called as configured (no absolute base URL, no HTTP
    /// client).
    #[error("{0}")]
    Config(String),
}

/// A document's operations with everything their calls need: base URL, credentials, limits.
///
/// ```
/// use mcp_runtime::openapi::{Credential, OpenApi, Options};
///
/// let doc = r#"{"openapi": "3.1.0", "servers": [{"url": "http://127.0.0.1:9/api"}],
///   "paths": {"/ping": {"get": {"operationId": "ping"}}}}"#;
/// let api = OpenApi::from_text(doc, &Options::new()).unwrap()
///     .credential("key", Credential::secret("s3cret"))
///     .timeout(std::time::Duration::from_secs(5));
/// assert_eq!(api.base_url(), Some("http://127.0.0.1:9/api"));
/// assert_eq!(api.tools()[0].name, "ping");
/// ```
#[derive(Clone)]
pub struct OpenApi {
    api: mcp_openapi::Api,
    base_url: Option<String>,
    /// Where the document came from (relative server URLs are joined to it).
    source: Option<String>,
    credentials: std::collections::HashMap<String, Credential>,
    env_prefix: String,
    timeout: Duration,
    max_response: usize,
}

impl std::fmt::Debug for OpenApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenApi")
            .field("title", &self.api.title)
            .field("tools", &self.api.tools.len())
            .field("base_url", &self.base_url())
            .finish_non_exhaustive()
    }
}

impl OpenApi {
    /// The operations of a document's text (JSON or YAML).
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text("openapi: 3.0.0\npaths: {/a: {get: {}}}\n", &Options::new()).unwrap();
    /// assert_eq!(api.tools()[0].name, "get_a");
    /// ```
    pub fn from_text(text: &str, options: &Options) -> Result<Self, LoadError> {
        Ok(Self::new(mcp_openapi::Api::from_text(text, options)?))
    }

    /// The operations of the document in a file.
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// assert!(OpenApi::from_file("/no/such/file.yaml", &Options::new()).is_err());
    /// ```
    pub fn from_file(
        path: impl AsRef<std::path::Path>,
        options: &Options,
    ) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let file = |source| LoadError::File {
            path: path.display().to_string(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(file)?;
        if meta.len() > mcp_openapi::MAX_DOCUMENT as u64 {
            let too_large =
                std::io::Error::other(format!("longer than {} bytes", mcp_openapi::MAX_DOCUMENT));
            return Err(file(too_large));
        }
        let text = std::fs::read_to_string(path).map_err(file)?;
        Self::from_text(&text, options)
    }

    /// The operations of the document at `url` (`http` or `https`), fetched with the same
    /// bounded client as the calls (30 s, at most `MAX_DOCUMENT` bytes, no redirects).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// assert!(OpenApi::from_url("ftp://example.test/a.json", &Options::new()).await.is_err());
    /// # });
    /// ```
    pub async fn from_url(url: &str, options: &Options) -> Result<Self, LoadError> {
        let fetch = |message: String| LoadError::Fetch {
            url: url.to_owned(),
            message,
        };
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(fetch("only http and https URLs are fetched".into()));
        }
        let client = call::client(Duration::from_secs(30)).map_err(|e| fetch(e.to_string()))?;
        let answer = client
            .get(url)
            .send()
            .await
            .map_err(|e| fetch(e.to_string()))?;
        let status = answer.status();
        let (body, _) = call::read_bounded(answer, mcp_openapi::MAX_DOCUMENT)
            .await
            .map_err(fetch)?;
        if !status.is_success() {
            return Err(fetch(format!("HTTP {status}")));
        }
        let text =
            String::from_utf8(body).map_err(|_| fetch("the document is not UTF-8".into()))?;
        let mut api = Self::from_text(&text, options)?;
        api.source = Some(url.to_owned());
        Ok(api)
    }

    /// [`from_url`](Self::from_url) when `location` starts with `http://` or `https://`, else
    /// [`from_file`](Self::from_file).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// assert!(OpenApi::load("/no/such/openapi.json", &Options::new()).await.is_err());
    /// # });
    /// ```
    pub async fn load(location: &str, options: &Options) -> Result<Self, LoadError> {
        if location.starts_with("http://") || location.starts_with("https://") {
            Self::from_url(location, options).await
        } else {
            Self::from_file(location, options)
        }
    }

    fn new(api: mcp_openapi::Api) -> Self {
        Self {
            api,
            base_url: None,
            source: None,
            credentials: std::collections::HashMap::new(),
            env_prefix: "MCP_OPENAPI_".into(),
            timeout: Duration::from_secs(30),
            max_response: 4 * 1024 * 1024,
        }
    }

    /// The mapped tools (names as generated, before a prefix or transforms).
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap();
    /// assert!(api.tools().is_empty());
    /// ```
    pub fn tools(&self) -> &[mcp_openapi::OpenApiTool] {
        &self.api.tools
    }

    /// The operations that could not be mapped (and were left out).
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap();
    /// assert!(api.skipped().is_empty());
    /// ```
    pub fn skipped(&self) -> &[mcp_openapi::OpenApiError] {
        &self.api.skipped
    }

    /// Sends the requests to `url` instead of the document's first server.
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap().with_base_url("http://127.0.0.1:8000");
    /// assert_eq!(api.base_url(), Some("http://127.0.0.1:8000"));
    /// ```
    pub fn with_base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// Where the requests go: the override, else the document's first server (a relative
    /// one joined to the URL the document came from; a document without servers fetched
    /// from a URL is served by that URL's origin).
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0", "servers": [{"url": "/v3"}]}"#, &Options::new()).unwrap();
    /// assert_eq!(api.base_url(), None); // relative, and not fetched from a URL
    /// ```
    pub fn base_url(&self) -> Option<&str> {
        if let Some(url) = &self.base_url {
            return Some(url);
        }
        let server = self.api.servers.first().map_or("/", String::as_str);
        if server.starts_with("http://") || server.starts_with("https://") {
            return Some(server);
        }
        None
    }

    /// The base URL, a relative server joined to the document's URL.
    fn resolved_base(&self) -> Option<String> {
        if let Some(url) = self.base_url() {
            return Some(url.to_owned());
        }
        let source = reqwest::Url::parse(self.source.as_deref()?).ok()?;
        let server = self.api.servers.first().map_or("/", String::as_str);
        source.join(server).ok().map(|u| u.to_string())
    }

    /// The credential of the security scheme `scheme` (its name in
    /// `components.securitySchemes`), over the environment's.
    ///
    /// ```
    /// use mcp_runtime::openapi::{Credential, OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap()
    ///     .credential("basicAuth", Credential::basic("ada", "pw"));
    /// # let _ = api;
    /// ```
    pub fn credential(mut self, scheme: impl Into<String>, credential: Credential) -> Self {
        self.credentials.insert(scheme.into(), credential);
        self
    }

    /// The prefix of the environment variables read for credentials (`MCP_OPENAPI_`).
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap().env_prefix("PETSTORE_");
    /// # let _ = api;
    /// ```
    pub fn env_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.env_prefix = prefix.into();
        self
    }

    /// How long one call's request may take, connection and body included (30 s).
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap().timeout(std::time::Duration::from_secs(3));
    /// # let _ = api;
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The longest response body read, in bytes (4 MiB): a longer one fails the call.
    ///
    /// ```
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap().max_response(65_536);
    /// # let _ = api;
    /// ```
    pub fn max_response(mut self, bytes: usize) -> Self {
        self.max_response = bytes;
        self
    }

    /// The environment variable of a scheme's credential.
    fn env_name(&self, scheme: &str) -> String {
        let upper: String = scheme
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_uppercase()
                } else {
                    '_'
                }
            })
            .collect();
        format!("{}{upper}", self.env_prefix)
    }

    /// The configured credentials, completed from the environment for every scheme the
    /// tools name.
    fn all_credentials(&self) -> std::collections::HashMap<String, Credential> {
        let mut out = self.credentials.clone();
        for tool in &self.api.tools {
            for (name, scheme) in tool.plan.security.iter().flatten() {
                if out.contains_key(name) {
                    continue;
                }
                let Ok(value) = std::env::var(self.env_name(name)) else {
                    continue;
                };
                let credential = match (scheme, value.split_once(':')) {
                    (mcp_openapi::Scheme::Basic, Some((user, password))) => {
                        Credential::basic(user, password)
                    }
                    (mcp_openapi::Scheme::Basic, None) => continue,
                    _ => Credential::secret(value),
                };
                out.insert(name.clone(), credential);
            }
        }
        out
    }
}

impl ServerBuilder {
    /// Serves each operation of `api` as a tool named `prefix.name` (`name` as generated;
    /// an empty prefix keeps it), each call sent as the operation's HTTP request
    /// (module [`openapi`](crate::openapi)). Fails the build when no base URL is known or the
    /// prefix is not a mount prefix; must be built inside a tokio runtime. The schemas are
    /// shaped by the [`schema_profile`](Self::schema_profile) set before this call.
    ///
    /// ```standalone_crate
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// use mcp_runtime::prelude::*;
    ///
    /// let doc = r#"{"openapi": "3.1.0", "servers": [{"url": "http://127.0.0.1:9"}],
    ///   "paths": {"/pets": {"get": {"operationId": "listPets", "summary": "All pets"}}}}"#;
    /// let api = OpenApi::from_text(doc, &Options::new()).unwrap();
    /// let server = Server::builder(server_info!()).openapi("pets", api).build().unwrap();
    /// let client = server.connect_client(mcp_runtime::client::Client::builder()).await.unwrap();
    /// let tools = client.list_tools().await.unwrap();
    /// assert_eq!((tools[0].name.as_str(), tools[0].description.as_deref()), ("pets.listPets", Some("All pets")));
    /// # });
    /// ```
    pub fn openapi(self, prefix: impl Into<String>, api: OpenApi) -> Self {
        self.openapi_with(prefix, api, crate::transform::MountOptions::new())
    }

    /// [`openapi`](Self::openapi), the tools transformed by `options` (named as generated,
    /// before the prefix).
    ///
    /// ```standalone_crate
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use mcp_runtime::openapi::{OpenApi, Options};
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::transform::{MountOptions, ToolTransform};
    ///
    /// let doc = r#"{"openapi": "3.1.0", "servers": [{"url": "http://127.0.0.1:9"}],
    ///   "paths": {"/pets": {"get": {"operationId": "listPets"}, "post": {"operationId": "addPet"}}}}"#;
    /// let api = OpenApi::from_text(doc, &Options::new()).unwrap();
    /// let options = MountOptions::new()
    ///     .transform(ToolTransform::new("listPets").rename("pets"))
    ///     .transform(ToolTransform::new("addPet").hide());
    /// let server = Server::builder(server_info!()).openapi_with("", api, options).build().unwrap();
    /// let client = server.connect_client(mcp_runtime::client::Client::builder()).await.unwrap();
    /// let names: Vec<String> = client.list_tools().await.unwrap().into_iter().map(|t| t.name).collect();
    /// assert_eq!(names, ["pets"]);
    /// # });
    /// ```
    pub fn openapi_with(
        mut self,
        prefix: impl Into<String>,
        api: OpenApi,
        options: crate::transform::MountOptions,
    ) -> Self {
        let prefix: Arc<str> = Arc::from(prefix.into());
        let backend = match call::Backend::from_api(&api) {
            Ok(b) => b,
            Err(e) => return self.config_error(crate::error::Error::Config(e.to_string())),
        };
        let profile = self.options.profile;
        let tools: Vec<Tool> = api
            .api
            .tools
            .iter()
            .map(|t| descriptor(t, profile))
            .collect();
        let forward: Arc<dyn Forward> = Arc::new(backend);
        let lists = RemoteLists {
            tools,
            ..RemoteLists::default()
        };
        let items = MountedItems::transformed(
            prefix,
            forward,
            None,
            [true, false, false],
            lists,
            &options.transforms,
        )
        // The document's schemas, the API's answers: checked (`MountOptions::validate_output`).
        .with_output_checks(!options.unchecked_output);
        self.records.mounts.push(Arc::new(items));
        // Nothing to wait for: the lists are in already (`Server::mounted`).
        self.on_build.push(Box::new(|server: &Server| {
            server
                .inner
                .mounts_pending
                .send_modify(|n| *n = n.saturating_sub(1));
        }));
        self
    }
}

/// The tool descriptor of a mapped operation.
/// The input schema is shaped by the server's profile, as derived ones are (the portable profile
/// turns `nullable` and `null` unions into optional members, for the clients that refuse them).
fn descriptor(t: &mcp_openapi::OpenApiTool, profile: crate::SchemaProfile) -> Tool {
    let mut tool = Tool::new(t.name.clone(), profile.finish_value(t.input_schema.clone()));
    tool.description = t.description.clone();
    // The output schema as the document gives it: results are checked against it.
    tool.output_schema = t.output_schema.clone();
    let mut hints = mcp_core::ToolAnnotations::default();
    hints.read_only_hint = Some(t.plan.read_only());
    hints.open_world_hint = Some(true);
    hints.idempotent_hint = t.plan.idempotent().then_some(true);
    tool.annotations = Some(hints);
    if let Some(serde_json::Value::Object(meta)) = t.meta() {
        tool.meta = Some(meta);
    }
    tool
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_read_from_variables_named_after_their_schemes() {
        let api = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap();
        assert_eq!(api.env_name("api_key"), "MCP_OPENAPI_API_KEY");
        assert_eq!(api.env_name("HTTPBearer"), "MCP_OPENAPI_HTTPBEARER");
        assert_eq!(
            api.env_name("petstore-auth.v2"),
            "MCP_OPENAPI_PETSTORE_AUTH_V2"
        );
        let api = api.env_prefix("PETS_");
        assert_eq!(api.env_name("key"), "PETS_KEY");
    }

    #[test]
    fn a_relative_server_is_joined_to_the_documents_url() {
        let doc = r#"{"openapi": "3.0.0", "servers": [{"url": "/api/v3"}]}"#;
        let mut api = OpenApi::from_text(doc, &Options::new()).unwrap();
        assert_eq!(api.resolved_base(), None);
        api.source = Some("http://127.0.0.1:8080/docs/openapi.json".into());
        assert_eq!(
            api.resolved_base().as_deref(),
            Some("http://127.0.0.1:8080/api/v3")
        );
        let mut bare = OpenApi::from_text(r#"{"openapi": "3.1.0"}"#, &Options::new()).unwrap();
        bare.source = Some("http://127.0.0.1:8000/openapi.json".into());
        assert_eq!(
            bare.resolved_base().as_deref(),
            Some("http://127.0.0.1:8000/")
        );
    }
}
