use mcp_runtime::prelude::*;

#[tool(name = add, timeout_ms = 0, max_concurrency = 5000000000, icon(mime = "image/png", theme = "blue"))]
async fn add() -> String {
    String::new()
}

fn main() {}
