use mcp_runtime::prelude::*;

#[resource(uri = "x://report", timeout_ms = 0, max_concurrency = 5000000000)]
async fn report() -> String {
    String::new()
}

#[resource(uri = "x://item/{id}", timeout_ms = "5000", max_concurrency = 1.5)]
async fn item(id: u32) -> String {
    id.to_string()
}

fn main() {}
