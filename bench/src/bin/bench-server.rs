//! The framework's side of the benchmark: the same `add` tool, written the framework's way.

use mcp_runtime::prelude::*;

/// Adds two integers.
#[tool]
async fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::from_registry(server_info!()).serve_stdio().await
}
