//! Serve plain Rust functions as a [Model Context Protocol](https://modelcontextprotocol.io)
//! server.
//!
//! Annotate functions with [`#[tool]`](macro@tool), [`#[resource]`](macro@resource) and
//! [`#[prompt]`](macro@prompt); the macros derive the JSON Schema from the parameter types and
//! the descriptions from the doc comments, and register each item at link time. A [`Server`]
//! collects them, builds every descriptor and list page once, and serves any MCP client, in both
//! protocol eras: the handshake era (`initialize`, revisions 2024-11-05 to 2025-11-25) and the
//! stateless era (per-request `_meta`, revision 2026-07-28), on the same connection.
//!
//! ```no_run,standalone_crate
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
//! #[mcp_runtime::main]
//! async fn main() -> Result<(), mcp_runtime::Error> {
//!     Server::from_registry(server_info!()).run().await // `stdio`, `list`, `call add '{"a":1,"b":2}'`
//! }
//! ```
//!
//! The [guide](https://github.com/mcp-runtime/mcp-runtime/blob/main/docs/guide.md) walks from an
//! empty crate to a deployed server.
//!
//! # One dependency
//!
//! `cargo add mcp-runtime` is all a server's `Cargo.toml` needs. The crates its own code uses
//! are re-exported: [`serde`], [`serde_json`], [`schemars`] (1.x) and [`tokio`] (with the
//! runtime, `macros`, `sync` and `time`; add `tokio` yourself for more of its features), and
//! [`#[mcp_runtime::main]`](macro@main) is `#[tokio::main]` through the re-export
//! ([`#[mcp_runtime::test]`](macro@test) is `#[tokio::test]`). Types of your own that are
//! arguments or structured results take one attribute, [`#[mcp_runtime::data]`](macro@data):
//! the serde and schemars derives through the re-exports, each told where its crate is.
//!
//! ```standalone_crate
//! use mcp_runtime::prelude::*;
//!
//! /// Where to look.
//! #[mcp_runtime::data]
//! struct Area {
//!     /// City name
//!     city: String,
//!     /// Radius in km
//!     radius: Option<f64>,
//! }
//!
//! /// Finds cafés in an area.
//! #[tool]
//! async fn cafes(area: Area) -> String {
//!     format!("no café within {} km of {}", area.radius.unwrap_or(1.0), area.city)
//! }
//!
//! let server = Server::builder(server_info!()).tool(cafes::TOOL).build().unwrap();
//! assert!(server.listing().contains("\"city\""));
//! ```
//!
//! A crate that depends on `serde` (with `derive`) and `schemars` 1.x itself may derive them
//! as usual. The code the macros generate names only `::mcp_runtime` paths, so tools whose
//! parameters are standard types need neither.
//!
//! # Parameters
//!
//! Every parameter of a tool is a property of its input schema, except injected ones:
//! [`Context`] (progress, logging, cancellation, client information), [`State<T>`] (application
//! state given to the builder) and any type implementing [`FromContext`] marked `#[ctx]`.
//! `Option<T>` parameters are optional. `#[arg(default = …, min = …, max = …, pattern = "…")]`
//! refines a parameter; arguments are deserialised once, straight into a generated struct, and a
//! failure names the property and what was expected. A property the schema does not name is
//! refused (see [`ServerBuilder::allow_unknown_args`]). A `State<T>` the builder was not given is
//! refused by [`ServerBuilder::build`].
//!
//! # Results
//!
//! Tools return `String`, [`Json<T>`] (structured content with an output schema; a text block of
//! your choosing with [`Json::text`] and its siblings, a [`Structured<T>`]), content
//! blocks, `()` or `Result<_, E>`: a [`ToolError`], a `String` or a `&'static str` is shown to
//! the model as an `isError` result; any other error (`std::error::Error`, [`BoxError`],
//! `anyhow::Error`, and any panic) is masked with a correlation id and logged on stderr. `?`
//! converts along the same line (see [`IntoHandlerError`]).
//!
//! # Serving: one entry point per situation
//!
//! `run` is the command line; `serve*` serves one transport until it closes or the server
//! shuts down; `router*` hands the endpoint to your own axum app.
//!
//! | you want | call |
//! |---|---|
//! | a server binary with a command line (`stdio` by default, `http`, `list`, `call`, …) | [`ServerBuilder::run`] (builds, reading the `MCP_*` settings, then runs), or [`Server::run`] on a built server; [`Cli`](cli::Cli) for commands of your own or explicit arguments |
//! | stdio only (feature `cli` not needed) | [`Server::serve_stdio`] (or [`ServerBuilder::serve_stdio`], which builds first) |
//! | Streamable HTTP at `/mcp` (both eras; with the opt-in `legacy-sse` feature also the 2024-11-05 HTTP+SSE transport at `/sse` and `/messages`) | [`Server::serve_http`] on an address, [`Server::serve_http_on`] on a listener you bound |
//! | stdio and HTTP from one process | [`Server::serve_stdio_and_http`] |
//! | the endpoint inside your axum app | [`Server::router`] to `nest`, [`Server::router_at`] to `merge` at a path (see [`http`]) |
//! | any other way of moving JSON texts | a [`Transport`](transport::Transport) of your own, served with [`Server::serve`] (the guide has a page on writing one, and `examples/unix-socket` is one over a Unix domain socket) |
//!
//! # Command line
//!
//! [`Server::run`] gives every server binary a command line: `stdio` (the default), `http`,
//! `list`, `call`, `read`, `prompt`, `complete`, `schema` and `help`, with documented exit codes
//! and room for commands of your own; see [`cli`].
//!
//! # Cargo features
//!
//! - `macros` (default): the attribute macros [`tool`](macro@tool), [`resource`](macro@resource)
//!   and [`prompt`](macro@prompt), also in the [`prelude`].
//! - `http` (default): the Streamable HTTP transport ([`http`]), on axum and hyper.
//! - `cli` (default): [`Server::run`], the command line of a server binary. It is the only place
//!   where the library installs a `tracing` subscriber (on stderr, through `tracing-subscriber`),
//!   and only when the application has not set a global one.
//! - `legacy-sse`: the deprecated HTTP+SSE transport of 2024-11-05 (`GET /sse`,
//!   `POST /messages`).
//! - `auth`: the HTTP endpoint as an OAuth 2.1 resource server ([`auth`]): bearer tokens
//!   verified (JWT against the authorization server's JWKS, or RFC 7662 introspection), RFC 9728
//!   metadata, scopes per item. The resource server only: the client's OAuth is `client-oauth`.
//! - `redis`: scale-out on Redis (`scale_redis`, `ServerBuilder::redis`, `MCP_REDIS_URL` on
//!   the command line): handshake-era sessions, the SSE event log, notifications, answers to the
//!   server's questions, cancellations and tasks shared by replicas behind a load balancer.
//! - `client`: the MCP client ([`client`], the crate `mcp-runtime-client` re-exported): stdio (a
//!   spawned process), Streamable HTTP of both eras and in-memory connections
//!   (`Server::connect_client`), typed requests, handlers for the server's questions, typed
//!   calls of tools declared with [`typed_tool`](macro@typed_tool), and composition
//!   (`ServerBuilder::mount`). A client-only program depends on `mcp-runtime-client` instead:
//!   it compiles no server code and no HTTP server stack.
//! - `client-oauth`: the client's OAuth 2.1 (`client::oauth`, `ClientBuilder::oauth`), with
//!   `client`; it needs no server feature.
//! - `otel`: OpenTelemetry by the MCP semantic conventions (`otel`, `ServerBuilder::otel`):
//!   SERVER spans with their parent read from `params._meta`; with `client`, the client's
//!   CLIENT spans (`ClientBuilder::otel`); with `cli`, `Server::run` exports spans and metrics
//!   over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (`cli::Telemetry`).
//! - `openapi`: an HTTP API's OpenAPI 3.0 or 3.1 document served as tools (`openapi`,
//!   `ServerBuilder::openapi`): a tool per operation, each call sent as the operation's HTTP
//!   request with a bounded client, credentials per security scheme from configuration or
//!   `MCP_OPENAPI_<SCHEME>` (the crate `mcp-runtime-openapi` does the mapping).
//! - `testing`: helpers for a server's own tests (`testing`, with `client`; for
//!   `[dev-dependencies]`): the real client connected in-process with typed calls
//!   (`testing::connect`), a snapshot of the lists in both eras (`testing::assert_lists_snapshot`,
//!   written when `MCP_UPDATE_SNAPSHOTS=1`), recorded request/response transcripts replayed
//!   (`testing::assert_transcript`).
//!
//! A stdio-only server needs `default-features = false, features = ["macros"]`: no HTTP stack,
//! no `tracing-subscriber`; it serves with [`Server::serve_stdio`].
//!
//! # Asking the client
//!
//! [`Context::elicit`] (a form built from a Rust type), [`Context::elicit_url`],
//! [`Context::sample`] and [`Context::roots`] work in both eras with one handler body. In the
//! handshake era each is a request to the client, answered on the same connection (on HTTP, as
//! a POST in the same session). In the stateless era the runtime answers `input_required` and
//! drops the handler; when the client retries with `inputResponses`, the handler runs again from
//! the start and each call, in order, gets its answer (keys `elicit-0`, `sample-0`, … unless set
//! with `.key(…)`). Answers of earlier rounds travel in `requestState`, sealed with
//! HMAC-SHA256 and bound to the method, the params and a 10-minute expiry; a tampered state is
//! -32602. Code before the first question may therefore run once per round: keep side effects
//! after the questions. A client that did not declare the capability gets -32021 naming it.
//!
//! # Change notifications
//!
//! [`Server::add_tool`], [`Server::remove_tool`] (and the same for resources and prompts)
//! rebuild the lists once and send `notifications/*/list_changed` to handshake-era sessions and
//! to `subscriptions/listen` streams that asked for them; [`Server::notify_resource_updated`]
//! reaches `resources/subscribe` subscribers and listeners of that URI.
//!
//! # Testing
//!
//! [`Server::connect_in_memory`] gives a [`TestClient`](transport::memory::TestClient) that
//! speaks raw JSON to the server, so tests can assert exact wire contents; with the `client`
//! feature, `Server::connect_client` connects the typed `client::Client` the same way. The
//! `testing` feature adds helpers on top: typed calls (`testing::connect`), a snapshot of the
//! lists and recorded transcripts (see the guide's "Tests").
//!
//! # Several servers in one binary, and linking
//!
//! `#[tool(server = "admin")]` puts an item in a named registry, served by
//! [`Server::from_registry_named`]. Items defined in a library crate are only linked in when the
//! binary uses that crate; if a library's items are missing from the lists, add
//! `use the_library as _;` to the binary.

#![cfg_attr(docsrs, feature(doc_cfg))]

// The generated code names `::mcp_runtime`; this makes it resolve inside the crate too.
#[allow(unused_extern_crates)]
extern crate self as mcp_runtime;

pub mod apps;
pub mod audit;
mod background;
pub mod cache;
#[cfg(feature = "auth")]
mod caller;
pub mod card;
pub mod cli;
pub mod completion;
mod connection;
mod data;
mod dispatch;
mod error;
mod future;
mod handler;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
pub mod limit;
pub mod metrics;
pub mod middleware;
mod notify;
#[cfg(feature = "openapi")]
#[cfg_attr(docsrs, doc(cfg(feature = "openapi")))]
pub mod openapi;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub mod otel;
mod outbound;
pub mod principal;
mod random;
pub mod registry;
mod result;
pub mod scale;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub mod scale_redis;
mod schema;
mod serve;
mod server;
mod settings;
pub mod skills;
mod sync;
pub mod tasks;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
pub mod transform;
pub mod transport;
mod typed;
mod validation;
mod wire;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use completion::CompletionRequest;
pub use error::{
    BoxError, Error, HandlerError, IntoHandlerError, PromptError, ResourceError, ToolError,
};
pub use future::BoxFuture;
pub use handler::ask::{Elicitation, InteractionError};
pub use handler::context::{Cancellation, Context, FromContext, State, StateNeeds, StateValue};
pub use handler::requests::{Elicit, ElicitUrl, Roots, Sample};
#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub use http::auth;
/// The MCP client (feature `client`): the crate `mcp-runtime-client`, re-exported. A
/// [`Server`] in the same process is connected with [`Server::connect_client`], and
/// [`ServerBuilder::mount`] serves another server's items through a client.
#[cfg(feature = "client")]
#[cfg_attr(docsrs, doc(cfg(feature = "client")))]
#[doc(inline)]
pub use mcp_client as client;
pub use mcp_core as protocol;
// The crates a server's own code needs, so that `mcp-runtime` is its only dependency (see
// "One dependency" above).
pub use data::{StructuredValue, ToolArgument};
/// `#[mcp_runtime::data]`, written with its path: a bare `#[data]` would say little where it
/// stands, so it is not in the [`prelude`].
#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use mcp_macros::data;
#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use mcp_macros::skills;
#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use mcp_macros::widget;
#[cfg(feature = "macros")]
#[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
pub use mcp_macros::{main, prompt, resource, test, tool, typed_tool};
pub use notify::ListChanged;
pub use result::{IntoPromptResult, IntoResourceContents, IntoToolResult, Json, Structured};
pub use schema::SchemaProfile;
#[doc(no_inline)]
pub use schemars;
#[doc(no_inline)]
pub use serde;
#[doc(no_inline)]
pub use serde_json;
pub use server::options::ValidationErrors;
pub use server::shutdown::ShutdownHandle;
pub use server::{Server, ServerBuilder};
#[doc(no_inline)]
pub use tokio;
pub use typed::{ToolArguments, ToolOutput};

/// Everything a server needs: `use mcp_runtime::prelude::*;`.
pub mod prelude {
    pub use crate::protocol::{
        ContentBlock, LoggingLevel, PromptMessage, ProtocolVersion, ResourceContents, Role,
    };
    #[cfg(feature = "macros")]
    #[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
    pub use crate::widget;
    pub use crate::{
        CompletionRequest, Context, Elicitation, InteractionError, Json, PromptError,
        ResourceError, Server, State, Structured, ToolError, server_info,
    };
    #[cfg(feature = "macros")]
    #[cfg_attr(docsrs, doc(cfg(feature = "macros")))]
    pub use crate::{prompt, resource, tool, typed_tool};
}

// The README's examples compile as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// And the client's page, when the client is built.
#[cfg(all(doctest, feature = "client"))]
#[doc = include_str!("../../docs/client.md")]
struct ClientDoctests;

// And its authorization page, when the client is built with its OAuth.
#[cfg(all(doctest, feature = "client-oauth"))]
#[doc = include_str!("../../docs/client-auth.md")]
struct ClientAuthDoctests;

// So does every snippet of the guide (outside the package: only this repository tests it);
// its "Tests" section uses the `testing` helpers.
#[cfg(all(doctest, feature = "testing"))]
#[doc = include_str!("../../docs/guide.md")]
struct GuideDoctests;
