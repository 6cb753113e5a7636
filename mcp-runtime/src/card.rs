//! Server Cards (SEP-2127): the card of this server, made once when it is built from its
//! [`Implementation`] and the [`CardOptions`] given to
//! [`ServerBuilder::card`](crate::ServerBuilder::card), kept as the bytes every request and the
//! `server-card` command write. A leaf: it names only `mcp-core` and `error`.
//!
//! ```
//! use mcp_runtime::card::CardOptions;
//! use mcp_runtime::prelude::*;
//!
//! let info = server_info!().with_description("Adds numbers.");
//! let server = Server::builder(info)
//!     .card(CardOptions::new("com.example/adder").public_url("https://mcp.example.com/mcp"))
//!     .build()
//!     .unwrap();
//! let card = server.server_card().unwrap();
//! assert_eq!(card.name, "com.example/adder");
//! assert_eq!(card.remotes.as_ref().unwrap()[0].url, "https://mcp.example.com/mcp");
//! ```
//!
//! # Where the card says the server is
//!
//! A server cannot always know the URL its clients reach it at (a proxy, a load balancer, a
//! router mounted at a path of the application's choosing), so the URL comes from
//! [`CardOptions::public_url`] (or `MCP_PUBLIC_URL` on the command line). Without it the card's
//! remote is the template `{streamable_http_url}` with that one required variable: the schema
//! refuses a relative URL ("URL template for the remote endpoint. Must start with `http://`,
//! `https://`, or a `{template-variable}`", `Remote.url`), and a template is what it offers for
//! a value the client supplies. The AI Catalog then carries the card inline (`data`) instead of
//! a `url` it could not give.

use std::sync::Arc;

use mcp_core::server_card::{
    self, AiCatalog, CatalogEntry, Input, KeyValueInput, Remote, Repository, ServerCard,
};
use mcp_core::{Implementation, Meta, ProtocolVersion};

use crate::error::Error;

/// When the AI Catalog (`/.well-known/ai-catalog.json`) is served.
///
/// "For automated domain-level discovery, hosts MAY publish one at
/// `/.well-known/ai-catalog.json`" (`docs/discovery.md`): a document of the domain, so only a
/// server at the domain's root should answer it.
///
/// ```
/// use mcp_runtime::card::Catalog;
/// assert_eq!(Catalog::default(), Catalog::Auto);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Catalog {
    /// By the standalone server (`serve_http*`, the `http` command), which owns the domain's
    /// root; not by a mounted [`Server::router`](crate::Server::router) or
    /// [`router_at`](crate::Server::router_at).
    #[default]
    Auto,
    /// By the standalone server and by mounted routers too (at the router's
    /// `/.well-known/ai-catalog.json`: merge it at the root).
    Always,
    /// Never.
    Never,
}

/// What a Server Card says beyond the server's [`Implementation`] (which gives its `version`,
/// `title`, `description`, `icons` and `websiteUrl`): its reverse-DNS name, repository, public
/// URL, headers and `_meta`, and when the AI Catalog is served.
///
/// ```
/// use mcp_runtime::card::{Catalog, CardOptions};
/// use mcp_runtime::protocol::server_card::{Input, KeyValueInput, Repository};
///
/// let options = CardOptions::new("io.github.acme/notes")
///     .repository(Repository::new("github", "https://github.com/acme/notes"))
///     .public_url("https://notes.acme.dev/mcp")
///     .header(KeyValueInput::new("X-Team").with_input(Input::new().with_is_required(true)))
///     .catalog(Catalog::Never);
/// # let _ = options;
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct CardOptions {
    name: String,
    repository: Option<Repository>,
    public_url: Option<String>,
    headers: Vec<KeyValueInput>,
    meta: Option<Meta>,
    catalog: Catalog,
}

impl CardOptions {
    /// Options for a card named `name`: reverse-DNS, one `/` between namespace and server name
    /// (`com.example/weather`); `build` refuses any other.
    ///
    /// ```
    /// let options = mcp_runtime::card::CardOptions::new("com.example/weather");
    /// # let _ = options;
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            repository: None,
            public_url: None,
            headers: Vec::new(),
            meta: None,
            catalog: Catalog::Auto,
        }
    }

    /// Where the source code is.
    ///
    /// ```
    /// use mcp_runtime::card::CardOptions;
    /// use mcp_runtime::protocol::server_card::Repository;
    /// let options = CardOptions::new("a.b/c").repository(Repository::new("github", "https://github.com/b/c"));
    /// # let _ = options;
    /// ```
    pub fn repository(mut self, repository: Repository) -> Self {
        self.repository = Some(repository);
        self
    }

    /// The server's public Streamable HTTP URL (`https://mcp.example.com/mcp`): the card's
    /// remote, and the base of the card's own URL in the AI Catalog (`…/mcp/server-card`).
    /// `http://` or `https://`, with a host and no whitespace, query or fragment; a trailing
    /// `/` is dropped.
    ///
    /// ```
    /// let options = mcp_runtime::card::CardOptions::new("a.b/c").public_url("https://c.b.a/mcp");
    /// # let _ = options;
    /// ```
    pub fn public_url(mut self, url: impl Into<String>) -> Self {
        self.public_url = Some(url.into());
        self
    }

    /// A header the remote endpoint takes (an `Authorization` a client must send, say).
    /// Never put a credential in it: a card is public.
    ///
    /// ```
    /// use mcp_runtime::card::CardOptions;
    /// use mcp_runtime::protocol::server_card::{Input, KeyValueInput};
    /// let options = CardOptions::new("a.b/c").header(
    ///     KeyValueInput::new("Authorization")
    ///         .with_input(Input::new().with_is_required(true).with_is_secret(true)),
    /// );
    /// # let _ = options;
    /// ```
    pub fn header(mut self, header: KeyValueInput) -> Self {
        self.headers.push(header);
        self
    }

    /// The card's `_meta` (reverse-DNS namespaced keys).
    ///
    /// ```
    /// let mut meta = mcp_runtime::protocol::Meta::new();
    /// meta.insert("com.example/tier".into(), "free".into());
    /// let options = mcp_runtime::card::CardOptions::new("a.b/c").meta(meta);
    /// # let _ = options;
    /// ```
    pub fn meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }

    /// When the AI Catalog is served (default [`Catalog::Auto`]).
    ///
    /// ```
    /// use mcp_runtime::card::{Catalog, CardOptions};
    /// let options = CardOptions::new("a.b/c").catalog(Catalog::Always);
    /// # let _ = options;
    /// ```
    pub fn catalog(mut self, catalog: Catalog) -> Self {
        self.catalog = catalog;
        self
    }

    /// Sets the public URL unless one was given (the command line's `MCP_PUBLIC_URL` does not
    /// override the code).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn public_url_or(&mut self, url: String) {
        self.public_url.get_or_insert(url);
    }
}

/// A built card: the typed card and the exact bytes served, with their entity tags.
#[derive(Debug)]
// The entity tags and the catalog are read by the HTTP routes only.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) struct Built {
    pub(crate) card: ServerCard,
    /// The card as served and printed (pretty JSON, no trailing newline).
    pub(crate) json: Arc<str>,
    pub(crate) etag: Arc<str>,
    /// The AI Catalog naming this card.
    pub(crate) catalog_json: Arc<str>,
    pub(crate) catalog_etag: Arc<str>,
    pub(crate) catalog: Catalog,
}

/// The template variable of the remote URL when no public URL is known.
const URL_VARIABLE: &str = "streamable_http_url";

/// The revisions the Streamable HTTP endpoint serves, oldest first: the handshake era from
/// 2025-03-26 (the revision that introduced the transport) and the stateless era.
fn streamable_http_versions() -> Vec<String> {
    ProtocolVersion::ALL
        .into_iter()
        .filter(|v| *v >= ProtocolVersion::V2025_03_26)
        .map(|v| v.as_str().to_owned())
        .collect()
}

fn refuse(why: String) -> Error {
    Error::Config(format!("server card: {why}"))
}

/// A text member of 1 to 100 characters (`title`, `description`).
fn check_text(member: &str, text: &str) -> Result<(), Error> {
    let len = text.chars().count();
    if (1..=100).contains(&len) {
        Ok(())
    } else {
        Err(refuse(format!(
            "`{member}` must be 1 to 100 characters, not {len}"
        )))
    }
}

/// The public URL, checked and without a trailing `/`.
fn check_url(url: &str) -> Result<String, Error> {
    let trimmed = url.trim_end_matches('/');
    let rest = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"));
    let host = rest.map(|r| r.split('/').next().unwrap_or(""));
    let clean = !trimmed
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || "?#{}".contains(c));
    match host {
        Some(host) if !host.is_empty() && clean => Ok(trimmed.to_owned()),
        _ => Err(refuse(format!(
            "the public URL {url:?} must be an http:// or https:// URL with a host, without whitespace, braces, query or fragment"
        ))),
    }
}

/// A strong entity tag of `bytes`: the first 16 bytes of their SHA-256, in hex.
fn etag(bytes: &[u8]) -> Arc<str> {
    use sha2::Digest;
    use std::fmt::Write;
    let digest = sha2::Sha256::digest(bytes);
    let mut tag = String::with_capacity(34);
    tag.push('"');
    for b in &digest[..16] {
        let _ = write!(tag, "{b:02x}");
    }
    tag.push('"');
    tag.into()
}

/// The card of a server described by `info`, when it has card options; a card the schema
/// would refuse is a configuration error.
pub(crate) fn build(
    info: &Implementation,
    options: Option<&CardOptions>,
) -> Result<Option<Arc<Built>>, Error> {
    let Some(options) = options else {
        return Ok(None);
    };
    if !server_card::valid_name(&options.name) {
        return Err(refuse(format!(
            "the name {:?} must be reverse-DNS with one `/` (`com.example/weather`): 3 to 200 of A-Za-z0-9.- then `/` then A-Za-z0-9._-",
            options.name
        )));
    }
    let description = info.description.as_deref().ok_or_else(|| {
        refuse("a card needs a description: give the server one (Cargo.toml's `description`, or `Implementation::with_description`)".into())
    })?;
    check_text("description", description)?;
    if let Some(title) = &info.title {
        check_text("title", title)?;
    }
    if info.version.len() > 255 {
        return Err(refuse("`version` must be at most 255 bytes".into()));
    }
    let public_url = options.public_url.as_deref().map(check_url).transpose()?;
    let mut remote = match &public_url {
        Some(url) => Remote::streamable_http(url.clone()),
        None => Remote::streamable_http(format!("{{{URL_VARIABLE}}}")).with_variables(
            [(
                URL_VARIABLE.to_owned(),
                Input::new()
                    .with_description(
                        "The server's Streamable HTTP URL: this card's URL without `/server-card`.",
                    )
                    .with_is_required(true),
            )]
            .into_iter()
            .collect::<std::collections::BTreeMap<_, _>>(),
        ),
    }
    .with_supported_protocol_versions(streamable_http_versions());
    if !options.headers.is_empty() {
        remote = remote.with_headers(options.headers.clone());
    }
    let mut card =
        ServerCard::new(&options.name, &info.version, description).with_remotes(vec![remote]);
    card.title.clone_from(&info.title);
    card.icons.clone_from(&info.icons);
    card.website_url.clone_from(&info.website_url);
    card.repository.clone_from(&options.repository);
    card.meta.clone_from(&options.meta);
    let json: Arc<str> = serde_json::to_string_pretty(&card)
        .map_err(|e| refuse(e.to_string()))?
        .into();
    let identifier = server_card::catalog_identifier(&options.name).unwrap_or_default();
    let entry = match &public_url {
        Some(url) => CatalogEntry::url(identifier, format!("{url}{}", server_card::CARD_SUFFIX)),
        None => CatalogEntry::data(identifier, card.clone()),
    };
    let catalog_json: Arc<str> = serde_json::to_string_pretty(&AiCatalog::new(vec![entry]))
        .map_err(|e| refuse(e.to_string()))?
        .into();
    Ok(Some(Arc::new(Built {
        etag: etag(json.as_bytes()),
        catalog_etag: etag(catalog_json.as_bytes()),
        card,
        json,
        catalog_json,
        catalog: options.catalog,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> Implementation {
        Implementation::new("adder", "1.2.3").with_description("Adds numbers.")
    }

    #[test]
    fn refuses_what_the_schema_refuses() {
        let bad = |options: CardOptions, info: Implementation| {
            build(&info, Some(&options)).unwrap_err().to_string()
        };
        assert!(
            bad(CardOptions::new("adder"), info())
                .contains("the name \"adder\" must be reverse-DNS")
        );
        assert!(
            bad(CardOptions::new("a.b/c"), Implementation::new("adder", "1"))
                .contains("a card needs a description")
        );
        assert!(
            bad(CardOptions::new("a.b/c"), info().with_title(""))
                .contains("`title` must be 1 to 100 characters, not 0")
        );
        assert!(
            bad(
                CardOptions::new("a.b/c").public_url("mcp.example.com/mcp"),
                info()
            )
            .contains("must be an http:// or https:// URL")
        );
        assert!(
            bad(
                CardOptions::new("a.b/c").public_url("https://x/mcp?a=1"),
                info()
            )
            .contains("must be an http:// or https:// URL")
        );
    }

    #[test]
    fn no_card_without_options_and_a_template_without_a_public_url() {
        assert!(build(&info(), None).unwrap().is_none());
        let built = build(&info(), Some(&CardOptions::new("a.b/c")))
            .unwrap()
            .unwrap();
        let remote = &built.card.remotes.as_ref().unwrap()[0];
        assert_eq!(remote.url, "{streamable_http_url}");
        assert_eq!(
            remote.supported_protocol_versions.as_deref().unwrap(),
            ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
        );
        assert_eq!(built.etag.len(), 34);
        let catalog: serde_json::Value = serde_json::from_str(&built.catalog_json).unwrap();
        assert_eq!(catalog["entries"][0]["identifier"], "urn:air:b.a:mcp:c");
        assert_eq!(catalog["entries"][0]["data"]["name"], "a.b/c");
        let with_url = CardOptions::new("a.b/c").public_url("https://c.b.a/mcp/");
        let built = build(&info(), Some(&with_url)).unwrap().unwrap();
        assert_eq!(
            built.card.remotes.as_ref().unwrap()[0].url,
            "https://c.b.a/mcp"
        );
        let catalog: serde_json::Value = serde_json::from_str(&built.catalog_json).unwrap();
        assert_eq!(
            catalog["entries"][0]["url"],
            "https://c.b.a/mcp/server-card"
        );
    }
}
