//! [`ToolRecord`]: one tool, as `#[tool]` generates it or as a program makes it by hand.

use mcp_core::tasks::TaskSupport;
use schemars::{Schema, SchemaGenerator};

use super::{IconRecord, InputSchema, Location, StateNeedsFn, ToolCallFn, ToolHints, no_state};

/// The output schema of a tool whose results are not structured: none.
fn no_output_schema(_: &mut SchemaGenerator) -> Option<Schema> {
    None
}

/// One registered tool.
///
/// `#[tool]` makes one (`my_tool::TOOL`); a program that registers tools at run time makes
/// its own with [`new`](Self::new) and the `with_*` setters, all `const`:
///
/// ```
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::registry::{InputSchema, ToolHints, ToolRecord};
/// use mcp_runtime::{BoxFuture, HandlerError};
/// use mcp_runtime::protocol::CallToolResult;
/// use mcp_runtime::serde_json::value::RawValue;
///
/// fn ping(_: Context, _: Option<Box<RawValue>>) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
///     Box::pin(async { Ok(CallToolResult::text("pong")) })
/// }
///
/// const PING: ToolRecord = ToolRecord::new("ping", InputSchema::Raw(r#"{"type":"object"}"#), ping)
///     .with_description("Answers pong.")
///     .with_hints(ToolHints::NONE.with_read_only(true))
///     .with_timeout_ms(1_000);
///
/// let server = Server::builder(server_info!()).tool(PING).build().unwrap();
/// assert_eq!(server.tool_names().collect::<Vec<_>>(), ["ping"]);
/// assert_eq!(PING.location.file, file!());
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ToolRecord {
    /// Tool name (checked at compile time: 1-128 of `A-Za-z0-9_-.`).
    pub name: &'static str,
    /// Human-readable title.
    pub title: Option<&'static str>,
    /// Description (the fn's doc comment unless given).
    pub description: Option<&'static str>,
    /// Behaviour hints.
    pub hints: ToolHints,
    /// Icons.
    pub icons: &'static [IconRecord],
    /// `_meta` as JSON object text.
    pub meta: Option<&'static str>,
    /// Input schema source.
    pub input_schema: InputSchema,
    /// Output schema of its structured results, if any: derived from the return type
    /// (`Json<T>`, what `#[tool]` sets) or written by hand.
    pub output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// Whether [`output_schema`](Self::output_schema) is derived from the return type, so that
    /// results conform by construction and are never checked
    /// ([`with_derived_output_schema`](Self::with_derived_output_schema)); a schema written by
    /// hand ([`with_output_schema`](Self::with_output_schema)) is not, and results are checked
    /// against it (see [`validate_output`](Self::validate_output)).
    pub output_schema_derived: bool,
    /// Whether its structured results are checked against a schema that is not derived
    /// (`Some(true)`), not checked (`Some(false)`), or as the server decides (`None`; see
    /// [`ServerBuilder::validate_output`](crate::ServerBuilder::validate_output), on unless
    /// turned off).
    pub validate_output: Option<bool>,
    /// The call.
    pub call: ToolCallFn,
    /// The state types its injected parameters need.
    pub state_needs: StateNeedsFn,
    /// Whether arguments the input schema does not name are accepted (`Some(true)`), refused
    /// with an `isError` result naming them (`Some(false)`), or as the server decides (`None`;
    /// see [`ServerBuilder::allow_unknown_args`](crate::ServerBuilder::allow_unknown_args)).
    pub allow_unknown_args: Option<bool>,
    /// Which server this belongs to (`""` is the default server).
    pub server: &'static str,
    /// Per-call timeout in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Most calls of this tool in flight at once (per server).
    pub max_concurrency: Option<u32>,
    /// Its cache hint ([`CacheHint`](super::CacheHint)); see [`with_cache`](Self::with_cache).
    pub cache: Option<super::CacheHint>,
    /// Declaration site.
    pub location: Location,
    /// The OAuth scopes a caller needs to call this tool (`scopes = [..]`; enforced by the HTTP
    /// transports with the `auth` feature, where a broader scope may imply them).
    pub scopes: &'static [&'static str],
    /// Its tags, which a [`Visibility`](crate::transform::Visibility) rule decides by (transforms
    /// may add more).
    pub tags: &'static [&'static str],
    /// Whether the tool runs as a task (`#[tool(task = "optional")]`); see
    /// [`tasks`](crate::tasks).
    pub task_support: TaskSupport,
    /// The widget its results render in (MCP Apps, `#[tool(ui = WIDGET)]`).
    pub ui: Option<crate::apps::ToolUi>,
}

impl ToolRecord {
    /// The tool `name`, its input schema and its call; declared where this is called (see
    /// [`with_location`](Self::with_location)), of the default server, with nothing else: no
    /// title, description, hints, icons, `_meta`, output schema, state, limits, scopes, task
    /// support or widget.
    #[track_caller]
    pub const fn new(name: &'static str, input_schema: InputSchema, call: ToolCallFn) -> Self {
        Self {
            name,
            title: None,
            description: None,
            hints: ToolHints::NONE,
            icons: &[],
            meta: None,
            input_schema,
            output_schema: no_output_schema,
            output_schema_derived: false,
            validate_output: None,
            call,
            state_needs: no_state,
            allow_unknown_args: None,
            server: "",
            timeout_ms: None,
            max_concurrency: None,
            cache: None,
            location: Location::caller(),
            scopes: &[],
            tags: &[],
            task_support: TaskSupport::Forbidden,
            ui: None,
        }
    }

    /// Its human-readable title.
    pub const fn with_title(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }

    /// Its description, what a model reads to pick it.
    pub const fn with_description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// Its behaviour hints.
    pub const fn with_hints(mut self, hints: ToolHints) -> Self {
        self.hints = hints;
        self
    }

    /// Its icons.
    pub const fn with_icons(mut self, icons: &'static [IconRecord]) -> Self {
        self.icons = icons;
        self
    }

    /// Its `_meta`, as the text of a JSON object (checked when the server is built).
    pub const fn with_meta(mut self, meta: &'static str) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The output schema of its structured results, written by hand: the server checks each
    /// successful result's `structuredContent` against it (compiled once, when the server is
    /// built) and answers a result that does not conform with a -32603 error naming the path and
    /// the keyword that failed, unless [`with_output_validation`](Self::with_output_validation)
    /// or [`ServerBuilder::validate_output`](crate::ServerBuilder::validate_output) turns that
    /// off. The guide's section 4 tells why it is an error and not an `isError` result.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::registry::{InputSchema, ToolRecord};
    /// use mcp_runtime::schemars::{Schema, SchemaGenerator, json_schema};
    /// # use mcp_runtime::{BoxFuture, HandlerError};
    /// # use mcp_runtime::protocol::CallToolResult;
    /// # use mcp_runtime::serde_json::value::RawValue;
    /// # fn price(_: Context, _: Option<Box<RawValue>>) -> BoxFuture<'static, Result<CallToolResult, HandlerError>> {
    /// #     Box::pin(async { Ok(CallToolResult::structured(serde_json::json!({"price": 3}), "3")) })
    /// # }
    ///
    /// fn price_schema(_: &mut SchemaGenerator) -> Option<Schema> {
    ///     Some(json_schema!({"type": "object", "properties": {"price": {"type": "number"}}}))
    /// }
    ///
    /// const PRICE: ToolRecord = ToolRecord::new("price", InputSchema::Raw(r#"{"type":"object"}"#), price)
    ///     .with_output_schema(price_schema);
    /// assert!(!PRICE.output_schema_derived);
    /// ```
    pub const fn with_output_schema(
        mut self,
        output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    ) -> Self {
        self.output_schema = output_schema;
        self.output_schema_derived = false;
        self
    }

    /// The output schema derived from its return type (what `#[tool]` sets: `Json<T>`'s
    /// schema is `T`'s, so results conform by construction and are never checked, at no cost).
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// #[mcp_runtime::data]
    /// struct Sum { total: i64 }
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> Json<Sum> { Json(Sum { total: a + b }) }
    ///
    /// assert!(add::TOOL.output_schema_derived);
    /// ```
    pub const fn with_derived_output_schema(
        mut self,
        output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    ) -> Self {
        self.output_schema = output_schema;
        self.output_schema_derived = true;
        self
    }

    /// What `#[tool]` sets after [`with_derived_output_schema`](Self::with_derived_output_schema):
    /// the return type's
    /// [`OUTPUT_SCHEMA_DERIVED`](crate::IntoToolResult::OUTPUT_SCHEMA_DERIVED) (read as a
    /// projection, not through a generic bound, so that a return type that is not a result is
    /// told once).
    #[doc(hidden)]
    pub const fn __with_output_schema_derived(mut self, derived: bool) -> Self {
        self.output_schema_derived = derived;
        self
    }

    /// Whether its structured results are checked against its hand-written output schema
    /// (`false`: not checked, whatever the server's default; a derived schema is never
    /// checked).
    ///
    /// ```
    /// # fn demo(record: mcp_runtime::registry::ToolRecord) {
    /// let unchecked = record.with_output_validation(false);
    /// assert_eq!(unchecked.validate_output, Some(false));
    /// # }
    /// ```
    pub const fn with_output_validation(mut self, validate: bool) -> Self {
        self.validate_output = Some(validate);
        self
    }

    /// The state types its injected parameters need (checked when the server is built).
    pub const fn with_state_needs(mut self, state_needs: StateNeedsFn) -> Self {
        self.state_needs = state_needs;
        self
    }

    /// Whether arguments its input schema does not name are accepted (`true`) or refused
    /// (`false`), whatever the server's default.
    pub const fn with_allow_unknown_args(mut self, allow: bool) -> Self {
        self.allow_unknown_args = Some(allow);
        self
    }

    /// The named server it belongs to (see
    /// [`Server::from_registry_named`](crate::Server::from_registry_named)).
    pub const fn with_server(mut self, server: &'static str) -> Self {
        self.server = server;
        self
    }

    /// How long one call may run, in milliseconds.
    pub const fn with_timeout_ms(mut self, timeout_ms: u64) -> Self {
        self.timeout_ms = Some(timeout_ms);
        self
    }

    /// How many calls of it may run at once, server-wide.
    pub const fn with_max_concurrency(mut self, max_concurrency: u32) -> Self {
        self.max_concurrency = Some(max_concurrency);
        self
    }

    /// How long the [`Cache`](crate::cache::Cache) layer may keep its results, and for whom
    /// (`#[tool(read_only, cache_ttl_ms = ..)]`). Only a tool whose hints say read-only is
    /// cached; the specification puts no cache hint on a `tools/call` result ("Servers MUST
    /// include caching hints on results ... returned by" the list methods, `server/discover`
    /// and `resources/read`), so nothing of it reaches the wire.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::CacheScope;
    /// use mcp_runtime::registry::ToolHints;
    ///
    /// /// Today's rate.
    /// #[tool]
    /// async fn rate() -> String { "1.1".into() }
    ///
    /// let record = rate::TOOL
    ///     .with_hints(ToolHints::NONE.with_read_only(true))
    ///     .with_cache(30_000, CacheScope::Public);
    /// assert_eq!(record.cache.map(|c| c.ttl_ms), Some(30_000));
    /// ```
    pub const fn with_cache(mut self, ttl_ms: u64, scope: mcp_core::CacheScope) -> Self {
        self.cache = Some(super::CacheHint::new(ttl_ms, scope));
        self
    }

    /// Where it was declared, for the messages about duplicate names.
    pub const fn with_location(mut self, location: Location) -> Self {
        self.location = location;
        self
    }

    /// The OAuth scopes a caller needs to call it (feature `auth`).
    pub const fn with_scopes(mut self, scopes: &'static [&'static str]) -> Self {
        self.scopes = scopes;
        self
    }

    /// Its tags: a [`Visibility`](crate::transform::Visibility) rule shows it or not by them.
    ///
    /// ```
    /// # fn demo(record: mcp_runtime::registry::ToolRecord) {
    /// let tagged = record.with_tags(&["admin"]);
    /// assert_eq!(tagged.tags, ["admin"]);
    /// # }
    /// ```
    pub const fn with_tags(mut self, tags: &'static [&'static str]) -> Self {
        self.tags = tags;
        self
    }

    /// The same tool with another task support: the builder's way to say what
    /// `#[tool(task = "...")]` says.
    ///
    /// ```standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::tasks::TaskSupport;
    ///
    /// /// Exports everything.
    /// #[tool]
    /// async fn export() -> String {
    ///     "done".into()
    /// }
    ///
    /// let record = export::TOOL.with_task_support(TaskSupport::Optional);
    /// assert_eq!(record.task_support, TaskSupport::Optional);
    /// let server = Server::builder(server_info!()).tool(record).build().unwrap();
    /// # let _ = server;
    /// ```
    pub const fn with_task_support(mut self, support: TaskSupport) -> Self {
        self.task_support = support;
        self
    }

    /// The widget its results render in (MCP Apps).
    pub const fn with_ui(mut self, ui: crate::apps::ToolUi) -> Self {
        self.ui = Some(ui);
        self
    }
}
