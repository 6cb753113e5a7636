use mcp_runtime::prelude::*;

/// An empty tag.
#[tool(tags = [" "])]
async fn empty_tag() -> String {
    String::new()
}

/// A tag given twice.
#[tool(tags = ["admin", "beta", "admin"])]
async fn twice() -> String {
    String::new()
}

/// Not a list.
#[prompt(tags = "admin")]
async fn not_a_list() -> String {
    String::new()
}

/// On resources too.
#[resource(uri = "notes://all", tags = [""])]
async fn all_notes() -> String {
    String::new()
}

fn main() {}
