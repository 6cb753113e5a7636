use mcp_runtime::prelude::*;

/// Searches.
#[tool(rename_all = "camelcase")]
async fn search(max_items: u32) -> String {
    max_items.to_string()
}

fn main() {}
