//! Protocol types of the Model Context Protocol, for every released revision.
//!
//! `mcp-runtime-core` is the vocabulary the rest of the `mcp-runtime` workspace speaks: the
//! JSON-RPC envelope, the request, result and notification types of each spec area, and the
//! rules that say which revision defines which field. It does no I/O and depends only on serde.
//! `mcp-runtime` re-exports it as `mcp_runtime::protocol`; inside the workspace it is imported
//! as `mcp_core`.
//!
//! # One set of types, five revisions
//!
//! MCP has changed shape several times: the handshake era (2024-11-05 to 2025-11-25) opens a
//! session with `initialize`; the stateless era (2026-07-28) sends the version and the client
//! capabilities in each request's `_meta` and adds `resultType` and cache hints to results.
//! Rather than one type per revision, every type here carries the union of the fields of all
//! revisions, named as in the newest one. Before a value is sent, [`ForVersion::for_version`]
//! removes (or rewrites) whatever the negotiated revision does not define:
//!
//! ```
//! use mcp_runtime_core::{ContentBlock, ForVersion, ProtocolVersion, Tool};
//!
//! let mut tool = Tool::new("add", serde_json::json!({"type": "object"}))
//!     .with_title("Add two numbers")
//!     .with_output_schema(serde_json::json!({"type": "object"}));
//! tool.for_version(ProtocolVersion::V2025_03_26);
//! assert_eq!(tool.title, None); // titles exist from 2025-06-18 on
//! assert_eq!(tool.output_schema, None);
//!
//! let mut block = ContentBlock::resource_link("file:///a.txt", "a.txt");
//! block.for_version(ProtocolVersion::V2024_11_05);
//! assert!(matches!(block, ContentBlock::Text(_))); // no resource links before 2025-06-18
//! ```
//!
//! # The envelope
//!
//! [`jsonrpc::parse_message`] reads one line of input in a single borrowed serde pass and
//! tells requests, notifications and responses apart; `params` stay raw until the
//! dispatcher knows their type. The `write_*` functions of [`jsonrpc`] build an outgoing
//! line in one buffer.
//!
//! # Modules
//!
//! One module per area of the specification: [`jsonrpc`], [`version`], [`lifecycle`]
//! (`initialize`, capabilities), [`discover`] (`server/discover`, result types, cache hints),
//! [`tools`], [`resources`], [`prompts`], [`content`], [`completion`], [`logging`],
//! [`progress`] (progress and cancellation), [`pagination`], [`subscriptions`]
//! (`subscriptions/listen`), [`tasks`] (both revisions' tasks), [`client`] (requests answered by the client: sampling,
//! elicitation, roots, and the multi round-trip `input_required` result), [`icons`],
//! [`meta`] (reserved `_meta` keys), [`server_card`] (Server Cards and the AI Catalog, SEP-2127), [`typed`] (typed calls: `ToolArguments`, `ToolOutput`), [`method`] (the method table: every method name, both directions, targets, era rules, routing headers) and [`uri_template`] (RFC 6570).
//!
//! All structs tolerate unknown fields when deserialised, and types that may grow are
//! `#[non_exhaustive]` with `new` constructors and `with_*` builders.

/// Generates `with_*` builder methods that set an `Option` field.
macro_rules! with_options {
    ($($method:ident => $field:ident: $ty:ty),* $(,)?) => {
        $(
            #[doc = concat!("Sets `", stringify!($field), "`.")]
            #[must_use]
            pub fn $method(mut self, value: impl Into<$ty>) -> Self {
                self.$field = Some(value.into());
                self
            }
        )*
    };
}

pub mod apps;
pub mod client;
pub mod completion;
pub mod content;
pub mod discover;
pub mod icons;
pub mod jsonrpc;
pub mod lifecycle;
pub mod logging;
pub mod meta;
pub mod method;
#[cfg(feature = "output-schema")]
#[cfg_attr(docsrs, doc(cfg(feature = "output-schema")))]
pub mod output;
pub mod pagination;
pub mod progress;
pub mod prompts;
pub mod resources;
pub mod server_card;
pub mod skills;
pub mod subscriptions;
pub mod tasks;
pub mod tools;
pub mod typed;
pub mod uri_template;
pub mod version;

pub use client::{
    CreateMessageRequestParams, CreateMessageResult, ElicitAction, ElicitRequestParams,
    ElicitResult, InputRequest, InputRequiredResult, ListRootsResult, Root, SamplingMessage,
};
pub use completion::{CompleteRequestParams, CompleteResult, Completion, CompletionReference};
pub use content::{
    Annotations, AudioContent, BlobResourceContents, ContentBlock, EmbeddedResource, ImageContent,
    ResourceContents, ResourceLink, Role, TextContent, TextResourceContents,
};
pub use discover::{CacheScope, DiscoverResult, EmptyResult, InputResponses, ResultType};
pub use icons::Icon;
pub use jsonrpc::{EnvelopeError, ErrorObject, Message, RequestId};
pub use lifecycle::{
    ClientCapabilities, Implementation, InitializeRequestParams, InitializeResult, RequestMeta,
    ServerCapabilities,
};
pub use logging::{LoggingLevel, LoggingMessageNotificationParams, SetLevelRequestParams};
pub use meta::Meta;
pub use method::Method;
pub use pagination::PaginatedRequestParams;
pub use progress::{CancelledNotificationParams, ProgressNotificationParams, ProgressToken};
pub use prompts::{
    GetPromptRequestParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument,
    PromptMessage,
};
pub use resources::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceRequestParams,
    ReadResourceResult, Resource, ResourceTemplate, ResourceUpdatedNotificationParams,
    SubscribeRequestParams,
};
pub use subscriptions::{SubscriptionFilter, SubscriptionsListenRequestParams};
pub use tools::{CallToolRequestParams, CallToolResult, ListToolsResult, Tool, ToolAnnotations};
pub use uri_template::{UriTemplate, UriTemplateError};
pub use version::{Era, ForVersion, ProtocolVersion};

// The README's examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
