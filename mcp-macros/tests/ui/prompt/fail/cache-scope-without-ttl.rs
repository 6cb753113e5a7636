use mcp_runtime::prelude::*;

/// A scope without a TTL.
#[prompt(cache_scope = "private")]
async fn greet() -> String {
    String::new()
}

/// A negative TTL.
#[prompt(cache_ttl_ms = -5)]
async fn wave() -> String {
    String::new()
}

fn main() {}
