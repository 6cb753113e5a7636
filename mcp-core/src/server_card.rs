//! MCP Server Cards (SEP-2127) and the AI Catalog that lists them: static documents a client
//! reads before it connects, to learn who a remote server is and where to reach it.
//!
//! The shapes follow the working group's `schema.json` (`$defs/ServerCard`), which the
//! workspace vendors and validates these types' output against. A card names no tools,
//! resources or prompts: "Server Cards do not enumerate primitives" (`docs/discovery.md`).
//!
//! ```
//! use mcp_runtime_core::server_card::{Remote, ServerCard};
//!
//! let card = ServerCard::new("com.example/weather", "1.0.0", "Forecasts by city.")
//!     .with_title("Weather")
//!     .with_remotes(vec![Remote::streamable_http("https://example.com/mcp")
//!         .with_supported_protocol_versions(vec!["2025-11-25".to_owned()])]);
//! let json = serde_json::to_value(&card).unwrap();
//! assert_eq!(json["$schema"], mcp_runtime_core::server_card::SCHEMA_URL);
//! assert_eq!(json["remotes"][0]["type"], "streamable-http");
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::Icon;
use crate::meta::Meta;

/// The `$schema` every v1 card carries (the schema's pattern admits this URL alone).
///
/// ```
/// assert!(mcp_runtime_core::server_card::SCHEMA_URL.ends_with("/v1/server-card.schema.json"));
/// ```
pub const SCHEMA_URL: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/// The media type of a Server Card: "Server Cards use the media type
/// `application/mcp-server-card+json`" (`docs/discovery.md`).
///
/// ```
/// assert_eq!(mcp_runtime_core::server_card::MEDIA_TYPE, "application/mcp-server-card+json");
/// ```
pub const MEDIA_TYPE: &str = "application/mcp-server-card+json";

/// The media type of an AI Catalog: "the document SHOULD use the `application/ai-catalog+json`
/// media type" (`docs/discovery.md`).
///
/// ```
/// assert_eq!(mcp_runtime_core::server_card::CATALOG_MEDIA_TYPE, "application/ai-catalog+json");
/// ```
pub const CATALOG_MEDIA_TYPE: &str = "application/ai-catalog+json";

/// The well-known path of a domain's AI Catalog.
///
/// ```
/// assert_eq!(mcp_runtime_core::server_card::CATALOG_PATH, "/.well-known/ai-catalog.json");
/// ```
pub const CATALOG_PATH: &str = "/.well-known/ai-catalog.json";

/// The suffix appended to a server's Streamable HTTP URL where its card is reserved:
/// "`GET <streamable-http-url>/server-card`" (`docs/discovery.md`).
///
/// ```
/// assert_eq!(mcp_runtime_core::server_card::CARD_SUFFIX, "/server-card");
/// ```
pub const CARD_SUFFIX: &str = "/server-card";

/// A Server Card: a remote server's identity and connection details.
///
/// ```
/// use mcp_runtime_core::server_card::ServerCard;
///
/// let card = ServerCard::new("example-org/minimal", "1.0.0", "Smallest valid Server Card.");
/// assert_eq!(
///     serde_json::to_string(&card).unwrap(),
///     r#"{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"example-org/minimal","version":"1.0.0","description":"Smallest valid Server Card."}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerCard {
    /// The schema URL ([`SCHEMA_URL`]).
    #[serde(rename = "$schema")]
    pub schema: String,
    /// The name in reverse-DNS form, one `/` between namespace and name (`com.example/weather`).
    pub name: String,
    /// A display name (1 to 100 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The version, as `Implementation.version`.
    pub version: String,
    /// What the server does (1 to 100 characters).
    pub description: String,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Where the source is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<Repository>,
    /// The server's home page or documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
    /// The HTTP endpoints to connect to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remotes: Option<Vec<Remote>>,
    /// Extension metadata, reverse-DNS namespaced.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ServerCard {
    /// A card with the required members and the v1 `$schema`.
    ///
    /// ```
    /// let card = mcp_runtime_core::server_card::ServerCard::new("a.b/c", "1", "Does c.");
    /// assert_eq!(card.title, None);
    /// ```
    pub fn new(
        name: impl Into<String>,
        version: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        Self {
            schema: SCHEMA_URL.to_owned(),
            name: name.into(),
            title: None,
            version: version.into(),
            description: description.into(),
            icons: None,
            repository: None,
            website_url: None,
            remotes: None,
            meta: None,
        }
    }

    with_options! {
        with_title => title: String,
        with_icons => icons: Vec<Icon>,
        with_repository => repository: Repository,
        with_website_url => website_url: String,
        with_remotes => remotes: Vec<Remote>,
        with_meta => meta: Meta,
    }
}

/// Where a server's source code is.
///
/// ```
/// use mcp_runtime_core::server_card::Repository;
///
/// let repo = Repository::new("github", "https://github.com/example/weather").with_subfolder("server");
/// assert_eq!(
///     serde_json::to_string(&repo).unwrap(),
///     r#"{"source":"github","url":"https://github.com/example/weather","subfolder":"server"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Repository {
    /// The hosting service (`"github"`).
    pub source: String,
    /// A URL to browse and clone.
    pub url: String,
    /// The path of the server inside the repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subfolder: Option<String>,
    /// The forge's stable id of the repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

impl Repository {
    /// A repository on `source` at `url`.
    ///
    /// ```
    /// let repo = mcp_runtime_core::server_card::Repository::new("github", "https://github.com/a/b");
    /// assert_eq!(repo.subfolder, None);
    /// ```
    pub fn new(source: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            source: source.into(),
            url: url.into(),
            subfolder: None,
            id: None,
        }
    }

    with_options! {
        with_subfolder => subfolder: String,
        with_id => id: String,
    }
}

/// The transport of a [`Remote`].
///
/// ```
/// use mcp_runtime_core::server_card::RemoteType;
/// assert_eq!(serde_json::to_string(&RemoteType::StreamableHttp).unwrap(), r#""streamable-http""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum RemoteType {
    /// Streamable HTTP.
    StreamableHttp,
    /// The HTTP+SSE transport of 2024-11-05.
    Sse,
}

/// One HTTP endpoint of the server.
///
/// ```
/// use mcp_runtime_core::server_card::{Input, Remote};
///
/// let remote = Remote::streamable_http("https://{tenant}.example.com/mcp")
///     .with_variables([("tenant".to_owned(), Input::new().with_description("Tenant."))]);
/// assert_eq!(
///     serde_json::to_string(&remote).unwrap(),
///     r#"{"type":"streamable-http","url":"https://{tenant}.example.com/mcp","variables":{"tenant":{"description":"Tenant."}}}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Remote {
    /// The transport.
    #[serde(rename = "type")]
    pub kind: RemoteType,
    /// The URL (a template when it holds `{variables}`): `http://`, `https://` or a
    /// `{variable}` first.
    pub url: String,
    /// The protocol revisions this endpoint serves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supported_protocol_versions: Option<Vec<String>>,
    /// Headers a client sends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<Vec<KeyValueInput>>,
    /// The variables of `url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables: Option<BTreeMap<String, Input>>,
}

impl Remote {
    /// A Streamable HTTP endpoint at `url`.
    ///
    /// ```
    /// let remote = mcp_runtime_core::server_card::Remote::streamable_http("https://a.example/mcp");
    /// assert_eq!(remote.headers, None);
    /// ```
    pub fn streamable_http(url: impl Into<String>) -> Self {
        Self {
            kind: RemoteType::StreamableHttp,
            url: url.into(),
            supported_protocol_versions: None,
            headers: None,
            variables: None,
        }
    }

    with_options! {
        with_supported_protocol_versions => supported_protocol_versions: Vec<String>,
        with_headers => headers: Vec<KeyValueInput>,
        with_variables => variables: BTreeMap<String, Input>,
    }
}

/// How an input is written.
///
/// ```
/// use mcp_runtime_core::server_card::InputFormat;
/// assert_eq!(serde_json::to_string(&InputFormat::Filepath).unwrap(), r#""filepath""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum InputFormat {
    /// `"true"` or `"false"`.
    Boolean,
    /// A file on the user's system.
    Filepath,
    /// A decimal number.
    Number,
    /// Any string.
    String,
}

/// A value a user supplies or that is set in advance (a URL variable, a header's variable).
///
/// ```
/// use mcp_runtime_core::server_card::Input;
///
/// let token = Input::new().with_description("API token.").with_is_secret(true);
/// assert_eq!(
///     serde_json::to_string(&token).unwrap(),
///     r#"{"description":"API token.","isSecret":true}"#
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Input {
    /// What the input is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the connection needs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_required: Option<bool>,
    /// Whether it is a secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_secret: Option<bool>,
    /// Its format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<InputFormat>,
    /// Its default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// An example shown while configuring.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    /// The values allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<String>>,
    /// A fixed value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl Input {
    /// An input with nothing said about it.
    ///
    /// ```
    /// assert_eq!(mcp_runtime_core::server_card::Input::new().description, None);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    with_options! {
        with_description => description: String,
        with_is_required => is_required: bool,
        with_is_secret => is_secret: bool,
        with_format => format: InputFormat,
        with_default => default: String,
        with_placeholder => placeholder: String,
        with_choices => choices: Vec<String>,
        with_value => value: String,
    }
}

/// A named [`Input`]: an HTTP header, whose `value` may hold `{variables}`.
///
/// ```
/// use mcp_runtime_core::server_card::{Input, KeyValueInput};
///
/// let auth = KeyValueInput::new("Authorization")
///     .with_input(Input::new().with_is_required(true).with_value("Bearer {token}"))
///     .with_variables([("token".to_owned(), Input::new().with_is_secret(true))]);
/// assert_eq!(
///     serde_json::to_string(&auth).unwrap(),
///     r#"{"name":"Authorization","isRequired":true,"value":"Bearer {token}","variables":{"token":{"isSecret":true}}}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct KeyValueInput {
    /// The header's name.
    pub name: String,
    /// What is said of its value.
    #[serde(flatten)]
    pub input: Input,
    /// The variables of `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables: Option<BTreeMap<String, Input>>,
}

impl KeyValueInput {
    /// A header named `name`.
    ///
    /// ```
    /// let h = mcp_runtime_core::server_card::KeyValueInput::new("X-Api-Key");
    /// assert_eq!(h.name, "X-Api-Key");
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            input: Input::default(),
            variables: None,
        }
    }

    /// Sets what is said of the value.
    ///
    /// ```
    /// use mcp_runtime_core::server_card::{Input, KeyValueInput};
    /// let h = KeyValueInput::new("X-Api-Key").with_input(Input::new().with_is_secret(true));
    /// assert_eq!(h.input.is_secret, Some(true));
    /// ```
    #[must_use]
    pub fn with_input(mut self, input: Input) -> Self {
        self.input = input;
        self
    }

    with_options! {
        with_variables => variables: BTreeMap<String, Input>,
    }
}

/// An AI Catalog: a domain's list of AI artifacts, here its Server Cards.
///
/// ```
/// use mcp_runtime_core::server_card::{AiCatalog, CatalogEntry};
///
/// let catalog = AiCatalog::new(vec![CatalogEntry::url(
///     "urn:air:example.com:mcp:weather",
///     "https://example.com/mcp/server-card",
/// )]);
/// assert_eq!(
///     serde_json::to_string(&catalog).unwrap(),
///     r#"{"specVersion":"1.0","entries":[{"identifier":"urn:air:example.com:mcp:weather","type":"application/mcp-server-card+json","url":"https://example.com/mcp/server-card"}]}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AiCatalog {
    /// The catalog format's version (`"1.0"`).
    pub spec_version: String,
    /// The artifacts.
    pub entries: Vec<CatalogEntry>,
}

impl AiCatalog {
    /// A version 1.0 catalog of `entries`.
    ///
    /// ```
    /// assert!(mcp_runtime_core::server_card::AiCatalog::new(vec![]).entries.is_empty());
    /// ```
    pub fn new(entries: Vec<CatalogEntry>) -> Self {
        Self {
            spec_version: "1.0".to_owned(),
            entries,
        }
    }
}

/// One entry of an [`AiCatalog`]: a card by `url`, or inline as `data` (exactly one of them).
///
/// ```
/// use mcp_runtime_core::server_card::{CatalogEntry, ServerCard};
///
/// let entry = CatalogEntry::data("urn:air:a.b:mcp:c", ServerCard::new("b.a/c", "1", "C."));
/// assert_eq!(entry.url, None);
/// assert_eq!(entry.kind, mcp_runtime_core::server_card::MEDIA_TYPE);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CatalogEntry {
    /// The discovery identifier (`urn:air:{publisher}:{namespace}:{name}`).
    pub identifier: String,
    /// The artifact's media type ([`MEDIA_TYPE`] for a Server Card).
    #[serde(rename = "type")]
    pub kind: String,
    /// Where the card is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The card itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Box<ServerCard>>,
}

impl CatalogEntry {
    /// An entry pointing at a card's URL.
    ///
    /// ```
    /// let e = mcp_runtime_core::server_card::CatalogEntry::url("urn:air:a.b:mcp:c", "https://b.a/mcp/server-card");
    /// assert!(e.data.is_none());
    /// ```
    pub fn url(identifier: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            identifier: identifier.into(),
            kind: MEDIA_TYPE.to_owned(),
            url: Some(url.into()),
            data: None,
        }
    }

    /// An entry carrying the card inline.
    ///
    /// ```
    /// use mcp_runtime_core::server_card::{CatalogEntry, ServerCard};
    /// let e = CatalogEntry::data("urn:air:a.b:mcp:c", ServerCard::new("b.a/c", "1", "C."));
    /// assert_eq!(e.data.unwrap().name, "b.a/c");
    /// ```
    pub fn data(identifier: impl Into<String>, card: ServerCard) -> Self {
        Self {
            identifier: identifier.into(),
            kind: MEDIA_TYPE.to_owned(),
            url: None,
            data: Some(Box::new(card)),
        }
    }
}

/// The catalog identifier of a card named `name` (`com.example/weather` is
/// `urn:air:example.com:mcp:weather`, as `docs/discovery.md` writes it): the namespace's labels
/// reversed into the publisher's domain, `mcp`, then the name. `None` when `name` has no `/`.
///
/// ```
/// use mcp_runtime_core::server_card::catalog_identifier;
/// assert_eq!(catalog_identifier("com.example/weather").as_deref(), Some("urn:air:example.com:mcp:weather"));
/// assert_eq!(catalog_identifier("weather"), None);
/// ```
#[must_use]
pub fn catalog_identifier(name: &str) -> Option<String> {
    let (namespace, server) = name.split_once('/')?;
    let publisher: Vec<&str> = namespace.rsplit('.').collect();
    Some(format!("urn:air:{}:mcp:{server}", publisher.join(".")))
}

/// Whether `name` matches the schema's `name` rule: 3 to 200 characters,
/// `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`.
///
/// ```
/// use mcp_runtime_core::server_card::valid_name;
/// assert!(valid_name("io.github.acme/gift-server"));
/// assert!(!valid_name("gift-server"));
/// assert!(!valid_name("a/b/c"));
/// ```
#[must_use]
pub fn valid_name(name: &str) -> bool {
    let Some((namespace, server)) = name.split_once('/') else {
        return false;
    };
    let len = name.chars().count();
    (3..=200).contains(&len)
        && !namespace.is_empty()
        && !server.is_empty()
        && namespace
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && server
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}
