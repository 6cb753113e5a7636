use mcp_runtime::prelude::*;

#[prompt(timeout_ms = 0, max_concurrency = 0)]
async fn greet(name: String) -> String {
    name
}

#[prompt(timeout_ms = 18446744073709551616, max_concurrency = "1")]
async fn farewell(name: String) -> String {
    name
}

fn main() {}
