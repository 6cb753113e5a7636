//! The `#[tool]`, `#[resource]` and `#[prompt]` attribute macros of `mcp-runtime`.
//!
//! Depend on `mcp-runtime`, not on this crate: it re-exports the macros
//! (`use mcp_runtime::prelude::*;`), and the code they generate names `::mcp_runtime` paths only.
//!
//! Each macro turns a plain function into a registered MCP item. The function stays as written
//! (only the helper attributes `#[arg]`, `#[ctx]` and the parameters' doc comments are removed),
//! so it can be called and unit-tested directly. Next to it the macro emits:
//!
//! - a hidden struct with the function's name whose associated const (`TOOL`, `RESOURCE` or
//!   `PROMPT`) is the item's record, for explicit registration:
//!   `Server::builder(info).tool(add::TOOL)`;
//! - one `inventory::submit!` of that record, so `Server::from_registry` finds it at start-up;
//! - for tools, a hidden argument struct deriving `Deserialize` and `JsonSchema`, from which the
//!   input schema is generated and into which the JSON `arguments` are deserialised in one pass.
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! /// Adds two numbers.
//! #[tool(read_only)]
//! async fn add(
//!     /// The first number
//!     a: f64,
//!     /// The second number
//!     b: f64,
//! ) -> String {
//!     (a + b).to_string()
//! }
//!
//! assert_eq!(add::TOOL.name, "add");
//! assert_eq!(add::TOOL.description, Some("Adds two numbers."));
//! # let _ = Server::builder(server_info!()).tool(add::TOOL);
//! ```
//!
//! # Checked at compile time
//!
//! Whatever can be checked while compiling is: the tool name (1 to 128 of `A-Za-z0-9_-.`), the
//! attribute keys and their values (a `pattern` is compiled with the engine the runtime matches
//! with; `min`/`max` on a type that is not a number are refused), URI template syntax and its
//! variables against the parameters, parameter types that can never be arguments (`&str`,
//! `impl Trait`, a `Vec` as a prompt argument), return types and their error types, completion
//! hooks, methods, generic functions and destructuring patterns. Each error lands on the
//! offending token, and trait errors (a parameter type that is not `Deserialize`, a return type
//! the runtime cannot turn into a result) land on the type. When a rule is broken, the function
//! is still emitted (without registration), so the rest of the crate keeps compiling and no
//! second wave of errors follows.
//!
//! A tool without a description (no doc comment, no `description = ".."`) compiles with a
//! warning on its name: a model chooses tools by their descriptions. (A proc macro cannot raise
//! a warning of its own on stable Rust; this one comes through the `deprecated` lint, so
//! `#[allow(deprecated)]` on the enclosing module silences it.)
//!
//! ```compile_fail
//! use mcp_runtime::prelude::*;
//!
//! #[tool(name = "get weather")] // error: tool name `get weather` contains a space (U+0020) ...
//! async fn weather(city: String) -> String {
//!     city
//! }
//! # fn main() {}
//! ```
//!
//! # Parameters
//!
//! A parameter is either *injected* or an *argument*. Injected parameters are those whose type's
//! last path segment is `Context` or `State`, and any parameter marked `#[ctx]` (a type
//! implementing `FromContext`); they never appear in schemas. Every other parameter is an
//! argument: a tool argument (a property of the input schema), a URI template variable of a
//! resource, or a prompt argument. Patterns must be plain identifiers (`name` or `mut name`):
//! the identifier is the argument's name.
//!
//! `#[arg(..)]` refines an argument:
//!
//! | key | tool | resource | prompt | effect |
//! |---|---|---|---|---|
//! | `rename = "jsonName"` | yes | yes | yes | the name clients use |
//! | `title = "…"` | yes | | yes | the argument's title |
//! | `default = EXPR` | yes | | yes | optional, with this value when absent (schema `default`) |
//! | `min = N`, `max = N` | yes | | | schema `minimum`/`maximum`, checked after parsing |
//! | `pattern = "regex"` | yes | | | schema `pattern`, checked after parsing |
//! | `header = "Name"` | yes | | | schema extension `x-mcp-header` |
//! | `flatten` | yes | | | the fields of a struct are top-level properties (serde's `flatten`) |
//! | `complete = path` | | yes | yes | completion hook (below) |
//!
//! A parameter's `///` doc comment is its description. `Option<T>` arguments are optional. The
//! doc comments of an enum's variants are listed in the property's description (the portable
//! schema writes an enum as `{"type": "string", "enum": [..]}`, which has no room for them).
//!
//! # Completion hooks
//!
//! `complete = hook` names a function that takes the `CompletionRequest` first and then any
//! injected parameters, like a handler; it may be `async` (then it takes the request by value)
//! and returns `Vec<String>` or `Result<Vec<String>, E>`:
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! struct Ids(Vec<u32>);
//!
//! async fn ids(req: CompletionRequest, ids: State<Ids>) -> Vec<String> {
//!     ids.0.iter().map(u32::to_string).filter(|id| id.starts_with(req.value())).collect()
//! }
//!
//! fn tones(req: &CompletionRequest) -> Vec<String> {
//!     ["warm", "formal"].iter().filter(|t| t.starts_with(req.value())).map(|t| t.to_string()).collect()
//! }
//!
//! /// A greeting for one person.
//! #[prompt]
//! async fn greet(#[arg(complete = ids)] id: u32, #[arg(complete = tones)] tone: Option<String>) -> String {
//!     format!("Greet person {id}, {}.", tone.as_deref().unwrap_or("warm"))
//! }
//! # let _ = Server::builder(server_info!()).prompt(greet::PROMPT).state(Ids(vec![1, 2]));
//! ```
//!
//! # Application state
//!
//! Every `State<T>` a handler or a completion hook takes is recorded, and
//! `ServerBuilder::build` refuses a server that was not given a `T` with `.state(value)`,
//! naming the item and the type.
//!
//! # Results
//!
//! Tools return anything implementing `IntoToolResult` (`String`, `Json<T>`, content blocks,
//! `()`, `Result<T, E>` of these …), resources `IntoResourceContents`, prompts
//! `IntoPromptResult`. Functions may be `async` or not; an `async` function's future must be
//! `Send`.
//!
//! The error `E` of a `Result` is whatever reads naturally, and reaches the client by one rule:
//!
//! | `E` | the client sees |
//! |---|---|
//! | `ToolError`, `PromptError`, `ResourceError` | their text (or not found), or, for their internal form, `internal error, id …` |
//! | `String`, `&'static str` | the text: a message written for the model |
//! | any `std::error::Error + Send + Sync`, `BoxError`, `anyhow::Error` | `internal error, id 1a2b3c4d`; the error is logged in full with that id |
//!
//! `?` converts along the same line: in a tool returning `Result<T, ToolError>`,
//! `text.parse::<u32>()?` is an internal error (masked) and `Err(format!(".."))?` a message
//! (shown). A type that is none of these is refused on the return type with a note naming them.
//!
//! # Items inside functions
//!
//! The macros work on functions declared inside another function's body too, which is handy in
//! tests:
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! fn build() -> Server {
//!     /// Says hello.
//!     #[tool]
//!     fn hello() -> &'static str {
//!         "hello"
//!     }
//!     Server::builder(server_info!()).tool(hello::TOOL).build().unwrap()
//! }
//! # let _ = build;
//! ```

mod case;
mod ctxt;
mod data_attr;
mod docs;
mod expand;
mod fallback;
mod json;
mod main_attr;
mod model;
#[cfg(feature = "openapi")]
mod openapi;
mod parse;
mod skills;
mod ty;
mod validate;
mod widget;

use proc_macro::TokenStream;

use crate::parse::Kind;

/// Turns a function into an MCP tool.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// #[mcp_runtime::data(input)]
/// #[serde(rename_all = "lowercase")]
/// enum Unit {
///     Celsius,
///     Fahrenheit,
/// }
///
/// /// Current temperature of a city.
/// #[tool(title = "Weather", read_only, open_world, tags = ["public"])]
/// async fn weather(
///     /// City name, e.g. Paris
///     #[arg(pattern = "^[A-Za-z ]+$")]
///     city: String,
///     /// Unit of the result
///     unit: Option<Unit>,
///     /// How many days ahead
///     #[arg(default = 0, min = 0, max = 7)]
///     days: u8,
///     ctx: Context,
/// ) -> Result<String, ToolError> {
///     let _ = (unit, ctx);
///     Ok(format!("{city} in {days} days: 21"))
/// }
///
/// assert_eq!(weather::TOOL.title, Some("Weather"));
/// assert_eq!(weather::TOOL.hints.read_only, Some(true));
/// assert_eq!(weather::TOOL.tags, ["public"]);
/// ```
///
/// # Arguments of `#[tool(..)]`
///
/// All are optional.
///
/// - `name = "…"`: the tool's name; defaults to the function's name. 1 to 128 of
///   `A-Za-z0-9_-.`.
/// - `title = "…"`, `description = "…"`: the description defaults to the function's doc comment.
/// - `read_only`, `destructive`, `idempotent`, `open_world`: behaviour hints; each is a flag or
///   `= true`/`= false`.
/// - `icon = "https://…"` or `icon(src = "…", mime = "image/png", sizes = ["48x48"], theme =
///   "dark")`, repeatable.
/// - `meta = r#"{"key": 1}"#`: the `_meta` object, as JSON text (checked at compile time).
/// - `server = "name"`: the named registry this tool belongs to; `""` (the default server) when
///   absent.
/// - `timeout_ms = 5000`: per-call timeout in milliseconds (at least 1). A call still running then
///   is abandoned and answered with an error result (`isError`).
/// - `max_concurrency = 4`: the most calls of this tool in flight at once, per server (1 to
///   4294967295); further calls wait for a slot.
/// - `scopes = ["notes:write"]`: the OAuth scopes a caller needs to call it (checked by a
///   protected HTTP endpoint, feature `auth` of `mcp-runtime`; a broader scope may imply them).
/// - `tags = ["admin"]`: tags a `mcp_runtime::transform::Visibility` rule shows or hides it by
///   (a caller whose view leaves it out neither lists nor can call it); nothing reaches the wire.
/// - `cache_ttl_ms = 60000`, `cache_scope = "public"` (default `"private"`): with `read_only` only,
///   how long `mcp_runtime::cache::Cache` keeps its results, for whom (nothing reaches the wire).
/// - `input_schema = r#"{…}"#`: a hand-written JSON Schema used verbatim. The function then takes
///   the whole arguments object as its one argument parameter, of type `serde_json::Value` or any
///   `Deserialize` type (or takes none).
/// - `allow_unknown_args` (or `= false`): whether a call may name properties the input schema
///   does not. By default it may not (unless the server says otherwise with
///   `ServerBuilder::allow_unknown_args`): such a call is refused with an invalid-arguments
///   error naming the unknown properties and the allowed ones, so a misspelt argument is never
///   silently ignored. A raw `input_schema` receives its arguments as sent.
/// - `task = "optional"` or `task = "required"`: the tool may (or must) run as a task, a call the
///   client polls instead of waiting on (`execution.taskSupport` in 2025-11-25, the
///   `io.modelcontextprotocol/tasks` extension in 2026-07-28); `"forbidden"` (the default) never.
///   The body is the same either way; see the `mcp_runtime::tasks` module.
/// - `ui = WIDGET`: renders the tool's results in the MCP Apps widget declared by
///   [`macro@widget`] on the const `WIDGET` (a path: `ui = widgets::CARDS` works too). The tool
///   gets `_meta.ui.resourceUri`; a name that is not such a const is a compile error at the name.
/// - `visibility = "app"` (or `"model"`, or `["model", "app"]`, the default): who may call a
///   widget-linked tool, the model, the widget, or both (`_meta.ui.visibility`). Only with `ui`.
/// - `rename_all = "camelCase"` (any serde casing, `"kebab-case"`, `"SCREAMING_SNAKE_CASE"`, …):
///   the arguments' names on the wire and in the schema; an `#[arg(rename = "..")]` wins.
///
/// The description is what a model chooses tools by: a tool without one compiles with a warning
/// on its name.
///
/// # Errors
///
/// A tool failing with `ToolError`, a `String` or a `&'static str` shows the text to the model
/// (an `isError` result); any other error (`std::error::Error + Send + Sync`, `BoxError`,
/// `anyhow::Error`) is masked as `internal error, id …` and logged in full. `?` converts into
/// `ToolError` along the same line:
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Doubles a number given as text.
/// #[tool]
/// fn double(text: String) -> Result<String, ToolError> {
///     if text.is_empty() {
///         Err("give a number, e.g. \"21\"")?; // shown to the model
///     }
///     let n: u32 = text.parse()?; // a `ParseIntError`: masked, logged
///     Ok((2 * n).to_string())
/// }
///
/// /// Halves a number.
/// #[tool]
/// fn halve(n: u32) -> Result<String, String> {
///     if n % 2 == 1 { Err(format!("{n} is odd")) } else { Ok((n / 2).to_string()) }
/// }
/// # let _ = (double::TOOL, halve::TOOL);
/// ```
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Echoes its arguments.
/// #[tool(input_schema = r#"{"type": "object", "additionalProperties": true}"#)]
/// fn echo(arguments: serde_json::Value) -> String {
///     arguments.to_string()
/// }
/// # let _ = echo::TOOL;
/// ```
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::run(Kind::Tool, attr.into(), item.into()).into()
}

/// Above `#[tool]`: gives clients a typed way to call the tool, from the same definitions.
///
/// It generates, next to the function `f`, a public struct `FArgs` (the function's name in
/// `CamelCase`, then `Args`) with one public field per argument parameter (injected ones left
/// out), deriving `Serialize`, and implements `ToolArguments` for it with the tool's name and
/// the function's declared return type. A client then calls `client.call(FArgs { .. })` and
/// gets the value the return type declares (`T` for `Json<T>`, `String` for `String`, …); a
/// change of the tool's signature is a compile error wherever a client calls it. Argument types
/// must implement `Serialize` (and structured outputs `Deserialize`) for the client side.
///
/// ```
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::ToolArguments;
///
/// /// Adds two numbers.
/// #[typed_tool]
/// #[tool]
/// pub async fn add(a: i64, b: i64) -> Json<i64> {
///     Json(a + b)
/// }
///
/// let args = AddArgs { a: 2, b: 3 };
/// assert_eq!(AddArgs::NAME, "add");
/// assert_eq!(serde_json::to_value(&args).unwrap(), serde_json::json!({"a": 2, "b": 3}));
/// # let _ = add::TOOL;
/// ```
#[proc_macro_attribute]
pub fn typed_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::typed::run(attr.into(), item.into()).into()
}

/// Turns a function into an MCP resource, or a resource template when its URI has variables.
///
/// Each variable of the URI template binds the parameter of the same name (or `rename`); its
/// type is parsed from the matched text with `FromStr`. An `Option<T>` parameter is optional
/// (for query variables such as `{?lang}`). Every variable needs a parameter and every
/// non-injected parameter must be a variable; a fixed URI takes no arguments. A value that does
/// not parse (`abc` for a `u32`) is an invalid-params error naming the variable.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// fn complete_id(req: &CompletionRequest) -> Vec<String> {
///     ["1", "2"].iter().filter(|id| id.starts_with(req.value())).map(|id| id.to_string()).collect()
/// }
///
/// /// One gift by id
/// #[resource(uri = "gifts://item/{id}{?lang}", mime = "text/plain")]
/// async fn gift(#[arg(complete = complete_id)] id: u32, lang: Option<String>) -> Result<String, ResourceError> {
///     Ok(format!("gift {id} ({})", lang.as_deref().unwrap_or("en")))
/// }
///
/// assert_eq!(gift::RESOURCE.uri, "gifts://item/{id}{?lang}");
/// assert_eq!(gift::RESOURCE.completions[0].argument, "id");
/// ```
///
/// # Arguments of `#[resource(..)]`
///
/// - `uri = "…"` (required): a URI, or an RFC 6570 template (checked at compile time).
/// - `name = "…"` (defaults to the function's name), `title = "…"`, `description = "…"`
///   (defaults to the doc comment), `mime = "…"`, `icon`, `meta`, `server`: as for
///   [`macro@tool`].
/// - `timeout_ms = 5000`: per-read timeout in milliseconds (at least 1). A read still running
///   then is abandoned and answered with a JSON-RPC error (`-32603`, `resource 'NAME' timed out
///   after N ms`).
/// - `max_concurrency = 4`: the most reads of this resource (or template, whatever URI it
///   matched) in flight at once, per server (1 to 4294967295); further reads wait for a slot.
/// - `scopes = ["notes:write"]`: the OAuth scopes a caller needs to read it (checked by a
///   protected HTTP endpoint, feature `auth` of `mcp-runtime`; a broader scope may imply them).
/// - `tags = ["admin"]`: tags a `mcp_runtime::transform::Visibility` rule shows or hides it by
///   (a caller whose view leaves it out neither lists nor can read it); nothing reaches the wire.
/// - `ttl_ms = 60000` (0 or more, default 0), `cache_scope = "public"` (default `"private"`): the
///   read's `ttlMs`/`cacheScope` in 2026-07-28, and how long `mcp_runtime::cache::Cache` keeps it.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// A slow report, read by one client at a time.
/// #[resource(uri = "reports://{year}", timeout_ms = 10_000, max_concurrency = 1, tags = ["finance"])]
/// async fn report(year: u16) -> String {
///     format!("report {year}")
/// }
///
/// assert_eq!(report::RESOURCE.timeout_ms, Some(10_000));
/// assert_eq!(report::RESOURCE.max_concurrency, Some(1));
/// assert_eq!(report::RESOURCE.tags, ["finance"]);
/// ```
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::run(Kind::Resource, attr.into(), item.into()).into()
}

/// Turns a function into an MCP prompt.
///
/// Each argument parameter is a declared prompt argument: its doc comment is the description,
/// and it is required unless it is an `Option<T>` or has `#[arg(default = …)]`. Prompt arguments
/// arrive as strings, so their types implement `FromStr`.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Congratulations in a given tone
/// #[prompt(title = "Congratulations")]
/// async fn congrats(
///     /// Who is congratulated
///     name: String,
///     /// How many sentences
///     #[arg(default = 2)]
///     sentences: u8,
///     tone: Option<String>,
/// ) -> Vec<PromptMessage> {
///     let tone = tone.unwrap_or_else(|| "warm".into());
///     vec![PromptMessage::user(format!("Congratulate {name} in {sentences} {tone} sentences."))]
/// }
///
/// let args: Vec<_> = congrats::PROMPT.arguments.iter().map(|a| (a.name, a.required)).collect();
/// assert_eq!(args, [("name", true), ("sentences", false), ("tone", false)]);
/// ```
///
/// # Arguments of `#[prompt(..)]`
///
/// `name`, `title`, `description`, `icon`, `meta`, `server` and `rename_all`, as for
/// [`macro@tool`], and:
///
/// - `timeout_ms = 5000`: per-get timeout in milliseconds (at least 1). A get still running then
///   is abandoned and answered with a JSON-RPC error (`-32603`, `prompt 'NAME' timed out after N
///   ms`).
/// - `max_concurrency = 4`: the most gets of this prompt in flight at once, per server (1 to
///   4294967295); further gets wait for a slot.
/// - `scopes = ["notes:write"]`: the OAuth scopes a caller needs to get it (checked by a
///   protected HTTP endpoint, feature `auth` of `mcp-runtime`; a broader scope may imply them).
/// - `tags = ["admin"]`: tags a `mcp_runtime::transform::Visibility` rule shows or hides it by
///   (a caller whose view leaves it out neither lists nor can get it); nothing reaches the wire.
/// - `cache_ttl_ms = 60000`, `cache_scope = "public"` (default `"private"`): how long
///   `mcp_runtime::cache::Cache` keeps its results, for whom (nothing reaches the wire).
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Summarises a long text.
/// #[prompt(timeout_ms = 2000, max_concurrency = 4, tags = ["writing", "beta"])]
/// async fn summarise(text: String) -> String {
///     format!("Summarise: {text}")
/// }
///
/// assert_eq!(summarise::PROMPT.timeout_ms, Some(2000));
/// assert_eq!(summarise::PROMPT.max_concurrency, Some(4));
/// assert_eq!(summarise::PROMPT.tags, ["writing", "beta"]);
/// ```
#[proc_macro_attribute]
pub fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::run(Kind::Prompt, attr.into(), item.into()).into()
}

/// Declares an MCP Apps widget: the `const` it annotates holds the widget's HTML (a literal,
/// `include_str!("..")`, or an [`Html`](../mcp_runtime/apps/enum.Html.html) such as
/// `Html::file("widgets/cards.html")`, read at every `resources/read`), served as a `ui://`
/// resource of MIME type `text/html;profile=mcp-app`. Link a tool to it by naming the const:
/// `#[tool(ui = CARDS)]`.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Gift ideas as cards.
/// #[widget(
///     uri = "ui://gifts/cards.html",
///     prefers_border = true,
///     csp(resource_domains = ["https://cdn.example.com"]),
///     permissions(clipboard_write),
/// )]
/// const CARDS: &str = "<!doctype html><html><body></body></html>";
///
/// /// Suggests gifts; the model reads the text, the widget the structured content.
/// #[tool(ui = CARDS)]
/// async fn suggest() -> String { "a book".into() }
///
/// /// Saves a gift: only the widget calls it.
/// #[tool(ui = CARDS, visibility = "app")]
/// async fn save(id: u32) -> String { format!("saved {id}") }
///
/// assert_eq!(CARDS::RESOURCE.uri, "ui://gifts/cards.html");
/// assert_eq!(CARDS::RESOURCE.name, "cards");
/// assert_eq!(
///     CARDS::RESOURCE.meta,
///     Some(r#"{"ui":{"csp":{"resourceDomains":["https://cdn.example.com"]},"permissions":{"clipboardWrite":{}},"prefersBorder":true}}"#)
/// );
/// assert!(!save::TOOL.ui.unwrap().visibility.model);
/// ```
///
/// # Arguments of `#[widget(..)]`
///
/// - `uri = "ui://server/name.html"` (required): must start with `ui://`; one fixed address.
/// - `name`, `title`, `description`: as for resources (`name` defaults to the const's name in
///   lower case, `description` to its doc comment).
/// - `prefers_border = true|false`: `_meta.ui.prefersBorder`.
/// - `domain = ".."`: `_meta.ui.domain`, the dedicated sandbox origin (host-specific format).
/// - `csp(connect_domains = [..], resource_domains = [..], frame_domains = [..],
///   base_uri_domains = [..])`: origins such as `"https://cdn.example.com"` (checked).
/// - `permissions(camera, microphone, geolocation, clipboard_write)`.
/// - `server = ".."`: the server it belongs to, as for the other items.
///
/// There is no `mime`: a widget's MIME type is always `text/html;profile=mcp-app`.
///
/// Next to the const (which stays as written) the macro emits a hidden struct of the same name
/// (types and values live in different namespaces) with `NAME::RESOURCE`, the widget's resource
/// record, and `NAME::SKYBRIDGE`, its `text/html+skybridge` twin, both registered; the twin is
/// served only when the server opts in (`AppsOptions::skybridge`).
///
/// ```compile_fail
/// use mcp_runtime::prelude::*;
///
/// #[widget(uri = "https://example.com/cards.html")] // error: a widget's URI must start with `ui://`
/// const CARDS: &str = "<!doctype html><html></html>";
/// ```
///
/// ```compile_fail
/// use mcp_runtime::prelude::*;
///
/// /// Suggests gifts.
/// #[tool(ui = CARDZ)] // error: cannot find type `CARDZ` in this scope
/// async fn suggest() -> String { "a book".into() }
/// ```
#[proc_macro_attribute]
pub fn widget(attr: TokenStream, item: TokenStream) -> TokenStream {
    widget::run(attr.into(), item.into()).into()
}

#[doc = include_str!("skills.md")]
#[proc_macro]
pub fn skills(input: TokenStream) -> TokenStream {
    skills::run(input.into()).into()
}

#[cfg(feature = "openapi")]
#[doc = include_str!("openapi/tools.md")]
#[proc_macro_attribute]
pub fn openapi_tools(attr: TokenStream, item: TokenStream) -> TokenStream {
    openapi::run(attr.into(), item.into()).into()
}

#[doc = include_str!("main_attr.md")]
#[proc_macro_attribute]
pub fn main(attr: TokenStream, item: TokenStream) -> TokenStream {
    main_attr::expand(attr.into(), item.into()).into()
}

/// Makes a struct or an enum of your own a tool argument and a structured result in one line:
/// derives `Serialize`, `Deserialize` and `JsonSchema` through `mcp-runtime`'s re-exports
/// (`mcp_runtime::serde`, `mcp_runtime::schemars`), telling each derive where its crate is, so
/// the server's `Cargo.toml` needs neither crate.
///
/// The type keeps its own attributes (`#[serde(rename_all = "camelCase")]`, doc comments: the
/// schema's descriptions) and derives (`Debug`, `Clone`: not added, only what the protocol
/// needs is). `data(input)` derives only `Deserialize` (and `JsonSchema`), `data(output)` only
/// `Serialize`. A crate that depends on serde and schemars 1.x itself may derive them instead.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Where to look.
/// #[mcp_runtime::data]
/// #[serde(rename_all = "camelCase")]
/// struct Area {
///     /// City name
///     city_name: String,
/// }
///
/// /// Finds cafés in an area.
/// #[tool]
/// async fn cafes(area: Area) -> Json<Area> {
///     Json(area)
/// }
///
/// let server = Server::builder(server_info!()).tool(cafes::TOOL).build().unwrap();
/// assert!(server.listing().contains("\"cityName\""));
/// ```
#[proc_macro_attribute]
pub fn data(attr: TokenStream, item: TokenStream) -> TokenStream {
    data_attr::expand(attr.into(), item.into()).into()
}

/// Runs an `async fn` test on a Tokio runtime: `#[tokio::test]` through the re-exported Tokio,
/// its arguments (`flavor = "multi_thread"`, `start_paused = true`, …) forwarded, `crate` set.
///
/// ```
/// #[mcp_runtime::test]
/// async fn answers() {
///     assert_eq!(async { 42 }.await, 42);
/// }
/// # fn main() {}
/// ```
#[proc_macro_attribute]
pub fn test(attr: TokenStream, item: TokenStream) -> TokenStream {
    main_attr::test(attr.into(), item.into()).into()
}
