use mcp_runtime::prelude::*;
use mcp_runtime::protocol::CacheScope;
use mcp_runtime::registry::CacheHint;

#[resource(uri = "x://version", ttl_ms = 60_000, cache_scope = "public")]
async fn version() -> String {
    String::new()
}

#[resource(uri = "x://item/{id}", ttl_ms = 0)]
async fn item(id: u32) -> String {
    id.to_string()
}

#[resource(uri = "x://scoped", cache_scope = "private")]
async fn scoped() -> String {
    String::new()
}

#[resource(uri = "x://plain")]
async fn plain() -> String {
    String::new()
}

/// Read-only, cached for a minute per caller.
#[tool(read_only, cache_ttl_ms = 60000)]
async fn look() -> String {
    String::new()
}

/// Cached for everyone.
#[prompt(cache_ttl_ms = 1000, cache_scope = "public")]
async fn greet() -> String {
    String::new()
}

fn main() {
    assert_eq!(version::RESOURCE.cache, Some(CacheHint::new(60_000, CacheScope::Public)));
    assert_eq!(item::RESOURCE.cache, Some(CacheHint::new(0, CacheScope::Private)));
    assert_eq!(scoped::RESOURCE.cache, Some(CacheHint::new(0, CacheScope::Private)));
    assert_eq!(plain::RESOURCE.cache, None);
    assert_eq!(look::TOOL.cache, Some(CacheHint::new(60_000, CacheScope::Private)));
    assert_eq!(greet::PROMPT.cache, Some(CacheHint::new(1000, CacheScope::Public)));
}
