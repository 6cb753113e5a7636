//! The const records that `#[tool]`, `#[resource]` and `#[prompt]` generate.
//!
//! A record is plain `'static` data plus function pointers, so the macros can
//! hand it to [`inventory`] at compile time and the explicit builder path
//! ([`ServerBuilder::tool`](crate::ServerBuilder::tool)) can take the very
//! same value. The runtime turns records into protocol descriptors once, at
//! start-up.
//!
//! Every record is `#[non_exhaustive]`: it is made with its `const fn new` (the parts every
//! item has) and `const fn with_*` setters (the optional parts), which is what the macros emit
//! too, so a record can gain a field without breaking anyone. Its fields stay public to read.
//! One file per record of an item kind: [`ToolRecord`] (`tool`), [`ResourceRecord`]
//! (`resource`), [`PromptRecord`] and [`PromptArgRecord`] (`prompt`); the parts they share
//! are here.

mod prompt;
mod resource;
mod tool;

use std::collections::BTreeMap;

use mcp_core::{CallToolResult, GetPromptResult, ResourceContents};
use schemars::{Schema, SchemaGenerator};
use serde_json::value::RawValue;

pub use prompt::{PromptArgRecord, PromptRecord};
pub use resource::ResourceRecord;
pub use tool::ToolRecord;

use crate::completion::CompletionRequest;
use crate::error::HandlerError;
use crate::future::BoxFuture;
use crate::handler::context::{Context, StateNeeds};

/// Where an item was declared, for duplicate-name diagnostics.
///
/// ```
/// use mcp_runtime::registry::Location;
/// const HERE: Location = Location::new(file!(), line!(), column!());
/// assert!(HERE.to_string().ends_with(&format!(":{}:{}", HERE.line, HERE.column)));
/// assert_eq!(Location::caller().file, file!());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Location {
    /// Source file, as `file!()` gives it.
    pub file: &'static str,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

impl Location {
    /// The place `file:line:column`.
    pub const fn new(file: &'static str, line: u32, column: u32) -> Self {
        Self { file, line, column }
    }

    /// Where the caller's caller is (through `#[track_caller]`): the default location of a
    /// record made by hand, the line that calls its `new`.
    #[track_caller]
    pub const fn caller() -> Self {
        let at = std::panic::Location::caller();
        Self::new(at.file(), at.line(), at.column())
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// An icon as given in an attribute (`icons = [{ src = "...", mime = "image/png" }]`).
///
/// ```
/// use mcp_runtime::registry::IconRecord;
/// const ICON: IconRecord = IconRecord::new("data:image/png;base64,AA==")
///     .with_mime_type("image/png")
///     .with_sizes(&["16x16"])
///     .with_theme("dark");
/// assert_eq!((ICON.mime_type, ICON.sizes, ICON.theme), (Some("image/png"), &["16x16"][..], Some("dark")));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct IconRecord {
    /// `https:` or `data:` URI of the icon.
    pub src: &'static str,
    /// MIME type of the icon.
    pub mime_type: Option<&'static str>,
    /// Sizes such as `"48x48"` or `"any"`.
    pub sizes: &'static [&'static str],
    /// `"light"` or `"dark"`.
    pub theme: Option<&'static str>,
}

impl IconRecord {
    /// The icon at `src`, with no MIME type, sizes or theme.
    pub const fn new(src: &'static str) -> Self {
        Self {
            src,
            mime_type: None,
            sizes: &[],
            theme: None,
        }
    }

    /// Its MIME type.
    pub const fn with_mime_type(mut self, mime_type: &'static str) -> Self {
        self.mime_type = Some(mime_type);
        self
    }

    /// Its sizes (`"48x48"`, `"any"`).
    pub const fn with_sizes(mut self, sizes: &'static [&'static str]) -> Self {
        self.sizes = sizes;
        self
    }

    /// The theme it is for (`"light"`, `"dark"`).
    pub const fn with_theme(mut self, theme: &'static str) -> Self {
        self.theme = Some(theme);
        self
    }
}

/// An item's cache hint: how long its result stays fresh and who may share it.
///
/// On a resource (`#[resource(ttl_ms = 60_000, cache_scope = "public")]`, or
/// [`ResourceRecord::with_cache`]) it is what `resources/read` tells the client in 2026-07-28
/// (`ttlMs`, `cacheScope`) and what the server-side [`Cache`](crate::cache::Cache) layer keeps
/// the result for. On a tool or a prompt (`cache_ttl_ms = ..`) the specification puts no hint on
/// the wire, so only the `Cache` layer reads it. An item without one: `ttlMs: 0`, `private`.
///
/// ```
/// use mcp_runtime::protocol::CacheScope;
/// use mcp_runtime::registry::CacheHint;
///
/// const HINT: CacheHint = CacheHint::new(60_000, CacheScope::Public);
/// assert_eq!((HINT.ttl_ms, HINT.scope), (60_000, CacheScope::Public));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct CacheHint {
    /// How long the result stays fresh, in milliseconds (`0`: immediately stale).
    pub ttl_ms: u64,
    /// Who may share it: `Private` results are kept apart per principal.
    pub scope: mcp_core::CacheScope,
}

impl CacheHint {
    /// Fresh for `ttl_ms` milliseconds, shared within `scope`.
    pub const fn new(ttl_ms: u64, scope: mcp_core::CacheScope) -> Self {
        Self { ttl_ms, scope }
    }
}

/// Behaviour hints of a tool (the spec's `ToolAnnotations`).
///
/// ```
/// use mcp_runtime::registry::ToolHints;
/// const HINTS: ToolHints = ToolHints::NONE.with_read_only(true).with_open_world(false);
/// assert_eq!((HINTS.read_only, HINTS.destructive, HINTS.open_world), (Some(true), None, Some(false)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolHints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl ToolHints {
    /// No hints at all.
    pub const NONE: ToolHints = ToolHints {
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// `readOnlyHint`: the tool changes nothing.
    pub const fn with_read_only(mut self, read_only: bool) -> Self {
        self.read_only = Some(read_only);
        self
    }

    /// `destructiveHint`: what it changes, it may destroy.
    pub const fn with_destructive(mut self, destructive: bool) -> Self {
        self.destructive = Some(destructive);
        self
    }

    /// `idempotentHint`: calling it twice does no more than once.
    pub const fn with_idempotent(mut self, idempotent: bool) -> Self {
        self.idempotent = Some(idempotent);
        self
    }

    /// `openWorldHint`: it reaches beyond the server (the web, other systems).
    pub const fn with_open_world(mut self, open_world: bool) -> Self {
        self.open_world = Some(open_world);
        self
    }
}

/// How a tool's `inputSchema` is obtained.
///
/// ```
/// use mcp_runtime::registry::InputSchema;
/// let raw = InputSchema::Raw(r#"{"type":"object"}"#);
/// assert!(matches!(raw, InputSchema::Raw(_)));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum InputSchema {
    /// Generated by schemars from the hidden argument struct.
    Generated(fn(&mut SchemaGenerator) -> Schema),
    /// A hand-written JSON Schema (the escape hatch); used verbatim.
    Raw(&'static str),
}

/// The function behind a tool: JSON `arguments` in, a result out.
pub type ToolCallFn =
    fn(Context, Option<Box<RawValue>>) -> BoxFuture<'static, Result<CallToolResult, HandlerError>>;

/// The function behind a resource or resource template.
pub type ResourceReadFn =
    fn(Context, ResourceRequest) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>>;

/// The function behind a prompt.
pub type PromptGetFn =
    fn(Context, PromptArguments) -> BoxFuture<'static, Result<GetPromptResult, HandlerError>>;

/// A completion hook, adapted: the request's context and the partial value in, candidate values
/// out (the macros wrap the user's hook, whatever its shape, in one of these).
pub type CompleteFn =
    fn(Context, CompletionRequest) -> BoxFuture<'static, Result<Vec<String>, HandlerError>>;

/// Declares the application state an item's injected parameters read (see
/// [`FromContext::state_needs`](crate::FromContext::state_needs)).
pub type StateNeedsFn = fn(&mut StateNeeds);

/// The [`StateNeedsFn`] of an item that reads no application state: a record's default.
fn no_state(_: &mut StateNeeds) {}

/// A completion hook bound to one prompt argument or template variable.
///
/// ```
/// use mcp_runtime::BoxFuture;
/// use mcp_runtime::HandlerError;
/// use mcp_runtime::completion::CompletionRequest;
/// use mcp_runtime::registry::CompletionRecord;
/// use mcp_runtime::Context;
///
/// fn years(_: Context, request: CompletionRequest) -> BoxFuture<'static, Result<Vec<String>, HandlerError>> {
///     let prefix = request.value().to_owned();
///     Box::pin(async move { Ok(["2024", "2025"].into_iter().filter(|y| y.starts_with(&prefix)).map(String::from).collect()) })
/// }
///
/// const YEAR: CompletionRecord = CompletionRecord::new("year", years);
/// assert_eq!(YEAR.argument, "year");
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct CompletionRecord {
    /// Argument or template variable name.
    pub argument: &'static str,
    /// The hook.
    pub complete: CompleteFn,
    /// The state types the hook's injected parameters need.
    pub state_needs: StateNeedsFn,
}

impl CompletionRecord {
    /// The hook `complete` for the argument (or template variable) `argument`, reading no
    /// application state.
    pub const fn new(argument: &'static str, complete: CompleteFn) -> Self {
        Self {
            argument,
            complete,
            state_needs: no_state,
        }
    }

    /// The state types the hook's injected parameters need.
    pub const fn with_state_needs(mut self, state_needs: StateNeedsFn) -> Self {
        self.state_needs = state_needs;
        self
    }
}

/// What a resource read receives: the requested URI and the template variables matched in it.
///
/// ```
/// use mcp_runtime::registry::ResourceRequest;
/// let req = ResourceRequest::new("gifts://item/7", [("id", "7")]);
/// assert_eq!(req.var("id"), Some("7"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResourceRequest {
    /// The URI as the client sent it.
    pub uri: String,
    /// Percent-decoded template variables.
    pub vars: BTreeMap<String, String>,
}

impl ResourceRequest {
    /// A request for `uri` with the given variables.
    pub fn new<K: Into<String>, V: Into<String>>(
        uri: impl Into<String>,
        vars: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        Self {
            uri: uri.into(),
            vars: vars
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }

    /// One variable's value.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }
}

/// The string arguments of a `prompts/get`.
///
/// ```
/// use mcp_runtime::registry::PromptArguments;
/// let args = PromptArguments::from_iter([("name", "Ada")]);
/// assert_eq!(args.get("name"), Some("Ada"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptArguments(pub BTreeMap<String, String>);

impl PromptArguments {
    /// One argument's value.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for PromptArguments {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self(
            iter.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }
}

inventory::collect!(ToolRecord);
inventory::collect!(ResourceRecord);
inventory::collect!(PromptRecord);
