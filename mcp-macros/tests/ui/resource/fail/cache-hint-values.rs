use mcp_runtime::prelude::*;

#[resource(uri = "x://report", ttl_ms = -1, cache_scope = "shared")]
async fn report() -> String {
    String::new()
}

#[resource(uri = "x://item/{id}", ttl_ms = 18446744073709551616, cache_scope = "Public")]
async fn item(id: u32) -> String {
    id.to_string()
}

#[resource(uri = "x://other", ttl_ms = "60000")]
async fn other() -> String {
    String::new()
}

fn main() {}
