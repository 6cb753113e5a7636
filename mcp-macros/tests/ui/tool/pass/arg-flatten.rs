//! `#[arg(flatten)]`: the fields of a struct are top-level properties of the tool, next to the
//! other parameters, and arrive in the struct.

use mcp_runtime::prelude::*;

/// Which page of results.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Paging {
    /// The page, from 1
    page: u32,
    /// Items per page
    #[serde(default)]
    per_page: Option<u32>,
}

/// Searches notes.
#[tool]
async fn search(
    /// What to look for
    query: String,
    #[arg(flatten)] paging: Paging,
    #[arg(flatten)] filter: Option<Paging>,
) -> String {
    let _ = filter;
    format!("{query} {} {:?}", paging.page, paging.per_page)
}

fn main() {
    let _ = search::TOOL;
}
