use mcp_runtime::prelude::*;

/// Changes something: its results must never be replayed.
#[tool(cache_ttl_ms = 60000)]
async fn bump() -> String {
    String::new()
}

/// Read-only is said to be false.
#[tool(read_only = false, cache_ttl_ms = 60000)]
async fn write() -> String {
    String::new()
}

/// A scope without a TTL means nothing on a tool.
#[tool(read_only, cache_scope = "public")]
async fn look() -> String {
    String::new()
}

fn main() {}
