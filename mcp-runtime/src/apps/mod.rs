//! MCP Apps: tools whose results render as interactive widgets (the extension
//! `io.modelcontextprotocol/ui`, stable 2026-01-26).
//!
//! A widget is one HTML document served as a `ui://` resource with the MIME type
//! `text/html;profile=mcp-app`. A tool points at it with `_meta.ui.resourceUri`; a host that
//! renders apps (Claude, ChatGPT, VS Code, …) shows the widget in a sandboxed iframe and sends
//! it the tool's arguments and result over `postMessage`. Hosts without apps ignore the link and
//! show the tool's text `content`, which therefore stays meaningful.
//!
//! Declare the widget with [`#[widget]`](macro@crate::widget) on a `const` holding its HTML, and
//! link a tool to it by naming that const: `#[tool(ui = GIFT_CARDS)]`. The link is a path, so a
//! missing or mistyped widget is a compile error at the path; the `ui://` scheme and the CSP
//! origins are checked when the widget is declared; there is no way to write another MIME type.
//!
//! ```standalone_crate
//! use mcp_runtime::prelude::*;
//!
//! /// Gift ideas as cards.
//! #[widget(uri = "ui://gifts/cards.html", prefers_border = true)]
//! const GIFT_CARDS: &str = "<!doctype html><html><body><div id=app></div></body></html>";
//!
//! /// Suggests gifts.
//! #[tool(ui = GIFT_CARDS)]
//! async fn suggest(occasion: String) -> String {
//!     format!("three ideas for {occasion}")
//! }
//!
//! let ui = suggest::TOOL.ui.unwrap();
//! assert_eq!(ui.resource_uri, "ui://gifts/cards.html");
//! assert_eq!(GIFT_CARDS::RESOURCE.mime_type, Some(mcp_runtime::apps::MIME_TYPE));
//! ```
//!
//! What the server adds, in both eras: `capabilities.extensions["io.modelcontextprotocol/ui"]`
//! once a widget is registered; `_meta.ui` on the tool (`resourceUri`, and `visibility` when it
//! is not the default `["model", "app"]`) and on the resource's listing and contents (`csp`,
//! `permissions`, `domain`, `prefersBorder`). A handler asks
//! [`Context::client_supports_apps`](crate::Context::client_supports_apps) whether the client
//! declared the extension. [`AppsOptions`] opts into the ChatGPT (OpenAI Apps SDK) aliases.

mod check;
mod descriptors;

use std::borrow::Cow;

use crate::handler::context::Context;

pub use check::AppProblem;
pub(crate) use descriptors::{advertise, resource_meta, served, tool_meta};

/// The extension's identifier, the key in `capabilities.extensions`.
///
/// ```
/// assert_eq!(mcp_runtime::apps::EXTENSION_ID, "io.modelcontextprotocol/ui");
/// ```
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of every widget resource.
///
/// ```
/// assert_eq!(mcp_runtime::apps::MIME_TYPE, "text/html;profile=mcp-app");
/// ```
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The MIME type of the OpenAI Apps SDK's widget templates, served only with
/// [`AppsOptions::skybridge`].
///
/// ```
/// assert_eq!(mcp_runtime::apps::SKYBRIDGE_MIME_TYPE, "text/html+skybridge");
/// ```
pub const SKYBRIDGE_MIME_TYPE: &str = "text/html+skybridge";

/// Where a widget's HTML comes from: text compiled into the binary (a literal or
/// `include_str!`), or a file read at every `resources/read` (edit, reload, no rebuild).
///
/// ```
/// use mcp_runtime::apps::Html;
///
/// let inline = Html::text("<!doctype html><html></html>");
/// assert_eq!(inline.load().unwrap(), "<!doctype html><html></html>");
/// let missing = Html::file("/nonexistent/widget.html");
/// assert!(missing.load().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Html {
    /// The document itself.
    Text(&'static str),
    /// A path to the document, read at each read (relative paths from the working directory;
    /// `concat!(env!("CARGO_MANIFEST_DIR"), "/widgets/x.html")` pins it to the crate).
    File(&'static str),
}

impl Html {
    /// The document itself.
    ///
    /// ```
    /// use mcp_runtime::apps::Html;
    /// assert_eq!(Html::text("<html></html>"), Html::Text("<html></html>"));
    /// ```
    pub const fn text(html: &'static str) -> Self {
        Self::Text(html)
    }

    /// A file read at every `resources/read`.
    ///
    /// ```
    /// use mcp_runtime::apps::Html;
    /// assert_eq!(Html::file("widgets/cards.html"), Html::File("widgets/cards.html"));
    /// ```
    pub const fn file(path: &'static str) -> Self {
        Self::File(path)
    }

    /// The document's text.
    ///
    /// ```
    /// use mcp_runtime::apps::Html;
    /// assert_eq!(Html::text("<html></html>").load().unwrap(), "<html></html>");
    /// ```
    pub fn load(&self) -> std::io::Result<Cow<'static, str>> {
        match self {
            Self::Text(text) => Ok(Cow::Borrowed(text)),
            Self::File(path) => std::fs::read_to_string(path).map(Cow::Owned),
        }
    }
}

/// What the const under `#[widget]` may hold: the document's text or an [`Html`].
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a `#[widget]` const holds the widget's HTML, not `{Self}`",
    label = "expected `&'static str` or `Html`",
    note = "write `const NAME: &str = include_str!(\"widget.html\");` or `const NAME: Html = Html::file(\"widget.html\");`"
)]
pub trait IntoHtml {
    /// The HTML source.
    fn into_html(self) -> Html;
}

impl IntoHtml for &'static str {
    fn into_html(self) -> Html {
        Html::Text(self)
    }
}

impl IntoHtml for Html {
    fn into_html(self) -> Html {
        self
    }
}

impl From<&'static str> for Html {
    fn from(text: &'static str) -> Self {
        Self::Text(text)
    }
}

/// Who may call a widget-linked tool: the model, the widget (the app), or both (the default).
///
/// ```
/// use mcp_runtime::apps::Visibility;
/// assert_eq!(Visibility::default(), Visibility::MODEL_AND_APP);
/// assert_eq!(Visibility::APP_ONLY.names(), ["app"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    /// The host shows the tool to the model.
    pub model: bool,
    /// The widget may call the tool.
    pub app: bool,
}

impl Visibility {
    /// `["model", "app"]`, the spec's default (then the key is left out).
    pub const MODEL_AND_APP: Visibility = Visibility {
        model: true,
        app: true,
    };
    /// `["model"]`: widgets may not call it.
    pub const MODEL_ONLY: Visibility = Visibility {
        model: true,
        app: false,
    };
    /// `["app"]`: hidden from the model, called by its widget.
    pub const APP_ONLY: Visibility = Visibility {
        model: false,
        app: true,
    };

    /// The values of `_meta.ui.visibility`, in the spec's order.
    ///
    /// ```
    /// use mcp_runtime::apps::Visibility;
    /// assert_eq!(Visibility::MODEL_AND_APP.names(), ["model", "app"]);
    /// ```
    pub fn names(self) -> Vec<&'static str> {
        let mut out = Vec::with_capacity(2);
        if self.model {
            out.push("model");
        }
        if self.app {
            out.push("app");
        }
        out
    }
}

impl Default for Visibility {
    fn default() -> Self {
        Self::MODEL_AND_APP
    }
}

/// A tool's link to its widget (`#[tool(ui = WIDGET, visibility = "app")]`), kept in its
/// [`ToolRecord`](crate::registry::ToolRecord).
///
/// ```
/// use mcp_runtime::apps::{ToolUi, Visibility};
/// let ui = ToolUi::new("ui://gifts/cards.html").with_visibility(Visibility::APP_ONLY);
/// assert_eq!(ui.resource_uri, "ui://gifts/cards.html");
/// assert_eq!(ui.skybridge_uri, "ui://gifts/cards.skybridge.html");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolUi {
    /// The widget's `ui://` URI.
    pub resource_uri: &'static str,
    /// The URI of its `text/html+skybridge` twin ([`AppsOptions::skybridge`]).
    pub skybridge_uri: &'static str,
    /// Who may call the tool.
    pub visibility: Visibility,
}

impl ToolUi {
    /// A link to the widget at `resource_uri`, visible to the model and the app, for records
    /// made by hand (`#[tool(ui = ..)]` needs none of this). The skybridge twin's URI is derived
    /// as `#[widget]` derives it (see [`skybridge_uri`]) and, like every record, lives as long as
    /// the program.
    ///
    /// ```
    /// use mcp_runtime::apps::{ToolUi, Visibility};
    /// assert_eq!(ToolUi::new("ui://a/b").visibility, Visibility::MODEL_AND_APP);
    /// ```
    pub fn new(resource_uri: &'static str) -> Self {
        Self {
            resource_uri,
            skybridge_uri: Box::leak(skybridge_uri(resource_uri).into_boxed_str()),
            visibility: Visibility::MODEL_AND_APP,
        }
    }

    /// The link as `#[tool(ui = ..)]` generates it (every part known at compile time).
    #[doc(hidden)]
    pub const fn from_parts(
        resource_uri: &'static str,
        skybridge_uri: &'static str,
        visibility: Visibility,
    ) -> Self {
        Self {
            resource_uri,
            skybridge_uri,
            visibility,
        }
    }

    /// The same link with another visibility.
    ///
    /// ```
    /// use mcp_runtime::apps::{ToolUi, Visibility};
    /// let ui = ToolUi::new("ui://a/b").with_visibility(Visibility::MODEL_ONLY);
    /// assert!(!ui.visibility.app);
    /// ```
    #[must_use]
    pub const fn with_visibility(mut self, visibility: Visibility) -> Self {
        self.visibility = visibility;
        self
    }
}

/// The URI of a widget's `text/html+skybridge` twin: `.html` becomes `.skybridge.html`, any
/// other URI gets `.skybridge` appended.
///
/// ```
/// use mcp_runtime::apps::skybridge_uri;
/// assert_eq!(skybridge_uri("ui://gifts/cards.html"), "ui://gifts/cards.skybridge.html");
/// assert_eq!(skybridge_uri("ui://gifts/cards"), "ui://gifts/cards.skybridge");
/// ```
pub fn skybridge_uri(uri: &str) -> String {
    match uri.strip_suffix(".html") {
        Some(stem) => format!("{stem}.skybridge.html"),
        None => format!("{uri}.skybridge"),
    }
}

/// Implemented by the companion type that [`#[widget]`](macro@crate::widget) generates next to
/// the const it annotates; `#[tool(ui = NAME)]` reads the URIs through it.
///
/// ```standalone_crate
/// use mcp_runtime::apps::Widget;
/// use mcp_runtime::prelude::*;
///
/// /// A chart.
/// #[widget(uri = "ui://demo/chart.html")]
/// const CHART: &str = "<!doctype html><html></html>";
///
/// assert_eq!(<CHART as Widget>::URI, "ui://demo/chart.html");
/// assert_eq!(<CHART as Widget>::SKYBRIDGE_URI, "ui://demo/chart.skybridge.html");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a widget",
    label = "`ui = ..` names the const that `#[widget]` annotates",
    note = "declare the widget with `#[widget(uri = \"ui://...\")]` on a `const` holding its HTML, then write `#[tool(ui = THAT_CONST)]`"
)]
pub trait Widget {
    /// The widget's `ui://` URI.
    const URI: &'static str;
    /// Its `text/html+skybridge` twin's URI.
    const SKYBRIDGE_URI: &'static str;
}

/// How a server presents its widgets beyond the standard keys (given to
/// [`ServerBuilder::apps`](crate::ServerBuilder::apps)).
///
/// - [`openai_compat`](Self::openai_compat): the OpenAI Apps SDK aliases next to the standard
///   keys: on tools `openai/outputTemplate` (the widget's URI), `openai/widgetAccessible`
///   (`"app"` in the visibility) and `openai/visibility` (`"public"`, or `"private"` without
///   `"model"`); on widget resources `openai/widgetCSP` (snake-case keys),
///   `openai/widgetDomain`, `openai/widgetPrefersBorder` and `openai/widgetDescription`.
/// - [`skybridge`](Self::skybridge): also serves each widget as a `text/html+skybridge` twin
///   (at [`skybridge_uri`]) for ChatGPT builds that predate MCP Apps, and points
///   `openai/outputTemplate` at it. Implies the aliases.
///
/// ```
/// use mcp_runtime::apps::AppsOptions;
/// let options = AppsOptions::new().openai_compat(true);
/// assert!(options.is_openai_compat() && !options.is_skybridge());
/// assert!(AppsOptions::new().skybridge(true).is_openai_compat());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
#[must_use]
pub struct AppsOptions {
    openai_compat: bool,
    skybridge: bool,
}

impl AppsOptions {
    /// Standard keys only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the OpenAI Apps SDK aliases.
    pub fn openai_compat(mut self, on: bool) -> Self {
        self.openai_compat = on;
        self
    }

    /// Serves `text/html+skybridge` twins (and the aliases).
    pub fn skybridge(mut self, on: bool) -> Self {
        self.skybridge = on;
        self
    }

    /// Whether the aliases are emitted.
    pub fn is_openai_compat(&self) -> bool {
        self.openai_compat || self.skybridge
    }

    /// Whether skybridge twins are served.
    pub fn is_skybridge(&self) -> bool {
        self.skybridge
    }
}

impl Context {
    /// Whether the client renders MCP Apps: it declared `capabilities.extensions
    /// ["io.modelcontextprotocol/ui"]` (read in both eras: handshake-era clients send it too,
    /// although their schema has no such field) and, when it lists `mimeTypes`, that list has
    /// `text/html;profile=mcp-app`. A tool may then keep its text short and leave the details
    /// to the widget; the text `content` must stay meaningful either way.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Says whether the widget will show.
    /// #[tool]
    /// async fn probe(ctx: Context) -> String {
    ///     if ctx.client_supports_apps() { "widget".into() } else { "text".into() }
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder(server_info!()).tool(probe::TOOL).build().unwrap();
    /// let mut client = server.connect_in_memory();
    /// client.request("initialize", serde_json::json!({
    ///     "protocolVersion": "2025-11-25",
    ///     "clientInfo": {"name": "host", "version": "1"},
    ///     "capabilities": {"extensions": {"io.modelcontextprotocol/ui":
    ///         {"mimeTypes": ["text/html;profile=mcp-app"]}}},
    /// })).await;
    /// client.notify("notifications/initialized", serde_json::json!({})).await;
    /// let reply = client.call_tool("probe", serde_json::json!({})).await;
    /// assert_eq!(reply["result"]["content"][0]["text"], "widget");
    /// # });
    /// ```
    pub fn client_supports_apps(&self) -> bool {
        let Some(caps) = self.client_capabilities() else {
            return false;
        };
        let Some(settings) = caps.extensions.as_ref().and_then(|e| e.get(EXTENSION_ID)) else {
            return false;
        };
        match settings.get("mimeTypes") {
            None => settings.is_object(),
            Some(types) => types
                .as_array()
                .is_some_and(|list| list.iter().any(|t| t.as_str() == Some(MIME_TYPE))),
        }
    }
}

/// A widget's HTML file could not be read (masked for the client, logged with its cause).
#[derive(Debug, thiserror::Error)]
#[error("widget {uri} cannot be read")]
struct WidgetUnreadable {
    uri: String,
    #[source]
    source: std::io::Error,
}

/// The contents of a widget read, as `#[widget]` generates it: the HTML with the MIME type and
/// `_meta` of the declaration (`_meta.ui` on the content too, which hosts prefer).
#[doc(hidden)]
pub fn contents(
    html: Html,
    uri: &str,
    mime: &'static str,
    meta: &'static str,
) -> Result<Vec<mcp_core::ResourceContents>, crate::error::HandlerError> {
    let text = html.load().map_err(|source| {
        crate::error::HandlerError::internal(WidgetUnreadable {
            uri: uri.to_owned(),
            source,
        })
    })?;
    let meta = serde_json::from_str::<mcp_core::Meta>(meta)
        .ok()
        .filter(|m| !m.is_empty());
    let mut contents =
        mcp_core::ResourceContents::text(uri, text.into_owned()).with_mime_type(mime);
    if let mcp_core::ResourceContents::Text(text) = &mut contents {
        text.meta = meta;
    }
    Ok(vec![contents])
}
