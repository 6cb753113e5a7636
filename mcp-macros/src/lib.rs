//! The `#[tool]`, `#[resource]` and `#[prompt]` attribute macros of `mcp-runtime`.
//!
//! Use them through `mcp_runtime` (`use mcp_runtime::prelude::*;`): the code they generate names
//! `::mcp_runtime` paths only.

mod ctxt;
mod docs;
mod expand;
mod fallback;
mod json;
mod model;
mod parse;
mod ty;
// mcp-core's RFC 6570 parser (std-only), shared so that templates are checked at compile time by
// the very code that matches them at run time. Its doc examples run here too, hence the mcp-core
// dev-dependency.
#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../mcp-core/src/uri_template.rs"]
mod uri_template;
mod validate;

use proc_macro::TokenStream;

use crate::parse::Kind;

/// Turns a function into an MCP tool.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::run(Kind::Tool, attr.into(), item.into()).into()
}

/// Turns a function into an MCP resource or resource template.
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::run(Kind::Resource, attr.into(), item.into()).into()
}

/// Turns a function into an MCP prompt.
#[proc_macro_attribute]
pub fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::run(Kind::Prompt, attr.into(), item.into()).into()
}
