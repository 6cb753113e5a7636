//! `#[arg(flatten)]` spreads a struct's fields as properties: nothing else can be said about the
//! parameter in `#[arg]`, and a type without fields cannot be spread.

use mcp_runtime::prelude::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Paging {
    page: u32,
}

/// Lists things.
#[tool]
async fn list(
    #[arg(flatten, rename = "paging", default = Paging { page: 1 })] paging: Paging,
    #[arg(flatten)] query: String,
) -> String {
    format!("{} {query}", paging.page)
}

/// One thing.
#[resource(uri = "things://{id}")]
async fn thing(#[arg(flatten)] id: String) -> String {
    id
}

fn main() {}
